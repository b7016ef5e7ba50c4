package tankard.vector.store;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.testing.PgScratch;
import tankard.testing.ScratchDatabase;
import tankard.testing.TcpRelay;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PgVectorStoreTest extends VectorStoreContract {
    private final ScratchDatabase pg = new ScratchDatabase();
    private final PgScratch scratch = pg.scratch;
    private final List<PgVectorStore> opened = new ArrayList<>();

    @TempDir
    Path scratchFiles;

    /** A new store on the one database (migrating each time is slow); a node of its own is {@link #node}. */
    @Override
    VectorStore open(long budgetBytes) {
        PgVectorStore store = new PgVectorStore(pg.db, budgetBytes, scratchFiles.resolve("scratch"));
        opened.add(store);
        return store;
    }

    /** Another node on the same database: a pool and a store of its own. */
    private PgVectorStore node(TankardConfig.Postgres settings) {
        PgVectorStore store = new PgVectorStore(pg.node(settings), 1L << 30, scratchFiles.resolve("scratch-" + opened.size()));
        opened.add(store);
        return store;
    }

    @AfterEach
    void cleanUp() {
        for (PgVectorStore store : opened) {
            store.close();
        }
        pg.close();
    }

    @Test
    void whatAnotherNodeChangesIsSeenByTheNextQuery() {
        VectorStore first = open();
        first.insert(USER, KEY, List.of(item(1), item(2)));
        assertEquals(List.of(1L, 2L), hashes(first, KEY));
        assertEquals(1L, first.query(USER, KEY, new float[]{1, 1, 2}, 1).get(0).item().hash().asLong());

        VectorStore second = node(scratch.settings());
        assertEquals(List.of(1L, 2L), hashes(second, KEY));
        second.insert(USER, KEY, List.of(item(30)));
        assertEquals(30L, first.query(USER, KEY, new float[]{30, 1, 2}, 1).get(0).item().hash().asLong(),
                "the first node's copy took the item added on the second");
        assertEquals(List.of(1L, 2L, 30L), hashes(first, KEY));

        second.delete(USER, KEY, Set.of(30.0, 1.0));
        assertEquals(List.of(2L), hashes(first, KEY));
        first.insert(USER, KEY, List.of(item(4)));
        assertEquals(List.of(2L, 4L), hashes(second, KEY));

        second.purge(USER, List.of("webllm"), "chat");
        assertEquals(List.of(), first.query(USER, KEY, new float[]{1, 1, 2}, 3));
        second.insert(USER, KEY, List.of(item(5)));
        assertEquals(List.of(5L), hashes(first, KEY), "a collection made anew is loaded anew");
    }

    @Test
    void aConnectionCutDuringAnInsertLeavesTheCollectionAsItWas() throws Exception {
        try (TcpRelay relay = new TcpRelay(pg.vertx, PgScratch.HOST, PgScratch.PORT)) {
            TankardConfig.Postgres s = scratch.settings();
            VectorStore cut = node(new TankardConfig.Postgres("127.0.0.1", relay.port(), s.database(), s.user(),
                    s.password(), 8, "disable", null));
            cut.insert(USER, KEY, List.of(item(1), item(2)));
            assertEquals(List.of(1L, 2L), hashes(cut, KEY));
            long version = version();
            CompletableFuture<Refusal> insert;
            try (Connection lock = scratch.connect(); Statement statement = lock.createStatement()) {
                lock.setAutoCommit(false);
                statement.execute("LOCK TABLE vector_items IN EXCLUSIVE MODE"); // the insert waits at its items
                insert = CompletableFuture.supplyAsync(() -> assertThrows(Refusal.class,
                        () -> cut.insert(USER, KEY, List.of(item(3), item(4)))));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!insertWaitsOnALock() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertTrue(insertWaitsOnALock(), "the insert never reached its items");
                relay.cut();
                assertEquals(Refusal.Kind.UNAVAILABLE, insert.get(30, TimeUnit.SECONDS).kind());
                lock.rollback();
            }
            VectorStore direct = open();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                    + " AND wait_event_type = 'Lock'") > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20); // the cut session's backend ends once it finds its client gone
            }
            assertEquals(List.of(1L, 2L), hashes(direct, KEY));
            assertEquals(version, version(), "the version did not move");
            assertEquals(2, count("SELECT count(*) FROM vector_items"));
            assertEquals(List.of(1L, 2L), hashes(cut, KEY), "the cut node's copy has no item the database has not");
            cut.insert(USER, KEY, List.of(item(5)));
            assertEquals(List.of(1L, 2L, 5L), hashes(direct, KEY));
            assertEquals(List.of(1L, 2L, 5L), hashes(cut, KEY));
        }
    }

    /**
     * Asked on a connection of its own each time: within one transaction pg_stat_activity is a snapshot taken at its
     * first read, so the locking transaction would never see the insert start waiting.
     */
    private boolean insertWaitsOnALock() throws Exception {
        return count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO vector_items%'") > 0;
    }

    private long version() throws Exception {
        return count("SELECT version FROM vector_collections");
    }

    private long count(String sql) throws Exception {
        try (Connection c = scratch.connect(); Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void theRowsHoldEachItemAsTheFileHeldItAndItsVectorAsFloats() throws Exception {
        VectorStore store = open();
        restore(store, KEY, utf8(ST_INDEX), 1_700_000_000_000.25);
        String items = ST_INDEX.substring(ST_INDEX.indexOf('[') + 1, ST_INDEX.length() - 2);
        String firstItem = items.substring(0, items.indexOf("},{\"id\":\"a1f2") + 1);
        try (Connection c = scratch.connect(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT c.head, c.tail, c.modified_ms, c.version, i.seq, i.gap, i.item,"
                     + " i.vector, i.norm, i.hash FROM vector_collections c JOIN vector_items i USING (handle,"
                     + " collection_id) WHERE c.handle = 'someone' ORDER BY i.seq")) {
            rows.next();
            assertEquals("{\"version\":1,\"metadata_config\":{},\"items\":[", new String(rows.getBytes(1), StandardCharsets.UTF_8));
            assertEquals("]}", new String(rows.getBytes(2), StandardCharsets.UTF_8));
            assertEquals(1_700_000_000_000.25, rows.getDouble(3));
            assertEquals(0, rows.getLong(5));
            assertNull(rows.getBytes(6), "Vectra's plain comma");
            assertEquals(firstItem, new String(rows.getBytes(7), StandardCharsets.UTF_8));
            float[] vector = new float[5];
            ByteBuffer.wrap(rows.getBytes(8)).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
            assertArrayEquals(new float[]{0.031415926535897934f, -0.7071067811865476f, 0.7f, 1e-7f, 0}, vector);
            assertEquals(0.9999999999999999, rows.getDouble(9));
            assertEquals(2946431357.0, rows.getDouble(10));
            rows.next();
            rows.next();
            assertEquals(2, rows.getLong(5));
            rows.getDouble(10);
            assertTrue(rows.wasNull(), "a string hash is no number to delete by");
        }
        store.insert(USER, KEY, List.of(VectorItem.create(JsJson.object().put("hash", 9), new float[]{1, 2, 3, 4, 5})));
        String written = new String(read(open(), KEY), StandardCharsets.UTF_8);
        assertTrue(written.startsWith(ST_INDEX.substring(0, ST_INDEX.length() - 2) + ",{\"id\":\""), written);
        assertTrue(written.endsWith(",\"metadata\":{\"hash\":9},\"vector\":[1,2,3,4,5],\"norm\":7.416198487095663}]}"),
                written);
        assertEquals(2, version());
    }
}
