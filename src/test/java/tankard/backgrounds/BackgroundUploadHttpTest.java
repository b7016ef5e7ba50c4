package tankard.backgrounds;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/backgrounds/upload|delete|rename}: files, thumbnails and image metadata kept in step; bad input refused. */
class BackgroundUploadHttpTest extends ServerTest {
    private static final byte[] WEBM_HEAD = {0x1a, 0x45, (byte) 0xdf, (byte) 0xa3, 0, 0, 0, 0, 0, 0, 0, 0};

    @BeforeEach
    void start() {
        start(null);
    }

    private HttpResponse<Buffer> upload(String fileName, byte[] bytes, String type) {
        return client.postForm("/api/backgrounds/upload",
                MultipartForm.create().binaryFileUpload("avatar", fileName, Buffer.buffer(bytes), type));
    }

    private List<String> backgrounds() {
        return server.files().list("backgrounds");
    }

    /** The image metadata index, image-metadata.json: a document of the server's store. */
    private JsonNode metadata() {
        return JsJson.parse(documentBytes("image-metadata.json"));
    }

    @Test
    void uploadStoresTheFileUnderItsSanitizedNameAndGeneratesMetadata() throws IOException {
        byte[] png = TestImages.image("png", 32, 18);
        put("thumbnails/bg/sea view.png", TestImages.image("png", 2, 2));
        HttpResponse<Buffer> r = upload("sea view?.png", png, "image/png");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertTrue(r.getHeader("Content-Type").startsWith("text/html"));
        assertEquals("sea view.png", r.bodyAsString());
        assertArrayEquals(png, documentBytes("backgrounds/sea view.png"));
        assertFalse(Files.exists(user("thumbnails/bg/sea view.png")), "stale thumbnail deleted");
        JsonNode entry = metadata().path("images").path("backgrounds/sea view.png");
        assertEquals(1.7778, entry.path("aspectRatio").doubleValue());
        assertFalse(entry.path("isAnimated").booleanValue());
        assertTrue(client.post("/api/backgrounds/all", "{}").bodyAsString().contains("\"sea view.png\""));
    }

    @Test
    void animatedAndVideoBackgroundsAreTaken() throws IOException {
        assertEquals(200, upload("loop.gif", TestImages.image("gif", 8, 8), "image/gif").statusCode());
        assertTrue(metadata().path("images").path("backgrounds/loop.gif").path("isAnimated").booleanValue());
        assertTrue(client.post("/api/backgrounds/all", "{}").bodyAsString()
                .contains("{\"filename\":\"loop.gif\",\"isAnimated\":true}"));
        HttpResponse<Buffer> video = upload("clip.webm", WEBM_HEAD, "video/webm");
        assertEquals(200, video.statusCode(), video.bodyAsString());
        assertArrayEquals(WEBM_HEAD, documentBytes("backgrounds/clip.webm"));
    }

    @Test
    void traversalInTheUploadNameStaysInTheFolder() throws IOException {
        List<String> before = backgrounds();
        HttpResponse<Buffer> r = upload("../../evil.png", TestImages.image("png", 4, 4), "image/png");
        assertEquals(200, r.statusCode());
        assertEquals("evil.png", r.bodyAsString(), "multer keeps what follows the last separator");
        assertTrue(hasDocument("backgrounds/evil.png"));
        assertFalse(Files.exists(server.userDir().getParent().resolve("evil.png")));
        assertFalse(hasDocument("evil.png"));
        assertEquals(before.size() + 1, backgrounds().size());
    }

    @Test
    void badUploadsAreRefusedAndNothingIsWritten() throws IOException {
        List<String> before = backgrounds();
        byte[] png = TestImages.image("png", 4, 4);
        byte[] svg = "<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>".getBytes(StandardCharsets.UTF_8);
        assertEquals(400, upload("notes.png", "just text".getBytes(StandardCharsets.UTF_8), "image/png").statusCode());
        assertEquals(400, upload("x.svg", svg, "image/svg+xml").statusCode());
        assertEquals(400, upload("image.txt", png, "text/plain").statusCode());
        assertEquals(400, upload("con.png", png, "image/png").statusCode());
        assertEquals(400, upload("x".repeat(300) + ".png", png, "image/png").statusCode(), "too long to store");
        assertEquals(400, upload("up/..", png, "image/png").statusCode());
        assertEquals(400, upload("video.png", WEBM_HEAD, "image/png").statusCode());
        assertEquals(400, upload("image.webm", png, "video/webm").statusCode());
        HttpResponse<Buffer> wrongField = client.postForm("/api/backgrounds/upload",
                MultipartForm.create().binaryFileUpload("file", "x.png", Buffer.buffer(png), "image/png"));
        assertEquals(400, wrongField.statusCode());
        assertTrue(wrongField.bodyAsString().contains("upload the file as 'avatar'"), wrongField.bodyAsString());
        HttpResponse<Buffer> noFile = client.postForm("/api/backgrounds/upload", MultipartForm.create().attribute("note", "x"));
        assertEquals(400, noFile.statusCode());
        assertTrue(noFile.bodyAsString().contains("No background image uploaded"), noFile.bodyAsString());
        assertEquals(400, client.postForm("/api/backgrounds/upload", MultipartForm.create().attribute("x", "y")).statusCode());
        assertEquals(before, backgrounds());
        assertFalse(hasDocument("image-metadata.json"));
    }

