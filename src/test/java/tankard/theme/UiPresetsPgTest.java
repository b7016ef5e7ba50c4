package tankard.theme;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.store.DocumentStore.Folder;
import tankard.testing.PgDocuments;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Themes, Moving UI presets and Quick Reply sets on PostgreSQL, named and cleaned as on files. */
class UiPresetsPgTest {
    private final PgDocuments pg = new PgDocuments();
    private final UiPresets presets = new UiPresets(pg.store);

    @AfterEach
    void cleanUp() {
        pg.close();
    }

    @Test
    void documentsAreSavedPrettyUnderTheirCleanedNamesAndDeleted() {
        presets.save("alice", Folder.THEMES, "../Dark: Mode", JsJson.parse("{\"name\":\"Dark\"}"));
        assertEquals("{\n    \"name\": \"Dark\"\n}", new String(pg.store.read("alice", Folder.THEMES,
                "..Dark Mode.json").orElseThrow(), StandardCharsets.UTF_8));
        assertTrue(presets.delete("alice", Folder.THEMES, "../Dark: Mode"));
        assertFalse(presets.delete("alice", Folder.THEMES, "../Dark: Mode"));
        assertEquals(List.of(), pg.store.list("alice", Folder.THEMES));
        assertEquals(Refusal.Kind.BAD_REQUEST, assertThrows(Refusal.class,
                () -> presets.save("alice", Folder.QUICK_REPLIES, "", JsJson.object())).kind());
    }
}
