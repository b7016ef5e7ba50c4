package tankard.worldinfo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.store.DocumentStore.Folder;
import tankard.testing.PgDocuments;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Lorebooks on PostgreSQL: saved, imported, listed, read and deleted under ST's names, refused as on files. */
class WorldInfoStorePgTest {
    private final PgDocuments pg = new PgDocuments();
    private final WorldInfoStore books = new WorldInfoStore(pg.store);

    @AfterEach
    void cleanUp() {
        pg.close();
    }

    @Test
    void booksAreStoredListedAndDeletedAsOnFiles() {
        books.save("alice", "../Atlas", JsJson.parse("{\"entries\":{},\"name\":\"The Atlas\"}"));
        assertEquals("{\n    \"entries\": {},\n    \"name\": \"The Atlas\"\n}", books.read("alice", "../Atlas"));
        assertEquals("..Atlas", books.importBook("alice", "..Atlas.txt", "\uFEFF{\"entries\":{\"0\":1}}"));
        assertEquals("{\"entries\":{\"0\":1}}", new String(pg.store.read("alice", Folder.WORLDS, "..Atlas.json")
                .orElseThrow(), StandardCharsets.UTF_8), "an import is kept as sent, without its BOM");
        books.save("alice", "b", JsJson.parse("{\"entries\":[]}"));
        assertEquals("[{\"file_id\":\"..Atlas\",\"name\":\"..Atlas\",\"extensions\":{}},"
                + "{\"file_id\":\"b\",\"name\":\"b\",\"extensions\":{}}]", JsJson.compact(books.list("alice")));

        books.delete("alice", "b");
        assertNull(books.read("alice", "b"));
        assertEquals(Refusal.Kind.NOT_FOUND, assertThrows(Refusal.class, () -> books.delete("alice", "b")).kind());
        assertEquals(Refusal.Kind.BAD_REQUEST, assertThrows(Refusal.class,
                () -> books.save("alice", "c", JsJson.parse("[]"))).kind());
        assertEquals(Refusal.Kind.BAD_REQUEST, assertThrows(Refusal.class,
                () -> books.save("alice", "a".repeat(300), JsJson.parse("{\"entries\":{}}"))).kind());
    }
}
