package tankard.comfy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.StNames;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComfyWorkflowHttpTest extends ServerTest {
    private Path workflows;

    @BeforeEach
    void start() throws IOException {
        start(null);
        workflows = server.userDir().resolve("user/workflows");
        Files.writeString(workflows.resolve("Default_Comfy_Workflow.json"), "{\"default\":\"\\\"x\\\"\"}");
        Files.writeString(workflows.resolve("a b.JSON"), "{}");
        Files.writeString(workflows.resolve("ab.json"), "{}");
        Files.writeString(workflows.resolve(".hidden.json"), "{}");
        Files.writeString(workflows.resolve("notes.txt"), "");
    }

    @Test
    void listsJsonWorkflowsInLocaleOrder() {
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/workflows", "{\"url\":\"http://127.0.0.1:8188\"}");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonArray().add("a b.JSON").add("ab.json").add("Default_Comfy_Workflow.json"), r.bodyAsJsonArray());
    }

    @Test
    void workflowIsAJsonEncodedStringFallingBackToTheDefault() {
        HttpResponse<Buffer> r = client.post("/api/sd/comfy/workflow", "{\"file_name\":\"ab.json\"}");
        assertEquals(200, r.statusCode());
        assertEquals("\"{}\"", r.bodyAsString());
        HttpResponse<Buffer> fallback = client.post("/api/sd/comfy/workflow", "{\"file_name\":\"missing.json\"}");
        assertEquals("\"{\\\"default\\\":\\\"\\\\\\\"x\\\\\\\"\\\"}\"", fallback.bodyAsString());
    }

    @Test
    void saveDeleteAndRename() throws IOException {
        HttpResponse<Buffer> saved = client.post("/api/sd/comfy/save-workflow",
                "{\"file_name\":\"new.json\",\"workflow\":\"{\\\"1\\\": {}}\"}");
        assertEquals(200, saved.statusCode());
        assertTrue(saved.bodyAsJsonArray().contains("new.json"));
        assertEquals("{\"1\": {}}", Files.readString(workflows.resolve("new.json")));

        assertEquals(409, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"new.json\",\"new_name\":\"ab.json\"}").statusCode());
        assertEquals(404, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"zz.json\",\"new_name\":\"yy.json\"}").statusCode());
        assertEquals(400, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"new.json\",\"new_name\":\"x.txt\"}").statusCode());
        assertEquals(204, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"new.json\",\"new_name\":\"renamed.json\"}").statusCode());
        assertTrue(Files.exists(workflows.resolve("renamed.json")));

        assertEquals(200, client.post("/api/sd/comfy/delete-workflow", "{\"file_name\":\"renamed.json\"}").statusCode());
        assertFalse(Files.exists(workflows.resolve("renamed.json")));
        assertEquals(200, client.post("/api/sd/comfy/delete-workflow", "{\"file_name\":\"renamed.json\"}").statusCode());
    }

    @Test
    void namesAreCleanedAsStCleansThemAndNothingIsWrittenOutsideTheFolder() throws IOException {
        Files.delete(workflows.resolve("ab.json")); // the name "a/b" writes it
        Set<Path> before = StNames.files(server.workDir);
        Set<Path> written = new HashSet<>();
        for (StNames.Case c : StNames.CASES) {
            String fileName = StNames.json(c.name() + ".json");
            HttpResponse<Buffer> saved = client.post("/api/sd/comfy/save-workflow",
                    "{\"file_name\":" + fileName + ",\"workflow\":\"{}\"}");
            if (c.withJson() == null) {
                assertEquals(400, saved.statusCode(), c.name());
                assertEquals(400, client.post("/api/sd/comfy/workflow", "{\"file_name\":" + fileName + "}").statusCode());
                assertEquals(400, client.post("/api/sd/comfy/delete-workflow", "{\"file_name\":" + fileName + "}").statusCode());
                continue;
            }
            assertEquals(200, saved.statusCode(), c.name());
            assertEquals("{}", Files.readString(workflows.resolve(c.withJson())));
            assertEquals("\"{}\"", client.post("/api/sd/comfy/workflow", "{\"file_name\":" + fileName + "}").bodyAsString());
            written.add(workflows.resolve(c.withJson()));
        }
        StNames.assertOnlyAdded(server.workDir, before, written);
        for (StNames.Case c : StNames.CASES) {
            if (c.withJson() != null) {
                assertEquals(200, client.post("/api/sd/comfy/delete-workflow",
                        "{\"file_name\":" + StNames.json(c.name() + ".json") + "}").statusCode());
            }
        }
        StNames.assertOnlyAdded(server.workDir, before, Set.of());
    }

    @Test
    void renameRefusesSeparatorsAndBadBodiesAre400() throws IOException {
        Files.writeString(server.userDir().resolve("settings.json"), "{}");
        // only rename checks the names for separators before cleaning them (ST: getFileNameValidationFunction)
        assertEquals(400, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"../../settings.json\",\"new_name\":\"s.json\"}").statusCode());
        assertEquals(400, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"ab.json\",\"new_name\":\"../s.json\"}").statusCode());
        assertEquals(400, client.post("/api/sd/comfy/save-workflow", "{\"file_name\":\"x.json\",\"workflow\":{}}").statusCode());
        assertEquals(400, client.post("/api/sd/comfy/save-workflow", "{\"workflow\":\"{}\"}").statusCode());
        assertTrue(Files.exists(server.userDir().resolve("settings.json")));
        assertTrue(Files.exists(workflows.resolve("ab.json")));
        assertFalse(Files.exists(workflows.resolve("x.json")));
        assertFalse(Files.exists(workflows.resolve("s.json")));
    }
}
