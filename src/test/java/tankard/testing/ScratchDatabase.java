package tankard.testing;

import io.vertx.core.Vertx;
import tankard.config.TankardConfig;
import tankard.store.pg.PgDatabase;

import java.util.ArrayList;
import java.util.List;

/**
 * A scratch database opened as Tankard opens one (migrated, pooled), for the tests of the PostgreSQL stores: a new
 * store over {@link #db} is what a restart would make, one over {@link #node} another node's. Close it after each test.
 */
public final class ScratchDatabase implements AutoCloseable {
    public final Vertx vertx = Vertx.vertx();
    public final PgScratch scratch = PgScratch.create();
    public final PgDatabase db = PgDatabase.open(vertx, scratch.settings());
    private final List<PgDatabase> nodes = new ArrayList<>();

    /** A pool of its own on these settings (this database, or a relay to it), closed with this one. */
    public PgDatabase node(TankardConfig.Postgres settings) {
        PgDatabase node = PgDatabase.open(vertx, settings);
        nodes.add(node);
        return node;
    }

    @Override
    public void close() {
        nodes.forEach(PgDatabase::close);
        db.close();
        vertx.close().await();
        scratch.close();
    }
}
