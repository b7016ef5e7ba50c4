package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every remote source through Tankard's own routes, as ST's frontend calls them: insert, list, query and purge
 * against one mock of all the upstreams, with the keys saved through {@code /api/secrets/write}.
 */
class VectorEverySourceHttpTest extends ServerTest {
    private final Vertx vertx = Vertx.vertx();
    private final EmbeddingUpstreamMock mock = EmbeddingUpstreamMock.start(vertx);

    @AfterEach
    void stopMock() {
        vertx.close().await();
    }

    /** Each source's request settings (what ST's frontend adds to the body) and its secret, if it needs one. */
    private Map<String, String[]> sources() {
        String origin = "\"" + mock.origin + "\"";
        Map<String, String[]> sources = new LinkedHashMap<>();
        sources.put("openai", new String[]{"{\"model\":\"text-embedding-3-small\"}", "api_key_openai"});
        sources.put("togetherai", new String[]{"{\"model\":\"m2-bert\"}", "api_key_togetherai"});
        sources.put("mistral", new String[]{"{}", "api_key_mistralai"});
        sources.put("electronhub", new String[]{"{}", "api_key_electronhub"});
        sources.put("openrouter", new String[]{"{\"model\":\"openai/text-embedding-3-large\"}", "api_key_openrouter"});
        sources.put("chutes", new String[]{"{}", "api_key_chutes"});
        sources.put("nanogpt", new String[]{"{}", "api_key_nanogpt"});
        sources.put("siliconflow", new String[]{"{\"siliconflow_endpoint\":\"cn\"}", "api_key_siliconflow"});
        sources.put("workers_ai", new String[]{"{\"workers_ai_account_id\":\"acct\"}", "api_key_workers_ai"});
        sources.put("nomicai", new String[]{"{}", "api_key_nomicai"});
        sources.put("cohere", new String[]{"{\"model\":\"embed-english-v3.0\"}", "api_key_cohere"});
        sources.put("palm", new String[]{"{\"model\":\"text-embedding-005\",\"api\":\"makersuite\"}", "api_key_makersuite"});
        sources.put("vertexai", new String[]{"{\"model\":\"text-embedding-005\",\"api\":\"vertexai\","
                + "\"vertexai_auth_mode\":\"express\",\"vertexai_region\":\"us-central1\"}", "api_key_vertexai"});
        sources.put("ollama", new String[]{"{\"apiUrl\":" + origin + ",\"model\":\"nomic-embed-text\"}", null});
        sources.put("llamacpp", new String[]{"{\"apiUrl\":" + origin + "}", null});
        sources.put("vllm", new String[]{"{\"apiUrl\":" + origin + ",\"model\":\"bge\"}", null});
        sources.put("extras", new String[]{"{\"extrasUrl\":" + origin + ",\"extrasKey\":\"\"}", null});
        return sources;
    }

    @Test
    void everyRemoteSourceInsertsListsFindsAndPurges() {
        start(TestServer.providerOrigins(mock.origins()));
        Map<String, String[]> sources = sources();
        assertEquals(EmbeddingSources.NAMES.size() - 3, sources.size(), "all but transformers, webllm and koboldcpp");
        for (Map.Entry<String, String[]> source : sources.entrySet()) {
            String name = source.getKey();
            if (source.getValue()[1] != null) {
                assertEquals(200, client.post("/api/secrets/write", "{\"key\":\"" + source.getValue()[1]
                        + "\",\"value\":\"key-" + name + "\"}").statusCode());
            }
            ObjectNode insert = ((ObjectNode) JsJson.parse(source.getValue()[0])).put("source", name)
                    .put("collectionId", "chat-" + name);
            ArrayNode items = insert.putArray("items");
            for (int i = 0; i < 12; i++) { // the mock's vector of "tK" is [K, 0.5]
                items.addObject().put("hash", 1000 + i).put("text", "t" + i).put("index", i);
            }
            int before = mock.calls.size();
            var inserted = client.post("/api/vector/insert", JsJson.compact(insert));
            assertEquals(200, inserted.statusCode(), name + ": " + inserted.bodyAsString());
            assertEquals(2, mock.calls.size() - before, name + ": 12 texts in batches of 10");

            ObjectNode common = ((ObjectNode) JsJson.parse(source.getValue()[0])).put("source", name)
                    .put("collectionId", "chat-" + name);
            assertEquals(12, json(client.post("/api/vector/list", JsJson.compact(common))).size(), name);
            JsonNode found = json(client.post("/api/vector/query", JsJson.compact(common.deepCopy()
                    .put("searchText", "t7").put("topK", 3))));
            assertEquals(1007, found.get("hashes").get(0).asInt(), name + ": " + found);
            assertEquals("t7", found.get("metadata").get(0).get("text").asText(), name);
        }
        List<String> authorized = mock.calls.stream().map(call -> call.header("Authorization")).toList();
        assertTrue(authorized.contains("Bearer key-openai") && authorized.contains("Bearer key-cohere"), authorized.toString());
        assertEquals(200, client.post("/api/vector/purge-all", "{}").statusCode());
        assertFalse(java.nio.file.Files.exists(user("vectors/openai")));
    }
}
