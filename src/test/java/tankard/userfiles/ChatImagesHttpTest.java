package tankard.userfiles;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/images/*}: chat images in {@code user/images/}, served at {@code /user/images/}. */
class ChatImagesHttpTest extends ServerTest {
    private final byte[] png = TestImages.image("png", 5, 5);

    @BeforeEach
    void start() {
        start(null);
    }

    private String upload(String extra) {
        return "{\"image\":\"" + Base64.getEncoder().encodeToString(png) + "\"" + extra + "}";
    }

    @Test
    void uploadNamesTheFileAndServesIt() throws IOException {
        HttpResponse<Buffer> r = client.post("/api/images/upload", upload(",\"format\":\"png\",\"filename\":\"shot.v2.jpeg\",\"ch_name\":\"Al:ice\""));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"path\":\"/user/images/Alice/shot.v2.png\"}", r.bodyAsString());
        assertArrayEquals(png, Files.readAllBytes(user("user/images/Alice/shot.v2.png")));
        assertArrayEquals(png, client.get("/user/images/Alice/shot.v2.png").body().getBytes());

        String path = new io.vertx.core.json.JsonObject(client.post("/api/images/upload", upload(",\"format\":\"webp\"")).bodyAsString()).getString("path");
        assertTrue(path.matches("/user/images/\\d+\\.webp"), path);
        // Audio and video are stored as sent, as ST does.
        assertEquals(200, client.post("/api/images/upload", "{\"image\":\"AAAA\",\"format\":\"mp3\",\"ch_name\":\"Alice\"}").statusCode());
    }

    @Test
    void badUploadsWriteNothing() throws IOException {
        String text = Base64.getEncoder().encodeToString("<script>".getBytes(StandardCharsets.UTF_8));
        String[][] cases = {
                {"{\"format\":\"png\"}", "No image data provided"},
                {upload(",\"format\":\"svg\""), "Invalid image format"},
                {upload(",\"format\":\"PNG\""), "Invalid image format"},
                {upload(""), "Invalid image format"},
                {"{\"image\":\"" + text + "\",\"format\":\"png\"}", "The image data is not an image"},
                {upload(",\"format\":\"png\",\"filename\":\"con\""), "Invalid file name"},
                {upload(",\"format\":\"png\",\"ch_name\":{\"a\":1}"), "The image, filename and ch_name must be text"},
        };
        for (String[] c : cases) {
            HttpResponse<Buffer> r = client.post("/api/images/upload", c[0]);
            assertEquals(400, r.statusCode(), c[1]);
            assertEquals(c[1], r.bodyAsJsonObject().getString("error"));
        }
        // Traversal in ch_name or filename is sanitized into plain names inside user/images.
        HttpResponse<Buffer> r = client.post("/api/images/upload", upload(",\"format\":\"png\",\"filename\":\"../../x.png\",\"ch_name\":\"../..\""));
        assertEquals("{\"path\":\"/user/images/....x.png\"}", r.bodyAsString());
        try (var files = Files.list(user("user/images"))) {
            assertEquals(1, files.count());
        }
    }

    @Test
    void listFiltersAndSorts() throws IOException {
        put("user/images/Bob/b.png", png).toFile().setLastModified(3_000);
        put("user/images/Bob/a.png", png).toFile().setLastModified(5_000);
        put("user/images/Bob/c.mp4", png).toFile().setLastModified(1_000);
        put("user/images/Bob/song.mp3", png);
        put("user/images/Bob/notes.txt", png);
        put("user/images/Bob/dir.png/x.png", png);
        Files.setLastModifiedTime(user("user/images/Bob/song.mp3"), FileTime.from(Instant.ofEpochMilli(2_000)));
        assertEquals(new JsonArray().add("b.png").add("a.png"), client.post("/api/images/list", "{\"folder\":\"Bob\"}").bodyAsJsonArray());
        assertEquals(new JsonArray().add("c.mp4").add("song.mp3").add("b.png").add("a.png"),
                client.post("/api/images/list", "{\"folder\":\"Bob\",\"type\":7}").bodyAsJsonArray());
        assertEquals(new JsonArray().add("c.mp4").add("b.png").add("a.png"), client.post("/api/images/list",
                "{\"folder\":\"Bob\",\"type\":\"3\",\"sortField\":\"name\",\"sortOrder\":\"desc\"}").bodyAsJsonArray());
        assertEquals(new JsonArray().add("b.png").add("a.png"), client.post("/api/images/list/Bob", "{}").bodyAsJsonArray());
        assertEquals(new JsonArray(), client.post("/api/images/list", "{\"folder\":\"Bob\",\"type\":\"x\"}").bodyAsJsonArray());
        assertEquals(400, client.post("/api/images/list/Bob", "{\"folder\":\"Bob\"}").statusCode());
        HttpResponse<Buffer> none = client.post("/api/images/list", "{}");
        assertEquals(400, none.statusCode());
        assertEquals("No folder specified", none.bodyAsJsonObject().getString("error"));
        // A new folder is created, as in ST; traversal is sanitized away.
        assertEquals(new JsonArray(), client.post("/api/images/list", "{\"folder\":\"../../New\"}").bodyAsJsonArray());
        assertTrue(Files.isDirectory(user("user/images/....New")));
        assertEquals(new JsonArray().add("....New").add("Bob"), client.post("/api/images/folders", "{}").bodyAsJsonArray());
    }

    @Test
    void deleteStaysInsideTheImagesFolder() throws IOException {
        put("user/images/Bob/a.png", png);
        put("user/files/keep.txt", png);
        for (String path : new String[] {"/user/images/../files/keep.txt", "/user/images", "/user/imagesX/a.png", "/user/files/keep.txt"}) {
            HttpResponse<Buffer> r = client.post("/api/images/delete", "{\"path\":\"" + path + "\"}");
            assertEquals(400, r.statusCode(), path);
        }
        assertEquals(400, client.post("/api/images/delete", "{\"path\":\"/user/images/Bob\"}").statusCode());
        assertEquals(404, client.post("/api/images/delete", "{\"path\":\"/user/images/Bob/zz.png\"}").statusCode());
        assertTrue(Files.exists(user("user/files/keep.txt")));
        assertEquals(200, client.post("/api/images/delete", "{\"path\":\"/user/images/Bob/a.png\"}").statusCode());
        assertFalse(Files.exists(user("user/images/Bob/a.png")));
    }
}