    @Test
    void oversizedUploadIs413() throws IOException {
        List<String> before = backgrounds();
        byte[] big = Arrays.copyOf(TestImages.image("png", 4, 4), (int) BackgroundsFeature.MAX_UPLOAD_BYTES + 1);
        HttpResponse<Buffer> r = upload("huge.png", big, "image/png");
        assertEquals(413, r.statusCode());
        assertEquals(before, backgrounds());
    }

    @Test
    void deleteRemovesFileThumbnailAndMetadata() throws IOException {
        assertEquals(200, upload("gone.png", TestImages.image("png", 4, 4), "image/png").statusCode());
        String id = json(client.post("/api/image-metadata/folders/create", "{\"name\":\"F\"}")).get("id").asText();
        client.post("/api/image-metadata/folders/update", "{\"id\":\"" + id + "\",\"thumbnailFile\":\"gone.png\"}");
        put("thumbnails/bg/gone.png", TestImages.image("png", 2, 2));
        HttpResponse<Buffer> r = client.post("/api/backgrounds/delete", "{\"bg\":\"gone.png\"}");
        assertEquals(200, r.statusCode());
        assertEquals("ok", r.bodyAsString());
        assertFalse(hasDocument("backgrounds/gone.png"));
        assertFalse(Files.exists(user("thumbnails/bg/gone.png")));
        assertTrue(metadata().path("images").path("backgrounds/gone.png").isMissingNode());
        assertEquals("", metadata().path("folders").get(0).path("thumbnailFile").asText());
    }

    @Test
    void deleteRefusesBadNames() throws IOException {
        put("secret.png", TestImages.image("png", 4, 4));
        put("backgrounds/a.png", TestImages.image("png", 4, 4));
        assertEquals(400, client.post("/api/backgrounds/delete", "{\"bg\":\"../secret.png\"}").statusCode());
        assertEquals(403, client.post("/api/backgrounds/delete", "{\"bg\":\"..\"}").statusCode());
        assertEquals(403, client.post("/api/backgrounds/delete", "{\"bg\":\"a.png:\"}").statusCode());
        assertEquals(400, client.post("/api/backgrounds/delete", "{\"bg\":\"missing.png\"}").statusCode());
        assertEquals(400, client.post("/api/backgrounds/delete", "{\"bg\":7}").statusCode());
        assertEquals(400, client.post("/api/backgrounds/delete", "{}").statusCode());
        assertTrue(hasDocument("secret.png"));
        assertTrue(hasDocument("backgrounds/a.png"));
    }

    @Test
    void renameMovesTheFileItsMetadataAndFolderThumbnails() throws IOException {
        byte[] png = TestImages.image("png", 4, 4);
        assertEquals(200, upload("old.png", png, "image/png").statusCode());
        String id = json(client.post("/api/image-metadata/folders/create", "{\"name\":\"F\"}")).get("id").asText();
        client.post("/api/image-metadata/folders/update", "{\"id\":\"" + id + "\",\"thumbnailFile\":\"old.png\"}");
        put("thumbnails/bg/old.png", png);
        HttpResponse<Buffer> r = client.post("/api/backgrounds/rename", "{\"old_bg\":\"old.png\",\"new_bg\":\"new.png\"}");
        assertEquals(200, r.statusCode());
        assertEquals("ok", r.bodyAsString());
        assertFalse(hasDocument("backgrounds/old.png"));
        assertArrayEquals(png, documentBytes("backgrounds/new.png"));
        assertFalse(Files.exists(user("thumbnails/bg/old.png")));
        assertTrue(metadata().path("images").has("backgrounds/new.png"));
        assertFalse(metadata().path("images").has("backgrounds/old.png"));
        assertEquals("new.png", metadata().path("folders").get(0).path("thumbnailFile").asText());
    }

    @Test
    void renameRefusesMissingSourcesTakenTargetsAndEmptyNames() throws IOException {
        byte[] a = TestImages.image("png", 4, 4);
        byte[] b = TestImages.image("png", 6, 6);
        put("backgrounds/a.png", a);
        put("backgrounds/b.png", b);
        assertEquals(400, client.post("/api/backgrounds/rename", "{\"old_bg\":\"a.png\",\"new_bg\":\"b.png\"}").statusCode());
        assertEquals(400, client.post("/api/backgrounds/rename", "{\"old_bg\":\"zz.png\",\"new_bg\":\"c.png\"}").statusCode());
        assertEquals(400, client.post("/api/backgrounds/rename", "{\"old_bg\":\"a.png\",\"new_bg\":\"..\"}").statusCode());
        assertEquals(400, client.post("/api/backgrounds/rename", "{\"old_bg\":\"a.png\"}").statusCode());
        assertEquals(400, client.post("/api/backgrounds/rename", "{\"old_bg\":\"a.png\",\"new_bg\":\"lpt1.png\"}").statusCode());
        assertEquals(400, client.post("/api/backgrounds/rename", "{\"old_bg\":\"a.png\",\"new_bg\":\"" + "é".repeat(150) + "\"}").statusCode());
        assertArrayEquals(a, documentBytes("backgrounds/a.png"));
        assertArrayEquals(b, documentBytes("backgrounds/b.png"));
        // A traversal target is sanitized into a plain name in the folder, as in ST.
        assertEquals(200, client.post("/api/backgrounds/rename", "{\"old_bg\":\"a.png\",\"new_bg\":\"../../x.png\"}").statusCode());
        assertArrayEquals(a, documentBytes("backgrounds/....x.png"));
    }
}
