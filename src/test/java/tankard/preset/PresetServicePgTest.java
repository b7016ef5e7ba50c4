package tankard.preset;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.content.DefaultContent;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.store.DocumentStore.Folder;
import tankard.testing.PgDocuments;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Presets on PostgreSQL: stored pretty under their sanitized names, read back, deleted, refused as on files. */
class PresetServicePgTest {
    private final PgDocuments pg = new PgDocuments();
    private final PresetService presets = new PresetService(pg.store, new DefaultContent(List.of()));

    @AfterEach
    void cleanUp() {
        pg.close();
    }

    @Test
    void presetsAreSavedReadAndDeletedUnderTheirSanitizedNames() {
        assertEquals("My Preset", presets.save("alice", "koboldhorde", "My: Preset?", JsJson.parse("{\"t\":0.7}")));
        assertEquals("{\n    \"t\": 0.7\n}", new String(pg.store.read("alice", Folder.KOBOLD_SETTINGS,
                "My Preset.json").orElseThrow(), StandardCharsets.UTF_8));
        assertEquals(0.7, presets.read("alice", "kobold", "My Preset").orElseThrow().get("t").asDouble());
        assertEquals(Optional.empty(), presets.read("bob", "kobold", "My Preset"));

        presets.delete("alice", "kobold", "My Preset");
        assertEquals(List.of(), pg.store.list("alice", Folder.KOBOLD_SETTINGS));
        assertEquals(Refusal.Kind.NOT_FOUND, assertThrows(Refusal.class, () -> presets.delete("alice", "kobold", "My Preset")).kind());
        assertEquals(Refusal.Kind.BAD_REQUEST, assertThrows(Refusal.class, () -> presets.save("alice", "nope", "a", JsJson.object())).kind());
        assertEquals(Refusal.Kind.BAD_REQUEST, assertThrows(Refusal.class, () -> presets.save("alice", "openai", "..", JsJson.object())).kind());
    }
}
