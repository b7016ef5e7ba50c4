package tankard.compat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A data root as ST 1.18.0 leaves it (the 'basic' fixture: account store, cookie secret, seeding logs,
 * start-up snapshot) opened by Tankard with its own UI and default seeding on, then read the way the
 * frontend reads it while booting: afterwards every file has the bytes and mtime it had. The only new files
 * allowed are the caches that ST also writes on those reads (image metadata, thumbnails).
 */
class StDataRootUntouchedTest {
    private static final Path COMPAT = Path.of("compat-tests").toAbsolutePath();
    private final Path work = TestServer.tempDir();

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(work);
    }

    @Test
    void bootingAndReadingChangesNoFile() throws IOException {
        Path data = work.resolve("data");
        CompatReplayTest.copyTree(COMPAT.resolve("data/basic"), data);
        Files.writeString(work.resolve("config.yaml"), "skipContentCheck: false\n");
        Map<String, String> before = snapshot(data);

        TestServer server = TestServer.startIn(work);
        try {
            TestServer.Client client = server.client();
            JsonNode scenario = JsJson.parse(Files.readAllBytes(COMPAT.resolve("exchanges/boot-basic.json")));
            for (JsonNode exchange : scenario.get("exchanges")) {
                JsonNode request = exchange.get("request");
                int status = CompatReplayTest.send(client, request).statusCode();
                assertTrue(status < 400, request.get("path").asText() + " answered " + status);
            }
            assertEquals(200, client.get("/thumbnail?type=avatar&file=Aria.png").statusCode());
        } finally {
            // Stop the server but keep its folder (close() would delete it): shutdown must not write either.
            TestServer.await(server.vertx.close());
        }

        Map<String, String> after = snapshot(data);
        after.keySet().removeIf(file -> !before.containsKey(file)
                && (file.equals("default-user/image-metadata.json") || file.startsWith("default-user/thumbnails/")));
        assertEquals(before, after);
    }

    /** Every file under the root: its SHA-256 and mtime. */
    private static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(file)) {
                    files.put(root.relativize(file).toString().replace('\\', '/'),
                            sha256(Files.readAllBytes(file)) + " " + Files.getLastModifiedTime(file).toMillis());
                }
            }
        }
        return files;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
