package tankard.chat;

import org.junit.jupiter.api.Test;
import tankard.core.Refusal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every chat store does, run on each of them by a subclass. */
abstract class ChatStoreContract {
    static final ChatFolder SERAPHINA = ChatFolder.character("Seraphina");
    static final ChatFolder ROOT = ChatFolder.character("");

    /** The store under test, made anew over the same place on each call (as a restart would). */
    abstract ChatStore open();

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A chat of {@code lines} JSONL lines of varied lengths, the same for the same seed. */
    static byte[] chat(int lines, long seed) {
        Random random = new Random(seed);
        StringBuilder text = new StringBuilder("{\"user_name\":\"User\",\"character_name\":\"Seraphina\"}\n");
        for (int i = 1; i < lines; i++) {
            text.append("{\"mes\":\"").append(i).append(' ').append("x".repeat(random.nextInt(3000))).append("\"}\n");
        }
        return bytes(text.toString());
    }

    static byte[] read(ChatStore store, String user, ChatFolder folder, String name) throws IOException {
        try (InputStream in = store.open(user, folder, name).orElseThrow()) {
            return in.readAllBytes();
        }
    }

    static byte[] readRange(SeekableByteChannel channel, long from, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        channel.position(from);
        while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
            // reads may be short
        }
        return Arrays.copyOf(buffer.array(), buffer.position());
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    @Test
    void aChatsVersionIsThatOfItsLinesAtHandUntilItIsWrittenAgain() throws IOException {
        ChatStore store = open();
        assertTrue(store.version("alice", SERAPHINA, "c.jsonl").isEmpty(), "no chat, no version");
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(bytes("{\"mes\":\"A\"}"));
            draft.commit(SERAPHINA, "c.jsonl");
        }
        Object saved = store.version("alice", SERAPHINA, "c.jsonl").orElseThrow();
        ChatStore.AtHand atHand = store.openAtHand("alice", SERAPHINA, "c.jsonl").orElseThrow();
        atHand.lines().close();
        assertEquals(saved, atHand.version(), "the lines at hand are the chat as stored");
        assertEquals(saved, open().version("alice", SERAPHINA, "c.jsonl").orElseThrow(), "a version holds across restarts");

