package tankard.testing;

import io.vertx.core.Vertx;
import tankard.store.DocumentStore;
import tankard.store.pg.PgDatabase;
import tankard.store.pg.PgDocumentStore;

/** A document store on a scratch database of its own, for tests of services on PostgreSQL; close after each test. */
public final class PgDocuments implements AutoCloseable {
    private final Vertx vertx = Vertx.vertx();
    private final PgScratch scratch = PgScratch.create();
    private final PgDatabase db = PgDatabase.open(vertx, scratch.settings());
    public final DocumentStore store = new PgDocumentStore(db);

    @Override
    public void close() {
        db.close();
        vertx.close().await();
        scratch.close();
    }
}
