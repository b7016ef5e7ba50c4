package tankard.chat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tail saves in place: readers' views, the undo journal after a crash, crash leftovers. */
class TailJournalTest {
    private static final String USER = "default-user";
    private static final ChatFolder FOLDER = ChatFolder.character("Bramble");
    private static final FileTime OLD = FileTime.from(Instant.parse("2024-05-01T10:00:00.123456Z"));

    private final Path root = TestServer.tempDir();
    private final Path chat = root.resolve(USER + "/chats/Bramble/c.jsonl");

    @AfterEach
    void clean() {
        TestServer.deleteTree(root);
    }

    private static byte[] chatBytes(String... ends) {
        StringBuilder text = new StringBuilder("{\"chat_metadata\":{\"integrity\":\"t\"},\"user_name\":\"unused\"}");
        for (int i = 0; i < 20; i++) {
            text.append("\n{\"name\":\"N\",\"mes\":\"message ").append(i).append(" é\"}");
        }
        for (String end : ends) {
            text.append('\n').append(end);
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private byte[] writeChat(byte[] content) throws IOException {
        Files.createDirectories(chat.getParent());
        Files.write(chat, content);
        Files.setLastModifiedTime(chat, OLD);
        return content;
    }

    private static long offsetOf(byte[] content, String line) {
        String text = new String(content, StandardCharsets.UTF_8);
        return text.substring(0, text.indexOf(line)).getBytes(StandardCharsets.UTF_8).length;
    }

    private static byte[] readAll(SeekableByteChannel channel) throws IOException {
        ByteBuffer all = ByteBuffer.allocate((int) channel.size());
        channel.position(0);
        while (all.hasRemaining() && channel.read(all) > 0) {
            // fill
        }
        assertFalse(all.hasRemaining(), "the view is as long as its size");
        return all.array();
    }

    @Test
    void viewsOpenedBeforeTailSavesKeepReadingTheChatAsItWas() throws IOException {
        byte[] before = writeChat(chatBytes());
        FileChatStore store = new FileChatStore(root);
        Object inode = ChatViews.inode(chat);
        InputStream stream = store.open(USER, FOLDER, "c.jsonl").orElseThrow();
        byte[] start = stream.readNBytes(10);
        SeekableByteChannel channel = store.channel(USER, FOLDER, "c.jsonl").orElseThrow();

        long late = offsetOf(before, "{\"name\":\"N\",\"mes\":\"message 18");
        store.replaceTail(USER, FOLDER, "c.jsonl", store.find(USER, FOLDER, "c.jsonl").orElseThrow(), late, "{\"x\":1}".getBytes(StandardCharsets.UTF_8));
        long early = offsetOf(before, "{\"name\":\"N\",\"mes\":\"message 3 ");
        store.replaceTail(USER, FOLDER, "c.jsonl", store.find(USER, FOLDER, "c.jsonl").orElseThrow(), early, "{\"y\":\"a much longer end than before\"}".getBytes(StandardCharsets.UTF_8));
        byte[] now = Files.readAllBytes(chat);
        store.replaceTail(USER, FOLDER, "c.jsonl", store.find(USER, FOLDER, "c.jsonl").orElseThrow(), now.length, "\n{\"z\":3}".getBytes(StandardCharsets.UTF_8));

        assertEquals(inode, ChatViews.inode(chat), "changed in place, not replaced");
        byte[] streamed = new byte[before.length];
        System.arraycopy(start, 0, streamed, 0, 10);
        System.arraycopy(stream.readAllBytes(), 0, streamed, 10, before.length - 10);
        assertArrayEquals(before, streamed, "the stream reads the chat as it was opened");
        assertEquals(before.length, channel.size());
        assertArrayEquals(before, readAll(channel), "and so does a channel, by position");
        stream.close();
        channel.close();

        String expected = new String(before, 0, (int) early, StandardCharsets.UTF_8) + "{\"y\":\"a much longer end than before\"}\n{\"z\":3}";
        try (InputStream fresh = store.open(USER, FOLDER, "c.jsonl").orElseThrow()) {
            assertEquals(expected, new String(fresh.readAllBytes(), StandardCharsets.UTF_8), "a new reader sees the saves");
        }
        assertTrue(Files.getLastModifiedTime(chat).compareTo(OLD) > 0);
        assertEquals(List.of("c.jsonl"), names(chat.getParent()), "no journal left");
    }

    /** What a crash at each step of a tail save leaves: the journal, and the chat untouched to fully changed. */
    @Test
    void aJournalLeftByACrashRollsTheChatBackWhateverStepItStoppedAt() throws IOException {
        byte[] before = chatBytes("{\"name\":\"N\",\"mes\":\"the old end\"}");
        long cut = offsetOf(before, "{\"name\":\"N\",\"mes\":\"message 19");
        byte[] old = Arrays.copyOfRange(before, (int) cut, before.length);
        byte[] newEnd = "{\"name\":\"N\",\"mes\":\"a new end that never got saved\"}".getBytes(StandardCharsets.UTF_8);
        for (int written : new int[]{-1, 0, newEnd.length / 2, newEnd.length}) { // -1: not even truncated
            writeChat(before);
            TailJournal.write(TailJournal.of(chat), new TailJournal.Entry("c.jsonl", cut, OLD, old));
            if (written >= 0) {
                try (FileChannel file = FileChannel.open(chat, StandardOpenOption.WRITE)) {
                    file.truncate(cut);
                    file.write(ByteBuffer.wrap(newEnd, 0, written), cut);
                }
            }
            FileChatStore restarted = new FileChatStore(root); // a new process
            assertEquals(before.length, restarted.find(USER, FOLDER, "c.jsonl").orElseThrow().size(), "written " + written);
            assertArrayEquals(before, Files.readAllBytes(chat));
            assertEquals(OLD, Files.getLastModifiedTime(chat), "as if the save never happened");
            assertEquals(List.of("c.jsonl"), names(chat.getParent()));
        }
    }

    @Test
    void aJournalLeftBehindInAUsedFolderIsRolledBackWhenTheChatIsNextUsed() throws IOException {
        byte[] before = writeChat(chatBytes());
        FileChatStore store = new FileChatStore(root);
        assertEquals(1, store.list(USER, FOLDER).size()); // the folder is swept now
        long cut = offsetOf(before, "{\"name\":\"N\",\"mes\":\"message 10");
        // a save of this process that failed and could not roll back (the disk went away meanwhile)
        TailJournal.write(TailJournal.of(chat), new TailJournal.Entry("c.jsonl", cut, OLD,
                Arrays.copyOfRange(before, (int) cut, before.length)));
        try (FileChannel file = FileChannel.open(chat, StandardOpenOption.WRITE)) {
            file.truncate(cut);
        }
        assertEquals(before.length, store.list(USER, FOLDER).get(0).size(), "a listing rolls back first");
        assertArrayEquals(before, Files.readAllBytes(chat));
        assertEquals(List.of("c.jsonl"), names(chat.getParent()));

        TailJournal.write(TailJournal.of(chat), new TailJournal.Entry("c.jsonl", cut, OLD,
                Arrays.copyOfRange(before, (int) cut, before.length)));
        try (FileChannel file = FileChannel.open(chat, StandardOpenOption.WRITE)) {
            file.truncate(cut);
        }
        try (InputStream in = store.open(USER, FOLDER, "c.jsonl").orElseThrow()) {
            assertArrayEquals(before, in.readAllBytes(), "so does an open");
        }
    }

    @Test
    void aHalfWrittenJournalIsDroppedAndTheChatKept() throws IOException {
        byte[] before = writeChat(chatBytes());
        Path journal = TailJournal.of(chat);
        TailJournal.write(journal, new TailJournal.Entry("c.jsonl", 100, OLD, Arrays.copyOfRange(before, 100, before.length)));
        byte[] full = Files.readAllBytes(journal);
        for (int length : new int[]{0, 10, full.length / 2, full.length - 1}) {
            Files.write(journal, Arrays.copyOf(full, length));
            try (InputStream in = new FileChatStore(root).open(USER, FOLDER, "c.jsonl").orElseThrow()) {
                assertArrayEquals(before, in.readAllBytes(), "cut at " + length);
            }
            assertEquals(List.of("c.jsonl"), names(chat.getParent()), "the journal is gone");
        }
        full[full.length - 20] ^= 1; // a damaged byte in the old end
        Files.write(journal, full);
        new FileChatStore(root).list(USER, FOLDER);
        assertArrayEquals(before, Files.readAllBytes(chat));
        assertEquals(List.of("c.jsonl"), names(chat.getParent()));
    }

    @Test
    void draftsLeftByACrashAreDeletedOnFirstUseAndChatsNever() throws IOException {
        Path chats = root.resolve(USER + "/chats");
        Files.createDirectories(chats.resolve("Bramble"));
        for (String name : List.of(".tankard-draft.123", "Bramble/.tankard-draft.7")) {
            Files.writeString(chats.resolve(name), "half a chat");
        }
        List<String> oddChats = List.of(".tankard-draft.5.jsonl", ".tankard-draft.jsonl", ".tankard-journal.0123.jsonl",
                ".tankard-draft.9x");
        for (String name : oddChats) {
            Files.writeString(chats.resolve(name), "{\"user_name\":\"unused\"}");
        }
        FileChatStore store = new FileChatStore(root);
        assertEquals(3, store.list(USER, ChatFolder.character("")).size());
        assertEquals(oddChats.stream().sorted().toList(), names(chats).stream().filter(n -> !n.equals("Bramble")).toList());
        store.list(USER, FOLDER);
        assertEquals(List.of(), names(chats.resolve("Bramble")));

        try (ChatStore.Draft draft = store.draft(USER)) {
            draft.out().write('{');
            store.list(USER, ChatFolder.character(""));
            store.find(USER, FOLDER, "c.jsonl");
            assertEquals(oddChats.size() + 1, names(chats).stream().filter(n -> n.startsWith(".tankard-draft.")
                    || n.startsWith(".tankard-journal.")).count(), "a draft of this process is left alone");
        }
    }

    @Test
    void staleTempFilesOfWholeChatWritesAreDeletedOnFirstUseFreshOnesKept() throws IOException {
        Path folder = root.resolve(USER + "/chats/Bramble");
        Files.createDirectories(folder);
        Path stale = Files.writeString(folder.resolve("c.jsonl.tankard-4242424242"), "half a chat");
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(Duration.ofHours(1))));
        Path fresh = Files.writeString(folder.resolve("d.jsonl.tankard-7777777777"), "a write under way");
        Path stsTemp = Files.writeString(folder.resolve("e.jsonl.4242"), "ST's, not ours");
        Files.setLastModifiedTime(stsTemp, FileTime.from(Instant.now().minus(Duration.ofHours(1))));

        new FileChatStore(root).list(USER, FOLDER);

        assertEquals(List.of("d.jsonl.tankard-7777777777", "e.jsonl.4242"), names(folder));
        assertTrue(Files.exists(fresh));
    }

