package tankard.userfiles;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/files/*}: sanitize-filename and the data bank files (blobs), served at {@code /user/files/}. */
class DataBankHttpTest extends ServerTest {
    @BeforeEach
    void start() {
        start(null);
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void sanitizeFilename() {
        HttpResponse<Buffer> r = client.post("/api/files/sanitize-filename", "{\"fileName\":\"a/b:c?.json. \"}");
        assertEquals(200, r.statusCode());
        assertEquals("{\"fileName\":\"abc.json\"}", r.bodyAsString());
        assertEquals("{\"fileName\":\"undefined\"}", client.post("/api/files/sanitize-filename", "{}").bodyAsString());
        assertEquals("{\"fileName\":\"12\"}", client.post("/api/files/sanitize-filename", "{\"fileName\":12}").bodyAsString());
        HttpResponse<Buffer> empty = client.post("/api/files/sanitize-filename", "{\"fileName\":\"\"}");
        assertEquals(400, empty.statusCode());
        assertEquals(error("No fileName specified"), empty.bodyAsString());
    }

    @Test
    void uploadVerifyDelete() {
        HttpResponse<Buffer> r = client.post("/api/files/upload", "{\"name\":\"notes-1.txt\",\"data\":\"" + b64("hello data bank") + "\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"path\":\"/user/files/notes-1.txt\"}", r.bodyAsString());
        assertEquals("hello data bank", document("user/files/notes-1.txt"));

        HttpResponse<Buffer> verify = client.post("/api/files/verify",
                "{\"urls\":[\"/user/files/notes-1.txt\",\"/user/files/gone.txt\",\"/user/images/x.png\",\"/user/files_x/a\",7]}");
        assertEquals("{\"/user/files/notes-1.txt\":true,\"/user/files/gone.txt\":false}", verify.bodyAsString());

        assertEquals(200, client.post("/api/files/delete", "{\"path\":\"/user/files/notes-1.txt\"}").statusCode());
        assertFalse(hasDocument("user/files/notes-1.txt"));
        HttpResponse<Buffer> again = client.post("/api/files/delete", "{\"path\":\"/user/files/notes-1.txt\"}");
        assertEquals(404, again.statusCode());
        assertEquals(error("File not found"), again.bodyAsString());
    }

    @Test
    void anUploadedFileIsServed() {
        client.post("/api/files/upload", "{\"name\":\"notes-1.txt\",\"data\":\"" + b64("hello data bank") + "\"}");
        assertEquals("hello data bank", client.get("/user/files/notes-1.txt").bodyAsString());
    }

    @Test
    void verifyReadsPathsAsNodeJoinsThem() {
        put("user/files/sub/a.txt", new byte[] {1});
        HttpResponse<Buffer> verify = client.post("/api/files/verify", "{\"urls\":[\"user/files/./sub//a.txt\","
                + "\"/user/files/x/../sub/a.txt\",\"/user/files/sub\",\"/user/files/sub/a.txt/b\",\"/user/files/a\\\\b\","
                + "\"/user/files/" + "n".repeat(300) + "\",\"/user/files/../files/sub/a.txt\",\"/user/files/\"]}");
        assertEquals(new io.vertx.core.json.JsonObject().put("user/files/./sub//a.txt", true)
                .put("/user/files/x/../sub/a.txt", true).put("/user/files/sub", true).put("/user/files/sub/a.txt/b", false)
                .put("/user/files/a\\b", false).put("/user/files/" + "n".repeat(300), false)
                .put("/user/files/../files/sub/a.txt", true), verify.bodyAsJsonObject());
    }

    @Test
    void badUploadsWriteNothing() {
        String data = b64("x");
        String[][] cases = {
                {"{\"data\":\"" + data + "\"}", "No upload name specified"},
                {"{\"name\":\"a.txt\"}", "No upload data specified"},
                {"{\"name\":\"../a.txt\",\"data\":\"" + data + "\"}", "Illegal character in filename; only alphanumeric, '_', '-' are accepted."},
                {"{\"name\":\"a b.txt\",\"data\":\"" + data + "\"}", "Illegal character in filename; only alphanumeric, '_', '-' are accepted."},
                {"{\"name\":\"page.html\",\"data\":\"" + data + "\"}", "Forbidden file extension."},
                {"{\"name\":\"run.JS\",\"data\":\"" + data + "\"}", "Forbidden file extension."},
                {"{\"name\":\".env\",\"data\":\"" + data + "\"}", "Filename cannot start with '.'"},
                {"{\"name\":\"con.txt\",\"data\":\"" + data + "\"}", "Reserved or long filename."},
                {"{\"name\":\"..\",\"data\":\"" + data + "\"}", "Filename cannot start with '.'"},
                {"{\"name\":[\"a.txt\"],\"data\":\"" + data + "\"}", "The upload name and data must be text"},
                {"{\"name\":\"a.txt\",\"data\":{\"x\":1}}", "The upload name and data must be text"},
        };
        for (String[] c : cases) {
            HttpResponse<Buffer> r = client.post("/api/files/upload", c[0]);
            assertEquals(400, r.statusCode(), c[0]);
            assertEquals(error(c[1]), r.bodyAsString(), c[0]);
        }
        assertEquals(List.of(), server.files().list("user/files"));
    }

    @Test
    void deleteAndVerifyStayInsideTheFilesFolder() {
        put("user/files_evil/a.txt", new byte[] {1});
        put("secrets.json", "{}".getBytes(StandardCharsets.UTF_8));
        put("user/files/sub/a.txt", new byte[] {1});
        for (String path : new String[] {"/user/files/../../secrets.json", "/user/files_evil/a.txt", "/user/files", "/user/files/", "/secrets.json"}) {
            HttpResponse<Buffer> r = client.post("/api/files/delete", "{\"path\":\"" + path + "\"}");
            assertEquals(400, r.statusCode(), path);
            assertEquals(error("Invalid path"), r.bodyAsString(), path);
        }
        assertEquals(400, client.post("/api/files/delete", "{\"path\":\"/user/files/sub\"}").statusCode());
        assertEquals(error("No path specified"), client.post("/api/files/delete", "{}").bodyAsString());
        assertEquals(400, client.post("/api/files/delete", "{\"path\":{}}").statusCode());
        assertEquals(400, client.post("/api/files/verify", "{\"urls\":\"/user/files/a\"}").statusCode());
        assertEquals(404, client.post("/api/files/delete", "{\"path\":\"/user/files/a\\\\b\"}").statusCode());
        assertEquals(404, client.post("/api/files/delete", "{\"path\":\"/user/files/" + "n".repeat(300) + "\"}").statusCode());
        assertTrue(hasDocument("user/files_evil/a.txt"));
        assertTrue(hasDocument("secrets.json"));
        assertArrayEquals(new byte[] {1}, documentBytes("user/files/sub/a.txt"));
    }

    /** The JSON error body Tankard answers a bad request with. */
    private static String error(String message) {
        return new io.vertx.core.json.JsonObject().put("error", message).encode();
    }
}
