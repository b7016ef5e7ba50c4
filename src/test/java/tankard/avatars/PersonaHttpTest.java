package tankard.avatars;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;
import tankard.testing.TestServer;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Persona images: {@code /api/avatars/upload} and {@code /api/avatars/delete} (ST: src/endpoints/avatars.js). */
class PersonaHttpTest extends ServerTest {
    @BeforeEach
    void startServer() {
        start(null);
    }

    private HttpResponse<Buffer> upload(byte[] bytes, String query, String overwriteName) {
        MultipartForm form = MultipartForm.create().binaryFileUpload("avatar", "me.png", Buffer.buffer(bytes), "image/png");
        if (overwriteName != null) {
            form.attribute("overwrite_name", overwriteName);
        }
        return TestServer.await(client.request(HttpMethod.POST, "/api/avatars/upload" + query).sendMultipartForm(form));
    }

    @Test
    void uploadStoresAPngUnderANewName() throws IOException {
        HttpResponse<Buffer> response = upload(TestImages.image("jpeg", 20, 10), "", null);
        assertEquals(200, response.statusCode(), response.bodyAsString());
        String name = json(response).get("path").asText();
        assertTrue(name.matches("\\d+\\.png"), name);
        byte[] stored = documentBytes("User Avatars/" + name);
        assertTrue(TestImages.isPng(stored));
        assertEquals(20, TestImages.decode(stored).getWidth());
    }

    @Test
    void cropWithResizeMakesTheStandardAvatarSize() throws IOException {
        String crop = URLEncoder.encode("{\"x\":0,\"y\":0,\"width\":10,\"height\":10,\"want_resize\":true}", StandardCharsets.UTF_8);
        String name = json(upload(TestImages.image("png", 40, 40), "?crop=" + crop, null)).get("path").asText();
        BufferedImage image = TestImages.decode(documentBytes("User Avatars/" + name));
        assertEquals(512, image.getWidth());
        assertEquals(768, image.getHeight());
        String plain = URLEncoder.encode("{\"x\":5,\"y\":5,\"width\":12,\"height\":8}", StandardCharsets.UTF_8);
        String cropped = json(upload(TestImages.image("png", 40, 40), "?crop=" + plain, null)).get("path").asText();
        BufferedImage small = TestImages.decode(documentBytes("User Avatars/" + cropped));
        assertEquals(12, small.getWidth());
        assertEquals(8, small.getHeight());
    }

    @Test
    void overwriteReplacesTheFileAndInvalidatesItsThumbnail() throws IOException {
        put("User Avatars/me.png", TestImages.image("png", 4, 4));
        put("thumbnails/persona/me.png", "old thumbnail".getBytes(StandardCharsets.UTF_8));
        HttpResponse<Buffer> response = upload(TestImages.image("png", 16, 16), "", "me.png");
        assertEquals("me.png", json(response).get("path").asText());
        assertEquals(16, TestImages.decode(documentBytes("User Avatars/me.png")).getWidth());
        assertFalse(Files.exists(user("thumbnails/persona/me.png")));
    }

    @Test
    void overwriteNameIsCleanedAsStCleansIt() throws IOException {
        HttpResponse<Buffer> response = upload(TestImages.image("png", 4, 4), "", "..\\me: <2>?.png");
        assertEquals("..me 2.png", json(response).get("path").asText());
        assertEquals(List.of("..me 2.png"), server.files().list("User Avatars"));
    }

    @Test
    void badUploadsAreRefused() throws IOException {
        HttpResponse<Buffer> notImage = upload("not an image".getBytes(StandardCharsets.UTF_8), "", null);
        assertEquals(400, notImage.statusCode());
        assertEquals("Is not a valid image", notImage.bodyAsString());
        assertEquals(400, upload(TestImages.image("png", 4, 4), "", "../evil.png").statusCode());
        assertFalse(hasDocument("evil.png"));
        // cleaned to nothing, or too long to store: ST fails on the folder or the temp name; Tankard refuses first
        for (String name : new String[] {"con.png", "..", "x".repeat(300)}) {
            HttpResponse<Buffer> r = upload(TestImages.image("png", 4, 4), "", name);
            assertEquals(400, r.statusCode(), name);
            assertTrue(json(r).path("error").isTextual(), r.bodyAsString());
        }
        HttpResponse<Buffer> noFile = TestServer.await(client.request(HttpMethod.POST, "/api/avatars/upload")
                .sendMultipartForm(MultipartForm.create().attribute("overwrite_name", "x.png")));
        assertEquals(400, noFile.statusCode());
        assertEquals(List.of(), server.files().list("User Avatars"));
    }

    @Test
    void deleteRemovesTheFileAndThumbnail() throws IOException {
        put("User Avatars/gone.png", TestImages.image("png", 4, 4));
        put("thumbnails/persona/gone.png", TestImages.image("png", 2, 2));
        HttpResponse<Buffer> response = client.post("/api/avatars/delete", "{\"avatar\":\"gone.png\"}");
        assertEquals(200, response.statusCode());
        assertEquals("{\"result\":\"ok\"}", response.bodyAsString());
        assertFalse(hasDocument("User Avatars/gone.png"));
        assertFalse(Files.exists(user("thumbnails/persona/gone.png")));

        assertEquals(404, client.post("/api/avatars/delete", "{\"avatar\":\"gone.png\"}").statusCode());
        assertEquals(400, client.post("/api/avatars/delete", "{}").statusCode());
        assertEquals(400, client.post("/api/avatars/delete", "{\"avatar\":\"../settings.json\"}").statusCode());
        assertEquals(403, client.post("/api/avatars/delete", "{\"avatar\":\"..\"}").statusCode());
        assertEquals(400, client.post("/api/avatars/delete", "{bad json").statusCode());
    }
}
