package tankard.sprite;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/sprites/upload}, {@code /upload-zip} and {@code /delete}. */
class SpriteUploadHttpTest extends ServerTest {
    private final byte[] png = TestImages.image("png", 6, 8);
    private final byte[] gif = TestImages.image("gif", 6, 8);

    @BeforeEach
    void start() {
        start(null);
    }

    private HttpResponse<Buffer> upload(String name, String label, String spriteName, String fileName, byte[] bytes) {
        MultipartForm form = MultipartForm.create().attribute("name", name).attribute("label", label);
        if (spriteName != null) {
            form.attribute("spriteName", spriteName);
        }
        return client.postForm("/api/sprites/upload", form.binaryFileUpload("avatar", fileName, Buffer.buffer(bytes), "image/png"));
    }

    private HttpResponse<Buffer> uploadZip(String name, byte[] zip) {
        return client.postForm("/api/sprites/upload-zip", MultipartForm.create().attribute("name", name)
                .binaryFileUpload("avatar", "pack.zip", Buffer.buffer(zip), "application/zip"));
    }

    /** The names in a folder of the user's, sorted; none when there is no such folder. */
    private List<String> files(String relative) {
        return server.files().list(relative);
    }

    @Test
    void uploadStoresTheSpriteAndReplacesOthersOfTheSameName() {
        put("characters/Bob/joy.gif", gif);
        put("characters/Bob/joy-2.png", gif);
        HttpResponse<Buffer> r = upload("Bob", "joy", null, "happy.png", png);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(new JsonObject().put("ok", true), r.bodyAsJsonObject());
        assertEquals(List.of("joy-2.png", "joy.png"), files("characters/Bob"));
        assertArrayEquals(png, documentBytes("characters/Bob/joy.png"));

        assertEquals(200, upload("Bob/outfit", "joy", "joy-2", "x.gif", gif).statusCode());
        assertEquals(List.of("joy-2.gif"), files("characters/Bob/outfit"));
        assertEquals(1, client.get("/api/sprites/get?name=Bob/outfit").bodyAsJsonArray().size());
    }

    @Test
    void badSpriteUploadsWriteNothing() {
        assertEquals(400, upload("..", "joy", null, "a.png", png).statusCode());
        assertEquals(400, upload("a/b/c", "joy", null, "a.png", png).statusCode());
        HttpResponse<Buffer> noLabel = upload("Bob", "", null, "a.png", png);
        assertEquals(400, noLabel.statusCode());
        assertTrue(noLabel.bodyAsString().contains("needs an image file, a label"), noLabel.bodyAsString());
        assertEquals(400, upload("Bob", "joy", null, "a.png", "text".getBytes(StandardCharsets.UTF_8)).statusCode());
        assertEquals(400, upload("Bob", "joy", null, "a.txt", png).statusCode());
        assertEquals(400, upload("Bob", "con", null, "a.png", png).statusCode());
        assertEquals(400, client.postForm("/api/sprites/upload",
                MultipartForm.create().attribute("name", "Bob").attribute("label", "joy")).statusCode());
        HttpResponse<Buffer> big = upload("Bob", "joy", null, "a.png",
                java.util.Arrays.copyOf(png, (int) SpriteUploads.MAX_SPRITE_BYTES + 1));
        assertEquals(413, big.statusCode());
        assertFalse(server.files().hasFolder("characters/Bob"));
        // A traversal in the sprite name is sanitized into a plain file name, as in ST.
        assertEquals(200, upload("Bob", "joy", "../../evil", "a.png", png).statusCode());
        assertEquals(List.of("....evil.png"), files("characters/Bob"));
    }

    @Test
    void zipUploadWritesItsImagesFlat() {
        put("characters/Ann/joy.gif", gif);
        put("characters/Ann/anger.png", gif);
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("pack/joy.png", png);
        entries.put("pack/sub/fear.webp", TestImages.animatedWebpHead(4, 4));
        entries.put("pack/readme.txt", "hi".getBytes(StandardCharsets.UTF_8));
        entries.put("__MACOSX/pack/._joy.png", new byte[] {0, 5, 22, 7});
        entries.put("anger.png", png);
        HttpResponse<Buffer> r = uploadZip("Ann", Fixtures.zip(entries));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(new JsonObject().put("ok", true).put("count", 3), r.bodyAsJsonObject());
        assertEquals(List.of("anger.png", "fear.webp", "joy.png"), files("characters/Ann"));
        assertArrayEquals(png, documentBytes("characters/Ann/anger.png"));
        assertEquals(3, client.get("/api/sprites/get?name=Ann").bodyAsJsonArray().size());
    }

