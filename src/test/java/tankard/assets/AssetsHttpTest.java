package tankard.assets;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.FileLayout;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/assets/*} over HTTP, downloads from a mock host on loopback listed in whitelistImportDomains. */
class AssetsHttpTest extends ServerTest {
    private static final byte[] SONG = "ID3 not really a song".getBytes(StandardCharsets.UTF_8);
    private Vertx mockVertx;
    private MockCompletionServer mock;

    @BeforeEach
    void startMock() {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        mock.route("/files/song.mp3", request -> request.response().putHeader("Content-Type", "audio/mpeg").end(Buffer.buffer(SONG)));
        mock.route("/files/missing.mp3", request -> request.response().setStatusCode(404).end("no such file"));
        mock.route("/files/huge.vrm", request -> request.response().putHeader("Content-Length", "999999999999").write("start"));
    }

    @AfterEach
    void stopMock() {
        mockVertx.close();
    }

    private TestServer.Client startWhitelisting(String extraYaml) {
        return start("whitelistImportDomains: [127.0.0.1]\n" + extraYaml);
    }

    private String download(String path, String category, String filename) {
        return new JsonObject().put("url", mock.origin() + path).put("category", category).put("filename", filename).encode();
    }

    /** The user's files under a folder, by path from it, sorted. */
    private List<String> tree(String relative) {
        return server.files().paths().stream().filter(path -> path.startsWith(relative + "/"))
                .map(path -> path.substring(relative.length() + 1)).sorted().toList();
    }

    /** No download is left spooled. */
    private void assertNoSpool() throws IOException {
        try (Stream<Path> uploads = Files.list(server.dataRoot.resolve("_uploads"))) {
            assertEquals(List.of(), uploads.map(Path::toString).filter(name -> name.contains("asset-")).toList());
        }
    }

    private static void assertError(HttpResponse<Buffer> r, int status, String text) {
        assertEquals(status, r.statusCode(), r.bodyAsString());
        assertTrue(r.bodyAsJsonObject().getString("error").contains(text), r.bodyAsString());
    }

