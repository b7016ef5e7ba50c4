package tankard.store.pg;

import org.junit.jupiter.api.AfterEach;
import tankard.store.TicketStore;
import tankard.store.TicketStoreContract;
import tankard.testing.ScratchDatabase;

class PgTicketStoreTest extends TicketStoreContract {
    private final ScratchDatabase database = new ScratchDatabase();

    @AfterEach
    void cleanUp() {
        database.close();
    }

    @Override
    protected TicketStore store() {
        return new PgTicketStore(database.db, now::get);
    }
}
