package tankard.store;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** What every {@link BlobStore} does, written once; a subclass per store supplies it. */
public abstract class BlobStoreContract {
    /** The PostgreSQL store's chunk size, which the sizes below fall on and around (on files, just sizes). */
    protected static final int CHUNK = 256 * 1024;

    /** A store with no blobs, taking for blobs what {@link #isBlob} does; the subclass cleans up after each test. */
    protected abstract BlobStore store();

    /**
     * Which files the stores under test take for blobs: the wiring's rule (tankard.Stores.isBlob) in short, a user's
     * documents and cards being another store's.
     */
    protected static boolean isBlob(String path) {
        return !DocumentStore.isDocument(path) && !path.matches("characters/[^/]+\\.png");
    }

    protected static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Bytes that no compression shortens and no zero-filled chunk would match. */
    protected static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    protected static BlobStore.Entry write(BlobStore store, String user, String path, byte[] content) {
        return store.write(user, path, new ByteArrayInputStream(content));
    }

    protected static byte[] read(BlobStore store, String user, String path) throws IOException {
        try (InputStream in = store.open(user, path).orElseThrow(() -> new AssertionError("no blob " + path))) {
            return in.readAllBytes();
        }
    }

    /** The bytes, then an IOException: an upload cut short. */
    protected static InputStream failingAfter(byte[] bytes) {
        return new SequenceInputStream(new ByteArrayInputStream(bytes), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("the upload was cut");
            }
        });
    }

    protected static List<String> paths(List<BlobStore.Entry> entries) {
        return entries.stream().map(BlobStore.Entry::path).toList();
    }

    @Test
    void aBlobReadsBackByteForByte() throws Exception {
        BlobStore store = store();
        double before = System.currentTimeMillis() - 5_000;
        byte[] odd = {0, (byte) 0xFF, '\r', '\n', (byte) 0x89, 'P', 'N', 'G'};
        BlobStore.Entry written = write(store, "alice", "user/images/Seraphina/x.png", odd);
        write(store, "alice", "content.log", new byte[0]);

        assertEquals("user/images/Seraphina/x.png", written.path());
        assertEquals("x.png", written.name());
        assertEquals(odd.length, written.size());
        assertTrue(written.modifiedMs() > before, written.toString());
        assertEquals(written, store.stat("alice", "user/images/Seraphina/x.png").orElseThrow());
        assertArrayEquals(odd, read(store, "alice", "user/images/Seraphina/x.png"));
        assertArrayEquals(new byte[0], read(store, "alice", "content.log"));
        assertEquals(0, store.stat("alice", "content.log").orElseThrow().size());
        assertTrue(store.stat("alice", "user/images/Seraphina/y.png").isEmpty());
        assertTrue(store.open("alice", "user/images/Seraphina/y.png").isEmpty());
        assertTrue(store.open("nobody", "content.log", 0).isEmpty());
    }

    @Test
    void largeBlobsReadBackWholeOnAndAroundChunkBoundaries() throws Exception {
        BlobStore store = store();
        for (int size : List.of(CHUNK, 4 * CHUNK, 3 * 1024 * 1024 + 17, CHUNK - 1, CHUNK + 1)) {
            byte[] content = random(size, size);
            BlobStore.Entry written = write(store, "alice", "user/files/data.bin", content);
            assertEquals(size, written.size());
            assertEquals(size, store.stat("alice", "user/files/data.bin").orElseThrow().size());
            assertArrayEquals(content, read(store, "alice", "user/files/data.bin"), "size " + size);
        }
    }

    @Test
    void aReadStartsAtAnOffset() throws Exception {
        BlobStore store = store();
        byte[] content = random(4 * CHUNK + 100, 7);
        write(store, "alice", "backgrounds/sky.png", content);
        for (long offset : List.of(0L, 1L, CHUNK - 1L, (long) CHUNK, CHUNK + 5L, 4L * CHUNK, content.length - 1L,
                (long) content.length, content.length + 10L)) {
            try (BlobStore.Opened opened = store.open("alice", "backgrounds/sky.png", offset).orElseThrow()) {
                assertEquals(content.length, opened.entry().size());
                int from = (int) Math.min(offset, content.length);
                assertArrayEquals(Arrays.copyOfRange(content, from, content.length), opened.content().readAllBytes(),
                        "from " + offset);
            }
        }
        try (InputStream in = store.open("alice", "backgrounds/sky.png").orElseThrow()) {
            assertEquals(3L * CHUNK, in.skip(3L * CHUNK));
            assertArrayEquals(Arrays.copyOfRange(content, 3 * CHUNK, 3 * CHUNK + 10), in.readNBytes(10));
        }
        assertThrows(IllegalArgumentException.class, () -> store.open("alice", "backgrounds/sky.png", -1));
        assertTrue(store.open("alice", "backgrounds/none.png", 10).isEmpty());
    }

    @Test
    void aWriteReplacesTheWholeBlob() throws Exception {
        BlobStore store = store();
        write(store, "alice", "User Avatars/p.png", random(3 * CHUNK, 1));
        write(store, "alice", "User Avatars/p.png", utf8("small"));
        assertArrayEquals(utf8("small"), read(store, "alice", "User Avatars/p.png"));
        assertEquals(5, store.stat("alice", "User Avatars/p.png").orElseThrow().size());
        assertEquals(List.of("User Avatars/p.png"), paths(store.walk("alice", "")));
    }

    @Test
    void aWriteWhoseStreamFailsMidwayLeavesTheOldBlob() throws Exception {
        BlobStore store = store();
        byte[] old = random(CHUNK + 3, 2);
        write(store, "alice", "backgrounds/sky.png", old);

        assertThrows(UncheckedIOException.class, () -> store.write("alice", "backgrounds/sky.png",
                failingAfter(random(5 * CHUNK + 9, 3))));
        assertThrows(UncheckedIOException.class, () -> store.write("alice", "backgrounds/new.png",
                failingAfter(random(100, 4))));

        assertArrayEquals(old, read(store, "alice", "backgrounds/sky.png"));
        assertEquals(old.length, store.stat("alice", "backgrounds/sky.png").orElseThrow().size());
        assertTrue(store.stat("alice", "backgrounds/new.png").isEmpty());
        assertEquals(List.of("backgrounds/sky.png"), paths(store.list("alice", "backgrounds")));
    }

    @Test
    void aReadNeverMixesTheOldBlobWithTheNewOne() throws Exception {
        BlobStore store = store();
        byte[] old = random(8 * CHUNK, 5);
        write(store, "alice", "assets/bgm/song.mp3", old);
        try (InputStream in = store.open("alice", "assets/bgm/song.mp3").orElseThrow()) {
            byte[] start = in.readNBytes(10);
            write(store, "alice", "assets/bgm/song.mp3", random(8 * CHUNK, 6));
            byte[] rest;
            try {
                rest = in.readAllBytes();
            } catch (IOException replaced) {
                return; // the read fails rather than go on with the new bytes
            }
            byte[] whole = Arrays.copyOf(start, start.length + rest.length);
            System.arraycopy(rest, 0, whole, start.length, rest.length);
            assertArrayEquals(old, whole);
        }
    }

    @Test
    void concurrentWritesOfOnePathLeaveOneOfThemWhole() throws Exception {
        BlobStore store = store();
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            contents.add(random(CHUNK + 1000 * i, 100 + i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (byte[] content : contents) {
                writes.add(pool.submit(() -> write(store, "alice", "user/images/a.png", content)));
            }
            for (Future<?> done : writes) {
                done.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        byte[] stored = read(store, "alice", "user/images/a.png");
        assertTrue(contents.stream().anyMatch(content -> Arrays.equals(content, stored)));
        assertEquals(stored.length, store.stat("alice", "user/images/a.png").orElseThrow().size());
    }

    @Test
    void aListingIsTheFolderOwnFilesInNodeReaddirOrder() {
        BlobStore store = store();
        // written out of order; U+FF5E sorts before the emoji's surrogates by code point though not by UTF-16 unit
        for (String name : List.of("b.png", "\uD83D\uDE00.png", "a.png", "\uFF5E.png", "B.png", "é.png")) {
            write(store, "alice", "backgrounds/" + name, utf8(name));
        }
        write(store, "alice", "backgrounds/sub/deeper.png", utf8("x"));
        write(store, "alice", "backgrounds.png", utf8("x"));

        List<BlobStore.Entry> entries = store.list("alice", "backgrounds");
        assertEquals(List.of("B.png", "a.png", "b.png", "é.png", "\uFF5E.png", "\uD83D\uDE00.png"),
                entries.stream().map(BlobStore.Entry::name).toList());
        for (BlobStore.Entry entry : entries) {
            assertEquals("backgrounds/" + entry.name(), entry.path());
            assertEquals(utf8(entry.name()).length, entry.size(), entry.path());
        }
        assertEquals(List.of("backgrounds.png"), paths(store.list("alice", "")));
        assertEquals(List.of("backgrounds/sub/deeper.png"), paths(store.list("alice", "backgrounds/sub")));
        assertEquals(List.of(), store.list("alice", "assets"));
        assertEquals(List.of(), store.list("bob", "backgrounds"));
    }

    @Test
    void foldersAreTheDirectSubfoldersInNodeReaddirOrder() {
        BlobStore store = store();
        for (String path : List.of("user/images/Seraphina/1.png", "user/images/Alice/2.png", "user/images/Alice/old/3.png",
                "user/images/alice/4.png", "user/images/Al.ice/5.png", "user/images/top.png", "user/files/d.txt",
                "assets/live2d/model/m.json")) {
            write(store, "alice", path, utf8(path));
        }
        assertEquals(List.of("Al.ice", "Alice", "Seraphina", "alice"), store.folders("alice", "user/images"));
        assertEquals(List.of("old"), store.folders("alice", "user/images/Alice"));
        assertEquals(List.of("files", "images"), store.folders("alice", "user"));
        assertTrue(store.folders("alice", "").containsAll(List.of("assets", "user")));
        assertEquals(List.of(), store.folders("alice", "user/files"));
        assertEquals(List.of(), store.folders("alice", "backgrounds"));
        assertEquals(List.of(), store.folders("bob", "user"));
        // a folder is no blob
        assertTrue(store.stat("alice", "user/images/Alice").isEmpty());
        assertTrue(store.open("alice", "user/images/Alice").isEmpty());
        assertFalse(store.delete("alice", "user/images/Alice"));
        assertEquals(List.of("user/images/Alice/2.png"), paths(store.list("alice", "user/images/Alice")));
    }

    @Test
    void aWalkIsEverythingUnderTheFolderByPath() {
        BlobStore store = store();
        for (String path : List.of("assets/live2d/model/sub/m.json", "assets/bgm/b.mp3", "assets/live2d/model/m.json",
                "assets.txt", "assets-old/x.png", "assets/ambient/a.mp3")) {
            write(store, "alice", path, utf8(path));
        }
        assertEquals(List.of("assets/ambient/a.mp3", "assets/bgm/b.mp3", "assets/live2d/model/m.json",
                "assets/live2d/model/sub/m.json"), paths(store.walk("alice", "assets")));
        assertEquals(List.of("assets/live2d/model/m.json", "assets/live2d/model/sub/m.json"),
                paths(store.walk("alice", "assets/live2d")));
        assertEquals(6, store.walk("alice", "").size());
        assertEquals(List.of(), store.walk("alice", "assets/none"));
        assertEquals(utf8("assets/bgm/b.mp3").length, store.walk("alice", "assets/bgm").get(0).size());
    }

    @Test
    void deleteFolderDeletesEverythingUnderItAndNothingBeside() throws Exception {
        BlobStore store = store();
        for (String path : List.of("characters/Seraphina/joy.png", "characters/Seraphina/sub/sad.png",
                "characters/Seraphina-2/joy.png", "characters/Seraphina.txt", "characters/Seraphina2/joy.png")) {
            write(store, "alice", path, utf8(path));
        }
        write(store, "bob", "characters/Seraphina/joy.png", utf8("bob"));

        assertEquals(2, store.deleteFolder("alice", "characters/Seraphina"));
        assertEquals(List.of("characters/Seraphina-2/joy.png", "characters/Seraphina.txt", "characters/Seraphina2/joy.png"),
                paths(store.walk("alice", "")));
        assertEquals(List.of("Seraphina-2", "Seraphina2"), store.folders("alice", "characters"));
        assertArrayEquals(utf8("bob"), read(store, "bob", "characters/Seraphina/joy.png"));
        assertEquals(0, store.deleteFolder("alice", "characters/Seraphina"));
        assertEquals(0, store.deleteFolder("alice", "nothing/here"));
    }

    @Test
    void deleteAllDeletesEveryBlobOfTheUserAndNoOtherUsers() throws Exception {
        BlobStore store = store();
        for (String user : List.of("alice", "bob")) {
            write(store, user, "backgrounds/a.png", utf8(user));
            write(store, user, "user/files/notes.txt", random(2 * CHUNK, 9));
            write(store, user, "content.log", utf8("log"));
        }
        store.deleteAll("alice");

        assertEquals(List.of(), store.walk("alice", ""));
        assertTrue(store.stat("alice", "backgrounds/a.png").isEmpty());
        assertEquals(List.of("backgrounds/a.png", "content.log", "user/files/notes.txt"), paths(store.walk("bob", "")));
        assertArrayEquals(random(2 * CHUNK, 9), read(store, "bob", "user/files/notes.txt"));
    }

    @Test
    void deleteAnswersWhetherThereWasABlob() {
        BlobStore store = store();
        write(store, "alice", "user/workflows/Default.json", utf8("{}"));
        assertTrue(store.delete("alice", "user/workflows/Default.json"));
        assertFalse(store.delete("alice", "user/workflows/Default.json"));
        assertFalse(store.delete("alice", "user/workflows/never.json"));
        assertTrue(store.stat("alice", "user/workflows/Default.json").isEmpty());
        assertEquals(List.of(), store.list("alice", "user/workflows"));
    }

    @Test
    void aRestoredBlobKeepsItsModificationTime() throws Exception {
        BlobStore store = store();
        double older = 1_600_000_000_123.0; // 2020, to the millisecond
        double newer = 1_700_000_000_456.25; // and a fraction, as Node reports it
        store.restore("alice", new BlobStore.Entry("backgrounds/b.png", 0, newer), new ByteArrayInputStream(utf8("2")));
        store.restore("alice", new BlobStore.Entry("backgrounds/a.png", 0, older), new ByteArrayInputStream(random(CHUNK + 1, 8)));

        assertEquals(List.of(older, newer), store.list("alice", "backgrounds").stream().map(BlobStore.Entry::modifiedMs).toList());
        assertEquals(new BlobStore.Entry("backgrounds/a.png", CHUNK + 1, older), store.stat("alice", "backgrounds/a.png").orElseThrow());
        assertArrayEquals(random(CHUNK + 1, 8), read(store, "alice", "backgrounds/a.png"));
        assertEquals(newer, store.open("alice", "backgrounds/b.png", 0).orElseThrow().entry().modifiedMs());
    }

    @Test
    void aRenameMovesTheBlobWithItsTimeAndNeverReplacesOne() throws Exception {
        BlobStore store = store();
        byte[] content = random(CHUNK + 9, 10);
        store.restore("alice", new BlobStore.Entry("backgrounds/old.png", 0, 1_600_000_000_000.0), new ByteArrayInputStream(content));
        write(store, "alice", "backgrounds/taken.png", utf8("taken"));

        assertTrue(store.rename("alice", "backgrounds/old.png", "backgrounds/new.png"));
        assertEquals(new BlobStore.Entry("backgrounds/new.png", content.length, 1_600_000_000_000.0),
                store.stat("alice", "backgrounds/new.png").orElseThrow());
        assertArrayEquals(content, read(store, "alice", "backgrounds/new.png"));
        assertTrue(store.stat("alice", "backgrounds/old.png").isEmpty());
        assertFalse(store.rename("alice", "backgrounds/old.png", "backgrounds/other.png"));

        UncheckedIOException taken = assertThrows(UncheckedIOException.class,
                () -> store.rename("alice", "backgrounds/new.png", "backgrounds/taken.png"));
        assertInstanceOf(FileAlreadyExistsException.class, taken.getCause());
        assertArrayEquals(content, read(store, "alice", "backgrounds/new.png"));
        assertArrayEquals(utf8("taken"), read(store, "alice", "backgrounds/taken.png"));

        assertTrue(store.rename("alice", "backgrounds/new.png", "user/images/moved/here.png"));
        assertEquals(List.of("backgrounds/taken.png", "user/images/moved/here.png"), paths(store.walk("alice", "")));
        assertFalse(store.rename("bob", "backgrounds/taken.png", "backgrounds/mine.png"));
    }

    @Test
    void aPathThroughABlobOrOntoAFolderIsRefusedAsAFileSystemWould() throws Exception {
        BlobStore store = store();
        write(store, "alice", "assets/a.png", utf8("file"));
        write(store, "alice", "assets/dir/x.png", utf8("x"));

        UncheckedIOException through = assertThrows(UncheckedIOException.class,
                () -> write(store, "alice", "assets/a.png/y.png", utf8("y")));
        assertInstanceOf(NotDirectoryException.class, through.getCause());
        assertInstanceOf(FileSystemException.class, assertThrows(UncheckedIOException.class,
                () -> write(store, "alice", "assets/dir", utf8("y"))).getCause());
        assertInstanceOf(NotDirectoryException.class, assertThrows(UncheckedIOException.class,
                () -> store.rename("alice", "assets/dir/x.png", "assets/a.png/x.png")).getCause());
        assertInstanceOf(FileAlreadyExistsException.class, assertThrows(UncheckedIOException.class,
                () -> store.rename("alice", "assets/a.png", "assets/dir")).getCause());

        assertTrue(store.stat("alice", "assets/a.png/y.png").isEmpty());
        assertTrue(store.open("alice", "assets/a.png/y.png").isEmpty());
        assertFalse(store.delete("alice", "assets/a.png/y.png"));
        assertEquals(List.of(), store.list("alice", "assets/a.png"));
        assertEquals(List.of(), store.folders("alice", "assets/a.png"));
        assertEquals(List.of(), store.walk("alice", "assets/a.png"));
        assertEquals(List.of(), store.list("alice", "assets/a.png/deeper"));
        assertEquals(0, store.deleteFolder("alice", "assets/a.png"));
        assertEquals(List.of("assets/a.png", "assets/dir/x.png"), paths(store.walk("alice", "")));
        assertArrayEquals(utf8("file"), read(store, "alice", "assets/a.png"));
    }

    @Test
    void aNameTooLongForAFileIsRefusedAsTheFileSystemRefusesIt() {
        BlobStore store = store();
        String longName = "é".repeat(130) + ".png"; // 264 bytes
        for (Runnable call : List.<Runnable>of(() -> write(store, "alice", "backgrounds/" + longName, utf8("x")),
                () -> write(store, "alice", longName.substring(4) + "/a.png", utf8("x")),
                () -> store.stat("alice", "backgrounds/" + longName))) {
            UncheckedIOException refused = assertThrows(UncheckedIOException.class, call::run);
            FileSystemException cause = assertInstanceOf(FileSystemException.class, refused.getCause());
            assertEquals("File name too long", cause.getReason());
        }
        assertEquals(List.of(), store.walk("alice", ""));
    }

    @Test
    void usersWithTheSamePathNeverSeeOneAnother() throws Exception {
        BlobStore store = store();
        write(store, "alice", "User Avatars/me.png", utf8("alice"));
        write(store, "bob", "User Avatars/me.png", utf8("bob"));

        assertArrayEquals(utf8("alice"), read(store, "alice", "User Avatars/me.png"));
        assertArrayEquals(utf8("bob"), read(store, "bob", "User Avatars/me.png"));
        assertTrue(store.delete("bob", "User Avatars/me.png"));
        assertArrayEquals(utf8("alice"), read(store, "alice", "User Avatars/me.png"));
        assertEquals(List.of(), store.list("bob", "User Avatars"));
    }

    @Test
    void pathsThatLeaveTheUsersFolderAreRefusedAndNothingIsWritten() {
        BlobStore store = store();
        List<String> unsafe = List.of("", "../x.png", "a//b.png", "/abs.png", "a/../b.png", "a/./b.png", ".", "..",
                "a/", "nul\0.png", "a/b\0/c.png", "a\\b.png", "..\\x.png");
        for (String path : unsafe) {
            refused(path, p -> write(store, "alice", p, utf8("x")));
            refused(path, p -> store.restore("alice", new BlobStore.Entry(p, 1, 1), new ByteArrayInputStream(utf8("x"))));
            refused(path, p -> store.stat("alice", p));
            refused(path, p -> store.open("alice", p, 0));
            refused(path, p -> store.delete("alice", p));
            refused(path, p -> store.rename("alice", "backgrounds/a.png", p));
            refused(path, p -> store.rename("alice", p, "backgrounds/a.png"));
            refused(path, p -> store.deleteFolder("alice", p));
            refused(path, p -> write(store, p, "backgrounds/a.png", utf8("x")));
            if (!path.isEmpty()) {
                refused(path, p -> store.list("alice", p));
                refused(path, p -> store.folders("alice", p));
                refused(path, p -> store.walk("alice", p));
            }
        }
        refused(null, p -> store.stat("alice", p));
        assertEquals(List.of(), store.walk("alice", ""));
    }

    @Test
    void anotherStoresFilesAreRefused() {
        BlobStore store = store();
        for (String path : List.of("settings.json", "worlds/Lore.json", "characters/Seraphina.png")) {
            refused(path, p -> write(store, "alice", p, utf8("x")));
            refused(path, p -> store.stat("alice", p));
            refused(path, p -> store.delete("alice", p));
        }
        write(store, "alice", "characters/Seraphina/joy.png", utf8("a sprite"));
        assertEquals(List.of("characters/Seraphina/joy.png"), paths(store.walk("alice", "")));
    }

    private static void refused(String path, Consumer<String> call) {
        try {
            call.accept(path);
            fail("accepted " + path);
        } catch (IllegalArgumentException expected) {
            // the path never reached the store's files or rows
        }
    }
}
