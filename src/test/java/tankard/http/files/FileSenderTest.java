package tankard.http.files;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestServer.Client;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Express-compatible file sending, exercised through the public frontend folder and a user file route. */
class FileSenderTest extends ServerTest {
    private static final long MTIME = 1_700_000_000_123L;

    private byte[] audio;

    @BeforeEach
    void start() throws IOException {
        start(null);
        audio = new byte[5000];
        for (int i = 0; i < audio.length; i++) {
            audio[i] = (byte) (i * 31);
        }
        Path sounds = server.workDir.resolve("public/sounds");
        Files.createDirectories(sounds);
        Files.write(sounds.resolve("ding.mp3"), audio);
        Files.setLastModifiedTime(sounds.resolve("ding.mp3"), FileTime.fromMillis(MTIME));
    }

    private HttpResponse<Buffer> get(String path, String... headers) {
        return send(HttpMethod.GET, path, headers);
    }

    private HttpResponse<Buffer> send(HttpMethod method, String path, String... headers) {
        var request = client.request(method, path);
        for (int i = 0; i < headers.length; i += 2) {
            request.putHeader(headers[i], headers[i + 1]);
        }
        return Client.send(request, null);
    }

    private static byte[] bytes(HttpResponse<Buffer> r) {
        return r.body() == null ? new byte[0] : r.body().getBytes();
    }

    @Test
    void plainGetCarriesExpressCachingHeaders() {
        HttpResponse<Buffer> r = get("/sounds/ding.mp3");
        assertEquals(200, r.statusCode());
        assertArrayEquals(audio, bytes(r));
        assertEquals("W/\"" + Long.toHexString(5000) + "-" + Long.toHexString(MTIME) + "\"", r.getHeader("ETag"));
        assertEquals("Tue, 14 Nov 2023 22:13:20 GMT", r.getHeader("Last-Modified"));
        assertEquals("public, max-age=0", r.getHeader("Cache-Control"));
        assertEquals("bytes", r.getHeader("Accept-Ranges"));
        assertEquals("audio/mpeg", r.getHeader("Content-Type"));
        assertEquals("5000", r.getHeader("Content-Length"));
    }

    @Test
    void matchingValidatorsAnswer304AndChangedFilesDoNot() throws IOException {
        String etag = get("/sounds/ding.mp3").getHeader("ETag");
        HttpResponse<Buffer> byTag = get("/sounds/ding.mp3", "If-None-Match", etag);
        assertEquals(304, byTag.statusCode());
        assertEquals(0, bytes(byTag).length);
        assertEquals(etag, byTag.getHeader("ETag"));
        assertNull(byTag.getHeader("Content-Type"));

        assertEquals(304, get("/sounds/ding.mp3", "If-None-Match", "\"other\", " + etag).statusCode());
        assertEquals(304, get("/sounds/ding.mp3", "If-Modified-Since", "Tue, 14 Nov 2023 22:13:20 GMT").statusCode());
        assertEquals(200, get("/sounds/ding.mp3", "If-Modified-Since", "Tue, 14 Nov 2023 22:13:19 GMT").statusCode());
        assertEquals(200, get("/sounds/ding.mp3", "If-None-Match", etag, "Cache-Control", "no-cache").statusCode());

        // A rewritten file gets a new tag, so the old one no longer matches.
        Path file = server.workDir.resolve("public/sounds/ding.mp3");
        Files.write(file, Arrays.copyOf(audio, 4000));
        Files.setLastModifiedTime(file, FileTime.from(Instant.ofEpochMilli(MTIME + 5000)));
        HttpResponse<Buffer> changed = get("/sounds/ding.mp3", "If-None-Match", etag);
        assertEquals(200, changed.statusCode());
        assertEquals(4000, bytes(changed).length);
    }

    @Test
    void preconditionsThatFailAnswer412() {
        assertEquals(412, get("/sounds/ding.mp3", "If-Match", "\"nope\"").statusCode());
        String etag = get("/sounds/ding.mp3").getHeader("ETag");
        assertEquals(200, get("/sounds/ding.mp3", "If-Match", etag).statusCode());
    }

