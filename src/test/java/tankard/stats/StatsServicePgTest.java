package tankard.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.chat.FileChatStore;
import tankard.json.JsJson;
import tankard.store.DocumentStore.Folder;
import tankard.testing.PgDocuments;
import tankard.testing.TestServer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** stats.json on PostgreSQL: stored compact and stamped, read back, rebuilt when there is none. */
class StatsServicePgTest {
    private final PgDocuments pg = new PgDocuments();
    private final Path root = TestServer.tempDir();
    private final StatsService stats = new StatsService(pg.store, new StatsRebuilder(new FileChatStore(root), new tankard.character.FileCardStore(root)),
            () -> 42);
    private final String alice = "alice";

    @AfterEach
    void cleanUp() {
        pg.close();
        TestServer.deleteTree(root);
    }

    @Test
    void statisticsAreStoredStampedAndRebuiltWhenMissing() throws Exception {
        assertEquals("{\"timestamp\":42}", JsJson.compact(stats.get(alice)), "none stored: rebuilt, not stored");
        assertEquals(0, pg.store.list("alice", Folder.ROOT).size());

        stats.update("alice", (ObjectNode) JsJson.parse("{\"a.png\":{\"n\":1}}"));
        assertEquals("{\"a.png\":{\"n\":1},\"timestamp\":42}", new String(pg.store.read("alice", Folder.ROOT,
                "stats.json").orElseThrow(), StandardCharsets.UTF_8));
        assertEquals("{\"a.png\":{\"n\":1},\"timestamp\":42}", JsJson.compact(stats.get(alice)));

        pg.store.write("alice", Folder.ROOT, "stats.json", "[]".getBytes(StandardCharsets.UTF_8));
        stats.recreate(alice);
        assertEquals("{\"timestamp\":42}", new String(pg.store.read("alice", Folder.ROOT, "stats.json")
                .orElseThrow(), StandardCharsets.UTF_8));
    }
}