        store.write("alice", SERAPHINA, "c.jsonl", bytes("{\"mes\":\"A\"}\n{\"mes\":\"B\"}"));
        Object written = store.version("alice", SERAPHINA, "c.jsonl").orElseThrow();
        assertNotEquals(saved, written, "a write makes a new version");
        ChatFile stat = store.find("alice", SERAPHINA, "c.jsonl").orElseThrow();
        store.replaceTail("alice", SERAPHINA, "c.jsonl", stat, stat.size(), bytes("\n{\"mes\":\"C\"}"));
        assertNotEquals(written, store.version("alice", SERAPHINA, "c.jsonl").orElseThrow(), "so does a tail save");
    }

    @Test
    void anyContentComesBackByteForByteFromTheStreamTheChannelAndTheStat() throws IOException {
        ChatStore store = open();
        byte[] hugeLine = bytes("{\"mes\":\"" + "y".repeat(700_000) + "\"}\n");
        List<byte[]> contents = List.of(new byte[0], bytes("a"), bytes("\n"), bytes("\n\n\n"),
                bytes("{\"a\":1}\r\n{\"b\":2}\r\n"), bytes("{\"a\":1}\n{\"b\":2}"),
                new byte[]{(byte) 0xff, (byte) 0xfe, '\n', (byte) 0xc3, '\r', '\n', 0, (byte) 0xc3},
                chat(800, 1), concat(hugeLine, hugeLine), concat(chat(300, 2), bytes("no final newline")));
        for (int i = 0; i < contents.size(); i++) {
            byte[] content = contents.get(i);
            String name = "chat " + i + ".jsonl";
            store.write("alice", SERAPHINA, name, content);
            ChatStore reopened = open();
            assertArrayEquals(content, read(reopened, "alice", SERAPHINA, name), name);
            try (SeekableByteChannel channel = reopened.channel("alice", SERAPHINA, name).orElseThrow()) {
                assertEquals(content.length, channel.size(), name);
                assertArrayEquals(content, readRange(channel, 0, content.length), name);
            }
            assertEquals(content.length, reopened.find("alice", SERAPHINA, name).orElseThrow().size(), name);
        }
        assertEquals(Optional.empty(), store.open("alice", SERAPHINA, "none.jsonl"));
        assertEquals(Optional.empty(), store.channel("alice", SERAPHINA, "none.jsonl"));
        assertEquals(Optional.empty(), store.find("alice", SERAPHINA, "none.jsonl"));
    }

    @Test
    void aChatIsListedInReaddirOrderWithOnlyJsonlNames() throws IOException {
        ChatStore store = open();
        for (String name : List.of("b.jsonl", "é.jsonl", "B.jsonl", "a.jsonl", "notes.txt", "10.jsonl", "9.jsonl")) {
            store.write("alice", SERAPHINA, name, bytes("{}\n"));
        }
        store.write("alice", ChatFolder.groups(), "g.jsonl", bytes("{}\n"));
        assertEquals(List.of("10.jsonl", "9.jsonl", "B.jsonl", "a.jsonl", "b.jsonl", "é.jsonl"),
                open().list("alice", SERAPHINA).stream().map(ChatFile::name).toList());
        assertEquals(List.of("g.jsonl"), open().list("alice", ChatFolder.groups()).stream().map(ChatFile::name).toList());
        assertEquals(List.of(), open().list("alice", ChatFolder.character("Nobody")));
    }

    @Test
    void findAndUsageTellSizesAndTheNewestWrite() throws Exception {
        ChatStore store = open();
        assertEquals(FolderUsage.EMPTY, store.usage("alice", SERAPHINA));
        store.write("alice", SERAPHINA, "one.jsonl", bytes("{}\n{\"mes\":1}\n"));
        Thread.sleep(5);
        store.write("alice", SERAPHINA, "two.jsonl", bytes("{}\n"));
        ChatFile one = store.find("alice", SERAPHINA, "one.jsonl").orElseThrow();
        ChatFile two = store.find("alice", SERAPHINA, "two.jsonl").orElseThrow();
        assertEquals(new ChatFile("one.jsonl", 13, one.modifiedMs()), one);
        assertTrue(two.modifiedMs() > one.modifiedMs());
        assertTrue(Math.abs(System.currentTimeMillis() - two.modifiedMs()) < 60_000, "an epoch time in ms");
        assertEquals(new FolderUsage(16, two.modifiedMs()), open().usage("alice", SERAPHINA));
        assertEquals(List.of(one, two), open().list("alice", SERAPHINA));
    }

    @Test
    void everySaveMakesTheStatDifferentEvenAtTheSameSize() throws IOException {
        ChatStore store = open();
        store.write("alice", SERAPHINA, "c.jsonl", bytes("{}\n{\"mes\":\"a\"}\n"));
        ChatFile before = store.find("alice", SERAPHINA, "c.jsonl").orElseThrow();
        tail(store, 3, bytes("{\"mes\":\"b\"}\n"));
        ChatFile after = store.find("alice", SERAPHINA, "c.jsonl").orElseThrow();
        assertEquals(before.size(), after.size());
        assertNotEquals(before, after);
    }

    @Test
    void savingAChangedChatLeavesExactlyTheNewContent() throws IOException {
        ChatStore store = open();
        byte[] chat = chat(400, 3);
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        byte[] appended = concat(chat, bytes("{\"mes\":\"one more\"}\n"));
        byte[] editedInTheMiddle = appended.clone();
        editedInTheMiddle[appended.length / 2] = 'Z';
        byte[] shorter = Arrays.copyOf(chat, chat.length / 3);
        for (byte[] content : List.of(appended, editedInTheMiddle, shorter, concat(shorter, bytes("tail")),
                concat(shorter, bytes("tail\n")), chat, new byte[0], chat)) {
            store.write("alice", SERAPHINA, "c.jsonl", content);
            assertArrayEquals(content, read(open(), "alice", SERAPHINA, "c.jsonl"));
            assertEquals(content.length, open().find("alice", SERAPHINA, "c.jsonl").orElseThrow().size());
        }
    }

    /** A tail save of c.jsonl by a caller that has just read it. */
    private static void tail(ChatStore store, long keep, byte[] tail) throws IOException {
        ChatFile saved = store.replaceTail("alice", SERAPHINA, "c.jsonl", store.find("alice", SERAPHINA, "c.jsonl").orElseThrow(),
                keep, tail);
        assertEquals(store.find("alice", SERAPHINA, "c.jsonl").orElseThrow(), saved, "the answer is the chat as written");
    }

    @Test
    void aTailSaveFromAStaleReadIsRefusedAndWritesNothing() throws IOException {
        ChatStore store = open();
        store.write("alice", SERAPHINA, "c.jsonl", bytes("{}\n{\"mes\":\"a\"}\n"));
        ChatFile read = store.find("alice", SERAPHINA, "c.jsonl").orElseThrow();
        store.write("alice", SERAPHINA, "c.jsonl", bytes("{}\n{\"mes\":\"b\"}\n")); // another tab, same size
        ChatFile newer = store.find("alice", SERAPHINA, "c.jsonl").orElseThrow();
        Refusal refusal = assertThrows(Refusal.class,
                () -> store.replaceTail("alice", SERAPHINA, "c.jsonl", read, 3, bytes("{\"mes\":\"c\"}\n")));
        assertEquals(Refusal.Kind.CONFLICT, refusal.kind());
        assertEquals("{}\n{\"mes\":\"b\"}\n", new String(read(open(), "alice", SERAPHINA, "c.jsonl"), StandardCharsets.UTF_8));
        assertEquals(newer, open().find("alice", SERAPHINA, "c.jsonl").orElseThrow());
    }

    @Test
    void replaceTailKeepsThePrefixAtOrInsideALine() throws IOException {
        ChatStore store = open();
        byte[] chat = bytes("{\"h\":1}\n{\"mes\":\"a\"}\n{\"mes\":\"b\"}\n");
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        tail(store, 20, bytes("{\"mes\":\"c\"}\n")); // at a line start
        assertEquals("{\"h\":1}\n{\"mes\":\"a\"}\n{\"mes\":\"c\"}\n", new String(read(open(), "alice", SERAPHINA, "c.jsonl"), StandardCharsets.UTF_8));
        tail(store, 16, bytes("AA\"}\n{\"x\":2}")); // inside a line
        assertEquals("{\"h\":1}\n{\"mes\":\"AA\"}\n{\"x\":2}", new String(read(open(), "alice", SERAPHINA, "c.jsonl"), StandardCharsets.UTF_8));
        tail(store, 27, bytes("3}")); // inside a last line without LF
        tail(store, 29, bytes("\n{\"y\":4}\n")); // at its end
        assertEquals("{\"h\":1}\n{\"mes\":\"AA\"}\n{\"x\":23}\n{\"y\":4}\n", new String(read(open(), "alice", SERAPHINA, "c.jsonl"), StandardCharsets.UTF_8));
        tail(store, 0, bytes("new"));
        assertEquals("new", new String(read(open(), "alice", SERAPHINA, "c.jsonl"), StandardCharsets.UTF_8));
        assertThrows(IOException.class, () -> tail(store, 4, bytes("x")));
        assertEquals("new", new String(read(open(), "alice", SERAPHINA, "c.jsonl"), StandardCharsets.UTF_8));
    }

    @Test
    void aReadKeepsTheContentItWasOpenedOnWhileTheChatIsWritten() throws IOException {
        ChatStore store = open();
        byte[] chat = chat(2000, 4); // several read windows
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        try (InputStream stream = store.open("alice", SERAPHINA, "c.jsonl").orElseThrow();
             SeekableByteChannel channel = store.channel("alice", SERAPHINA, "c.jsonl").orElseThrow()) {
            byte[] start = stream.readNBytes(1000);
            byte[] end = readRange(channel, chat.length - 1000, 1000);
            store.write("alice", SERAPHINA, "c.jsonl", chat(2000, 5));
            tail(store, 100, bytes("changed\n"));
            assertArrayEquals(chat, concat(start, stream.readAllBytes()));
            assertArrayEquals(Arrays.copyOfRange(chat, chat.length - 1000, chat.length), end);
            assertArrayEquals(chat, readRange(channel, 0, chat.length));
            assertEquals(chat.length, channel.size());
        }
        assertEquals(100 + "changed\n".length(), read(store, "alice", SERAPHINA, "c.jsonl").length);
    }

    @Test
    void aChannelReadsAnyRangeAtAnyPosition() throws IOException {
        ChatStore store = open();
        byte[] chat = concat(chat(1500, 6), bytes("{\"last\":true}"));
        store.write("alice", SERAPHINA, "c.jsonl", chat);
        Random random = new Random(7);
        try (SeekableByteChannel channel = open().channel("alice", SERAPHINA, "c.jsonl").orElseThrow()) {
            for (int i = 0; i < 60; i++) {
                int from = random.nextInt(chat.length);
                int length = random.nextInt(i % 2 == 0 ? 100 : 600_000) + 1;
                assertArrayEquals(Arrays.copyOfRange(chat, from, Math.min(chat.length, from + length)),
                        readRange(channel, from, length), "at " + from + " for " + length);
            }
            channel.position(chat.length);
            assertEquals(-1, channel.read(ByteBuffer.allocate(10)));
        }
    }

    @Test
    void renameMovesAChatOnlyToAFreeName() throws IOException {
        ChatStore store = open();
        store.write("alice", SERAPHINA, "a.jsonl", bytes("{\"a\":1}\n"));
        store.write("alice", SERAPHINA, "b.jsonl", bytes("{\"b\":1}\n"));
        assertFalse(store.rename("alice", SERAPHINA, "none.jsonl", "c.jsonl"));
        assertFalse(store.rename("alice", SERAPHINA, "a.jsonl", "b.jsonl"));
        assertArrayEquals(bytes("{\"b\":1}\n"), read(store, "alice", SERAPHINA, "b.jsonl"));
        assertTrue(store.rename("alice", SERAPHINA, "a.jsonl", "c.jsonl"));
        assertEquals(Optional.empty(), store.find("alice", SERAPHINA, "a.jsonl"));
        assertArrayEquals(bytes("{\"a\":1}\n"), read(open(), "alice", SERAPHINA, "c.jsonl"));
    }

    @Test
    void deleteAndCreateIfAbsent() throws IOException {
        ChatStore store = open();
        assertFalse(store.delete("alice", SERAPHINA, "a.jsonl"));
        assertTrue(store.create("alice", SERAPHINA, "a.jsonl", new ByteArrayInputStream(bytes("first"))));
        assertFalse(store.create("alice", SERAPHINA, "a.jsonl", new ByteArrayInputStream(bytes("second"))));
        assertArrayEquals(bytes("first"), read(open(), "alice", SERAPHINA, "a.jsonl"));
        assertTrue(store.exists("alice", SERAPHINA));
        assertTrue(store.delete("alice", SERAPHINA, "a.jsonl"));
        assertFalse(store.delete("alice", SERAPHINA, "a.jsonl"));
        assertEquals(Optional.empty(), open().open("alice", SERAPHINA, "a.jsonl"));
    }

    @Test
    void aDraftOfManyMegabytesInSmallPiecesIsCommittedByteForByte() throws IOException {
        ChatStore store = open();
        byte[] chat = chat(9_000, 11); // about 13 MB: sent to the disk in steps while it is written, on files
        Random pieces = new Random(4);
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(chat, 0, chat.length / 2);
            draft.restart();
            for (int at = 0; at < chat.length; ) {
                int length = Math.min(chat.length - at, 1 + pieces.nextInt(200_000));
                draft.out().write(chat, at, length);
                at += length;
            }
            draft.commit(SERAPHINA, "big.jsonl");
        }
        assertArrayEquals(chat, read(open(), "alice", SERAPHINA, "big.jsonl"));
    }

    @Test
    void aDraftIsVisibleOnlyOnceCommittedAndLeavesNothingWhenDropped() throws IOException {
        ChatStore store = open();
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(bytes("dropped"));
            draft.restart();
            draft.out().write(chat(600, 8));
            assertEquals(List.of(), store.list("alice", SERAPHINA));
            draft.commit(SERAPHINA, "d.jsonl");
        }
        assertArrayEquals(chat(600, 8), read(open(), "alice", SERAPHINA, "d.jsonl"));
        assertTrue(open().exists("alice", SERAPHINA));
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(bytes("{\"never\":1}\n"));
        }
        try (ChatStore.Draft draft = store.draft("alice")) {
            draft.out().write(bytes("{\"replaces\":1}\n"));
            draft.commit(SERAPHINA, "d.jsonl");
        }
        assertEquals(List.of("d.jsonl"), open().list("alice", SERAPHINA).stream().map(ChatFile::name).toList());
        assertEquals(List.of(), open().list("alice", ROOT));
        assertArrayEquals(bytes("{\"replaces\":1}\n"), read(open(), "alice", SERAPHINA, "d.jsonl"));
    }

    @Test
    void backupsAreWrittenListedByPrefixReadFromTheirEndAndDeleted() throws IOException {
        ChatStore store = open();
        byte[] big = chat(1200, 9);
        store.writeBackup("alice", "chat_Seraphina_2.jsonl", new ByteArrayInputStream(big));
        store.writeBackup("alice", "chat_Seraphina_1.jsonl", new ByteArrayInputStream(bytes("{}\n")));
        store.writeBackup("alice", "settings_1.json", new ByteArrayInputStream(bytes("{}")));
        assertEquals(List.of("chat_Seraphina_1.jsonl", "chat_Seraphina_2.jsonl"),
                open().backups("alice", "chat_").stream().map(ChatFile::name).toList());
        assertEquals(List.of(), open().backups("alice", "chat%"));
        assertEquals(big.length, open().findBackup("alice", "chat_Seraphina_2.jsonl").orElseThrow().size());
        try (SeekableByteChannel channel = open().backupChannel("alice", "chat_Seraphina_2.jsonl").orElseThrow()) {
            assertArrayEquals(Arrays.copyOfRange(big, big.length - 5000, big.length), readRange(channel, big.length - 5000, 5000));
            assertArrayEquals(big, readRange(channel, 0, big.length));
        }
        assertTrue(store.deleteBackup("alice", "chat_Seraphina_2.jsonl"));
        assertFalse(store.deleteBackup("alice", "chat_Seraphina_2.jsonl"));
        assertEquals(Optional.empty(), open().findBackup("alice", "chat_Seraphina_2.jsonl"));
        assertEquals(Optional.empty(), open().backupChannel("alice", "chat_Seraphina_2.jsonl"));
        assertEquals(List.of(), open().list("alice", ROOT), "backups are no chats");
    }

    @Test
    void aBackupIsNotListedWhileItIsBeingWritten() throws IOException {
        ChatStore store = open();
        store.writeBackup("alice", "chat_a_1.jsonl", new ByteArrayInputStream(bytes("{}\n")));
        Set<List<String>> listedMidway = new HashSet<>();
        InputStream listingMidway = new SequenceInputStream(new ByteArrayInputStream(bytes("{}\n")), new InputStream() {
            @Override
            public int read() throws IOException {
                listedMidway.add(open().backups("alice", "chat_").stream().map(ChatFile::name).toList());
                return -1;
            }
        });
        store.writeBackup("alice", "chat_a_2.jsonl", listingMidway);
        assertEquals(Set.of(List.of("chat_a_1.jsonl")), listedMidway);
        assertEquals(List.of("chat_a_1.jsonl", "chat_a_2.jsonl"),
                open().backups("alice", "chat_").stream().map(ChatFile::name).toList());
    }

    @Test
    void aChatOrBackupTakesTheModificationTimeItIsGiven() throws IOException {
        ChatStore store = open();
        store.write("alice", SERAPHINA, "a.jsonl", bytes("{}\n"));
        store.writeBackup("alice", "chat_a_1.jsonl", new ByteArrayInputStream(bytes("{}\n")));
        assertTrue(store.setModified("alice", SERAPHINA, "a.jsonl", 1_600_000_000_123.0));
        assertTrue(store.setBackupModified("alice", "chat_a_1.jsonl", 1_500_000_000_456.0));
        assertFalse(store.setModified("alice", SERAPHINA, "none.jsonl", 1.0));
        assertFalse(store.setBackupModified("alice", "none.jsonl", 1.0));

        assertEquals(1_600_000_000_123.0, open().find("alice", SERAPHINA, "a.jsonl").orElseThrow().modifiedMs());
        assertEquals(1_500_000_000_456.0, open().findBackup("alice", "chat_a_1.jsonl").orElseThrow().modifiedMs());
        assertEquals(1_600_000_000_123.0, open().list("alice", SERAPHINA).get(0).modifiedMs());
    }

    @Test
    void usersNeverSeeEachOthersChats() throws IOException {
        ChatStore store = open();
        store.write("alice", SERAPHINA, "c.jsonl", bytes("alice\n"));
        store.write("bob", SERAPHINA, "c.jsonl", bytes("bob\n"));
        store.writeBackup("bob", "chat_b.jsonl", new ByteArrayInputStream(bytes("bob\n")));
        assertArrayEquals(bytes("alice\n"), read(open(), "alice", SERAPHINA, "c.jsonl"));
        assertArrayEquals(bytes("bob\n"), read(open(), "bob", SERAPHINA, "c.jsonl"));
        assertEquals(List.of(), open().backups("alice", "chat_"));
        assertTrue(store.delete("alice", SERAPHINA, "c.jsonl"));
        assertArrayEquals(bytes("bob\n"), read(open(), "bob", SERAPHINA, "c.jsonl"));
        assertFalse(open().exists("carol", SERAPHINA));
        assertEquals(Set.of(), open().characterFolders("carol"));
    }

    @Test
    void foldersExistWhileEmptyMoveToAFreeNameAndAreDeletedWithTheirChats() throws IOException {
        ChatStore store = open();
        assertFalse(store.exists("alice", SERAPHINA));
        store.create("alice", SERAPHINA);
        store.create("alice", SERAPHINA);
        store.create("alice", ChatFolder.character("Other"));
        assertTrue(open().exists("alice", SERAPHINA));
        assertEquals(Set.of("Seraphina", "Other"), open().characterFolders("alice"));
        store.write("alice", SERAPHINA, "c.jsonl", bytes("{}\n"));
        ChatFolder renamed = ChatFolder.character("Seraphina 2");
        assertFalse(store.moveFolder("alice", SERAPHINA, ChatFolder.character("Other")));
        assertFalse(store.moveFolder("alice", ChatFolder.character("Nobody"), renamed));
        assertTrue(store.moveFolder("alice", SERAPHINA, renamed));
        assertFalse(open().exists("alice", SERAPHINA));
        assertArrayEquals(bytes("{}\n"), read(open(), "alice", renamed, "c.jsonl"));
        assertTrue(store.deleteFolder("alice", renamed));
        assertFalse(store.deleteFolder("alice", renamed));
        assertEquals(Set.of("Other"), open().characterFolders("alice"));
        assertEquals(Optional.empty(), open().find("alice", renamed, "c.jsonl"));
        store.write("alice", renamed, "c.jsonl", bytes("{}\n"));
        assertEquals(List.of("c.jsonl"), open().list("alice", renamed).stream().map(ChatFile::name).toList());
        assertThrows(IllegalArgumentException.class, () -> store.deleteFolder("alice", ChatFolder.groups()));
    }

    @Test
    void eightConcurrentWritersLeaveOneCompleteVersion() throws Exception {
        ChatStore store = open();
        store.write("alice", SERAPHINA, "c.jsonl", chat(300, 100));
        List<byte[]> versions = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            versions.add(w % 2 == 0 ? chat(300 + w, 100) : chat(200 + w, w)); // appends and whole rewrites
        }
        ExecutorService pool = Executors.newFixedThreadPool(9);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                byte[] mine = versions.get(w);
                boolean draft = w % 3 == 0;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < 5; i++) {
                        if (draft) {
                            try (ChatStore.Draft d = store.draft("alice")) {
                                d.out().write(mine);
                                d.commit(SERAPHINA, "c.jsonl");
                            }
                        } else {
                            store.write("alice", SERAPHINA, "c.jsonl", mine);
                        }
                    }
                    return null;
                }));
            }
            done.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < 10; i++) {
                    byte[] seen = read(store, "alice", SERAPHINA, "c.jsonl");
                    assertTrue(versions.stream().anyMatch(v -> Arrays.equals(v, seen)), "a read saw a half-written chat");
                }
                return null;
            }));
            go.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        byte[] last = read(open(), "alice", SERAPHINA, "c.jsonl");
        assertTrue(versions.stream().anyMatch(v -> Arrays.equals(v, last)), "the chat is no writer's version");
        assertEquals(last.length, open().find("alice", SERAPHINA, "c.jsonl").orElseThrow().size());
    }
}
