package tankard.content;

import tankard.character.FileCardStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.store.DocumentStore.Folder;
import tankard.testing.PgDocuments;
import tankard.testing.TestServer;
import tankard.user.UserDirs;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Default content with the documents on PostgreSQL: JSON documents go to the store, images stay files. */
class ContentSeederPgTest {
    private static final Path BUNDLED = DefaultContent.bundledFolder();
    private final PgDocuments pg = new PgDocuments();
    private final Path root = TestServer.tempDir();
    private final UserDirs dirs = UserDirs.of(root, "alice");
    private final ContentSeeder seeder = new ContentSeeder(root, new DefaultContent(List.of(BUNDLED)), pg.store,
            new FileCardStore(root), ContentSeederTest.blobs(root));

    @AfterEach
    void cleanUp() {
        pg.close();
        TestServer.deleteTree(root);
    }

    @Test
    void documentsAreSeededIntoTheStoreOnceAndNeverOverwritten() throws Exception {
        seeder.seedUser(dirs.handle(), Set.of());

        assertArrayEquals(Files.readAllBytes(BUNDLED.resolve("settings.json")),
                pg.store.read("alice", Folder.ROOT, "settings.json").orElseThrow());
        assertTrue(pg.store.read("alice", Folder.INSTRUCT, "ChatML.json").isPresent());
        assertEquals(0, pg.store.read("alice", Folder.SYSPROMPT, ".migrated").orElseThrow().length);
        assertTrue(Files.isRegularFile(dirs.characters().resolve("default_Wren.png")), "images stay files");
        assertFalse(Files.exists(dirs.settingsFile()), "documents are not files");

        byte[] mine = "{\"mine\":true}".getBytes(StandardCharsets.UTF_8);
        pg.store.write("alice", Folder.ROOT, "settings.json", mine);
        seeder.seedUser(dirs.handle(), Set.of("settings"));
        assertArrayEquals(mine, pg.store.read("alice", Folder.ROOT, "settings.json").orElseThrow());
    }
}
