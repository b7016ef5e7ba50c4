package tankard.userfiles;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestServer.Client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The user's files over plain GET, from the blob store (on files and on PostgreSQL) and, for extensions, the node. */
class UserFilesHttpTest extends ServerTest {
    private static final String SECRET = "SECRET-OUTSIDE";

    /** Route prefix → folder under the user directory. */
    private static final Map<String, String> ROUTES = Map.of(
            "/characters/", "characters",
            "/backgrounds/", "backgrounds",
            "/User%20Avatars/", "User Avatars",
            "/assets/", "assets",
            "/user/images/", "user/images",
            "/user/files/", "user/files",
            "/scripts/extensions/third-party/", "extensions");


    @Test
    void everyRouteServesItsFolder() throws IOException {
        Client client = start(null);
        for (var route : ROUTES.entrySet()) {
            server.files().write(route.getValue() + "/sub dir/a b.txt", "content of " + route.getValue());
            HttpResponse<Buffer> r = client.get(route.getKey() + "sub%20dir/a%20b.txt");
            assertEquals(200, r.statusCode(), route.getKey());
            assertEquals("content of " + route.getValue(), r.bodyAsString());
            assertTrue(r.getHeader("ETag").startsWith("W/\""));
        }
    }

    @Test
    void missingFilesAndFoldersAnswer404Text() {
        Client client = start(null);
        for (String prefix : ROUTES.keySet()) {
            HttpResponse<Buffer> r = client.get(prefix + "nope.png");
            assertEquals(404, r.statusCode(), prefix);
            assertEquals("Not Found", r.bodyAsString());
            assertEquals(404, client.get(prefix).statusCode(), prefix + " (the folder itself)");
        }
    }

    @Test
    void traversalIsRefusedOnEveryRoute() throws IOException {
        Client client = start(null);
        server.files().write("secrets.json", SECRET);
        Files.writeString(server.dataRoot.resolve("outside.txt"), SECRET);
        for (String prefix : ROUTES.keySet()) {
            String[] attacks = {
                    "..%2Fsecrets.json", "..%2F..%2Fsecrets.json", "..%2F..%2F..%2Foutside.txt",
                    "%2e%2e%2fsecrets.json", "%2E%2E%2F%2E%2E%2Foutside.txt", "x%2F..%2F..%2Fsecrets.json",
                    "..%5Csecrets.json", "%2Fetc%2Fpasswd", "%5Cetc%5Cpasswd", "a%00.png",
                    "%2e%2e/secrets.json", "../secrets.json", "..%252Fsecrets.json",
            };
            for (String attack : attacks) {
                HttpResponse<Buffer> r = client.get(prefix + attack);
                int status = r.statusCode();
                assertTrue(status == 403 || status == 404 || status == 400, prefix + attack + " → " + status);
                assertFalse(r.bodyAsString().contains(SECRET), prefix + attack);
                assertFalse(r.bodyAsString().contains("root:"), prefix + attack);
            }
            assertEquals(403, client.get(prefix + "..%2Fsecrets.json").statusCode(), prefix);
            assertEquals("Forbidden", client.get(prefix + "..%2Fsecrets.json").bodyAsString());
            assertEquals(403, client.get(prefix + "%2Fetc%2Fpasswd").statusCode(), prefix);
            assertEquals(403, client.get(prefix + "a%00.png").statusCode(), prefix);
        }
    }

    @Test
    void pathsAreDecodedOnce() throws IOException {
        Client client = start(null);
        server.files().write("characters/a%41.txt", "literal percent");
        assertEquals("literal percent", client.get("/characters/a%2541.txt").bodyAsString());
        assertEquals(404, client.get("/characters/a%252541.txt").statusCode());
    }

    @Test
    void hiddenFilesAreNotServed() throws IOException {
        Client client = start(null);
        Path extension = server.userDir().resolve("extensions/my-ext");
        Files.createDirectories(extension.resolve(".git"));
        Files.writeString(extension.resolve(".git/config"), "[remote]");
        Files.writeString(extension.resolve("index.js"), "shown");
        assertEquals("shown", client.get("/scripts/extensions/third-party/my-ext/index.js").bodyAsString(),
                "the folder itself is served");
        HttpResponse<Buffer> hidden = client.get("/scripts/extensions/third-party/my-ext/.git/config");
        assertEquals(404, hidden.statusCode());
        assertEquals("Not Found", hidden.bodyAsString());
    }

    @Test
    void thirdPartyExtensionsComeFromTheUserFirstThenTheFrontend() throws IOException {
        Client client = start(null);
        Path global = server.workDir.resolve("public/scripts/extensions/third-party");
        Path own = server.userDir().resolve("extensions");
        Files.createDirectories(global.resolve("shared"));
        Files.createDirectories(own.resolve("shared"));
        Files.writeString(global.resolve("shared/index.js"), "global");
        Files.writeString(own.resolve("shared/index.js"), "own");
        Files.writeString(global.resolve("shared/style.css"), "global css");
        // The public frontend handler serves global files before the gate, as ST's static handler does.
        assertEquals("global", client.get("/scripts/extensions/third-party/shared/index.js").bodyAsString());
        Files.delete(global.resolve("shared/index.js"));
        assertEquals("own", client.get("/scripts/extensions/third-party/shared/index.js").bodyAsString());
        assertEquals("global css", client.get("/scripts/extensions/third-party/shared/style.css").bodyAsString());
        assertEquals(404, client.get("/scripts/extensions/third-party/shared/none.js").statusCode());
    }

