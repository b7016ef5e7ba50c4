package tankard.store.pg;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.testing.PgScratch;
import tankard.testing.TcpRelay;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two nodes on one database, each a {@link PgDatabase} with its {@link CacheVersions}: one node's write makes the
 * other's cache of it reload, by the notification, by the poll when the notification was lost, and after the
 * listening connection was cut and came back.
 */
class CacheVersionsTest {
    /** A poll interval no test waits for: only a notification or a reconnect can make the change known. */
    private static final int NO_POLL = 3600;
    private static final CacheVersions.Topic TOPIC = new CacheVersions.Topic("alice", "things");

    private final Vertx vertx = Vertx.vertx();
    private final PgScratch scratch = PgScratch.create();

    @AfterEach
    void cleanUp() {
        vertx.close().await();
        scratch.close();
    }

    private PgDatabase node(int port, int checkSeconds) {
        TankardConfig.Postgres s = scratch.settings();
        return PgDatabase.open(vertx, new TankardConfig.Postgres(s.host(), port, s.database(), s.user(), s.password(),
                4, "disable", null, checkSeconds));
    }

    /** A cache on the node of the topic's version itself: the versions it loaded. */
    private static final class Loads {
        final List<Long> versions = new CopyOnWriteArrayList<>();

        Loads(CacheVersions of, CacheVersions.Topic topic) {
            of.cache(topic, () -> versions.add(of.read(topic))).reload();
        }

        long last() {
            return versions.get(versions.size() - 1);
        }
    }

    private static long bump(PgDatabase db, CacheVersions.Topic topic) {
        return db.transaction(c -> CacheVersions.bump(c, topic));
    }

    private static boolean answers(PgDatabase db) {
        try {
            db.versions().read(TOPIC);
            return true;
        } catch (Refusal cutConnection) {
            return false;
        }
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < until, what);
            Thread.sleep(20);
        }
    }

    @Test
    void aWriteOnOneNodeIsReloadedOnTheOtherAtItsNotification() throws InterruptedException {
        try (PgDatabase a = node(PgScratch.PORT, NO_POLL); PgDatabase b = node(PgScratch.PORT, NO_POLL)) {
            Loads cached = new Loads(b.versions(), TOPIC);
            assertEquals(0, cached.last(), "never written");
            long written = bump(a, TOPIC);
            assertEquals(1, written);
            await(() -> cached.last() == written, "B loads version 1: " + cached.versions);
            assertEquals(2, bump(a, TOPIC));
            await(() -> cached.last() == 2, "and version 2: " + cached.versions);
        }
    }

    @Test
    void aVersionMovedOnWithoutANotificationIsFoundByThePoll() throws InterruptedException {
        try (PgDatabase b = node(PgScratch.PORT, 1)) {
            Loads cached = new Loads(b.versions(), TOPIC);
            // what a lost notification leaves: the version moved on, and no one told
            scratch.execute("INSERT INTO cache_versions (handle, kind, version) VALUES ('alice', 'things', 7)");
            await(() -> cached.last() == 7, "the poll finds version 7: " + cached.versions);
        }
    }

    @Test
    void aWriteTheListenerMissedWhileCutOffIsFoundWhenItListensAgainAndTheNextIsNotified() throws Exception {
        try (TcpRelay relay = new TcpRelay(vertx, PgScratch.HOST, PgScratch.PORT);
             PgDatabase a = node(PgScratch.PORT, NO_POLL); PgDatabase b = node(relay.port(), NO_POLL)) {
            Loads cached = new Loads(b.versions(), TOPIC);
            relay.down(); // B's listening connection is cut and cannot come back yet
            long missed = bump(a, TOPIC);
            relay.up();
            await(() -> cached.last() == missed, "B reconnects and checks what it holds: " + cached.versions);
            long notified = bump(a, TOPIC);
            await(() -> cached.last() == notified, "B listens again: " + cached.versions);
        }
    }

    @Test
    void aNodeCutOffWhileItStartsListeningListensOnceTheDatabaseIsBack() throws Exception {
        // the cut lands at different moments of the first connect and LISTEN: each must end listening
        for (int delayMs : new int[] {0, 5, 20, 50, 100}) {
            try (TcpRelay relay = new TcpRelay(vertx, PgScratch.HOST, PgScratch.PORT);
                 PgDatabase a = node(PgScratch.PORT, NO_POLL); PgDatabase b = node(relay.port(), NO_POLL)) {
                Thread.sleep(delayMs);
                relay.down();
                relay.up();
                await(() -> answers(b), "B's pool answers again");
                Loads cached = new Loads(b.versions(), TOPIC);
                long notified = bump(a, TOPIC);
                await(() -> cached.last() == notified, "cut after " + delayMs + " ms, B listens: " + cached.versions);
            }
        }
    }

    @Test
    void aReloadThatFailsIsTriedAgainAtTheNextCheck() throws InterruptedException {
        try (PgDatabase a = node(PgScratch.PORT, NO_POLL); PgDatabase b = node(PgScratch.PORT, 1)) {
            AtomicBoolean failed = new AtomicBoolean();
            List<Long> loaded = new CopyOnWriteArrayList<>();
            b.versions().cache(TOPIC, () -> {
                long version = b.versions().read(TOPIC);
                if (version == 1 && failed.compareAndSet(false, true)) {
                    throw new IllegalStateException("the database went away meanwhile");
                }
                loaded.add(version);
            }).reload();
            bump(a, TOPIC);
            await(() -> loaded.contains(1L), "loaded after a failed try: " + loaded);
            assertTrue(failed.get());
        }
    }

    @Test
    void aRolledBackWriteLeavesTheVersionAsItWas() {
        try (PgDatabase a = node(PgScratch.PORT, NO_POLL)) {
            bump(a, TOPIC);
            assertThrows(IllegalStateException.class, () -> a.transaction(c -> CacheVersions.bump(c, TOPIC)
                    .compose(v -> {
                        throw new IllegalStateException("the write fails after the bump");
                    })));
            assertEquals(1, a.versions().read(TOPIC));
            assertEquals(0, a.versions().read(new CacheVersions.Topic("bob", "things")), "another user's is its own");
        }
    }
}