    @Test
    void badZipsAreRefusedWithNothingWritten() throws IOException {
        put("characters/Ann/joy.png", gif);
        byte[] zeros = new byte[20 << 20];
        Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("not a zip", "PK but not really".getBytes(StandardCharsets.UTF_8));
        cases.put("traversal", Fixtures.zip(Map.of("../../../evil.png", png)));
        cases.put("traversal inside", Fixtures.zip(Map.of("a/../../joy.png", png)));
        cases.put("not an image", Fixtures.zip(Map.of("joy.png", "<html>".getBytes(StandardCharsets.UTF_8))));
        cases.put("zip bomb", Fixtures.zip(Map.of("bomb.png", zeros)));
        cases.put("empty name", Fixtures.zip(Map.of("pack/con.png", png)));
        for (Map.Entry<String, byte[]> bad : cases.entrySet()) {
            HttpResponse<Buffer> r = uploadZip("Ann", bad.getValue());
            assertEquals(400, r.statusCode(), bad.getKey() + ": " + r.bodyAsString());
            assertTrue(r.bodyAsJsonObject().getString("error").length() > 5, bad.getKey());
        }
        assertEquals(400, uploadZip("../x", Fixtures.zip(Map.of("joy.png", png))).statusCode());
        assertEquals(List.of("joy.png"), files("characters/Ann"));
        assertArrayEquals(gif, documentBytes("characters/Ann/joy.png"));
        assertFalse(Files.exists(server.dataRoot.resolve("evil.png")));
        assertFalse(server.files().hasFolder("characters/x"));
        try (Stream<Path> uploads = Files.list(server.dataRoot.resolve("_uploads"))) {
            assertEquals(0, uploads.filter(p -> p.getFileName().toString().startsWith("sprites")).count(), "staging removed");
        }
    }

    @Test
    void aFileWhereTheSpriteFolderShouldBeIs404WithNothingWritten() {
        put("characters/Bob", gif);
        assertEquals(404, upload("Bob", "joy", null, "a.png", png).statusCode());
        assertEquals(404, upload("Bob/outfit", "joy", null, "a.png", png).statusCode());
        assertEquals(404, uploadZip("Bob", Fixtures.zip(Map.of("joy.png", png))).statusCode());
        assertEquals(404, client.post("/api/sprites/delete", "{\"name\":\"Bob\",\"label\":\"joy\"}").statusCode());
        assertArrayEquals(gif, documentBytes("characters/Bob"));
        assertEquals(new io.vertx.core.json.JsonArray(), client.get("/api/sprites/get?name=Bob").bodyAsJsonArray());
    }

    @Test
    void aPackEntryNameTooLongToStoreIs400() {
        HttpResponse<Buffer> r = uploadZip("Ann", Fixtures.zip(Map.of("a.png", png, "y".repeat(240) + ".png", png)));
        assertEquals(400, r.statusCode(), r.bodyAsString());
        assertFalse(server.files().hasFolder("characters/Ann"));
    }

    @Test
    void deleteRemovesTheSpritesOfThatName() {
        put("characters/Bob/joy.png", png);
        put("characters/Bob/joy.gif", gif);
        put("characters/Bob/joy-2.png", png);
        assertEquals(200, client.post("/api/sprites/delete", "{\"name\":\"Bob\",\"label\":\"joy\"}").statusCode());
        assertEquals(List.of("joy-2.png"), files("characters/Bob"));
        assertEquals(200, client.post("/api/sprites/delete", "{\"name\":\"Bob\",\"label\":\"x\",\"spriteName\":\"joy-2\"}").statusCode());
        assertEquals(List.of(), files("characters/Bob"));
        assertEquals(404, client.post("/api/sprites/delete", "{\"name\":\"Nobody\",\"label\":\"joy\"}").statusCode());
        assertEquals(404, client.post("/api/sprites/delete", "{\"name\":\"../..\",\"label\":\"joy\"}").statusCode());
        HttpResponse<Buffer> noSprite = client.post("/api/sprites/delete", "{\"name\":\"Bob\"}");
        assertEquals(400, noSprite.statusCode());
        assertTrue(noSprite.bodyAsString().contains("No sprite to delete"), noSprite.bodyAsString());
    }
}
