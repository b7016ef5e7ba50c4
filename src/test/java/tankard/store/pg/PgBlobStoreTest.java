package tankard.store.pg;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.store.BlobStore;
import tankard.store.BlobStoreContract;
import tankard.testing.PgScratch;
import tankard.testing.ScratchDatabase;
import tankard.testing.TcpRelay;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PgBlobStoreTest extends BlobStoreContract {
    /** Chunks whose blob row is gone or points at other chunks. */
    private static final String ORPHANS = "SELECT count(*) FROM blob_chunks c WHERE NOT EXISTS"
            + " (SELECT 1 FROM blobs b WHERE b.handle = c.handle AND b.id = c.blob_id)";

    private final ScratchDatabase pg = new ScratchDatabase();
    private final PgScratch scratch = pg.scratch;

    @AfterEach
    void cleanUp() {
        pg.close();
    }

    /** A new store on the test's one database: a PgBlobStore keeps nothing in memory, and migrating each time is slow. */
    @Override
    protected BlobStore store() {
        return new PgBlobStore(pg.db, BlobStoreContract::isBlob);
    }

    /** A store on a database of its own: another node, or one behind a relay. */
    private BlobStore node(TankardConfig.Postgres settings) {
        return new PgBlobStore(pg.node(settings), BlobStoreContract::isBlob);
    }

    @Test
    void aBlobIsARowAndItsBytesInChunksWithItsHash() throws Exception {
        BlobStore store = store();
        byte[] onABoundary = random(2 * PgBlobStore.CHUNK, 1);
        write(store, "alice", "user/files/exact.bin", onABoundary);
        write(store, "alice", "user/files/empty.bin", new byte[0]);
        write(store, "alice", "user/files/odd.bin", random(2 * PgBlobStore.CHUNK + 1, 2));

        assertEquals(2, number("SELECT count(*) FROM blob_chunks c JOIN blobs b ON b.handle = c.handle AND b.id = c.blob_id"
                + " WHERE b.name = 'exact.bin'"));
        assertEquals(0, number("SELECT count(*) FROM blob_chunks c JOIN blobs b ON b.handle = c.handle AND b.id = c.blob_id"
                + " WHERE b.name = 'empty.bin'"));
        assertEquals(3, number("SELECT count(*) FROM blob_chunks c JOIN blobs b ON b.handle = c.handle AND b.id = c.blob_id"
                + " WHERE b.name = 'odd.bin'"));
        try (Connection c = scratch.connect(); PreparedStatement s = c.prepareStatement(
                "SELECT folder, size, sha256 FROM blobs WHERE handle = 'alice' AND name = 'exact.bin'");
             ResultSet row = s.executeQuery()) {
            row.next();
            assertEquals("user/files", row.getString(1));
            assertEquals(onABoundary.length, row.getLong(2));
            assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(onABoundary), row.getBytes(3));
        }
    }

    @Test
    void replacedAndFailedWritesLeaveNoChunkBehind() {
        BlobStore store = store();
        write(store, "alice", "backgrounds/sky.png", random(3 * PgBlobStore.CHUNK, 3));
        write(store, "alice", "backgrounds/sky.png", random(PgBlobStore.CHUNK + 1, 4));
        assertThrows(UncheckedIOException.class, () -> store.write("alice", "backgrounds/sky.png",
                failingAfter(random(9 * PgBlobStore.CHUNK, 5))));
        assertThrows(UncheckedIOException.class, () -> write(store, "alice", "backgrounds/sky.png/x.png", random(100, 6)));

        assertEquals(2, number("SELECT count(*) FROM blob_chunks"));
        assertEquals(0, number(ORPHANS));
        store.deleteAll("alice");
        assertEquals(0, number("SELECT count(*) FROM blob_chunks"));
    }

    @Test
    void aReadOfAReplacedBlobFailsRatherThanMixVersions() throws Exception {
        BlobStore store = store();
        byte[] old = random(3 * PgBlobStore.CHUNKS_PER_TRIP * PgBlobStore.CHUNK, 7);
        write(store, "alice", "assets/bgm/song.mp3", old);
        InputStream read = store.open("alice", "assets/bgm/song.mp3").orElseThrow();
        byte[] start = read.readNBytes(PgBlobStore.CHUNK);
        assertArrayEquals(Arrays.copyOf(old, PgBlobStore.CHUNK), start);
        write(store, "alice", "assets/bgm/song.mp3", random(old.length, 8));
        assertThrows(IOException.class, read::readAllBytes);
    }

    @Test
    void aWriteThroughAnotherDatabaseIsSeenAtOnce() throws Exception {
        BlobStore first = store();
        BlobStore second = node(scratch.settings());
        write(first, "alice", "user/images/a.png", utf8("one"));
        assertArrayEquals(utf8("one"), read(second, "alice", "user/images/a.png"));
        write(second, "alice", "user/images/a.png", utf8("two"));
        assertArrayEquals(utf8("two"), read(first, "alice", "user/images/a.png"));
        assertEquals(3, first.stat("alice", "user/images/a.png").orElseThrow().size());
        second.delete("alice", "user/images/a.png");
        assertTrue(first.stat("alice", "user/images/a.png").isEmpty());
        assertEquals(List.of(), first.folders("alice", "user"));
    }

    @Test
    void aFolderIsThereWhileABlobIsUnderIt() {
        BlobStore store = store();
        write(store, "alice", "user/images/Seraphina/x.png", utf8("x"));
        assertEquals(List.of("images"), store.folders("alice", "user"));
        store.delete("alice", "user/images/Seraphina/x.png");
        assertEquals(List.of(), store.folders("alice", "user"));
        assertEquals(List.of(), store.folders("alice", ""));
    }

    @Test
    void aWriteCutWithItsConnectionLeavesThePreviousBlob() throws Exception {
        byte[] old = random(PgBlobStore.CHUNK + 5, 9);
        write(store(), "alice", "user/files/report.pdf", old);
        try (TcpRelay relay = new TcpRelay(pg.vertx, PgScratch.HOST, PgScratch.PORT)) {
            BlobStore cut = node(through(relay));
            int firstTrip = PgBlobStore.CHUNKS_PER_TRIP * PgBlobStore.CHUNK;
            // the connection goes once the first chunks are in, while the stream still has more
            InputStream content = new SequenceInputStream(new ByteArrayInputStream(random(firstTrip + 10, 10)),
                    new InputStream() {
                        private int left = 3 * firstTrip;

                        @Override
                        public int read() {
                            if (left == 3 * firstTrip) {
                                relay.cut();
                            }
                            return left-- > 0 ? 7 : -1;
                        }
                    });
            Refusal refusal = assertThrows(Refusal.class, () -> cut.write("alice", "user/files/report.pdf", content));
            assertEquals(Refusal.Kind.UNAVAILABLE, refusal.kind());

            assertArrayEquals(old, read(store(), "alice", "user/files/report.pdf"));
            assertEquals(2, number("SELECT count(*) FROM blob_chunks"));
            assertEquals(0, number(ORPHANS));
            byte[] next = random(2 * firstTrip, 11);
            write(cut, "alice", "user/files/report.pdf", next); // the store works on, without a restart
            assertArrayEquals(next, read(store(), "alice", "user/files/report.pdf"));
        }
    }

    private long number(String sql) {
        try (Connection c = scratch.connect(); PreparedStatement s = c.prepareStatement(sql); ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private TankardConfig.Postgres through(TcpRelay relay) {
        TankardConfig.Postgres s = scratch.settings();
        return new TankardConfig.Postgres("127.0.0.1", relay.port(), s.database(), s.user(), s.password(), 8,
                "disable", null);
    }
}
