package tankard.util;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.StNames;
import tankard.testing.TestImages;
import tankard.testing.TestServer;

import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Routes that make a file of a request's name, given a name that sanitize cuts to 255 bytes or that, with its
 * extension and the atomic writer's temp suffix, is longer than a file system allows: ST fails with a 500 there,
 * Tankard answers a 400 with a JSON error before it writes anything.
 */
class LongNamesHttpTest extends ServerTest {
    private static final String[] TOO_LONG = {"x".repeat(300), "y".repeat(240), "é".repeat(120)};

    @BeforeEach
    void startServer() {
        start(null);
        client.post("/api/characters/create", "{\"ch_name\":\"Ren\"}");
        client.post("/api/chats/save", "{\"ch_name\":\"Ren\",\"file_name\":\"c1\",\"avatar_url\":\"Ren.png\",\"chat\":[{\"chat_metadata\":{}}]}");
    }

    @Test
    void tooLongNamesAre400AndWriteNothing() {
        String png = Base64.getEncoder().encodeToString(TestImages.image("png", 4, 4));
        Set<Path> before = StNames.files(server.userDir());
        List<String> stored = server.files().paths();
        for (String name : TOO_LONG) {
            String json = StNames.json(name);
            assertRefused(client.post("/api/characters/create", "{\"ch_name\":" + json + "}"), name);
            assertRefused(client.post("/api/characters/create", "{\"ch_name\":\"A\",\"file_name\":" + json + "}"), name);
            assertRefused(client.post("/api/characters/rename", "{\"avatar_url\":\"Ren.png\",\"new_name\":" + json + "}"), name);
            assertRefused(client.post("/api/images/upload", "{\"image\":\"" + png + "\",\"format\":\"png\",\"filename\":" + json + "}"), name);
            assertRefused(client.post("/api/files/upload", "{\"name\":" + json + ",\"data\":\"eA==\"}"), name);
            assertRefused(client.postForm("/api/sprites/upload", MultipartForm.create().attribute("name", "Ren").attribute("label", name)
                    .binaryFileUpload("avatar", "s.png", Buffer.buffer(TestImages.image("png", 4, 4)), "image/png")), name);
            assertRefused(send("/api/chats/import", MultipartForm.create().attribute("file_type", "jsonl").attribute("avatar_url", "Ren.png")
                    .attribute("character_name", name).attribute("user_name", "U")
                    .binaryFileUpload("avatar", "c.jsonl", Buffer.buffer("{\"user_name\":\"U\",\"character_name\":\"C\"}\n"), "application/octet-stream")), name);
            String card = "{\"spec\":\"chara_card_v2\",\"spec_version\":\"2.0\",\"data\":{\"name\":" + json + "}}";
            HttpResponse<Buffer> imported = send("/api/characters/import", MultipartForm.create().attribute("file_type", "json")
                    .binaryFileUpload("avatar", "c.json", Buffer.buffer(card), "application/json"));
            assertTrue(imported.statusCode() == 400 || imported.bodyAsString().contains("\"error\":true"), imported.bodyAsString());
        }
        StNames.assertOnlyAdded(server.userDir(), before, Set.of());
        assertEquals(stored, server.files().paths());
    }

    @Test
    void theCleanedNamesStGivesAreKept() {
        String png = Base64.getEncoder().encodeToString(TestImages.image("png", 4, 4));
        HttpResponse<Buffer> image = client.post("/api/images/upload", "{\"image\":\"" + png + "\",\"format\":\"png\",\"filename\":\"../a/b: c?.jpg\",\"ch_name\":\"../Ren\"}");
        assertEquals("{\"path\":\"/user/images/..Ren/..ab c.png\"}", image.bodyAsString());
        assertTrue(server.files().exists("user/images/..Ren/..ab c.png"));
        HttpResponse<Buffer> sprite = client.postForm("/api/sprites/upload", MultipartForm.create().attribute("name", "Ren").attribute("label", "jo/y:")
                .binaryFileUpload("avatar", "s.png", Buffer.buffer(TestImages.image("png", 4, 4)), "image/png"));
        assertEquals(200, sprite.statusCode(), sprite.bodyAsString());
        assertTrue(server.files().exists("characters/Ren/joy.png"));
    }

    private HttpResponse<Buffer> send(String path, MultipartForm form) {
        return TestServer.await(client.request(HttpMethod.POST, path).sendMultipartForm(form));
    }

    private static void assertRefused(HttpResponse<Buffer> r, String name) {
        assertEquals(400, r.statusCode(), name.length() + " bytes: " + r.bodyAsString());
        assertTrue(json(r).path("error").isTextual(), r.bodyAsString());
    }
}
