package tankard.backgrounds;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;
import tankard.testing.UserDocuments;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The image lists of the boot sequence: personas, backgrounds, background folders, image metadata. */
class ImageListingsTest extends ServerTest {
    private static final String METADATA = """
            {
                "version": 1,
                "images": {
                    "backgrounds/forest.png": {"hash": "ab", "aspectRatio": 1.7778, "folderIds": ["f1", "f2"], "mtime": 1.5},
                    "backgrounds/sea.jpg": {"folderIds": []},
                    "characters/Alice.png": {"folderIds": ["f3"]}
                },
                "folders": [{"id": "f1", "name": "Nature", "thumbnailFile": "forest.png"}]
            }""";


    /** Deletes the folder's files (the images the new user was given), through the store that keeps them. */
    private void emptyFolder(String folder) {
        for (String name : server.files().list(folder)) {
            server.files().delete(folder + "/" + name);
        }
    }

    @Test
    void personaImagesAreListedInCollationOrder() throws IOException {
        start(null);
        emptyFolder("User Avatars");
        byte[] png = TestImages.image("png", 4, 4);
        put("User Avatars/cherry.png", png);
        put("User Avatars/Banana.webp", png);
        put("User Avatars/apple.jpg", png);
        put("User Avatars/notes.txt", "x".getBytes(StandardCharsets.UTF_8));
        put("User Avatars/folder.png/inner.png", png);
        HttpResponse<Buffer> r = client.post("/api/avatars/get", null);
        assertEquals(200, r.statusCode());
        assertEquals(new JsonArray().add("apple.jpg").add("Banana.webp").add("cherry.png"), r.bodyAsJsonArray());
    }

    @Test
    void backgroundsComeWithAnimationFlagsAndTheThumbnailSize() throws IOException {
        start("thumbnails:\n  dimensions:\n    bg: [200, 100]\n");
        emptyFolder("backgrounds");
        put("backgrounds/still.png", TestImages.image("png", 8, 8));
        put("backgrounds/anim.gif", TestImages.image("gif", 8, 8));
        put("backgrounds/apng.png", TestImages.withChunkAfterHeader(TestImages.image("png", 8, 8), "acTL"));
        put("backgrounds/moving.webp", TestImages.animatedWebpHead(30, 20));
        put("backgrounds/broken.png", "not an image".getBytes(StandardCharsets.UTF_8));
        put("backgrounds/clip.mp4", new byte[]{0});
        put("backgrounds/readme.md", new byte[]{0});
        JsonObject body = client.post("/api/backgrounds/all", "{}").bodyAsJsonObject();
        JsonArray expected = new JsonArray()
                .add(image("anim.gif", true))
                .add(image("apng.png", true))
                .add(image("broken.png", false))
                .add(image("moving.webp", true))
                .add(image("still.png", false));
        assertEquals(expected, body.getJsonArray("images"));
        assertEquals(new JsonObject().put("width", 200).put("height", 100), body.getJsonObject("config"));
    }

    @Test
    void listingBackgroundsGeneratesTheirMetadataOnce() throws Exception {
        start(null);
        emptyFolder("backgrounds");
        int red = 0xffff0000;
        int blue = 0xff0000ff;
        int clear = 0x0000ff00;
        put("backgrounds/wide.png", TestImages.image("png", 16, 9));
        put("backgrounds/halves.png", TestImages.argbPng(2, 2, red, blue, red, blue));
        put("backgrounds/strip.png", TestImages.argbPng(2, 1, red, blue));
        put("backgrounds/holes.png", TestImages.argbPng(2, 2, clear, blue, clear, blue));
        put("backgrounds/anim.gif", TestImages.image("gif", 10, 10));
        put("backgrounds/broken.png", "not an image".getBytes(StandardCharsets.UTF_8));
        String stub = "{\"version\": 1, \"images\": {\"backgrounds/wide.png\": {\"folderIds\": [\"f1\"]}}, \"folders\": []}";
        put("image-metadata.json", stub.getBytes(StandardCharsets.UTF_8));

        assertEquals(200, client.post("/api/backgrounds/all", "{}").statusCode());
        String written = document("image-metadata.json");
        assertTrue(written.startsWith("{\n    \"version\": 1,\n    \"images\": {\n        \"backgrounds/wide.png\": {\n"), written);
        JsonObject images = new JsonObject(written).getJsonObject("images");
        assertEquals(Set.of("backgrounds/wide.png", "backgrounds/halves.png", "backgrounds/strip.png",
                "backgrounds/holes.png", "backgrounds/anim.gif"), images.fieldNames());

        JsonObject wide = images.getJsonObject("backgrounds/wide.png");
        assertEquals(List.of("hash", "aspectRatio", "isAnimated", "dominantColor", "folderIds", "addedTimestamp",
                "thumbnailResolution", "mtime"), List.copyOf(wide.fieldNames()));
        assertEquals(sha256(documentBytes("backgrounds/wide.png")), wide.getString("hash"));
        assertEquals(1.7778, wide.getDouble("aspectRatio"));
        assertEquals(new JsonArray().add("f1"), wide.getJsonArray("folderIds"));
        assertEquals(14400, wide.getInteger("thumbnailResolution"));
        assertEquals(server.files().modifiedMs("backgrounds/wide.png"), wide.getDouble("mtime"), 0.001);

        // Jimp's one-pixel resize: halves round up, a one-row image truncates, transparent pixels do not count.
        assertEquals("#800080", images.getJsonObject("backgrounds/halves.png").getString("dominantColor"));
        assertEquals("#7f007f", images.getJsonObject("backgrounds/strip.png").getString("dominantColor"));
        assertEquals("#0000ff", images.getJsonObject("backgrounds/holes.png").getString("dominantColor"));
        JsonObject gif = images.getJsonObject("backgrounds/anim.gif");
        assertEquals("#808080", gif.getString("dominantColor"));
        assertTrue(gif.getBoolean("isAnimated"));
        assertEquals(1, images.getJsonObject("backgrounds/halves.png").getInteger("aspectRatio"));

        // Unchanged files are not regenerated, so the index is not rewritten (its time, on files its mtime, stays).
        double stamp = 1_000_000_000_000d;
        server.files().setModified("image-metadata.json", stamp);
        client.post("/api/backgrounds/all", "{}");
        assertEquals(stamp, server.files().modifiedMs("image-metadata.json"));
        assertEquals(written, document("image-metadata.json"));
    }

