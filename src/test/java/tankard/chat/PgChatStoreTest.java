package tankard.chat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.core.Refusal;

import tankard.testing.ScratchDatabase;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PgChatStoreTest extends ChatStoreContract {
    private final ScratchDatabase pg = new ScratchDatabase();
    @TempDir
    Path copies;

    /** A new store on the one database: a PgChatStore keeps nothing in memory, and migrating each time is slow. */
    @Override
    ChatStore open() {
        return new PgChatStore(pg.db, copies);
    }

    @AfterEach
    void cleanUp() {
        pg.close();
    }

    @Test
    void savingAChatWithOneNewMessageInsertsOneRowAndLeavesTheOthersUntouched() throws Exception {
        ChatStore store = open();
        byte[] chat = chat(200, 1);
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        Map<Long, String> before = rowVersions();
        assertEquals(200, before.size());
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(concat(chat, bytes("{\"mes\":\"new\"}\n")));
            draft.commit(SERAPHINA, "c.jsonl");
        }
        Map<Long, String> after = rowVersions();
        assertEquals(201, after.size());
        before.forEach((offset, xmin) -> assertEquals(xmin, after.get(offset), "line at " + offset + " was rewritten"));
        assertEquals(1, after.keySet().stream().filter(offset -> !before.containsKey(offset)).count());
        assertEquals(201, count("SELECT count(*) FROM chat_lines"), "no line was replaced");
    }

    @Test
    void aSavedDraftIsThisNodesCopyOfTheVersionItMade() throws Exception {
        ChatStore store = open();
        byte[] chat = chat(50, 4);
        commit(store, chat, null, 0);
        ChatStore.AtHand atHand = store.openAtHand("alice", SERAPHINA, "c.jsonl").orElseThrow();
        try (InputStream lines = atHand.lines()) {
            assertArrayEquals(chat, lines.readAllBytes());
        }
        byte[] next = concat(chat, bytes("{\"mes\":\"new\"}"));
        commit(store, next, atHand.version(), chat.length);
        ChatStore.AtHand nextAtHand = store.openAtHand("alice", SERAPHINA, "c.jsonl").orElseThrow();
        try (InputStream lines = nextAtHand.lines()) {
            assertArrayEquals(next, lines.readAllBytes());
        }
        assertFalse(atHand.version().equals(nextAtHand.version()), "the copy is of the new version");
        try (InputStream stored = open().open("alice", SERAPHINA, "c.jsonl").orElseThrow()) {
            assertArrayEquals(next, stored.readAllBytes());
        }
    }

    @Test
    void aDraftRepeatingAVersionThatAnotherNodeReplacedIsComparedLineByLine() throws Exception {
        ChatStore store = open();
        String start = "{\"mes\":\"A\"}\n{\"mes\":\"B\"}\n";
        commit(store, bytes(start + "{\"mes\":\"C\"}"), null, 0);
        Object revision = store.openAtHand("alice", SERAPHINA, "c.jsonl").orElseThrow().version();
        ChatStore otherNode = new PgChatStore(pg.db, Files.createDirectories(copies.resolve("other")));
        otherNode.write("alice", SERAPHINA, "c.jsonl", bytes("{\"mes\":\"X\"}\n{\"mes\":\"B\"}\n{\"mes\":\"C\"}"));
        byte[] draft = bytes(start + "{\"mes\":\"C\"}\n{\"mes\":\"D\"}");
        commit(store, draft, revision, start.length());
        try (InputStream stored = otherNode.open("alice", SERAPHINA, "c.jsonl").orElseThrow()) {
            assertArrayEquals(draft, stored.readAllBytes(), "the lines the other node changed are written again");
        }
    }

    /** Commits the content as a draft that repeats the chat at that revision up to {@code repeated} bytes. */
    @Test
    void aDraftExpectingAVersionIsNotSavedOverAnotherNodesWrite() throws Exception {
        ChatStore store = open();
        ChatStore otherNode = new PgChatStore(pg.db, Files.createDirectories(copies.resolve("other")));
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(bytes("{\"mes\":\"A\"}"));
            draft.expect(null);
            otherNode.write("alice", SERAPHINA, "c.jsonl", bytes("{\"mes\":\"made on the other node\"}"));
            Refusal refused = assertThrows(Refusal.class, () -> draft.commit(SERAPHINA, "c.jsonl"), "expected absent");
            assertEquals(Refusal.Kind.CONFLICT, refused.kind());
        }
        Object checked = store.version("alice", SERAPHINA, "c.jsonl").orElseThrow();
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(bytes("{\"mes\":\"A\"}\n{\"mes\":\"D\"}"));
            draft.expect(checked);
            otherNode.write("alice", SERAPHINA, "c.jsonl", bytes("{\"mes\":\"A\"}\n{\"mes\":\"X\"}"));
            assertEquals(Refusal.Kind.CONFLICT, assertThrows(Refusal.class, () -> draft.commit(SERAPHINA, "c.jsonl")).kind());
        }
        assertArrayEquals(bytes("{\"mes\":\"A\"}\n{\"mes\":\"X\"}"), read(store, "alice", SERAPHINA, "c.jsonl"));
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(bytes("{\"mes\":\"A\"}\n{\"mes\":\"X\"}\n{\"mes\":\"D\"}"));
            draft.expect(store.version("alice", SERAPHINA, "c.jsonl").orElseThrow());
            draft.commit(SERAPHINA, "c.jsonl");
        }
        assertArrayEquals(bytes("{\"mes\":\"A\"}\n{\"mes\":\"X\"}\n{\"mes\":\"D\"}"), read(store, "alice", SERAPHINA, "c.jsonl"),
                "saved at the version it expects");
    }

    private static void commit(ChatStore store, byte[] content, Object revision, long repeated) throws IOException {
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(content);
            if (revision != null) {
                draft.repeats(revision, repeated);
            }
            draft.commit(SERAPHINA, "c.jsonl");
        }
    }

    @Test
    void replaceTailInsideTheLastLineRewritesOnlyThatLine() throws Exception {
        ChatStore store = open();
        byte[] chat = chat(100, 2);
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        Map<Long, String> before = rowVersions();
        store.replaceTail("alice", SERAPHINA, "c.jsonl", store.find("alice", SERAPHINA, "c.jsonl").orElseThrow(), chat.length - 3, bytes("edited\"}\n"));
        Map<Long, String> after = rowVersions();
        assertEquals(100, after.size());
        long changed = after.keySet().stream().filter(offset -> !after.get(offset).equals(before.get(offset))).count();
        assertEquals(1, changed);
    }

    @Test
    void aWriteCutByTheDatabaseLeavesThePreviousContent() throws Exception {
        ChatStore store = open();
        byte[] old = chat(20, 3);
        store.write("alice", SERAPHINA, "c.jsonl", old);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            lines.append(String.format("{\"mes\":\"%0989d\"}\n", i)); // 1000 bytes a line
        }
        byte[] next = bytes(lines.toString());
        long blocked = 600_000; // past the first insert batches
        try (Connection c = pg.scratch.connect()) {
            c.setAutoCommit(false);
            // A row where the write will insert one, uncommitted: the write waits on it mid-way
            try (PreparedStatement s = c.prepareStatement("INSERT INTO chat_lines (user_handle, chat_id, byte_offset, hash, line)"
                    + " SELECT user_handle, chat_id, ?, '\\x00', '\\x00' FROM chats WHERE name = 'c.jsonl'")) {
                s.setLong(1, blocked);
                s.executeUpdate();
            }
            CompletableFuture<Void> cutter = CompletableFuture.runAsync(() -> {
                waitForALockWait();
                pg.scratch.terminateConnections();
            });
            Refusal cut = assertThrows(Refusal.class, () -> store.write("alice", SERAPHINA, "c.jsonl", next));
            assertEquals(Refusal.Kind.UNAVAILABLE, cut.kind());
            cutter.join();
        } catch (SQLException expected) {
            // this connection was cut too
        }
        assertArrayEquals(old, read(open(), "alice", SERAPHINA, "c.jsonl"));
        assertEquals(old.length, open().find("alice", SERAPHINA, "c.jsonl").orElseThrow().size());
        store.write("alice", SERAPHINA, "c.jsonl", next); // and the store works on, without a restart
        assertArrayEquals(next, read(open(), "alice", SERAPHINA, "c.jsonl"));
    }

    @Test
    void readsHoldNoConnectionSoManyOpenReadsLetWritesThrough() throws Exception {
        ChatStore store = open();
        byte[] chat = chat(1000, 4); // several windows
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        List<InputStream> reads = new ArrayList<>();
        for (int i = 0; i < 3 * pg.scratch.settings().poolSize(); i++) {
            InputStream read = store.open("alice", SERAPHINA, "c.jsonl").orElseThrow();
            read.readNBytes(10);
            reads.add(read);
        }
        store.write("alice", SERAPHINA, "c.jsonl", chat(1000, 5));
        for (InputStream read : reads) {
            try (read) {
                assertArrayEquals(chat, concat(Arrays.copyOf(chat, 10), read.readAllBytes()));
            }
        }
        assertArrayEquals(chat(1000, 5), read(store, "alice", SERAPHINA, "c.jsonl"));
    }

    @Test
    void replacedLinesAreDeletedByALaterSaveOnceOldAndAReadStillOnThemFails() throws Exception {
        ChatStore store = open();
        byte[] chat = chat(1000, 6);
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        InputStream old = store.open("alice", SERAPHINA, "c.jsonl").orElseThrow();
        store.write("alice", SERAPHINA, "c.jsonl", chat(1000, 7));
        // every line but the header, which is the same
        assertEquals(999, count("SELECT count(*) FROM chat_lines WHERE replaced_in IS NOT NULL"), "kept for reads");
        pg.scratch.execute("UPDATE chat_lines SET replaced_at = replaced_at - interval '" + PgChatStore.REPLACED_KEPT
                + "' - interval '1 second' WHERE replaced_in IS NOT NULL");
        store.write("alice", SERAPHINA, "c.jsonl", chat(1000, 8));
        assertEquals(999, count("SELECT count(*) FROM chat_lines WHERE replaced_in IS NOT NULL"), "only the newest replaced");
        assertEquals(1000, count("SELECT count(*) FROM chat_lines WHERE replaced_in IS NULL"));
        assertThrows(IOException.class, old::readAllBytes);
        assertArrayEquals(chat(1000, 8), read(store, "alice", SERAPHINA, "c.jsonl"));
    }

    private long count(String sql) throws SQLException {
        try (Connection c = pg.scratch.connect(); PreparedStatement s = c.prepareStatement(sql); ResultSet r = s.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }

    @Test
    void aChatReadToItsEndIsReadFromThisNodesCopyUntilItChanges() throws Exception {
        ChatStore store = open();
        byte[] chat = chat(300, 3);
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        assertArrayEquals(chat, read(store, "alice", SERAPHINA, "c.jsonl"));
        Path copy = onlyCopy();
        // the copy is what the next read gives: marked, it shows through
        byte[] marked = chat.clone();
        marked[3] = 'X';
        Files.write(copy, marked);
        assertArrayEquals(marked, read(store, "alice", SERAPHINA, "c.jsonl"));

        byte[] longer = concat(chat, bytes("{\"mes\":\"new\"}\n"));
        store.write("alice", SERAPHINA, "c.jsonl", longer);
        assertArrayEquals(longer, read(store, "alice", SERAPHINA, "c.jsonl"), "a new version is read from the database");
        assertArrayEquals(longer, Files.readAllBytes(onlyCopy()), "and copied again, the old copy gone");
    }

    @Test
    void aCopyIsNotReadOnceAnotherNodeChangedTheChat() throws Exception {
        ChatStore node = open();
        ChatStore other = new PgChatStore(pg.db, copies.resolve("other-node"));
        byte[] chat = chat(50, 4);
        node.write("alice", SERAPHINA, "c.jsonl", chat);
        read(node, "alice", SERAPHINA, "c.jsonl");
        byte[] changed = concat(chat, bytes("{\"mes\":\"from the other node\"}\n"));
        other.write("alice", SERAPHINA, "c.jsonl", changed);
        assertArrayEquals(changed, read(node, "alice", SERAPHINA, "c.jsonl"));
    }

    @Test
    void aReadThatStopsHalfwayOrJumpsLeavesNoCopy() throws Exception {
        ChatStore store = open();
        byte[] chat = chat(300, 5);
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        try (InputStream in = store.open("alice", SERAPHINA, "c.jsonl").orElseThrow()) {
            in.readNBytes(1000);
        }
        try (var channel = store.channel("alice", SERAPHINA, "c.jsonl").orElseThrow()) {
            readRange(channel, 5000, 100);
            readRange(channel, 0, chat.length);
        }
        assertEquals(List.of(), copiesOfAlice());
    }

    @Test
    void deletingAChatDeletesItsCopy() throws Exception {
        ChatStore store = open();
        store.write("alice", SERAPHINA, "c.jsonl", chat(20, 6));
        read(store, "alice", SERAPHINA, "c.jsonl");
        Path copy = onlyCopy();
        assertTrue(store.delete("alice", SERAPHINA, "c.jsonl"));
        assertFalse(Files.exists(copy));
    }

    /** The one copy of a chat of alice's on this node. */
    private Path onlyCopy() throws IOException {
        List<Path> all = copiesOfAlice();
        assertEquals(1, all.size(), all.toString());
        return all.get(0);
    }

    /** The files in this node's folder of alice's chat copies. */
    private List<Path> copiesOfAlice() throws IOException {
        Path folder = copies.resolve(ChatCopies.CACHE_FOLDER).resolve("alice");
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (var files = Files.list(folder)) {
            return files.toList();
        }
    }

    private void waitForALockWait() {
        try {
            waitingForALock();
        } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private void waitingForALock() throws SQLException, InterruptedException {
        for (int i = 0; i < 500; i++) {
            try (Connection c = pg.scratch.connect(); PreparedStatement s = c.prepareStatement(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
                 ResultSet rows = s.executeQuery()) {
                rows.next();
                if (rows.getInt(1) > 0) {
                    return;
                }
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the write never waited");
    }

    /** Each live line's byte offset and xmin (the transaction that wrote it). */
    private Map<Long, String> rowVersions() throws SQLException, IOException {
        Map<Long, String> rows = new HashMap<>();
        try (Connection c = pg.scratch.connect(); PreparedStatement s = c.prepareStatement(
                "SELECT byte_offset, xmin::text FROM chat_lines WHERE replaced_in IS NULL"); ResultSet r = s.executeQuery()) {
            while (r.next()) {
                rows.put(r.getLong(1), r.getString(2));
            }
        }
        return rows;
    }
}
