package tankard.preset;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.store.DocumentStore;
import tankard.testing.ServerTest;
import tankard.testing.StNames;
import tankard.testing.TestServer;
import tankard.testing.UserDocuments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PresetHttpTest extends ServerTest {
    @Test
    void saveWritesThePresetPrettyUnderItsSanitizedName() throws IOException {
        server = TestServer.start();
        HttpResponse<Buffer> r = server.client().post("/api/presets/save",
                "{\"apiId\":\"openai\",\"name\":\"My: Preset?\",\"preset\":{\"temperature\":0.7,\"top_p\":1,"
                        + "\"tiny\":1e-7,\"prompts\":[{\"name\":\"Main\"}],\"logit_bias\":[]}}");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonObject().put("name", "My Preset"), r.bodyAsJsonObject());
        assertEquals("""
                {
                    "temperature": 0.7,
                    "top_p": 1,
                    "tiny": 1e-7,
                    "prompts": [
                        {
                            "name": "Main"
                        }
                    ],
                    "logit_bias": []
                }""", document("OpenAI Settings/My Preset.json"));
    }

    @Test
    void namesAreCleanedAsStCleansThemAndNothingIsWrittenOutsideTheFolder() throws IOException {
        server = TestServer.start();
        TestServer.Client client = server.client();
        Path folder = server.userDir().resolve("OpenAI Settings");
        Set<Path> before = UserDocuments.all(server);
        Set<Path> written = new HashSet<>();
        for (StNames.Case c : StNames.CASES) {
            String name = StNames.json(c.name());
            HttpResponse<Buffer> r = client.post("/api/presets/save",
                    "{\"apiId\":\"openai\",\"name\":" + name + ",\"preset\":{\"n\":1}}");
            if (c.thenJson() == null) {
                assertEquals(400, r.statusCode(), c.name());
                assertTrue(r.bodyAsJsonObject().getString("error").length() > 0, r.bodyAsString());
                assertEquals(400, client.post("/api/presets/delete", "{\"apiId\":\"openai\",\"name\":" + name + "}").statusCode());
                continue;
            }
            assertEquals(200, r.statusCode(), c.name());
            String stored = c.thenJson().substring(0, c.thenJson().length() - ".json".length());
            assertEquals(new JsonObject().put("name", stored), r.bodyAsJsonObject());
            assertEquals("{\n    \"n\": 1\n}", document("OpenAI Settings/" + c.thenJson()));
            written.add(folder.resolve(c.thenJson()));
        }
        StNames.assertOnlyAdded(server, before, written);
        for (StNames.Case c : StNames.CASES) {
            if (c.thenJson() != null) {
                assertEquals(200, client.post("/api/presets/delete", "{\"apiId\":\"openai\",\"name\":"
                        + StNames.json(c.name()) + "}").statusCode(), c.name());
            }
        }
        StNames.assertOnlyAdded(server, before, Set.of());
    }

    @Test
    void everyApiIdHasItsFolder() throws IOException {
        server = TestServer.start();
        String[][] folders = {{"kobold", "KoboldAI Settings"}, {"koboldhorde", "KoboldAI Settings"},
                {"novel", "NovelAI Settings"}, {"textgenerationwebui", "TextGen Settings"}, {"instruct", "instruct"},
                {"context", "context"}, {"sysprompt", "sysprompt"}, {"reasoning", "reasoning"}};
        for (String[] folder : folders) {
            server.client().post("/api/presets/save", "{\"apiId\":\"" + folder[0] + "\",\"name\":\"p-" + folder[0]
                    + "\",\"preset\":{}}");
            assertEquals("{}", document(folder[1] + "/p-" + folder[0] + ".json"));
        }
    }

    @Test
    void badSavesAre400AndWriteNothing() throws IOException {
        server = TestServer.start();
        TestServer.Client client = server.client();
        String[] bodies = {
                "{\"apiId\":\"nope\",\"name\":\"x\",\"preset\":{}}",
                "{\"apiId\":\"openai\",\"name\":\"x\"}",
                "{\"apiId\":\"openai\",\"name\":\"x\",\"preset\":\"text\"}",
                "{\"apiId\":\"openai\",\"preset\":{}}",
                "{\"apiId\":\"openai\",\"name\":\"CON\",\"preset\":{}}",
                "{\"apiId\":\"openai\",\"name\":\"..\",\"preset\":{}}",
                "{\"apiId\":\"openai\",\"name\":{\"x\":1},\"preset\":{}}",
                "{\"apiId\":\"openai\",\"name\":\"x\",\"preset\":{}",
        };
        for (String body : bodies) {
            assertEquals(400, client.post("/api/presets/save", body).statusCode(), body);
        }
        // the files on disk and the documents wherever the store keeps them
        assertTrue(UserDocuments.all(server).stream().noneMatch(p -> p.getFileName().toString().endsWith("x.json")
                || p.getFileName().toString().equals("b.json")));
        assertEquals(List.of(), UserDocuments.folder(server, "OpenAI Settings"));
    }

    @Test
    void deleteRemovesOnlyExistingPresets() throws IOException {
        server = TestServer.start();
        server.putDocument(DocumentStore.Folder.TEXTGEN_SETTINGS, "Old.json", "{}");
        server.putDocument(DocumentStore.Folder.ROOT, "keep.json", "{}");
        TestServer.Client client = server.client();
        assertEquals(404, client.post("/api/presets/delete", "{\"apiId\":\"textgenerationwebui\",\"name\":\"../keep\"}").statusCode());
        assertEquals(400, client.post("/api/presets/delete", "{\"apiId\":\"nope\",\"name\":\"Old\"}").statusCode());
        assertEquals(404, client.post("/api/presets/delete", "{\"apiId\":\"textgenerationwebui\",\"name\":\"New\"}").statusCode());
        HttpResponse<Buffer> ok = client.post("/api/presets/delete", "{\"apiId\":\"textgenerationwebui\",\"name\":\"Old\"}");
        assertEquals(200, ok.statusCode());
        assertEquals("OK", ok.bodyAsString());
        assertFalse(server.hasDocument(DocumentStore.Folder.TEXTGEN_SETTINGS, "Old.json"));
        assertTrue(server.hasDocument(DocumentStore.Folder.ROOT, "keep.json"));
    }

    @Test
    void restoreReadsTheShippedDefault() throws IOException {
        Path work = TestServer.tempDir();
        Files.createDirectories(work.resolve("public"));
        Path content = Files.createDirectories(work.resolve("default/content"));
        Files.createDirectories(content.resolve("presets/kobold"));
        Files.writeString(content.resolve("presets/kobold/Godlike.json"), "{\"temp\": 0.7}");
        Files.writeString(content.resolve("index.json"), "[{\"filename\":\"presets/kobold/Godlike.json\","
                + "\"type\":\"kobold_preset\"},{\"filename\":\"settings.json\",\"type\":\"settings\"}]");
        server = TestServer.startIn(work);
        TestServer.Client client = server.client();
        assertEquals(new JsonObject().put("isDefault", true).put("preset", new JsonObject().put("temp", 0.7)),
                client.post("/api/presets/restore", "{\"apiId\":\"koboldhorde\",\"name\":\"Godlike\"}").bodyAsJsonObject());
        JsonObject notDefault = new JsonObject().put("isDefault", false).put("preset", new JsonObject());
        assertEquals(notDefault, client.post("/api/presets/restore", "{\"apiId\":\"novel\",\"name\":\"Godlike\"}").bodyAsJsonObject());
        assertEquals(notDefault, client.post("/api/presets/restore", "{\"apiId\":\"kobold\",\"name\":\"Mine\"}").bodyAsJsonObject());
        assertEquals(notDefault, client.post("/api/presets/restore", "{\"apiId\":\"kobold\",\"name\":\"settings\"}").bodyAsJsonObject());
    }

    @Test
    void restoreWithoutAnStInstallReadsTankardsOwnDefaults() throws IOException {
        server = TestServer.start();
        HttpResponse<Buffer> r = server.client().post("/api/presets/restore", "{\"apiId\":\"koboldhorde\",\"name\":\"Balanced\"}");
        assertEquals(200, r.statusCode());
        JsonObject body = r.bodyAsJsonObject();
        assertEquals(true, body.getBoolean("isDefault"));
        assertEquals(new JsonObject(Files.readString(Path.of("src/main/resources/default-content/presets/kobold/Balanced.json"))),
                body.getJsonObject("preset"), "the default is Tankard's shipped file");
        assertEquals(new JsonObject().put("isDefault", false).put("preset", new JsonObject()),
                server.client().post("/api/presets/restore", "{\"apiId\":\"novel\",\"name\":\"Balanced\"}").bodyAsJsonObject());
        assertEquals(400, server.client().post("/api/presets/restore", "{\"apiId\":\"kobold\",\"name\":[1]}").statusCode());
    }
}
