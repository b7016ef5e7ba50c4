package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/image-metadata}, {@code /cleanup} and {@code /folders/*}. */
class ImageMetadataHttpTest extends ServerTest {
    @BeforeEach
    void start() {
        start(null);
    }

    /** image-metadata.json in the default user's folder, a document of the server's store. */
    private static final String INDEX = "image-metadata.json";

    private JsonNode index() {
        return JsJson.parse(documentBytes(INDEX));
    }

    private HttpResponse<Buffer> post(String path, String json) {
        return client.post("/api/image-metadata" + path, json);
    }

    @Test
    void metadataOfOneOrManyPaths() throws IOException {
        put("backgrounds/wide.png", TestImages.image("png", 40, 10));
        HttpResponse<Buffer> one = post("", "{\"path\":\"backgrounds/wide.png\",\"type\":\"bg\"}");
        assertEquals(200, one.statusCode(), one.bodyAsString());
        assertEquals(4.0, json(one).get("aspectRatio").doubleValue());
        assertEquals(160 * 90, json(one).get("thumbnailResolution").intValue());
        assertTrue(index().path("images").has("backgrounds/wide.png"));

        JsonNode many = json(post("", "{\"paths\":[\"backgrounds/wide.png\",\"backgrounds/none.png\",\"../../etc/passwd\"]}"));
        assertEquals(4.0, many.path("backgrounds/wide.png").path("aspectRatio").doubleValue());
        assertEquals("File not found or could not process.", many.path("backgrounds/none.png").path("error").asText());
        assertTrue(many.path("../../etc/passwd").path("error").asText().contains("outside"));
    }

    @Test
    void badMetadataRequests() throws IOException {
        put("backgrounds/notes.png", "not an image".getBytes(StandardCharsets.UTF_8));
        assertEquals("{\"error\":\"Either \\\"path\\\" or \\\"paths\\\" is required.\"}", post("", "{}").bodyAsString());
        assertEquals(400, post("", "{}").statusCode());
        assertEquals(400, post("", "{\"path\":\"../outside.png\"}").statusCode());
        assertEquals(400, post("", "{\"path\":\"/etc/hostname\"}").statusCode());
        assertEquals(400, post("", "{\"path\":5}").statusCode());
        HttpResponse<Buffer> missing = post("", "{\"path\":\"backgrounds/none.png\"}");
        assertEquals(404, missing.statusCode());
        assertEquals("File not found.", json(missing).get("error").asText());
        HttpResponse<Buffer> notImage = post("", "{\"path\":\"backgrounds/notes.png\"}");
        assertEquals(404, notImage.statusCode());
        assertEquals("Could not generate metadata for file.", json(notImage).get("error").asText());
        assertFalse(hasDocument(INDEX));
    }

    @Test
    void cleanupRemovesEntriesWithoutFiles() throws IOException {
        put("backgrounds/kept.png", TestImages.image("png", 4, 4));
        put(INDEX, """
                {"version": 1, "images": {
                    "backgrounds/kept.png": {"folderIds": []},
                    "backgrounds/gone.png": {"folderIds": []},
                    "../../outside.png": {"folderIds": []}
                }, "folders": []}""".getBytes(StandardCharsets.UTF_8));
        JsonNode result = json(post("/cleanup", "{}"));
        assertEquals(2, result.get("count").intValue());
        assertEquals("[\"backgrounds/gone.png\",\"../../outside.png\"]", JsJson.compact(result.get("removed")));
        assertEquals(1, index().get("images").size());
        byte[] after = documentBytes(INDEX);
        assertEquals(0, json(post("/cleanup", "{}")).get("count").intValue());
        assertArrayEquals(after, documentBytes(INDEX), "nothing to clean: not rewritten");
    }

    @Test
    void foldersCanBeCreatedUpdatedAssignedAndDeleted() throws IOException {
        put("backgrounds/a.png", TestImages.image("png", 4, 4));
        put("backgrounds/b.png", TestImages.image("png", 4, 4));
        JsonNode folder = json(post("/folders/create", "{\"name\":\"  Nature \"}"));
        String id = folder.get("id").asText();
        assertEquals("Nature", folder.get("name").asText());
        assertEquals("", folder.get("thumbnailFile").asText());
        assertEquals(36, id.length());

        JsonNode updated = json(post("/folders/update", "{\"id\":\"" + id + "\",\"name\":\"Woods\"}"));
        assertEquals("Woods", updated.get("name").asText());
        assertEquals("{\"ok\":true}", post("/folders/set-thumbnails",
                "{\"updates\":[{\"id\":\"" + id + "\",\"thumbnailFile\":\"a.png\"},{\"id\":\"nope\",\"thumbnailFile\":\"x\"}]}").bodyAsString());
        assertEquals("a.png", json(post("/folders/get", "{}")).get(0).get("thumbnailFile").asText());

        assertEquals(200, post("/folders/assign", "{\"id\":\"" + id + "\",\"paths\":[\"backgrounds/a.png\",\"backgrounds/./b.png\",\"backgrounds/missing.png\"]}").statusCode());
        assertEquals("[\"" + id + "\"]", JsJson.compact(index().path("images").path("backgrounds/a.png").get("folderIds")));
        assertTrue(index().path("images").has("backgrounds/b.png"));
        assertFalse(index().path("images").has("backgrounds/missing.png"));
        JsonNode map = json(client.post("/api/backgrounds/folders", "{}")).get("imageFolderMap");
        assertEquals(2, map.size());

        assertEquals(200, post("/folders/unassign", "{\"id\":\"" + id + "\",\"paths\":[\"backgrounds/a.png\"]}").statusCode());
        assertEquals(0, index().path("images").path("backgrounds/a.png").get("folderIds").size());

        assertEquals(200, post("/folders/delete", "{\"id\":\"" + id + "\"}").statusCode());
        assertEquals(0, index().get("folders").size());
        assertEquals(0, index().path("images").path("backgrounds/b.png").get("folderIds").size());
    }

    @Test
    void badFolderRequestsChangeNothing() throws IOException {
        put("secret.png", TestImages.image("png", 4, 4));
        String id = json(post("/folders/create", "{\"name\":\"F\"}")).get("id").asText();
        byte[] before = documentBytes(INDEX);
        assertEquals(400, post("/folders/create", "{}").statusCode());
        assertEquals(400, post("/folders/create", "{\"name\":[1]}").statusCode());
        assertEquals(400, post("/folders/update", "{\"name\":\"x\"}").statusCode());
        assertEquals(400, post("/folders/update", "{\"id\":\"" + id + "\",\"name\":{}}").statusCode());
        HttpResponse<Buffer> unknown = post("/folders/update", "{\"id\":\"nope\",\"name\":\"x\"}");
        assertEquals(404, unknown.statusCode());
        assertEquals("Folder 'nope' not found.", json(unknown).get("error").asText());
        assertEquals(404, post("/folders/delete", "{\"id\":\"nope\"}").statusCode());
        assertEquals(400, post("/folders/set-thumbnails", "{\"updates\":[{\"id\":\"" + id + "\"}]}").statusCode());
        assertEquals(400, post("/folders/set-thumbnails", "{\"updates\":[null]}").statusCode());
        assertEquals(400, post("/folders/assign", "{\"id\":\"" + id + "\"}").statusCode());
        assertEquals(404, post("/folders/assign", "{\"id\":\"nope\",\"paths\":[]}").statusCode());
        for (String path : new String[] {"../secret.png", "backgrounds/../../secret.png", "secret.png", "/backgrounds/x.png",
                "backgrounds/a\\u0000.png", "backgrounds/", "backgrounds/sub/x.png"}) {
            HttpResponse<Buffer> r = post("/folders/assign", "{\"id\":\"" + id + "\",\"paths\":[\"" + path + "\"]}");
            assertEquals(400, r.statusCode(), path);
        }
        assertEquals(400, post("/folders/unassign", "{\"id\":\"" + id + "\",\"paths\":[3]}").statusCode());
        assertArrayEquals(before, documentBytes(INDEX));
    }

    @Test
    void posixNormalizeAsNode() {
        assertEquals("backgrounds/b.png", ImageFolders.normalizePosix("backgrounds/./b.png"));
        assertEquals("../x", ImageFolders.normalizePosix("backgrounds/../../x"));
        assertEquals("/x", ImageFolders.normalizePosix("/../x"));
        assertEquals("backgrounds/", ImageFolders.normalizePosix("backgrounds//"));
        assertEquals(".", ImageFolders.normalizePosix(""));
    }
}
