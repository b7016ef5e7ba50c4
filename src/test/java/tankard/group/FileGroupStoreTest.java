package tankard.group;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class FileGroupStoreTest extends GroupStoreContract {
    private final Path root = TestServer.tempDir();

    @Override
    GroupStore open() {
        return new FileGroupStore(root);
    }

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(root);
    }

    @Test
    void aGroupIsWrittenAsStsPrettyJsonFileAndUnreadableFilesAreSkipped() throws Exception {
        open().save("alice", "1", group("1", "one"));
        Path groups = root.resolve("alice/groups");
        assertArrayEquals(JsJson.prettyBytes(group("1", "one")), Files.readAllBytes(groups.resolve("1.json")));
        Files.writeString(groups.resolve("broken.json"), "{not json");
        Files.writeString(groups.resolve("list.json"), "[1]");
        Files.writeString(groups.resolve("notes.txt"), "{}");
        assertEquals(1, open().list("alice").size());
    }
}