    @Test
    void rangesAnswer206WithExactlyThoseBytes() {
        HttpResponse<Buffer> r = get("/sounds/ding.mp3", "Range", "bytes=100-199");
        assertEquals(206, r.statusCode());
        assertEquals("bytes 100-199/5000", r.getHeader("Content-Range"));
        assertEquals("100", r.getHeader("Content-Length"));
        assertArrayEquals(Arrays.copyOfRange(audio, 100, 200), bytes(r));

        HttpResponse<Buffer> suffix = get("/sounds/ding.mp3", "Range", "bytes=-10");
        assertEquals("bytes 4990-4999/5000", suffix.getHeader("Content-Range"));
        assertArrayEquals(Arrays.copyOfRange(audio, 4990, 5000), bytes(suffix));

        HttpResponse<Buffer> open = get("/sounds/ding.mp3", "Range", "bytes=4000-");
        assertArrayEquals(Arrays.copyOfRange(audio, 4000, 5000), bytes(open));

        HttpResponse<Buffer> clamped = get("/sounds/ding.mp3", "Range", "bytes=4990-99999");
        assertEquals("bytes 4990-4999/5000", clamped.getHeader("Content-Range"));

        // Overlapping parts merge into one range; disjoint ones get the whole file, as Express does.
        assertEquals("bytes 0-20/5000", get("/sounds/ding.mp3", "Range", "bytes=0-10,5-20").getHeader("Content-Range"));
        HttpResponse<Buffer> several = get("/sounds/ding.mp3", "Range", "bytes=0-10,100-110");
        assertEquals(200, several.statusCode());
        assertEquals(5000, bytes(several).length);
    }

    @Test
    void unsatisfiableRangesAnswer416() {
        HttpResponse<Buffer> r = get("/sounds/ding.mp3", "Range", "bytes=6000-7000");
        assertEquals(416, r.statusCode());
        assertEquals("bytes */5000", r.getHeader("Content-Range"));
        assertEquals(416, get("/sounds/ding.mp3", "Range", "bytes=20-10").statusCode());
        // Not a byte range at all: the whole file.
        assertEquals(200, get("/sounds/ding.mp3", "Range", "items=1-2").statusCode());
    }

    @Test
    void staleIfRangeGetsTheWholeFile() {
        HttpResponse<Buffer> r = get("/sounds/ding.mp3", "Range", "bytes=0-9", "If-Range", "\"old\"");
        assertEquals(200, r.statusCode());
        assertEquals(5000, bytes(r).length);
        String etag = get("/sounds/ding.mp3").getHeader("ETag");
        assertEquals(206, get("/sounds/ding.mp3", "Range", "bytes=0-9", "If-Range", etag).statusCode());
    }

    @Test
    void headSendsHeadersOnly() {
        HttpResponse<Buffer> r = send(HttpMethod.HEAD, "/sounds/ding.mp3");
        assertEquals(200, r.statusCode());
        assertEquals("5000", r.getHeader("Content-Length"));
        assertEquals(0, bytes(r).length);
        assertTrue(r.getHeader("ETag").startsWith("W/\""));
    }

    @Test
    void compressionLeavesRangesAndMediaAloneButGzipsText() throws IOException {
        HttpResponse<Buffer> range = get("/sounds/ding.mp3", "Range", "bytes=10-19", "Accept-Encoding", "gzip");
        assertEquals(206, range.statusCode());
        assertNull(range.getHeader("Content-Encoding"));
        assertArrayEquals(Arrays.copyOfRange(audio, 10, 20), bytes(range));

        HttpResponse<Buffer> media = get("/sounds/ding.mp3", "Accept-Encoding", "gzip");
        assertNull(media.getHeader("Content-Encoding"));
        assertArrayEquals(audio, bytes(media));

        Files.writeString(server.workDir.resolve("public/style.css"), "body { color: red; }\n".repeat(200));
        HttpResponse<Buffer> text = get("/style.css", "Accept-Encoding", "gzip");
        assertEquals("gzip", text.getHeader("Content-Encoding"));
        assertEquals("text/css; charset=UTF-8", text.getHeader("Content-Type"));
        String etag = text.getHeader("ETag");
        assertEquals(304, get("/style.css", "Accept-Encoding", "gzip", "If-None-Match", etag).statusCode());
    }

