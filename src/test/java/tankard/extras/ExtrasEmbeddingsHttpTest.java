package tankard.extras;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The Extras embeddings module over HTTP, on the embedded model: string and array, refusals, module off, the key. */
class ExtrasEmbeddingsHttpTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String TINY_BART = Path.of("src/test/resources/summarize/tiny-bart").toAbsolutePath().toString();

    private static HttpResponse<String> compute(TestServer server, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.tankard.extrasPort()
                + "/api/embeddings/compute")).POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void assertUnitVector(JsonNode vector) {
        assertEquals(384, vector.size());
        double sum = 0;
        for (JsonNode x : vector) {
            sum += x.asDouble() * x.asDouble();
        }
        assertEquals(1.0, Math.sqrt(sum), 1e-5);
    }

    @Test
    void computesAVectorForAStringAndOneForEachStringOfAnArray() throws Exception {
        try (TestServer server = TestServer.start(null, "--enable-modules=embeddings", "--extras-port", "0")) {
            HttpResponse<String> one = compute(server, "{\"text\": \"The cat sat on the mat\"}");
            assertEquals(200, one.statusCode(), one.body());
            JsonNode vector = JsJson.parse(one.body()).get("embedding");
            assertUnitVector(vector);

            HttpResponse<String> many = compute(server, "{\"text\": [\"The cat sat on the mat\", \"Stock markets fell\"]}");
            assertEquals(200, many.statusCode(), many.body());
            JsonNode vectors = JsJson.parse(many.body()).get("embedding");
            assertEquals(2, vectors.size());
            assertUnitVector(vectors.get(1));
            assertEquals(vector, vectors.get(0), "each text runs alone: the same vector in an array");

            assertEquals("{\"embedding\":[]}", compute(server, "{\"text\": []}").body());
            assertEquals("{\"modules\":[\"embeddings\"]}", HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + server.tankard.extrasPort() + "/api/modules")).build(), HttpResponse.BodyHandlers.ofString()).body());
        }
    }

    @Test
    void refusesBadInputWith400() throws Exception {
        try (TestServer server = TestServer.start(null, "--enable-modules=embeddings", "--extras-port", "0")) {
            for (String body : List.of("{}", "[]", "not json")) {
                HttpResponse<String> reply = compute(server, body);
                assertEquals(400, reply.statusCode(), body);
                assertEquals("{\"error\":\"\\\"text\\\" is required\"}", reply.body(), body);
            }
            for (String body : List.of("{\"text\": null}", "{\"text\": 5}", "{\"text\": {}}", "{\"text\": [\"a\", 1]}", "{\"text\": [null]}")) {
                HttpResponse<String> reply = compute(server, body);
                assertEquals(400, reply.statusCode(), body);
                assertEquals("{\"error\":\"\\\"text\\\" must be string or array of strings\"}", reply.body(), body);
            }
        }
    }

    @Test
    void answers403WhenTheModuleIsOff() throws Exception {
        try (TestServer server = TestServer.start(null, "--enable-modules=summarize", "--extras-port", "0",
                "--summarization-model", TINY_BART)) {
            HttpResponse<String> reply = compute(server, "{\"text\": \"t\"}");
            assertEquals(403, reply.statusCode());
            assertEquals("{\"error\":\"Module 'embeddings' not enabled in config\"}", reply.body());
        }
    }

    @Test
    void secureModeNeedsTheKey() throws Exception {
        try (TestServer server = TestServer.start(null, "--enable-modules=summarize,embeddings", "--extras-port", "0",
                "--summarization-model", TINY_BART, "--secure")) {
            assertEquals(401, compute(server, "{\"text\": \"t\"}").statusCode());
            String key = Files.readString(server.dataRoot.resolve("extras/api_key.txt")).strip();
            HttpResponse<String> reply = compute(server, "{\"text\": \"t\"}", "Authorization", "Bearer " + key);
            assertEquals(200, reply.statusCode(), reply.body());
            assertUnitVector(JsJson.parse(reply.body()).get("embedding"));
        }
    }
}
