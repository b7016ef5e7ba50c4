package tankard.http;

import tankard.testing.FileLayout;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoreHttpTest extends ServerTest {
    @BeforeEach
    void start() {
        server = TestServer.start();
    }

    @Test
    void aPathWithABrokenEscapeIsA400WithAMessage() {
        for (String path : new String[]{"/api/characters/%zz", "/proxy/http://example.invalid/%", "/%e"}) {
            HttpResponse<Buffer> r = server.client().get(path);
            assertEquals(400, r.statusCode(), path);
            assertEquals("application/json", r.getHeader("Content-Type").split(";")[0], path);
        }
    }

    @Test
    void csrfTokenIsStablePerSessionAndNewPerBrowser() {
        TestServer.Client a = server.client();
        String first = a.csrfToken();
        assertEquals(64, first.length());
        a.refreshCsrf();
        assertEquals(first, a.csrfToken());
        assertNotEquals(first, server.client().csrfToken());
    }

    @Test
    void postWithoutOrWithWrongCsrfTokenIsForbidden() {
        TestServer.Client client = server.client();
        HttpResponse<Buffer> ok = client.post("/api/ping", null);
        assertEquals(204, ok.statusCode());

        var wrong = client.session.post("/api/ping").putHeader("X-CSRF-Token", "0".repeat(64));
        HttpResponse<Buffer> forbidden = TestServer.Client.send(wrong, null);
        assertEquals(403, forbidden.statusCode());
        assertTrue(forbidden.bodyAsJsonObject().getString("error").contains("CSRF"));

        HttpResponse<Buffer> none = TestServer.Client.send(server.plainClient().post("/api/ping"), null);
        assertEquals(403, none.statusCode());
    }

    @Test
    void versionNamesTheSillyTavernReleaseWeSpeak() {
        JsonObject version = server.client().get("/version").bodyAsJsonObject();
        assertEquals("1.18.0", version.getString("agent").split(":")[1]);
        assertEquals("1.18.0", version.getString("pkgVersion"));
    }

    @Test
    void unknownRoutesAnswer404Json() {
        HttpResponse<Buffer> r = server.client().post("/api/nothing-here", "{}");
        assertEquals(404, r.statusCode());
        assertTrue(r.getHeader("Content-Type").startsWith("application/json"));
    }

    @Test
    @FileLayout
    void firstStartCreatesTheDefaultUserAndItsFolders() {
        assertTrue(Files.isDirectory(server.userDir().resolve("characters")));
        assertTrue(Files.isDirectory(server.userDir().resolve("User Avatars")));
        assertTrue(Files.isDirectory(server.dataRoot.resolve("_storage")));
        assertTrue(Files.isRegularFile(server.dataRoot.resolve("cookie-secret.txt")));
    }

    @Test
    void multipartFilesOnlyInTheAvatarField() {
        TestServer.Client client = server.client();
        var form = io.vertx.ext.web.multipart.MultipartForm.create()
                .binaryFileUpload("file", "card.png", Buffer.buffer("not really a png"), "image/png");
        var request = client.request(io.vertx.core.http.HttpMethod.POST, "/api/ping");
        HttpResponse<Buffer> wrongField = TestServer.await(request.sendMultipartForm(form));
        assertEquals(400, wrongField.statusCode());
        assertTrue(wrongField.bodyAsJsonObject().getString("error").contains("avatar"));

        var good = io.vertx.ext.web.multipart.MultipartForm.create()
                .binaryFileUpload("avatar", "card.png", Buffer.buffer("x"), "image/png")
                .binaryFileUpload("other", "", Buffer.buffer(""), "application/octet-stream");
        HttpResponse<Buffer> ok = TestServer.await(client.request(io.vertx.core.http.HttpMethod.POST, "/api/ping")
                .sendMultipartForm(good));
        assertEquals(204, ok.statusCode());
    }

    @Test
    void heartbeatFileIsWrittenWhenConfigured() throws Exception {
        try (TestServer beating = TestServer.start("heartbeatInterval: 1\n")) {
            var file = beating.dataRoot.resolve("heartbeat.json");
            for (int i = 0; i < 100 && !Files.exists(file); i++) {
                Thread.sleep(50);
            }
            assertTrue(Files.readString(file).matches("\\{\"timestamp\":\\d+}"));
        }
        assertTrue(Files.notExists(server.dataRoot.resolve("heartbeat.json")));
    }

    @Test
    void frontendIsServedWithoutLogin() {
        HttpResponse<Buffer> r = TestServer.Client.send(server.plainClient().get("/"), null);
        assertEquals(200, r.statusCode());
        assertTrue(r.bodyAsString().contains("Tankard test"));
    }
}
