package tankard.extension;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExtensionHttpTest extends ServerTest {
    private static JsonObject ext(String type, String name) {
        return new JsonObject().put("type", type).put("name", name);
    }

    @Test
    void discoverListsSystemThenLocalThenUnshadowedGlobal() throws IOException {
        Path work = TestServer.tempDir();
        Path extensions = Files.createDirectories(work.resolve("public/scripts/extensions"));
        for (String dir : new String[] {"regex", "memory", "third-party/shared", "third-party/only-global"}) {
            Files.createDirectories(extensions.resolve(dir));
        }
        Files.writeString(extensions.resolve("not-a-folder.js"), "");
        server = TestServer.startIn(work);
        Files.createDirectories(server.userDir().resolve("extensions/shared"));
        Files.createDirectories(server.userDir().resolve("extensions/mine"));

        HttpResponse<Buffer> r = server.client().get("/api/extensions/discover");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonArray()
                .add(ext("system", "memory")).add(ext("system", "regex"))
                .add(ext("local", "third-party/mine")).add(ext("local", "third-party/shared"))
                .add(ext("global", "third-party/only-global")), r.bodyAsJsonArray());
    }

    @Test
    void discoverWithoutAnyExtensionFoldersIsEmpty() {
        server = TestServer.start();
        assertEquals(new JsonArray(), server.client().get("/api/extensions/discover").bodyAsJsonArray());
    }

    @Test
    void versionReportsNonGitExtensionsAsUpToDate() throws IOException {
        server = TestServer.start();
        Files.createDirectories(server.userDir().resolve("extensions/mine"));
        TestServer.Client client = server.client();
        // The frontend sends "/mine" (its id with "third-party" cut off).
        HttpResponse<Buffer> r = client.post("/api/extensions/version", "{\"extensionName\":\"/mine\",\"global\":false}");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonObject().put("currentBranchName", "").put("currentCommitHash", "").put("isUpToDate", true)
                .put("remoteUrl", ""), r.bodyAsJsonObject());
        assertEquals(404, client.post("/api/extensions/version", "{\"extensionName\":\"/other\"}").statusCode());
        assertEquals(404, client.post("/api/extensions/version", "{\"extensionName\":\"mine\",\"global\":true}").statusCode());
        assertEquals(400, client.post("/api/extensions/version", "{\"extensionName\":\"..\"}").statusCode());
        assertEquals(400, client.post("/api/extensions/version", "{}").statusCode());
    }

    @Test
    void gitOperationsAreNotSupportedYet() {
        server = TestServer.start();
        HttpResponse<Buffer> r = server.client().post("/api/extensions/install", "{\"url\":\"https://example.com/x\"}");
        assertEquals(501, r.statusCode());
        assertTrue(r.bodyAsJsonObject().getString("error").contains("not supported"));
    }

    @Test
    void disabledExtensionsAnswer404() {
        server = TestServer.start("extensions:\n  enabled: false\n");
        assertEquals(404, server.client().get("/api/extensions/discover").statusCode());
        assertEquals(404, server.client().post("/api/extensions/version", "{\"extensionName\":\"x\"}").statusCode());
    }
}
