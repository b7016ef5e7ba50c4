package tankard.content;

import tankard.character.FileCardStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.store.pg.PgBlobStore;
import tankard.store.pg.PgDocumentStore;
import tankard.testing.ScratchDatabase;
import tankard.testing.TestServer;
import tankard.user.UserDirs;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Default content on PostgreSQL: JSON documents go to the document store, backgrounds, persona images and the
 * content.log to the blob store, and nothing of it is a file of the node.
 */
class ContentSeederPgTest {
    private static final Path BUNDLED = DefaultContent.bundledFolder();
    private final ScratchDatabase database = new ScratchDatabase();
    private final DocumentStore documents = new PgDocumentStore(database.db);
    private final BlobStore blobs = new PgBlobStore(database.db, path -> !DocumentStore.isDocument(path));
    private final Path root = TestServer.tempDir();
    private final UserDirs dirs = UserDirs.of(root, "alice");
    private final ContentSeeder seeder = new ContentSeeder(root, new DefaultContent(List.of(BUNDLED)), documents,
            new FileCardStore(root), blobs);

    @AfterEach
    void cleanUp() {
        database.close();
        TestServer.deleteTree(root);
    }

    @Test
    void documentsAndImagesAreSeededIntoTheStoresOnceAndNeverOverwritten() throws Exception {
        seeder.seedUser(dirs.handle(), Set.of());

        assertArrayEquals(Files.readAllBytes(BUNDLED.resolve("settings.json")),
                documents.read("alice", Folder.ROOT, "settings.json").orElseThrow());
        assertTrue(documents.read("alice", Folder.INSTRUCT, "ChatML.json").isPresent());
        assertEquals(0, documents.read("alice", Folder.SYSPROMPT, ".migrated").orElseThrow().length);
        assertTrue(Files.isRegularFile(dirs.characters().resolve("default_Wren.png")), "the card store's");
        assertFalse(Files.exists(dirs.settingsFile()), "documents are not files");
        assertArrayEquals(Files.readAllBytes(BUNDLED.resolve("backgrounds/tankard-dusk-road.png")),
                blob("backgrounds/tankard-dusk-road.png"));
        assertTrue(blobs.stat("alice", "User Avatars/user-default.png").isPresent());
        assertFalse(Files.exists(dirs.backgrounds()), "images are not files");
        String log = new String(blob("content.log"), StandardCharsets.UTF_8);
        assertTrue(log.contains("\nbackgrounds/tankard-dusk-road.png\n"), log);
        assertFalse(Files.exists(root.resolve("alice/content.log")));

        byte[] mine = "{\"mine\":true}".getBytes(StandardCharsets.UTF_8);
        documents.write("alice", Folder.ROOT, "settings.json", mine);
        blobs.write("alice", "backgrounds/tankard-dusk-road.png", new ByteArrayInputStream(mine));
        double logged = blobs.stat("alice", "content.log").orElseThrow().modifiedMs();
        seeder.seedUser(dirs.handle(), Set.of());
        assertEquals(logged, blobs.stat("alice", "content.log").orElseThrow().modifiedMs(), "the log is unchanged");
        seeder.seedUser(dirs.handle(), Set.of("settings", "background"));
        assertArrayEquals(mine, documents.read("alice", Folder.ROOT, "settings.json").orElseThrow());
        assertArrayEquals(mine, blob("backgrounds/tankard-dusk-road.png"));
    }

    private byte[] blob(String path) throws IOException {
        try (InputStream in = blobs.open("alice", path).orElseThrow()) {
            return in.readAllBytes();
        }
    }
}
