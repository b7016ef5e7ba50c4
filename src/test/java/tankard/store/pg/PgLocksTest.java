package tankard.store.pg;

import io.vertx.core.Vertx;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.store.Locks;
import tankard.testing.PgScratch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Advisory locks as two nodes of one database hold them (PgLocks). */
class PgLocksTest {
    private final Vertx vertx = Vertx.vertx();
    private final PgScratch scratch = PgScratch.create();
    private final PgDatabase nodeA = PgDatabase.open(vertx, scratch.settings());
    private final PgDatabase nodeB = PgDatabase.open(vertx, scratch.settings());
    private final ExecutorService threads = Executors.newFixedThreadPool(8);

    @AfterEach
    void cleanUp() {
        threads.shutdownNow();
        nodeA.close();
        nodeB.close();
        vertx.close().await();
        scratch.close();
    }

    @Test
    void readCheckWritesUnderOneKeyOnTwoNodesNeverInterleave() throws Exception {
        scratch.execute("CREATE TABLE counter (n int NOT NULL); INSERT INTO counter VALUES (0)");
        List<Future<?>> writers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            PgDatabase node = i % 2 == 0 ? nodeA : nodeB;
            Locks locks = new PgLocks(node);
            writers.add(threads.submit(() -> {
                for (int round = 0; round < 25; round++) {
                    try (Locks.Held held = locks.lockAll("counter")) {
                        int n = node.call(c -> c.preparedQuery("SELECT n FROM counter").execute()
                                .map(rows -> rows.iterator().next().getInteger(0)));
                        node.call(c -> c.preparedQuery("UPDATE counter SET n = $1").execute(Tuple.of(n + 1)));
                    }
                }
                return null;
            }));
        }
        for (Future<?> writer : writers) {
            writer.get(120, TimeUnit.SECONDS);
        }
        int counted = nodeA.call(c -> c.preparedQuery("SELECT n FROM counter").execute()
                .map(rows -> rows.iterator().next().getInteger(0)));
        assertEquals(200, counted, "every increment under the lock is kept");
    }

    @Test
    void keysTakenInAnyOrderOnTwoNodesNeverDeadlock() throws Exception {
        List<Future<?>> takers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Locks locks = new PgLocks(i % 2 == 0 ? nodeA : nodeB);
            String[] keys = i % 2 == 0 ? new String[]{"x", "y", "z"} : new String[]{"z", "y", "x"};
            takers.add(threads.submit(() -> {
                for (int round = 0; round < 25; round++) {
                    locks.lockAll(keys).close();
                }
                return null;
            }));
        }
        for (Future<?> taker : takers) {
            taker.get(120, TimeUnit.SECONDS);
        }
    }

    @Test
    void theLocksOfANodeWhoseConnectionsAreCutAreFreeForTheOther() throws Exception {
        Locks.Held held = new PgLocks(nodeA).lockAll("chat");
        scratch.terminateConnections();
        Future<?> other = threads.submit(() -> new PgLocks(nodeB).lockAll("chat").close());
        other.get(60, TimeUnit.SECONDS);
        held.close(); // the connection is gone: nothing to release, and no failure
    }
}