    @Test
    void getListsEveryCategoryButTemp() {
        startWhitelisting("");
        put("assets/bgm/song.mp3", SONG);
        put("assets/bgm/.placeholder", new byte[0]);
        put("assets/live2d/alice/alice.model3.json", "{}".getBytes());
        put("assets/live2d/alice/texture.png", new byte[1]);
        put("assets/vrm/model/bob.vrm", new byte[1]);
        put("assets/vrm/animation/.placeholder", new byte[0]);
        put("assets/temp/leftover", new byte[1]);
        put("assets/blip", "a file where a folder belongs".getBytes(StandardCharsets.UTF_8));
        put("assets/bgm.txt", new byte[1]);
        put("assets/custom/x.mp3", SONG);

        HttpResponse<Buffer> r = client.post("/api/assets/get", "{}");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonObject().put("ambient", new JsonArray()).put("bgm", new JsonArray().add("assets/bgm/song.mp3"))
                .put("blip", new JsonArray()).put("character", new JsonArray())
                .put("custom", new JsonArray().add("assets/custom/x.mp3"))
                .put("live2d", new JsonArray().add("/assets/live2d/alice/alice.model3.json"))
                .put("vrm", new JsonObject().put("model", new JsonArray().add("/assets/vrm/model/bob.vrm"))
                        .put("animation", new JsonArray())), r.bodyAsJsonObject());
        assertEquals("[\"ambient\",\"bgm\",\"blip\",\"character\",\"custom\",\"live2d\",\"vrm\"]",
                new JsonArray(List.copyOf(r.bodyAsJsonObject().fieldNames())).encode(), "in readdir order");
        assertFalse(hasDocument("assets/blip"), "the file where a category folder belongs is gone, as in ST");
        assertTrue(hasDocument("assets/bgm.txt"));
    }

    @Test
    void getListsEveryCategoryForAUserWithNoAssets() {
        startWhitelisting("");
        assertEquals(new JsonObject().put("ambient", new JsonArray()).put("bgm", new JsonArray())
                .put("blip", new JsonArray()).put("character", new JsonArray()).put("live2d", new JsonArray())
                .put("vrm", new JsonObject().put("model", new JsonArray()).put("animation", new JsonArray())),
                client.post("/api/assets/get", "{}").bodyAsJsonObject());
    }

    @Test
    @FileLayout
    void getListsNothingWithoutAnAssetsFolder() {
        startWhitelisting("");
        TestServer.deleteTree(user("assets"));
        assertEquals(new JsonObject(), client.post("/api/assets/get", "{}").bodyAsJsonObject());
    }

    @Test
    void downloadStoresAnAssetAndHandsBackACharacterOne() throws IOException {
        startWhitelisting("");
        HttpResponse<Buffer> r = client.post("/api/assets/download", download("/files/song.mp3", "bgm", "song.mp3"));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("OK", r.bodyAsString());
        assertArrayEquals(SONG, documentBytes("assets/bgm/song.mp3"));

        r = client.post("/api/assets/download", download("/files/song.mp3", "character", "voice.mp3"));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/mpeg", r.getHeader("Content-Type"));
        assertArrayEquals(SONG, r.body().getBytes());
        assertEquals(List.of("bgm/song.mp3"), tree("assets"), "a character asset is not kept, no temp file stays");

        r = client.post("/api/assets/delete", new JsonObject().put("category", "bgm").put("filename", "song.mp3").encode());
        assertEquals(200, r.statusCode());
        assertEquals(List.of(), tree("assets"));
        assertError(client.post("/api/assets/delete", new JsonObject().put("category", "bgm").put("filename", "song.mp3").encode()),
                400, "not found");
        assertNoSpool();
    }

    @Test
    void badDownloadsAreRefusedAndWriteNothing() throws IOException {
        startWhitelisting("");
        assertError(client.post("/api/assets/download", "{}"), 400, "valid");
        assertError(client.post("/api/assets/download", new JsonObject().put("url", "file:///etc/passwd")
                .put("category", "bgm").put("filename", "x.mp3").encode()), 400, "valid");
        assertError(client.post("/api/assets/download", new JsonObject().put("url", "https://example.com/x.mp3")
                .put("category", "bgm").put("filename", "x.mp3").encode()), 404, "whitelistImportDomains");
        assertError(client.post("/api/assets/download", download("/files/song.mp3", "../bgm", "x.mp3")), 400, "category");
        put("assets/bgm/album.mp3/track.mp3", SONG);
        assertError(client.post("/api/assets/download", download("/files/song.mp3", "bgm", "album.mp3")), 400,
                "Not an asset file");
        server.files().delete("assets/bgm/album.mp3/track.mp3");
        for (String name : List.of("../song.mp3", "..", ".hidden.mp3", "evil.js", "a/b.mp3", "", "con.mp3x/..",
                "y".repeat(240) + ".mp3")) {
            assertEquals(400, client.post("/api/assets/download", download("/files/song.mp3", "bgm", name)).statusCode(), name);
        }
        assertError(client.post("/api/assets/download", download("/files/missing.mp3", "bgm", "missing.mp3")), 500, "404");
        assertError(client.post("/api/assets/download", download("/files/huge.vrm", "vrm", "huge.vrm")), 500, "larger than");
        assertEquals(List.of(), tree("assets"));
        assertNoSpool();
        assertEquals(0, mock.calls().stream().filter(c -> c.path().contains("song")).count(), "refused before any request");
    }

    @Test
    void downloadsGoThroughTheOutboundFilter() {
        startWhitelisting("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: []\n");
        assertError(client.post("/api/assets/download", download("/files/song.mp3", "bgm", "song.mp3")), 500,
                "Blocked request to private IP address: 127.0.0.1");
        assertEquals(List.of(), tree("assets"));
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void anUnreachableHostIsAClearError() {
        startWhitelisting("");
        String url = mock.origin() + "/files/song.mp3";
        mock.close();
        HttpResponse<Buffer> r = client.post("/api/assets/download", new JsonObject().put("url", url)
                .put("category", "bgm").put("filename", "song.mp3").encode());
        assertError(r, 500, "are you offline?");
        assertEquals(List.of(), tree("assets"));
    }

    @Test
    void deleteValidatesItsInput() {
        startWhitelisting("");
        put("assets/bgm/keep.mp3", SONG);
        put("keep.mp3", SONG);
        assertError(client.post("/api/assets/delete", new JsonObject().put("category", "nope").put("filename", "keep.mp3").encode()),
                400, "category");
        assertEquals(400, client.post("/api/assets/delete", new JsonObject().put("category", "bgm").put("filename", "../../keep.mp3").encode()).statusCode());
        assertEquals(400, client.post("/api/assets/delete", new JsonObject().put("category", "bgm").encode()).statusCode());
        put("assets/bgm/album.mp3/track.mp3", SONG);
        assertError(client.post("/api/assets/delete", new JsonObject().put("category", "bgm").put("filename", "album.mp3").encode()),
                400, "Not an asset file");
        assertTrue(hasDocument("assets/bgm/album.mp3/track.mp3"));
        assertTrue(hasDocument("assets/bgm/keep.mp3"));
        assertTrue(hasDocument("keep.mp3"));
        assertEquals(200, client.post("/api/assets/delete", new JsonObject().put("category", "bgm").put("filename", "keep.mp3").encode()).statusCode());
        assertFalse(hasDocument("assets/bgm/keep.mp3"));
    }

    @Test
    void characterListsACharactersOwnAssets() {
        startWhitelisting("");
        put("characters/Alice/bgm/theme.mp3", SONG);
        put("characters/Alice/bgm/album/a.mp3", SONG);
        put("characters/Alice/bgm/.placeholder", new byte[0]);
        put("characters/Alice/live2d/m/alice.model3.json", "{}".getBytes());
        put("characters/Alice/live2d/m/moc.bin", new byte[1]);
        assertEquals(new JsonArray().add("/characters/Alice/bgm/album").add("/characters/Alice/bgm/theme.mp3"),
                client.post("/api/assets/character?name=Alice&category=bgm", "{}").bodyAsJsonArray());
        assertEquals(new JsonArray().add("characters/Alice/live2d/m/alice.model3.json"),
                client.post("/api/assets/character?name=Alice&category=live2d", "{}").bodyAsJsonArray());
        assertEquals(new JsonArray(), client.post("/api/assets/character?name=Bob&category=bgm", "{}").bodyAsJsonArray());
        // sanitized: "../Alice" is "..Alice", which does not exist
        assertEquals(new JsonArray(), client.post("/api/assets/character?name=..%2FAlice&category=bgm", "{}").bodyAsJsonArray());
        assertEquals(400, client.post("/api/assets/character?category=bgm", "{}").statusCode());
        assertEquals(400, client.post("/api/assets/character?name=Alice&category=nope", "{}").statusCode());
        assertFalse(server.files().hasFolder("characters/Bob"));
    }
}
