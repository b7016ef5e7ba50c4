package tankard.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Replays the HTTP exchanges recorded from SillyTavern 1.18.0 (compat-tests/exchanges, made with
 * compat-tests/record.py) against Tankard on a copy of the same fixture data root, in order, with one
 * browser-like session per scenario. Status, body type and body must match, except for the JSON paths a
 * scenario marks as volatile (file dates, ST's own version string). An exchange marked {@code statusOnly}
 * (with the reason) is a deliberate difference where only the status must match.
 */
class CompatReplayTest {
    private static final Path COMPAT = Path.of("compat-tests").toAbsolutePath();

    @TestFactory
    Stream<DynamicContainer> scenarios() throws IOException {
        List<Path> files;
        try (Stream<Path> list = Files.list(COMPAT.resolve("exchanges"))) {
            files = list.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        return files.stream().map(this::scenario);
    }

    private DynamicContainer scenario(Path file) {
        JsonNode scenario = read(file);
        List<DynamicTest> tests = new ArrayList<>();
        // One server per scenario, started lazily by the first exchange and closed by the last, so that
        // exchanges run in recorded order against the same session.
        ScenarioServer server = new ScenarioServer(scenario);
        JsonNode exchanges = scenario.get("exchanges");
        for (int i = 0; i < exchanges.size(); i++) {
            JsonNode exchange = exchanges.get(i);
            boolean last = i == exchanges.size() - 1;
            JsonNode request = exchange.get("request");
            String name = i + " " + request.path("method").asText("POST") + " " + request.get("path").asText();
            tests.add(DynamicTest.dynamicTest(name, () -> {
                try {
                    replay(server.client(), exchange);
                } finally {
                    if (last) {
                        server.close();
                    }
                }
            }));
        }
        return DynamicContainer.dynamicContainer(file.getFileName().toString(), tests);
    }

    /** Sends a scenario's recorded request (method, path, and a {@code json} or {@code raw} body). */
    static HttpResponse<Buffer> send(TestServer.Client client, JsonNode request) {
        HttpRequest<Buffer> http = client.request(HttpMethod.valueOf(request.path("method").asText("POST")),
                request.get("path").asText());
        Buffer body = null;
        if (request.has("json")) {
            http.putHeader("Content-Type", "application/json");
            body = Buffer.buffer(JsJson.compact(request.get("json")));
        } else if (request.has("raw")) {
            http.putHeader("Content-Type", request.path("contentType").asText("application/json"));
            body = Buffer.buffer(request.get("raw").asText());
        }
        return TestServer.Client.send(http, body);
    }

    private static void replay(TestServer.Client client, JsonNode exchange) {
        JsonNode request = exchange.get("request");
        HttpResponse<Buffer> response = send(client, request);
        JsonNode expected = exchange.get("response");
        String where = request.get("path").asText();
        assertEquals(expected.get("status").asInt(), response.statusCode(), where + ": status; body " + response.bodyAsString());
        if (exchange.has("statusOnly")) {
            // A deliberate difference, explained in the scenario: only the status has to match.
            return;
        }
        String type = expected.get("type").asText();
        switch (type) {
            case "empty" -> assertEquals(0, response.body() == null ? 0 : response.body().length(), where + ": empty body");
            case "text" -> assertEquals(expected.get("body").asText(), response.bodyAsString(), where + ": text body");
            case "json" -> {
                String contentType = String.valueOf(response.getHeader("Content-Type"));
                assertEquals(true, contentType.startsWith("application/json"), where + ": content type " + contentType);
                JsonNode actual = JsJson.parse(response.body().getBytes());
                JsonNode want = JsJson.parse(JsJson.compact(expected.get("body")));
                for (JsonNode ignore : exchange.path("ignore")) {
                    String[] path = ignore.asText().substring(1).split("/");
                    remove(actual, path, 0);
                    remove(want, path, 0);
                }
                assertEquals(JsJson.pretty(want), JsJson.pretty(actual), where + ": JSON body");
            }
            default -> throw new IllegalArgumentException("unknown response type " + type);
        }
    }

    /** Removes the members a path names; {@code *} matches every member or element. */
    private static void remove(JsonNode node, String[] path, int depth) {
        String key = path[depth];
        boolean leaf = depth == path.length - 1;
        if (node instanceof ObjectNode object) {
            if (key.equals("*")) {
                if (leaf) {
                    object.removeAll();
                } else {
                    object.elements().forEachRemaining(child -> remove(child, path, depth + 1));
                }
            } else if (leaf) {
                object.remove(key);
            } else if (object.has(key)) {
                remove(object.get(key), path, depth + 1);
            }
        } else if (node instanceof ArrayNode array) {
            if (key.equals("*")) {
                if (leaf) {
                    array.removeAll();
                } else {
                    for (Iterator<JsonNode> it = array.elements(); it.hasNext(); ) {
                        remove(it.next(), path, depth + 1);
                    }
                }
            } else if (key.matches("\\d+") && Integer.parseInt(key) < array.size()) {
                if (leaf) {
                    array.remove(Integer.parseInt(key));
                } else {
                    remove(array.get(Integer.parseInt(key)), path, depth + 1);
                }
            }
        }
    }

    private static JsonNode read(Path file) {
        try {
            return JsJson.parse(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The server and browser session of one scenario. */
    private static final class ScenarioServer {
        private final JsonNode scenario;
        private TestServer server;
        private TestServer.Client client;

        ScenarioServer(JsonNode scenario) {
            this.scenario = scenario;
        }

        TestServer.Client client() throws IOException {
            if (server == null) {
                Path work = TestServer.tempDir();
                copyTree(COMPAT.resolve("data").resolve(scenario.get("fixture").asText()), work.resolve("data"));
                ObjectNode config = scenario.path("config").isObject() ? ((ObjectNode) scenario.get("config")).deepCopy() : JsJson.object();
                config.put("skipContentCheck", true); // as when recorded: only the fixture's own content
                Files.writeString(work.resolve("config.yaml"), JsJson.pretty(config)); // JSON is YAML
                Files.createDirectories(work.resolve("public"));
                server = TestServer.startIn(work);
                client = server.client();
            }
            return client;
        }

        void close() {
            if (server != null) {
                server.close();
            }
        }
    }

    /**
     * Copies a fixture and gives every file a fixed mtime, one second apart in path order, as record.py does,
     * so listings sorted by date come out as recorded.
     */
    static void copyTree(Path from, Path to) throws IOException {
        List<String> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : (Iterable<Path>) walk::iterator) {
                String relative = from.relativize(source).toString().replace('\\', '/');
                Path target = to.resolve(relative);
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target);
                    files.add(relative);
                }
            }
        }
        files.sort(null);
        for (int i = 0; i < files.size(); i++) {
            Files.setLastModifiedTime(to.resolve(files.get(i)), FileTime.fromMillis((1_767_261_600L + i) * 1000));
        }
    }
}
