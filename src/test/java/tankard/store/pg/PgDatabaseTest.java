package tankard.store.pg;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.config.ConfigException;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import io.vertx.sqlclient.Tuple;
import tankard.testing.PgScratch;
import tankard.testing.TcpRelay;

import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PgDatabaseTest {
    private final Vertx vertx = Vertx.vertx();
    private final PgScratch scratch = PgScratch.create();

    @AfterEach
    void cleanUp() {
        vertx.close().await();
        scratch.close();
    }

    @Test
    void openingMigratesAnEmptyDatabaseOnceAndAgainChangesNothing() throws Exception {
        try (PgDatabase db = PgDatabase.open(vertx, scratch.settings())) {
            assertEquals(0, number(db, "SELECT count(*) FROM accounts"));
        }
        try (PgDatabase again = PgDatabase.open(vertx, scratch.settings())) {
            assertEquals(1, number(again, "SELECT 1"));
        }
        try (Connection c = scratch.connect(); Statement s = c.createStatement();
             ResultSet applied = s.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE success")) {
            applied.next();
            assertEquals(migrationsInCode(), applied.getInt(1));
        }
    }

    @Test
    void nodesOpeningAnEmptyDatabaseTogetherBothStartAndMigrateItOnce() throws Exception {
        ExecutorService nodes = Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.CountDownLatch ready = new java.util.concurrent.CountDownLatch(2);
            List<Future<PgDatabase>> opened = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                opened.add(nodes.submit(() -> {
                    ready.countDown();
                    ready.await();
                    return PgDatabase.open(vertx, scratch.settings());
                }));
            }
            for (Future<PgDatabase> node : opened) {
                try (PgDatabase db = node.get(60, java.util.concurrent.TimeUnit.SECONDS)) {
                    assertEquals(0, number(db, "SELECT count(*) FROM accounts"));
                }
            }
        } finally {
            nodes.shutdownNow();
        }
        try (Connection c = scratch.connect(); Statement s = c.createStatement();
             ResultSet applied = s.executeQuery("SELECT count(*), count(DISTINCT version) FROM flyway_schema_history"
                     + " WHERE success AND version IS NOT NULL")) {
            applied.next();
            assertEquals(migrationsInCode(), applied.getInt(1), "each migration applied once");
            assertEquals(migrationsInCode(), applied.getInt(2));
        }
    }

    @Test
    void aSchemaNewerThanTheCodeRefusesStartUpSayingSo() {
        PgDatabase.open(vertx, scratch.settings()).close();
        scratch.execute("INSERT INTO flyway_schema_history (installed_rank, version, description, type, script,"
                + " checksum, installed_by, execution_time, success) VALUES (999, '999', 'from the future', 'SQL',"
                + " 'V999__from_the_future.sql', 0, 'test', 0, true)");
        ConfigException e = assertThrows(ConfigException.class, () -> PgDatabase.open(vertx, scratch.settings()));
        assertTrue(e.getMessage().startsWith("tankard.postgres: ") && e.getMessage().contains("schema version 999")
                && e.getMessage().contains("newer than this Tankard"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void anUnreachableOrMissingDatabaseStopsStartUpWithOneLineNamingTheSetting() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        TankardConfig.Postgres s = scratch.settings();
        ConfigException unreachable = assertThrows(ConfigException.class, () -> PgDatabase.open(vertx,
                new TankardConfig.Postgres(s.host(), closedPort, s.database(), s.user(), s.password(), 2, "disable", null)));
        assertTrue(unreachable.getMessage().startsWith("tankard.postgres: cannot use the database " + s.user() + "@"
                + s.host() + ":" + closedPort), unreachable.getMessage());
        assertFalse(unreachable.getMessage().contains("\n"), unreachable.getMessage());

        ConfigException missing = assertThrows(ConfigException.class, () -> PgDatabase.open(vertx,
                new TankardConfig.Postgres(s.host(), s.port(), s.database() + "_none", s.user(), s.password(), 2,
                        "disable", null)));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        assertFalse(missing.getMessage().contains("\n"), missing.getMessage());
    }

    @Test
    void whileTheDatabaseCannotBeReachedCallsAreUnavailableAndOnceItIsBackTheyAreServedWithoutARestart() {
        try (TcpRelay relay = new TcpRelay(vertx, PgScratch.HOST, PgScratch.PORT);
             PgDatabase db = PgDatabase.open(vertx, through(relay))) {
            assertEquals(1, number(db, "SELECT 1"));
            relay.down();
            Refusal refusal = assertThrows(Refusal.class, () -> number(db, "SELECT 1"));
            assertEquals(Refusal.Kind.UNAVAILABLE, refusal.kind());
            assertEquals("The database is not answering; try again in a moment", refusal.getMessage());
            relay.up();
            assertEquals(1, number(db, "SELECT 1"));
        }
    }

    @Test
    void connectionsCutDuringAQuietSpellAreReplacedBeforeTheNextCallUsesThem() throws Exception {
        try (TcpRelay relay = new TcpRelay(vertx, PgScratch.HOST, PgScratch.PORT);
             PgDatabase db = PgDatabase.open(vertx, through(relay))) {
            assertEquals(1, number(db, "SELECT 1"));
            Thread.sleep(2_500); // past the time a connection is trusted without a check
            relay.cut();
            assertEquals(1, number(db, "SELECT 1"));
            Thread.sleep(2_500);
            scratch.terminateConnections();
            assertEquals(1, number(db, "SELECT 1"));
        }
    }

    @Test
    void cuttingConnectionsDuringEightWritersLosesNoAcknowledgedWriteAndNeedsNoRestart() throws Exception {
        try (TcpRelay relay = new TcpRelay(vertx, PgScratch.HOST, PgScratch.PORT);
             PgDatabase db = PgDatabase.open(vertx, through(relay))) {
            Set<String> acknowledged = ConcurrentHashMap.newKeySet();
            AtomicInteger refused = new AtomicInteger();
            ExecutorService writers = Executors.newFixedThreadPool(8);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    for (int i = 0; i < 150; i++) {
                        String handle = "w" + writer + "-" + i;
                        long created = i;
                        try {
                            db.transaction(c -> c.preparedQuery("INSERT INTO accounts (handle, created, record)"
                                            + " VALUES ($1, $2, $3)").execute(Tuple.of(handle, created, "{}"))
                                    .compose(v -> c.preparedQuery("UPDATE accounts SET record = $2 WHERE handle = $1")
                                            .execute(Tuple.of(handle, "{\"done\":true}"))));
                            acknowledged.add(handle);
                        } catch (Refusal r) {
                            assertEquals(Refusal.Kind.UNAVAILABLE, r.kind());
                            refused.incrementAndGet();
                        }
                    }
                }));
            }
            for (int cut = 0; cut < 6; cut++) {
                Thread.sleep(150);
                if (cut % 2 == 0) {
                    relay.cut();
                } else {
                    scratch.terminateConnections();
                }
            }
            for (Future<?> writer : done) {
                writer.get();
            }
            writers.shutdown();

            Set<String> stored = new HashSet<>();
            try (Connection c = scratch.connect(); Statement s = c.createStatement();
                 ResultSet rows = s.executeQuery("SELECT handle, record FROM accounts")) {
                while (rows.next()) {
                    assertEquals("{\"done\":true}", rows.getString(2), "a half-written transaction: " + rows.getString(1));
                    stored.add(rows.getString(1));
                }
            }
            assertTrue(stored.containsAll(acknowledged), "acknowledged but lost: "
                    + acknowledged.stream().filter(h -> !stored.contains(h)).toList());
            assertTrue(refused.get() > 0, "no write met a cut: the test cut nothing");
            assertEquals(1, number(db, "SELECT 1"));
        }
    }

    @Test
    void aSessionStepAfterItsConnectionWasCutIsUnavailableAndTheDatabaseGoesOn() throws Exception {
        try (TcpRelay relay = new TcpRelay(vertx, PgScratch.HOST, PgScratch.PORT);
             PgDatabase db = PgDatabase.open(vertx, through(relay))) {
            try (PgDatabase.Session s = db.session()) {
                int one = s.call(c -> c.query("SELECT 1").execute().map(rows -> rows.iterator().next().getInteger(0)));
                assertEquals(1, one);
                relay.cut();
                Thread.sleep(200); // the client has seen the connection close: the next step is never sent
                Refusal refusal = assertThrows(Refusal.class, () -> s.call(c -> c.query("SELECT 1").execute()));
                assertEquals(Refusal.Kind.UNAVAILABLE, refusal.kind());
            }
            assertEquals(1, number(db, "SELECT 1"));
        }
    }

    private TankardConfig.Postgres through(TcpRelay relay) {
        TankardConfig.Postgres s = scratch.settings();
        return new TankardConfig.Postgres("127.0.0.1", relay.port(), s.database(), s.user(), s.password(), 8,
                "disable", null);
    }

    @Test
    void anErrorOfTheWorkItselfPassesThroughAndATransactionThatFailsWritesNothing() {
        try (PgDatabase db = PgDatabase.open(vertx, scratch.settings())) {
            assertThrows(Refusal.class, () -> db.transaction(c -> c.query(
                    "INSERT INTO accounts (handle, created, record) VALUES ('a', 1, '{}')").execute()
                    .compose(rows -> {
                        throw Refusal.conflict("no");
                    })));
            assertEquals(0, number(db, "SELECT count(*) FROM accounts"));
            RuntimeException sqlError = assertThrows(RuntimeException.class,
                    () -> db.call(c -> c.preparedQuery("SELECT * FROM no_such_table").execute()));
            assertFalse(sqlError instanceof Refusal, sqlError.toString());
        }
    }

    @Test
    void aWorkThatThrowsBeforeItsStatementGivesItsConnectionBack() {
        try (PgDatabase db = PgDatabase.open(vertx, scratch.settings())) {
            for (int i = 0; i < 3 * scratch.settings().poolSize(); i++) {
                IllegalArgumentException refused = new IllegalArgumentException("a bad name");
                assertEquals(refused, assertThrows(IllegalArgumentException.class, () -> db.call(c -> {
                    throw refused;
                })));
                assertThrows(IllegalArgumentException.class, () -> db.transaction(c -> {
                    throw refused;
                }));
            }
            // with a connection kept by each of those, the pool would be empty: this would wait, then be a 503
            assertEquals(1, number(db, "SELECT 1"));
        }
    }

    @Test
    void aSessionCommitsWhatItsCallsDidAndAClosedOneLeavesNothingEvenWhenItsConnectionWasCut() throws Exception {
        try (PgDatabase db = PgDatabase.open(vertx, scratch.settings())) {
            try (PgDatabase.Session session = db.session()) {
                session.call(c -> c.preparedQuery("INSERT INTO accounts (handle, created, record) VALUES ('a', 1, '{}')").execute());
                session.call(c -> c.preparedQuery("INSERT INTO accounts (handle, created, record) VALUES ('b', 2, '{}')").execute());
                assertEquals(0, number(db, "SELECT count(*) FROM accounts"), "not before the commit");
                session.commit();
            }
            try (PgDatabase.Session session = db.session()) {
                session.call(c -> c.preparedQuery("DELETE FROM accounts").execute());
            }
            assertEquals(2, number(db, "SELECT count(*) FROM accounts"));
            try (PgDatabase.Session session = db.session()) {
                session.call(c -> c.preparedQuery("DELETE FROM accounts").execute());
                scratch.terminateConnections();
                Refusal cut = assertThrows(Refusal.class, () -> session.call(c -> c.preparedQuery("SELECT 1").execute()));
                assertEquals(Refusal.Kind.UNAVAILABLE, cut.kind());
            }
            Thread.sleep(2_500); // past the time the pool's other (cut) connections are trusted without a check
            assertEquals(2, number(db, "SELECT count(*) FROM accounts"));
        }
    }

    private static long number(PgDatabase db, String sql) {
        return db.call(c -> c.preparedQuery(sql).execute().map(rows -> rows.iterator().next().getLong(0)));
    }

    private static int migrationsInCode() throws Exception {
        try (var files = java.nio.file.Files.list(java.nio.file.Path.of(
                PgDatabase.class.getResource("/db/migration").toURI()))) {
            return (int) files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).count();
        }
    }
}
