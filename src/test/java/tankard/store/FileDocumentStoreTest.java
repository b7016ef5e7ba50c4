package tankard.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.store.DocumentStore.Folder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class FileDocumentStoreTest extends DocumentStoreContract {
    @TempDir
    Path root;

    @Override
    protected DocumentStore store() {
        return new FileDocumentStore(root);
    }

    @Test
    void documentsAreStsFilesInStsFolders() throws Exception {
        DocumentStore store = store();
        store.write("alice", Folder.ROOT, "settings.json", utf8("{\"a\":1}"));
        store.write("alice", Folder.KOBOLD_SETTINGS, "Deterministic.json", utf8("{}"));

        assertArrayEquals(utf8("{\"a\":1}"), Files.readAllBytes(root.resolve("alice/settings.json")));
        assertArrayEquals(utf8("{}"), Files.readAllBytes(root.resolve("alice/KoboldAI Settings/Deterministic.json")));
        try (var files = Files.list(root.resolve("alice/KoboldAI Settings"))) {
            assertEquals(1, files.count()); // no temp file left behind
        }
    }

    @Test
    void aListingLeavesOutFoldersAndWritesUnderWay() throws Exception {
        Files.createDirectories(root.resolve("alice/worlds/sub.json"));
        Files.writeString(root.resolve("alice/worlds/a.json.tankard-1234567890"), "{");
        Files.writeString(root.resolve("alice/worlds/a.json"), "{}");
        assertEquals(List.of("a.json"), store().list("alice", Folder.WORLDS).stream().map(DocumentStore.Entry::name).toList());
    }
}