    @Test
    void thirdPartyRouteIsGoneWhenExtensionsAreDisabled() throws IOException {
        Client client = start("extensions:\n  enabled: false\n");
        Files.createDirectories(server.userDir().resolve("extensions/mine"));
        Files.writeString(server.userDir().resolve("extensions/mine/index.js"), "own");
        HttpResponse<Buffer> r = client.get("/scripts/extensions/third-party/mine/index.js");
        // ST's extensionsEnabledFeatureGuard (src/endpoints/extensions.js) answers sendStatus(404)
        assertEquals(404, r.statusCode());
        assertEquals("Not Found", r.bodyAsString());
    }

    @Test
    void userFilesNeedASignedInUser() throws IOException {
        start("enableUserAccounts: true\n");
        server.files().write("characters/Seraphina/joy.png", "png");
        HttpResponse<Buffer> r = Client.send(server.plainClient().get("/characters/Seraphina/joy.png"), null);
        assertEquals(403, r.statusCode());
        assertFalse(r.bodyAsString().contains("png"));
    }

    @Test
    void headIsAnsweredToo() throws IOException {
        Client client = start(null);
        server.files().write("user/files/doc.txt", "12345");
        HttpResponse<Buffer> r = Client.send(client.request(io.vertx.core.http.HttpMethod.HEAD, "/user/files/doc.txt"), null);
        assertEquals(200, r.statusCode());
        assertEquals("5", r.getHeader("Content-Length"));
    }

    @Test
    void aBlobIsSentAsExpressSendsAFile() {
        Client client = start(null);
        byte[] image = new byte[300_000]; // more than one chunk of the PostgreSQL store
        for (int i = 0; i < image.length; i++) {
            image[i] = (byte) (i * 7);
        }
        server.files().write("backgrounds/sea.png", image);
        server.files().setModified("backgrounds/sea.png", 1_700_000_000_123.0);

        HttpResponse<Buffer> whole = client.get("/backgrounds/sea.png");
        assertEquals(200, whole.statusCode());
        assertArrayEquals(image, whole.body().getBytes());
        assertEquals("image/png", whole.getHeader("Content-Type"));
        assertEquals("W/\"493e0-18bcfe5687b\"", whole.getHeader("ETag"), "size and mtime in hex");
        assertEquals("Tue, 14 Nov 2023 22:13:20 GMT", whole.getHeader("Last-Modified"));

        assertEquals(304, Client.send(client.request(io.vertx.core.http.HttpMethod.GET, "/backgrounds/sea.png").putHeader("If-None-Match", whole.getHeader("ETag")), null)
                .statusCode());
        assertEquals(412, Client.send(client.request(io.vertx.core.http.HttpMethod.GET, "/backgrounds/sea.png").putHeader("If-Match", "\"other\""), null)
                .statusCode());

        HttpResponse<Buffer> range = Client.send(client.request(io.vertx.core.http.HttpMethod.GET, "/backgrounds/sea.png").putHeader("Range", "bytes=262140-262149"), null);
        assertEquals(206, range.statusCode());
        assertEquals("bytes 262140-262149/300000", range.getHeader("Content-Range"));
        assertArrayEquals(Arrays.copyOfRange(image, 262_140, 262_150), range.body().getBytes(), "across a chunk's end");

        HttpResponse<Buffer> past = Client.send(client.request(io.vertx.core.http.HttpMethod.GET, "/backgrounds/sea.png").putHeader("Range", "bytes=300000-"), null);
        assertEquals(416, past.statusCode());
        assertEquals("bytes */300000", past.getHeader("Content-Range"));
    }

    @Test
    void aReplacedBlobIsSentAnew() {
        Client client = start(null);
        server.files().write("user/images/Alice/a.png", "first");
        HttpResponse<Buffer> first = client.get("/user/images/Alice/a.png");
        server.files().write("user/images/Alice/a.png", "second version");
        server.files().setModified("user/images/Alice/a.png", 1_800_000_000_000.0);
        HttpResponse<Buffer> second = Client.send(client.request(io.vertx.core.http.HttpMethod.GET, "/user/images/Alice/a.png")
                .putHeader("If-None-Match", first.getHeader("ETag")), null);
        assertEquals(200, second.statusCode());
        assertEquals("second version", second.bodyAsString());
        server.files().delete("user/images/Alice/a.png");
        assertEquals(404, client.get("/user/images/Alice/a.png").statusCode());
    }

    @Test
    void aNameLongerThanAnyFileCanHaveIsNotFound() {
        Client client = start(null);
        String name = "x".repeat(300) + ".png";
        for (String prefix : new String[]{"/backgrounds/", "/user/images/", "/characters/Alice/"}) {
            HttpResponse<Buffer> r = client.get(prefix + name);
            assertEquals(404, r.statusCode(), prefix);
            assertEquals("Not Found", r.bodyAsString(), prefix);
        }
    }
}
