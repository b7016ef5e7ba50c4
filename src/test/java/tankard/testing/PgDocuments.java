package tankard.testing;

import tankard.store.DocumentStore;
import tankard.store.pg.PgDocumentStore;

/** A document store on a scratch database of its own, for tests of services on PostgreSQL; close after each test. */
public final class PgDocuments implements AutoCloseable {
    private final ScratchDatabase database = new ScratchDatabase();
    public final DocumentStore store = new PgDocumentStore(database.db);

    @Override
    public void close() {
        database.close();
    }
}
