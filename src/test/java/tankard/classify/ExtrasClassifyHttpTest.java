package tankard.classify;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Extras classify module over HTTP on the tiny classifier: every label sorted, the labels, refusals, module off. */
class ExtrasClassifyHttpTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static HttpResponse<String> send(TestServer server, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.tankard.extrasPort() + path));
        request = body == null ? request.GET() : request.POST(HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> awaitModel(TestServer server) throws Exception {
        for (int i = 0; i < 300; i++) {
            HttpResponse<String> reply = send(server, "/api/classify/labels", null);
            if (reply.statusCode() == 200) {
                return reply;
            }
            assertEquals(503, reply.statusCode(), reply.body());
            assertTrue(JsJson.parse(reply.body()).path("error").asText().contains("is loading"), reply.body());
            Thread.sleep(50);
        }
        throw new AssertionError("the classifier never loaded");
    }

    @Test
    void classifyListsEveryLabelSortedAndLabelsListsThemInTheOrderOfAnEmptyText() throws Exception {
        try (TestServer server = ClassifyHttpTest.server("multi_label_classification", "Tankard/tiny-classifier",
                "--enable-modules=classify", "--extras-port", "0")) {
            JsonNode labels = JsJson.parse(awaitModel(server).body()).get("labels");
            assertEquals(8, labels.size());
            JsonNode expected = ClassifyHttpTest.expected();
            for (int i = 0; i < 5; i++) {
                assertEquals(expected.get("").get("multi_label_classification").get(i).get("label").asText(),
                        labels.get(i).asText());
            }
            HttpResponse<String> reply = send(server, "/api/classify", "{\"text\": \"Tears in the rain\"}");
            assertEquals(200, reply.statusCode(), reply.body());
            JsonNode classification = JsJson.parse(reply.body()).get("classification");
            assertEquals(8, classification.size(), "Extras lists every label");
            ClassifyHttpTest.assertClassification(expected.get("Tears in the rain").get("multi_label_classification"),
                    classification, "Tears in the rain");
            assertEquals("{\"modules\":[\"classify\"]}", send(server, "/api/modules", null).body());
        }
    }

    @Test
    void aMissingOrNonStringTextIs400() throws Exception {
        try (TestServer server = ClassifyHttpTest.server("multi_label_classification", "Tankard/tiny-classifier",
                "--enable-modules=classify", "--extras-port", "0")) {
            for (String body : List.of("{}", "[]", "not json", "{\"text\": 5}", "{\"text\": null}")) {
                HttpResponse<String> reply = send(server, "/api/classify", body);
                assertEquals(400, reply.statusCode(), body);
                assertEquals("{\"error\":\"\\\"text\\\" is required\"}", reply.body(), body);
            }
        }
    }

    @Test
    void answers403WhenTheModuleIsOff() throws Exception {
        try (TestServer server = ClassifyHttpTest.server("multi_label_classification", "Tankard/tiny-classifier",
                "--enable-modules=embeddings", "--extras-port", "0")) {
            HttpResponse<String> reply = send(server, "/api/classify", "{\"text\": \"happy\"}");
            assertEquals(403, reply.statusCode());
            assertEquals("{\"error\":\"Module 'classify' not enabled in config\"}", reply.body());
        }
    }
}
