package tankard.userfiles;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/images/*}: chat images in {@code user/images/} (blobs), served at {@code /user/images/}. */
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
    void uploadNamesTheFile() {
        HttpResponse<Buffer> r = client.post("/api/images/upload", upload(",\"format\":\"png\",\"filename\":\"shot.v2.jpeg\",\"ch_name\":\"Al:ice\""));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"path\":\"/user/images/Alice/shot.v2.png\"}", r.bodyAsString());
        assertArrayEquals(png, documentBytes("user/images/Alice/shot.v2.png"));

        String path = new io.vertx.core.json.JsonObject(client.post("/api/images/upload", upload(",\"format\":\"webp\"")).bodyAsString()).getString("path");
        assertTrue(path.matches("/user/images/\\d+\\.webp"), path);
        // Audio and video are stored as sent, as ST does.
        assertEquals(200, client.post("/api/images/upload", "{\"image\":\"AAAA\",\"format\":\"mp3\",\"ch_name\":\"Alice\"}").statusCode());
        // a ch_name that cleans to nothing is the images folder itself, as ST joins it
        assertEquals("{\"path\":\"/user/images/top.png\"}", client.post("/api/images/upload",
                upload(",\"format\":\"png\",\"filename\":\"top\",\"ch_name\":\"..\"")).bodyAsString());
    }

    @Test
    void anUploadedImageIsServed() {
        client.post("/api/images/upload", upload(",\"format\":\"png\",\"filename\":\"shot\",\"ch_name\":\"Alice\""));
        assertArrayEquals(png, client.get("/user/images/Alice/shot.png").body().getBytes());
    }

    @Test
    void badUploadsWriteNothing() {
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
        assertEquals(List.of("....x.png"), server.files().list("user/images"));
        put("user/images/Bob", png);
        HttpResponse<Buffer> throughAFile = client.post("/api/images/upload", upload(",\"format\":\"png\",\"ch_name\":\"Bob\""));
        assertEquals(400, throughAFile.statusCode(), throughAFile.bodyAsString());
        assertEquals(List.of("....x.png", "Bob"), server.files().list("user/images"));
    }

    @Test
    void listFiltersAndSorts() {
        image("user/images/Bob/b.png", 3_000);
        image("user/images/Bob/a.png", 5_000);
        image("user/images/Bob/c.mp4", 1_000);
        image("user/images/Bob/song.mp3", 2_000);
        put("user/images/Bob/notes.txt", png);
        put("user/images/Bob/dir.png/x.png", png);
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
        // Traversal is sanitized away; unlike ST, listing a folder does not create it (docs/compatibility.md).
        assertEquals(new JsonArray(), client.post("/api/images/list", "{\"folder\":\"../../New\"}").bodyAsJsonArray());
        assertEquals(new JsonArray().add("Bob"), client.post("/api/images/folders", "{}").bodyAsJsonArray());
        image("user/images/....New/n.png", 1_000);
        assertEquals(new JsonArray().add("n.png"), client.post("/api/images/list", "{\"folder\":\"../../New\"}").bodyAsJsonArray());
        assertEquals(new JsonArray().add("....New").add("Bob"), client.post("/api/images/folders", "{}").bodyAsJsonArray());
        // A folder that cleans to nothing is the images folder itself, as ST joins it.
        image("user/images/top.png", 1_000);
        assertEquals(new JsonArray().add("top.png"), client.post("/api/images/list", "{\"folder\":\"..\"}").bodyAsJsonArray());
    }

    private void image(String path, double modifiedMs) {
        put(path, png);
        server.files().setModified(path, modifiedMs);
    }

    @Test
    void deleteStaysInsideTheImagesFolder() {
        put("user/images/Bob/a.png", png);
        put("user/files/keep.txt", png);
        for (String path : new String[] {"/user/images/../files/keep.txt", "/user/images", "/user/imagesX/a.png", "/user/files/keep.txt"}) {
            HttpResponse<Buffer> r = client.post("/api/images/delete", "{\"path\":\"" + path + "\"}");
            assertEquals(400, r.statusCode(), path);
        }
        assertEquals(400, client.post("/api/images/delete", "{\"path\":\"/user/images/Bob\"}").statusCode());
        assertEquals(404, client.post("/api/images/delete", "{\"path\":\"/user/images/Bob/zz.png\"}").statusCode());
        assertTrue(hasDocument("user/files/keep.txt"));
        assertEquals(200, client.post("/api/images/delete", "{\"path\":\"/user/images/./Bob//a.png\"}").statusCode());
        assertFalse(hasDocument("user/images/Bob/a.png"));
    }
}
