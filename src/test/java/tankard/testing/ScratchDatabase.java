package tankard.testing;

import io.vertx.core.Vertx;
import tankard.store.pg.PgDatabase;

/**
 * A scratch database opened as Tankard opens one (migrated, pooled), for the tests of the PostgreSQL stores: a new
 * store over {@link #db} is what a restart would make. Close it after each test.
 */
public final class ScratchDatabase implements AutoCloseable {
    private final Vertx vertx = Vertx.vertx();
    public final PgScratch scratch = PgScratch.create();
    public final PgDatabase db = PgDatabase.open(vertx, scratch.settings());

    @Override
    public void close() {
        db.close();
        vertx.close().await();
        scratch.close();
    }
}
