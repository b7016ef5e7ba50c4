package tankard.extension;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import tankard.testing.GitHttpServer;
import tankard.testing.PgScratch;
import tankard.testing.TestServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Two nodes on one database, each with extension folders of its own: what is installed, updated, moved or deleted
 * through one is brought to the other's folders when the other's frontend discovers its extensions.
 */
class ExtensionNodesTest {
    private static final String MANIFEST = "{\"display_name\":\"Tiny\",\"version\":\"1.0.0\",\"js\":\"index.js\"}";

    @Test
    void whatOneNodeDoesToAnExtensionTheOtherDoesBeforeServingIt() throws Exception {
        Path workOfA = TestServer.tempDir();
        Path workOfB = TestServer.tempDir();
        for (Path work : new Path[] {workOfA, workOfB}) {
            Files.createDirectories(work.resolve("public/scripts/extensions")); // each node's own frontend
        }
        try (GitHttpServer repos = GitHttpServer.start(); PgScratch database = PgScratch.create();
             TestServer a = TestServer.startIn(workOfA, database.environment());
             TestServer b = TestServer.startIn(workOfB, database.environment())) {
            Git origin = repos.create("tiny-ext", Map.of("manifest.json", MANIFEST, "index.js", "console.log('v1');\n"));
            TestServer.Client onA = a.client();
            TestServer.Client onB = b.client();
            String script = "/scripts/extensions/third-party/tiny-ext/index.js";
            assertEquals(200, onA.post("/api/extensions/install",
                    new JsonObject().put("url", repos.url("tiny-ext")).encode()).statusCode());
            assertEquals(404, onB.get(script).statusCode(), "not on B before its frontend asks");
            assertEquals(new JsonArray().add(local()), onB.get("/api/extensions/discover").bodyAsJsonArray());
            assertEquals("console.log('v1');\n", onB.get(script).bodyAsString());

            GitHttpServer.commit(origin, Map.of("index.js", "console.log('v2');\n"), "second");
            assertEquals(200, onA.post("/api/extensions/update", named()).statusCode());
            onB.get("/api/extensions/discover");
            assertEquals("console.log('v2');\n", onB.get(script).bodyAsString());
            assertEquals(origin.getRepository().resolve("HEAD").name(),
                    onB.post("/api/extensions/version", named()).bodyAsJsonObject().getString("currentCommitHash"));

            assertEquals(204, onA.post("/api/extensions/move", new JsonObject().put("extensionName", "/tiny-ext")
                    .put("source", "local").put("destination", "global").encode()).statusCode());
            assertEquals(new JsonArray().add(new JsonObject().put("type", "global").put("name", "third-party/tiny-ext")),
                    onB.get("/api/extensions/discover").bodyAsJsonArray(), "moved to the global folder on B too");
            Path globalOnB = workOfB.resolve("public/scripts/extensions/third-party/tiny-ext");
            assertEquals("console.log('v2');\n", Files.readString(globalOnB.resolve("index.js")));

            assertEquals(200, onA.post("/api/extensions/delete", new JsonObject().put("extensionName", "/tiny-ext")
                    .put("global", true).encode()).statusCode());
            assertEquals(new JsonArray(), onB.get("/api/extensions/discover").bodyAsJsonArray());
            assertFalse(Files.exists(globalOnB), "deleted on B");
        }
    }

    private static JsonObject local() {
        return new JsonObject().put("type", "local").put("name", "third-party/tiny-ext");
    }

    private static String named() {
        return new JsonObject().put("extensionName", "/tiny-ext").encode();
    }
}
