package tankard.classify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ST's classify routes over HTTP on the tiny classifier of src/test/resources/classify/make-tiny-classifier.py,
 * laid out in the data root as a downloaded model is, with downloads off.
 */
class ClassifyHttpTest {
    private static final Path TINY = Path.of("src/test/resources/classify/tiny-classifier");
    private static final String REPO = "Tankard/tiny-classifier";

    /** A server whose data root holds the tiny model as {@code REPO}, {@code config.json} edited by {@code problemType}. */
    static TestServer server(String problemType, String model, String... flags) throws Exception {
        Path work = TestServer.tempDir();
        Path folder = work.resolve("data/_models").resolve(REPO);
        Files.createDirectories(folder.resolve("onnx"));
        for (String file : List.of("tokenizer.json", "tokenizer_config.json", "onnx/model_quantized.onnx")) {
            Files.copy(TINY.resolve(file), folder.resolve(file));
        }
        ObjectNode config = (ObjectNode) JsJson.parse(Files.readString(TINY.resolve("config.json")));
        config.put("problem_type", problemType);
        Files.writeString(folder.resolve("config.json"), config.toString());
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title>");
        Files.writeString(work.resolve("config.yaml"), "extensions:\n  models:\n    classification: " + model
                + "\n    autoDownload: false\n");
        return TestServer.startIn(work, flags);
    }

    static JsonNode expected() throws Exception {
        return JsJson.parse(Files.readString(TINY.resolve("expected.json")));
    }

    private static JsonNode classify(TestServer.Client client, String text) {
        HttpResponse<Buffer> reply = client.post("/api/extra/classify", JsJson.object().put("text", text).toString());
        assertEquals(200, reply.statusCode(), reply.bodyAsString());
        return JsJson.parse(reply.bodyAsString()).get("classification");
    }

    /** The first request starts the load and is told so with a 503; then the model answers. */
    private static void awaitModel(TestServer.Client client) throws Exception {
        HttpResponse<Buffer> first = client.post("/api/extra/classify/labels", null);
        assertEquals(503, first.statusCode(), first.bodyAsString());
        assertTrue(first.bodyAsString().contains("is loading"), first.bodyAsString());
        for (int i = 0; i < 300; i++) {
            HttpResponse<Buffer> reply = client.post("/api/extra/classify/labels", null);
            if (reply.statusCode() == 200) {
                return;
            }
            assertEquals(503, reply.statusCode(), reply.bodyAsString());
            Thread.sleep(50);
        }
        throw new AssertionError("the classifier never loaded");
    }

    static void assertClassification(JsonNode expected, JsonNode actual, String text) {
        for (int i = 0; i < 5; i++) {
            assertEquals(expected.get(i).get("label").asText(), actual.get(i).get("label").asText(), text + " #" + i);
            assertEquals(expected.get(i).get("score").asDouble(), actual.get(i).get("score").asDouble(), 1e-5, text + " #" + i);
            if (i > 0) {
                assertTrue(actual.get(i - 1).get("score").asDouble() >= actual.get(i).get("score").asDouble(), text);
            }
        }
    }

    @Test
    void classifiesWithTheTopFiveLabelsSortedAsTheSigmoidOfAMultiLabelModel() throws Exception {
        try (TestServer server = server("multi_label_classification", REPO)) {
            TestServer.Client client = server.client();
            awaitModel(client);
            JsonNode expected = expected();
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> text = it.next();
                JsonNode classification = classify(client, text.getKey());
                assertEquals(5, classification.size(), text.getKey());
                assertClassification(text.getValue().get("multi_label_classification"), classification, text.getKey());
            }
            assertEquals("joy", classify(client, "I am so happy today!").get(0).get("label").asText());
            assertEquals("anger", classify(client, "I was furious at the dog").get(0).get("label").asText());
            assertEquals("sadness", classify(client, "Tears in the rain").get(0).get("label").asText());
            assertEquals("neutral", classify(client, "The cat is home").get(0).get("label").asText());
        }
    }

    @Test
    void aSingleLabelModelsScoresAreItsSoftmax() throws Exception {
        try (TestServer server = server("single_label_classification", REPO)) {
            TestServer.Client client = server.client();
            awaitModel(client);
            for (Iterator<Map.Entry<String, JsonNode>> it = expected().fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> text = it.next();
                JsonNode classification = classify(client, text.getKey());
                assertEquals(5, classification.size(), text.getKey());
                assertClassification(text.getValue().get("single_label_classification"), classification, text.getKey());
            }
        }
    }

    @Test
    void labelsListsTheKeysOfLabel2id() throws Exception {
        try (TestServer server = server("multi_label_classification", REPO)) {
            TestServer.Client client = server.client();
            awaitModel(client);
            HttpResponse<Buffer> reply = client.post("/api/extra/classify/labels", null);
            assertEquals(200, reply.statusCode());
            List<String> keys = new ArrayList<>();
            JsJson.parse(Files.readString(TINY.resolve("config.json"))).get("label2id").fieldNames().forEachRemaining(keys::add);
            assertEquals(JsJson.MAPPER.valueToTree(Map.of("labels", keys)), JsJson.parse(reply.bodyAsString()));
        }
    }

    @Test
    void aMissingOrNonStringTextIs400() throws Exception {
        try (TestServer server = server("multi_label_classification", REPO)) {
            TestServer.Client client = server.client();
            for (String body : List.of("{}", "{\"text\": null}", "{\"text\": 5}", "{\"text\": [\"happy\"]}",
                    "{\"text\": {}}")) {
                HttpResponse<Buffer> reply = client.post("/api/extra/classify", body);
                assertEquals(400, reply.statusCode(), body);
                assertTrue(reply.bodyAsString().contains("\\\"text\\\" must be a string"), reply.bodyAsString());
            }
        }
    }

    @Test
    void withoutTheModelAndDownloadsOffBothRoutesAnswer503WithTheReason() throws Exception {
        try (TestServer server = server("multi_label_classification", "Nobody/missing-model")) {
            TestServer.Client client = server.client();
            for (String path : List.of("/api/extra/classify", "/api/extra/classify/labels")) {
                HttpResponse<Buffer> reply = client.post(path, "{\"text\": \"happy\"}");
                assertEquals(503, reply.statusCode(), path);
                String message = JsJson.parse(reply.bodyAsString()).path("error").asText();
                assertTrue(message.contains("Nobody/missing-model is not in the models folder (Nobody/missing-model)")
                        && message.contains("autoDownload is false"), reply.bodyAsString());
                assertFalse(message.contains(server.userDir().getParent().toString()), "no server path: " + message);
            }
        }
    }

    @Test
    void manyRequestsAtOnceAreAllAnswered() throws Exception {
        try (TestServer server = server("multi_label_classification", REPO)) {
            TestServer.Client client = server.client();
            awaitModel(client);
            List<Future<HttpResponse<Buffer>>> replies = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                // each text differs, so none is answered from the cache
                String text = (i % 2 == 0 ? "so happy " : "tears ") + i;
                replies.add(client.request(HttpMethod.POST, "/api/extra/classify").putHeader("Content-Type", "application/json")
                        .sendBuffer(Buffer.buffer(JsJson.object().put("text", text).toString())));
            }
            for (int i = 0; i < replies.size(); i++) {
                HttpResponse<Buffer> reply = TestServer.await(replies.get(i));
                assertEquals(200, reply.statusCode(), reply.bodyAsString());
                JsonNode top = JsJson.parse(reply.bodyAsString()).get("classification").get(0);
                assertEquals(i % 2 == 0 ? "joy" : "sadness", top.get("label").asText(), "request " + i);
            }
        }
    }
}
