package tankard.vector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Vector Storage over HTTP with a remote source (OpenAI's API, served by a mock that checks what it is sent). */
class VectorUpstreamHttpTest extends ServerTest {
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();
    /** Whether the mock's vectors hold a JSON null, which is how JavaScript writes NaN. */
    private volatile boolean answerNaN;
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final Vertx vertx = Vertx.vertx();
    private HttpServer mock;

    @AfterEach
    void stopMock() {
        vertx.close();
    }

    private void startWithMock() throws Exception {
        mock = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            JsonNode json = JsJson.parse(body.getBytes());
            received.add(json.deepCopy());
            authorizations.add(request.getHeader("Authorization"));
            ObjectNode answer = JsJson.object();
            ArrayNode data = answer.putArray("data");
            int i = 0;
            for (JsonNode input : json.get("input")) {
                ArrayNode embedding = data.addObject().put("index", i++).putArray("embedding");
                float[] v = VectorBodies.vector(input.asText().contains("cat") ? 1 : input.asText().hashCode(), 8);
                for (float x : v) {
                    embedding.add(x);
                }
                if (answerNaN) {
                    embedding.set(3, JsJson.MAPPER.getNodeFactory().nullNode());
                }
            }
            request.response().putHeader("Content-Type", "application/json").end(JsJson.compact(answer));
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get();
        start(TestServer.providerOrigins(Map.of("https://api.openai.com", "http://127.0.0.1:" + mock.actualPort())));
        assertEquals(200, client.post("/api/secrets/write", "{\"key\":\"api_key_openai\",\"value\":\"sk-test\"}").statusCode());
    }

    private ObjectNode body() {
        return JsJson.object().put("source", "openai").put("model", "text-embedding-3-small").put("collectionId", "c");
    }

    @Test
    void itemsAreEmbeddedUpstreamInBatchesOfTenAndFound() throws Exception {
        startWithMock();
        ObjectNode insert = body();
        ArrayNode items = insert.putArray("items");
        for (int i = 0; i < 12; i++) {
            items.addObject().put("hash", i).put("text", i == 7 ? "a cat on a mat" : "message " + i).put("index", i);
        }
        assertEquals(200, client.post("/api/vector/insert", JsJson.compact(insert)).statusCode());
        assertEquals(2, received.size(), "12 texts in batches of 10");
        assertEquals(List.of("Bearer sk-test", "Bearer sk-test"), authorizations);
        assertEquals("text-embedding-3-small", received.get(0).get("model").asText());
        assertEquals(10, received.get(0).get("input").size());
        assertTrue(hasDocument("vectors/openai/c/text-embedding-3-small/index.json"));

        JsonNode found = json(client.post("/api/vector/query", JsJson.compact(body().put("searchText", "the cat")
                .put("topK", 1))));
        assertEquals("[7]", found.get("hashes").toString());
    }

    @Test
    void aSearchTextIsEmbeddedOnceForTheQueriesThatRepeatIt() throws Exception {
        // a chat's regenerations and swipes search with the same text: the provider is asked once
        startWithMock();
        ObjectNode insert = body();
        insert.putArray("items").addObject().put("hash", 1).put("text", "a cat on a mat").put("index", 0);
        assertEquals(200, client.post("/api/vector/insert", JsJson.compact(insert)).statusCode());
        String query = JsJson.compact(body().put("searchText", "the cat").put("topK", 1));
        for (int i = 0; i < 3; i++) {
            assertEquals("[1]", json(client.post("/api/vector/query", query)).get("hashes").toString());
        }
        String multi = JsJson.compact(body().put("searchText", "the cat").put("topK", 1).set("collectionIds",
                JsJson.array().add("c")));
        assertEquals(200, client.post("/api/vector/query-multi", multi).statusCode());
        assertEquals(2, received.size(), "the insert, then one search text for all four queries");
        assertEquals(200, client.post("/api/vector/query", JsJson.compact(body().put("searchText", "a dog")))
                .statusCode());
        assertEquals(3, received.size(), "another text is embedded");
    }

    @Test
    void anUpstreamVectorWithNaNIsRefusedAndNothingIsWritten() throws Exception {
        startWithMock();
        answerNaN = true;
        ObjectNode insert = body();
        insert.putArray("items").addObject().put("hash", 1).put("text", "hello").put("index", 0);
        var refused = client.post("/api/vector/insert", JsJson.compact(insert));
        assertEquals(400, refused.statusCode(), refused.bodyAsString());
        assertTrue(json(refused).get("error").asText().contains("malformed vector"), refused.bodyAsString());
        assertEquals(List.of(), server.files().vectorIndexes(), "nothing written");
    }
}
