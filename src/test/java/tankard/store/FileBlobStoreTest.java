package tankard.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FileBlobStoreTest extends BlobStoreContract {
    @TempDir
    Path root;

    @Override
    protected BlobStore store() {
        return new FileBlobStore(root, BlobStoreContract::isBlob);
    }

    @Test
    void blobsAreStsFilesInStsFolders() throws Exception {
        BlobStore store = store();
        write(store, "alice", "user/images/Seraphina/x.png", utf8("png"));
        write(store, "alice", "User Avatars/p.png", utf8("avatar"));

        assertArrayEquals(utf8("png"), Files.readAllBytes(root.resolve("alice/user/images/Seraphina/x.png")));
        assertArrayEquals(utf8("avatar"), Files.readAllBytes(root.resolve("alice/User Avatars/p.png")));
        try (var files = Files.list(root.resolve("alice/user/images/Seraphina"))) {
            assertEquals(1, files.count()); // no temp file left behind
        }
        assertEquals(Files.getLastModifiedTime(root.resolve("alice/User Avatars/p.png")).toMillis(),
                (long) store.stat("alice", "User Avatars/p.png").orElseThrow().modifiedMs());
    }

    @Test
    void theOtherStoresFilesAndWritesUnderWayAreNeverListedOrDeleted() throws Exception {
        Path alice = root.resolve("alice");
        Files.createDirectories(alice.resolve("characters/Seraphina"));
        Files.writeString(alice.resolve("characters/Seraphina.png"), "a card");
        Files.writeString(alice.resolve("settings.json"), "{}");
        Files.writeString(alice.resolve("characters/Seraphina/joy.png.tankard-1234567890"), "half a sprite");
        Files.writeString(alice.resolve("characters/Seraphina/joy.png"), "a sprite");
        BlobStore store = store();

        assertEquals(List.of(), store.list("alice", "characters"));
        assertEquals(List.of("characters/Seraphina/joy.png"), paths(store.list("alice", "characters/Seraphina")));
        assertEquals(List.of("characters/Seraphina/joy.png"), paths(store.walk("alice", "")));
        assertEquals(1, store.deleteFolder("alice", "characters"));
        store.deleteAll("alice");
        assertTrue(Files.exists(alice.resolve("characters/Seraphina.png")));
        assertTrue(Files.exists(alice.resolve("settings.json")));
    }

    @Test
    void anEmptiedFolderStaysButDeleteFolderRemovesWhatItEmptied() {
        BlobStore store = store();
        write(store, "alice", "user/images/Seraphina/x.png", utf8("x"));
        write(store, "alice", "user/images/Alice/y.png", utf8("y"));

        store.delete("alice", "user/images/Seraphina/x.png");
        assertEquals(List.of("Alice", "Seraphina"), store.folders("alice", "user/images"));
        store.deleteFolder("alice", "user/images/Alice");
        assertEquals(List.of("Seraphina"), store.folders("alice", "user/images"));
        assertTrue(Files.isDirectory(root.resolve("alice/user/images")));
    }
}
