package tankard.comfy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.StNames;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The workflows of {@code user/workflows/}, blobs. */
class ComfyWorkflowHttpTest extends ServerTest {
    private static final String WORKFLOWS = "user/workflows/";

    @BeforeEach
    void start() {
        start(null);
        workflow("Default_Comfy_Workflow.json", "{\"default\":\"\\\"x\\\"\"}");
        workflow("a b.JSON", "{}");
        workflow("ab.json", "{}");
        workflow(".hidden.json", "{}");
        workflow("notes.txt", "");
    }

    private void workflow(String name, String content) {
        put(WORKFLOWS + name, content.getBytes(StandardCharsets.UTF_8));
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
    void saveDeleteAndRename() {
        HttpResponse<Buffer> saved = client.post("/api/sd/comfy/save-workflow",
                "{\"file_name\":\"new.json\",\"workflow\":\"{\\\"1\\\": {}}\"}");
        assertEquals(200, saved.statusCode());
        assertTrue(saved.bodyAsJsonArray().contains("new.json"));
        assertEquals("{\"1\": {}}", document(WORKFLOWS + "new.json"));

        assertEquals(409, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"new.json\",\"new_name\":\"ab.json\"}").statusCode());
        assertEquals(404, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"zz.json\",\"new_name\":\"yy.json\"}").statusCode());
        assertEquals(400, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"new.json\",\"new_name\":\"x.txt\"}").statusCode());
        assertEquals(204, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"new.json\",\"new_name\":\"renamed.json\"}").statusCode());
        assertEquals("{\"1\": {}}", document(WORKFLOWS + "renamed.json"));
        assertFalse(hasDocument(WORKFLOWS + "new.json"));

        assertEquals(200, client.post("/api/sd/comfy/delete-workflow", "{\"file_name\":\"renamed.json\"}").statusCode());
        assertFalse(hasDocument(WORKFLOWS + "renamed.json"));
        assertEquals(200, client.post("/api/sd/comfy/delete-workflow", "{\"file_name\":\"renamed.json\"}").statusCode());
    }

    @Test
    void namesAreCleanedAsStCleansThemAndNothingIsWrittenOutsideTheFolder() {
        server.files().delete(WORKFLOWS + "ab.json"); // the name "a/b" writes it
        Set<String> before = Set.copyOf(server.files().paths());
        Set<Path> outside = filesOutsideTheUsersFolder();
        Set<String> written = new TreeSet<>(before);
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
            assertEquals("{}", document(WORKFLOWS + c.withJson()));
            assertEquals("\"{}\"", client.post("/api/sd/comfy/workflow", "{\"file_name\":" + fileName + "}").bodyAsString());
            written.add(WORKFLOWS + c.withJson());
        }
        assertEquals(written, new TreeSet<>(server.files().paths()));
        for (StNames.Case c : StNames.CASES) {
            if (c.withJson() != null) {
                assertEquals(200, client.post("/api/sd/comfy/delete-workflow",
                        "{\"file_name\":" + StNames.json(c.name() + ".json") + "}").statusCode());
            }
        }
        assertEquals(before, Set.copyOf(server.files().paths()));
        assertEquals(outside, filesOutsideTheUsersFolder());
    }

    private Set<Path> filesOutsideTheUsersFolder() {
        Path user = server.workDir.relativize(server.userDir());
        return StNames.files(server.workDir).stream().filter(file -> !file.startsWith(user)).collect(Collectors.toSet());
    }

    @Test
    void renameRefusesSeparatorsAndBadBodiesAre400() {
        put("settings.json", "{}".getBytes(StandardCharsets.UTF_8));
        // only rename checks the names for separators before cleaning them (ST: getFileNameValidationFunction)
        assertEquals(400, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"../../settings.json\",\"new_name\":\"s.json\"}").statusCode());
        assertEquals(400, client.post("/api/sd/comfy/rename-workflow", "{\"old_name\":\"ab.json\",\"new_name\":\"../s.json\"}").statusCode());
        assertEquals(400, client.post("/api/sd/comfy/save-workflow", "{\"file_name\":\"x.json\",\"workflow\":{}}").statusCode());
        assertEquals(400, client.post("/api/sd/comfy/save-workflow", "{\"workflow\":\"{}\"}").statusCode());
        assertTrue(hasDocument("settings.json"));
        assertTrue(hasDocument(WORKFLOWS + "ab.json"));
        assertFalse(hasDocument(WORKFLOWS + "x.json"));
        assertFalse(hasDocument(WORKFLOWS + "s.json"));
    }
}
