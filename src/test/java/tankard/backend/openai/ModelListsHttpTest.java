package tankard.backend.openai;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ElectronHub's model list and the {@code /api/openai/*\/models/embedding} routes against mocks (ST: src/endpoints/openai.js). */
class ModelListsHttpTest extends PublicHostsMockTest {
    private void secret(String key, String value) {
        client.post("/api/secrets/write", "{\"key\":\"" + key + "\",\"value\":\"" + value + "\"}");
    }

    /** Checks the GET the route made: its path, query and key. */
    private void assertCall(String path, String query, String key) {
        MockCompletionServer.Call call = mock.lastCall(path);
        assertEquals("GET", call.method());
        assertEquals(query, call.query());
        assertEquals("Bearer " + key, call.headers().get("Authorization"));
    }

    @Test
    void electronHubsModelsAreItsDataOrNone() {
        secret("api_key_electronhub", "eh-key");
        mock.route("/electronhub/v1/models", request -> json(request, 200, "{\"data\":[{\"id\":\"tts-1\",\"endpoints\":[\"/v1/audio/speech\"]}]}"));
        HttpResponse<Buffer> r = client.post("/api/openai/electronhub/models", "{}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("[{\"id\":\"tts-1\",\"endpoints\":[\"/v1/audio/speech\"]}]", r.bodyAsString());
        assertCall("/electronhub/v1/models", null, "eh-key");
        mock.route("/electronhub/v1/models", request -> json(request, 200, "{\"object\":\"list\"}"));
        assertEquals("[]", client.post("/api/openai/electronhub/models", "{}").bodyAsString());
    }

    @Test
    void chutesEmbeddingModelsAreItsItems() {
        secret("api_key_chutes", "ch-key");
        mock.route("/chutes-api/chutes/", request -> json(request, 200, "{\"total\":1,\"items\":[{\"name\":\"qwen-embed\"}]}"));
        assertEquals("[{\"name\":\"qwen-embed\"}]", client.post("/api/openai/chutes/models/embedding", "{}").bodyAsString());
        assertCall("/chutes-api/chutes/", "template=embedding&include_public=true&limit=999", "ch-key");
    }

    @Test
    void nanoGptEmbeddingModelsAreItsDataFetchedUncompressed() {
        secret("api_key_nanogpt", "ng-key");
        mock.route(NANOGPT_API + "/v1/embedding-models", request -> json(request, 200, "{\"data\":[{\"id\":\"text-embedding-3-small\"}]}"));
        assertEquals("[{\"id\":\"text-embedding-3-small\"}]", client.post("/api/openai/nanogpt/models/embedding", "{}").bodyAsString());
        assertCall(NANOGPT_API + "/v1/embedding-models", null, "ng-key");
        assertEquals("identity", mock.lastCall(NANOGPT_API + "/v1/embedding-models").headers().get("Accept-Encoding"));
    }

    @Test
    void siliconFlowListsTheSiteTheBodyNames() {
        secret("api_key_siliconflow", "sf-key");
        mock.route("/siliconflow-cn/v1/models", request -> json(request, 200, "{\"data\":[{\"id\":\"BAAI/bge-m3\"}]}"));
        mock.route("/siliconflow-com/v1/models", request -> json(request, 200, "{\"data\":[{\"id\":\"Qwen/Qwen3-Embedding-8B\"}]}"));
        assertEquals("[{\"id\":\"BAAI/bge-m3\"}]",
                client.post("/api/openai/siliconflow/models/embedding", "{\"siliconflow_endpoint\":\"cn\"}").bodyAsString());
        assertCall("/siliconflow-cn/v1/models", "type=text&sub_type=embedding", "sf-key");
        assertEquals("[{\"id\":\"Qwen/Qwen3-Embedding-8B\"}]",
                client.post("/api/openai/siliconflow/models/embedding", "{}").bodyAsString());
    }

    @Test
    void workersAiModelsOfTheAccountTakeTheirNameAsId() {
        secret("api_key_workers_ai", "cf-key");
        String path = "/cloudflare/client/v4/accounts/abc123/ai/models/search";
        mock.route(path, request -> json(request, 200, "{\"success\":true,\"result\":[{\"name\":\"@cf/baai/bge-m3\",\"task\":{}}]}"));
        HttpResponse<Buffer> none = client.post("/api/openai/workers-ai/models/embedding", "{}");
        assertEquals(400, none.statusCode());
        assertEquals("[{\"name\":\"@cf/baai/bge-m3\",\"task\":{},\"id\":\"@cf/baai/bge-m3\"}]",
                client.post("/api/openai/workers-ai/models/embedding", "{\"workers_ai_account_id\":\"abc123\"}").bodyAsString());
        assertCall(path, "task=Text+Embeddings&per_page=100", "cf-key");
    }

    @Test
    void withoutAKeyItIs400AndAnErrorOrAnAnswerWithoutTheListIs500() {
        for (String route : new String[]{"electronhub/models", "chutes/models/embedding", "nanogpt/models/embedding",
                "siliconflow/models/embedding", "workers-ai/models/embedding"}) {
            assertEquals(400, client.post("/api/openai/" + route, "{\"workers_ai_account_id\":\"a\"}").statusCode(), route);
        }
        assertTrue(mock.calls().isEmpty());
        secret("api_key_chutes", "ch-key");
        mock.route("/chutes-api/chutes/", request -> json(request, 401, "{\"detail\":\"Invalid token\"}"));
        HttpResponse<Buffer> failed = client.post("/api/openai/chutes/models/embedding", "{}");
        assertEquals(500, failed.statusCode());
        assertTrue(failed.bodyAsString().contains("Invalid token"), failed.bodyAsString());
        mock.route("/chutes-api/chutes/", request -> json(request, 200, "{\"detail\":\"nothing\"}"));
        assertEquals(500, client.post("/api/openai/chutes/models/embedding", "{}").statusCode());
    }
}
