package tankard.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.testing.PgDocuments;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Secrets on PostgreSQL: the changes of concurrent requests all stay, as they do under ST's single process. */
class SecretStorePgTest {
    private final PgDocuments pg = new PgDocuments();
    private final DocumentStore documents = pg.store;
    private final SecretStore secrets = new SecretStore(documents, false);

    @AfterEach
    void cleanUp() {
        pg.close();
    }

    @Test
    void concurrentWritesOfOneUserAreAllKeptWithOneActive() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> writes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String value = "sk-" + i;
                writes.add(pool.submit(() -> secrets.write("alice", SecretKeys.OPENAI, value, null)));
            }
            for (Future<String> write : writes) {
                write.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        JsonNode openai = secrets.state("alice").get(SecretKeys.OPENAI);
        assertEquals(8, openai.size());
        int active = 0;
        for (JsonNode entry : openai) {
            active += entry.get("active").asBoolean() ? 1 : 0;
        }
        assertEquals(1, active);
    }

    @Test
    void aFlatDocumentIsMigratedOnceWithItsCopyKept() {
        byte[] flat = "{\"api_key_openai\":\"sk-old\"}".getBytes(StandardCharsets.UTF_8);
        documents.write("alice", Folder.ROOT, "secrets.json", flat);

        assertEquals("sk-old", secrets.read("alice", SecretKeys.OPENAI));
        JsonNode migrated = JsJson.parse(documents.read("alice", Folder.ROOT, "secrets.json").orElseThrow());
        assertEquals("sk-old", migrated.path(SecretKeys.OPENAI).path(0).path("value").asText());
        assertEquals(1, documents.list("alice", Folder.BACKUPS).size());
        assertEquals("sk-old", secrets.read("alice", SecretKeys.OPENAI));
        assertEquals(1, documents.list("alice", Folder.BACKUPS).size());
    }
}
