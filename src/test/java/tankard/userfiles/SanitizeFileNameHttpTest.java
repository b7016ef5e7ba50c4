package tankard.userfiles;

import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code POST /api/files/sanitize-filename} answers the file name ST derives (ST: src/endpoints/files.js,
 * /sanitize-filename).
 */
class SanitizeFileNameHttpTest extends ServerTest {
    @Test
    void answersStsFileName() {
        start(null);
        assertEquals("{\"fileName\":\"ACDC Live\"}", client.post("/api/files/sanitize-filename", "{\"fileName\":\"AC/DC: Live?.\"}").bodyAsString());
        assertEquals("{\"fileName\":\"\"}", client.post("/api/files/sanitize-filename", "{\"fileName\":\"con\"}").bodyAsString());
        assertEquals("{\"fileName\":\"undefined\"}", client.post("/api/files/sanitize-filename", "{}").bodyAsString(),
                "String(undefined), as ST");
        assertEquals(400, client.post("/api/files/sanitize-filename", "{\"fileName\":\"\"}").statusCode());
    }
}