    @Test
    void everyTailSaveMovesTheMtimeOnHoweverCloseTheyAre() throws IOException {
        byte[] before = writeChat(chatBytes());
        FileChatStore store = new FileChatStore(root);
        double last = store.find(USER, FOLDER, "c.jsonl").orElseThrow().modifiedMs();
        for (int i = 0; i < 50; i++) { // same size every time: only the mtime tells the saves apart (the cursor)
            store.replaceTail(USER, FOLDER, "c.jsonl", store.find(USER, FOLDER, "c.jsonl").orElseThrow(), before.length, ("\n{\"n\":" + i % 10 + "}").getBytes(StandardCharsets.UTF_8));
            double now = store.find(USER, FOLDER, "c.jsonl").orElseThrow().modifiedMs();
            assertTrue(now > last, "save " + i + ": " + now + " after " + last);
            last = now;
        }
    }

    @Test
    void aTailSaveTooLargeToJournalReplacesTheFile() throws IOException {
        byte[] before = writeChat(chatBytes());
        FileChatStore store = new FileChatStore(root);
        Object inode = ChatViews.inode(chat);
        byte[] big = new byte[(int) FileChatStore.MAX_IN_PLACE + 1];
        Arrays.fill(big, (byte) 'x');
        store.replaceTail(USER, FOLDER, "c.jsonl", store.find(USER, FOLDER, "c.jsonl").orElseThrow(), before.length, big);
        store.replaceTail(USER, FOLDER, "c.jsonl", store.find(USER, FOLDER, "c.jsonl").orElseThrow(), before.length, "\n{}".getBytes(StandardCharsets.UTF_8));
        assertNotEquals(inode, ChatViews.inode(chat), "the old end was too large to keep: copied and renamed");
        assertEquals(new String(before, StandardCharsets.UTF_8) + "\n{}", Files.readString(chat));
    }

    private static List<String> names(Path folder) throws IOException {
        try (var list = Files.list(folder)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