    @Test
    void contentTypesFollowTheExtension() throws IOException {
        Path pub = server.workDir.resolve("public");
        Files.writeString(pub.resolve("script.js"), "export {};");
        Files.writeString(pub.resolve("manifest.json"), "{}");
        Files.write(pub.resolve("blob.unknownext"), new byte[]{1, 2, 3});
        assertEquals("application/javascript; charset=UTF-8", get("/script.js").getHeader("Content-Type"));
        assertEquals("application/json; charset=UTF-8", get("/manifest.json").getHeader("Content-Type"));
        assertEquals("text/html; charset=UTF-8", get("/index.html").getHeader("Content-Type"));
        assertEquals("application/octet-stream", get("/blob.unknownext").getHeader("Content-Type"));
    }

    @Test
    void firefoxGetsNoStoreForUserImagesOnly() throws IOException {
        Files.write(server.userDir().resolve("backgrounds/sky.png"), new byte[]{1, 2, 3});
        Files.write(server.userDir().resolve("user/files/notes.txt"), "hi".getBytes(StandardCharsets.UTF_8));
        Files.write(server.workDir.resolve("public/logo.png"), new byte[]{4, 5, 6});
        String firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";
        String chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";

        assertEquals("must-understand, no-store", get("/backgrounds/sky.png", "User-Agent", firefox).getHeader("Cache-Control"));
        assertEquals("public, max-age=0", get("/backgrounds/sky.png", "User-Agent", chrome).getHeader("Cache-Control"));
        assertEquals("public, max-age=0", get("/user/files/notes.txt", "User-Agent", firefox).getHeader("Cache-Control"));
        assertEquals("public, max-age=0", get("/logo.png", "User-Agent", firefox).getHeader("Cache-Control"));
    }

    @Test
    void frontendFoldersServeTheirIndexAndMissingFilesFallThrough() throws IOException {
        Path docs = server.workDir.resolve("public/docs");
        Files.createDirectories(docs);
        Files.writeString(docs.resolve("index.html"), "<p>docs</p>");
        assertEquals("<p>docs</p>", get("/docs/").bodyAsString());
        HttpResponse<Buffer> redirect = get("/docs?x=1");
        assertEquals(301, redirect.statusCode());
        assertEquals("/docs/?x=1", redirect.getHeader("Location"));
        assertTrue(get("/").bodyAsString().contains("Tankard test"));

        HttpResponse<Buffer> missing = get("/nothing.js");
        assertEquals(404, missing.statusCode());
        assertEquals(404, get("/empty/").statusCode());
        // Hidden files are never served.
        Files.writeString(server.workDir.resolve("public/.env"), "SECRET=1");
        assertEquals(404, get("/.env").statusCode());
    }

    @Test
    void frontendRefusesToLeaveItsFolder() throws IOException {
        Files.writeString(server.workDir.resolve("outside.txt"), "secret");
        for (String path : new String[]{"/..%2Foutside.txt", "/%2e%2e/outside.txt", "/a/..%2F..%2Foutside.txt", "/..%5Coutside.txt"}) {
            HttpResponse<Buffer> r = get(path);
            assertTrue(r.statusCode() >= 400, path);
            assertTrue(!r.bodyAsString().contains("secret"), path);
        }
    }

    @Test
    void userCssOverrideWinsOverTheFrontendOne() throws IOException {
        Files.createDirectories(server.workDir.resolve("public/css"));
        Files.writeString(server.workDir.resolve("public/css/user.css"), "/* frontend */");
        assertEquals("/* frontend */", get("/css/user.css").bodyAsString());
        Files.createDirectories(server.dataRoot.resolve("_css"));
        Files.writeString(server.dataRoot.resolve("_css/user.css"), "/* override */");
        HttpResponse<Buffer> r = get("/css/user.css");
        assertEquals("/* override */", r.bodyAsString());
        assertEquals("text/css; charset=UTF-8", r.getHeader("Content-Type"));
    }
}