    private static String sha256(byte[] data) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(data));
    }

    @Test
    void defaultBackgroundConfigIs160By90() {
        start(null);
        JsonObject body = client.post("/api/backgrounds/all", null).bodyAsJsonObject();
        assertEquals(new JsonObject().put("width", 160).put("height", 90), body.getJsonObject("config"));
    }

    private static JsonObject image(String name, boolean animated) {
        return new JsonObject().put("filename", name).put("isAnimated", animated);
    }

    @Test
    void withoutMetadataTheListsAreEmptyAndNoFileIsCreated() {
        start(null);
        assertEquals(new JsonObject().put("folders", new JsonArray()).put("imageFolderMap", new JsonObject()),
                client.post("/api/backgrounds/folders", "{}").bodyAsJsonObject());
        assertEquals(new JsonObject().put("version", 1).put("images", new JsonObject()),
                client.post("/api/image-metadata/all", "{\"prefix\":\"backgrounds/\"}").bodyAsJsonObject());
        assertEquals(new JsonObject().put("version", 1).put("images", new JsonObject()).put("folders", new JsonArray()),
                client.post("/api/image-metadata/all", "{}").bodyAsJsonObject());
        assertFalse(hasDocument("image-metadata.json"));
    }

    @Test
    void foldersMapImageNamesToTheirFolderIds() throws IOException {
        start(null);
        put("image-metadata.json", METADATA.getBytes(StandardCharsets.UTF_8));
        JsonObject body = client.post("/api/backgrounds/folders", "{}").bodyAsJsonObject();
        assertEquals(new JsonArray().add(new JsonObject().put("id", "f1").put("name", "Nature").put("thumbnailFile", "forest.png")),
                body.getJsonArray("folders"));
        assertEquals(new JsonObject().put("forest.png", new JsonArray().add("f1").add("f2"))
                .put("Alice.png", new JsonArray().add("f3")), body.getJsonObject("imageFolderMap"));
    }

    @Test
    void imageMetadataIsFilteredByPrefix() throws IOException {
        start(null);
        put("image-metadata.json", METADATA.getBytes(StandardCharsets.UTF_8));
        HttpResponse<Buffer> r = client.post("/api/image-metadata/all", "{\"prefix\":\"backgrounds/\"}");
        assertEquals(200, r.statusCode());
        // Numbers keep their lexemes; only the prefixed entries, and no folders.
        assertEquals("{\"version\":1,\"images\":{\"backgrounds/forest.png\":{\"hash\":\"ab\",\"aspectRatio\":1.7778,"
                + "\"folderIds\":[\"f1\",\"f2\"],\"mtime\":1.5},\"backgrounds/sea.jpg\":{\"folderIds\":[]}}}", r.bodyAsString());
        JsonObject whole = client.post("/api/image-metadata/all", null).bodyAsJsonObject();
        assertEquals(3, whole.getJsonObject("images").size());
        assertEquals(1, whole.getJsonArray("folders").size());
    }

    @Test
    void corruptMetadataReadsAsEmpty() throws IOException {
        start(null);
        put("image-metadata.json", "{ not json".getBytes(StandardCharsets.UTF_8));
        assertEquals(new JsonObject().put("version", 1).put("images", new JsonObject()),
                client.post("/api/image-metadata/all", "{\"prefix\":\"backgrounds/\"}").bodyAsJsonObject());
        assertEquals("{ not json", document("image-metadata.json"));
    }

    @Test
    void badBodiesAreRefused() {
        start(null);
        assertEquals(400, client.post("/api/image-metadata/all", "{\"prefix\": {\"a\": 1}}").statusCode());
        assertEquals(400, client.post("/api/image-metadata/all", "{bad json").statusCode());
        assertEquals(400, client.post("/api/backgrounds/all", "{bad json").statusCode());
        assertEquals(400, client.post("/api/backgrounds/folders", "[1,").statusCode());
        assertEquals(400, client.post("/api/avatars/get", "{bad json").statusCode());
    }
}
