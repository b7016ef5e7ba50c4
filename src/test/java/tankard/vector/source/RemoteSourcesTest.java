package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.config.ConfigLoader;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.OutboundPolicy;
import tankard.outbound.ProviderOrigins;
import tankard.outbound.UpstreamClient;
import tankard.secrets.SecretStore;
import tankard.store.FileDocumentStore;
import tankard.testing.TestServer;
import tankard.user.UserDirs;
import tankard.vector.source.EmbeddingUpstreamMock.Answer;
import tankard.vector.source.EmbeddingUpstreamMock.Call;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static tankard.vector.source.EmbeddingUpstreamMock.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every remote embedding source against a mock upstream on loopback that records what Tankard sends and answers
 * in the upstream's shape: the path, the auth, the body, ST's batches of ten one after the other, the vectors in
 * the texts' order; and what a missing key, an upstream error and a malformed answer become.
 */
class RemoteSourcesTest {
    private Vertx vertx;
    private EmbeddingUpstreamMock mock;
    private List<Call> calls;
    private SecretStore secrets;
    private UserDirs dirs;
    private Map<String, EmbeddingSource> sources;
    private String origin;

    @BeforeEach
    void setUp() throws Exception {
        vertx = Vertx.vertx();
        mock = EmbeddingUpstreamMock.start(vertx);
        calls = mock.calls;
        origin = mock.origin;
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), """
                requestOverrides:
                  - hosts: ["127.0.0.1:%d"]
                    headers:
                      X-Override: overridden
                gemini:
                  apiVersion: v1alpha
                """.formatted(mock.port()));
        TankardConfig config = ConfigLoader.load(new String[] {"--dataRoot", "data"}, Map.of(), work);
        dirs = UserDirs.of(config.dataRoot(), "default-user");
        Files.createDirectories(dirs.root());
        secrets = new SecretStore(new FileDocumentStore(config.dataRoot()), false);
        UpstreamClient client = new UpstreamClient(vertx, new OutboundPolicy(config), new ProviderOrigins(mock.origins()));
        sources = RemoteSources.all(client, secrets, config);
    }

    @AfterEach
    void tearDown() {
        vertx.close().await();
    }

    // ---- helpers

    private static List<String> texts(int count) {
        return IntStream.range(0, count).mapToObj(i -> "t" + i).toList();
    }

    private List<float[]> embed(String source, String body, List<String> texts, boolean query) {
        EmbeddingCall call = new EmbeddingCall(dirs.handle(), JsJson.parse(body));
        return sources.get(source).embed(call, texts, query).toCompletableFuture().orTimeout(20, TimeUnit.SECONDS)
                .join();
    }

    private Refusal refused(String source, String body) {
        CompletionException e = assertThrows(CompletionException.class, () -> embed(source, body, texts(3), false));
        return assertInstanceOf(Refusal.class, e.getCause());
    }

    private static void assertInOrder(List<float[]> vectors, int count) {
        assertEquals(count, vectors.size());
        for (int i = 0; i < count; i++) {
            assertArrayEquals(new float[] {i, 0.5f}, vectors.get(i), "vector " + i);
        }
    }

    /** 23 texts: three calls to the path, of 10, 10 and 3 texts in order; each one's texts read by {@code texts}. */
    private List<Call> assertBatches(String path, Function<JsonNode, List<String>> texts) {
        assertEquals(3, calls.size(), () -> "calls: " + calls);
        List<String> seen = new ArrayList<>();
        int[] sizes = {10, 10, 3};
        for (int i = 0; i < 3; i++) {
            Call call = calls.get(i);
            assertEquals(path, call.path());
            List<String> batch = texts.apply(call.body());
            assertEquals(sizes[i], batch.size());
            seen.addAll(batch);
        }
        assertEquals(texts(23), seen);
        assertEquals(1, mock.mostInFlight.get(), "the batches go one after the other");
        return calls;
    }

    private static List<String> input(JsonNode body) {
        return strings(body.get("input"), x -> x);
    }

    // ---- the OpenAI-compatible APIs

    private void assertOpenAiCompatible(String source, String secret, String body, String path, String model) {
        secrets.write(dirs.handle(), secret, "key-" + source, null);
        assertInOrder(embed(source, body, texts(23), false), 23);
        for (Call call : assertBatches(path, RemoteSourcesTest::input)) {
            assertEquals("Bearer key-" + source, call.header("Authorization"));
            assertEquals("application/json", call.header("Content-Type"));
            assertEquals(model, call.body().get("model").isNull() ? null : call.body().get("model").asText());
            assertEquals(2, call.body().size(), call.body()::toString);
        }
    }

    @Test
    void openAiSendsTheModelItIsGivenAndStUndefinedWithoutOne() {
        assertOpenAiCompatible("openai", "api_key_openai", "{\"model\":\"text-embedding-3-large\"}",
                "/openai/v1/embeddings", "text-embedding-3-large");
        EmbeddingSource openai = sources.get("openai");
        assertEquals("text-embedding-3-large", openai.modelScope(JsJson.parse("{\"model\":\"text-embedding-3-large\"}")));
        assertEquals("undefined", openai.modelScope(JsJson.object()));
        calls.clear();
        embed("openai", "{}", texts(1), false);
        assertEquals("undefined", calls.get(0).body().get("model").asText()); // String(undefined), as ST sends it
    }

    @Test
    void togetherAi() {
        assertOpenAiCompatible("togetherai", "api_key_togetherai", "{\"model\":\"BAAI/bge-large-en-v1.5\"}",
                "/together/v1/embeddings", "BAAI/bge-large-en-v1.5");
    }

    @Test
    void mistralAlwaysAsksForMistralEmbed() {
        assertOpenAiCompatible("mistral", "api_key_mistralai", "{\"model\":\"other\"}", "/mistral/v1/embeddings",
                "mistral-embed");
        assertEquals("mistral-embed", sources.get("mistral").modelScope(JsJson.parse("{\"model\":\"other\"}")));
    }

    @Test
    void electronHubDefaultsItsModel() {
        assertOpenAiCompatible("electronhub", "api_key_electronhub", "{}", "/electronhub/v1/embeddings",
                "text-embedding-3-small");
        assertEquals("text-embedding-3-small", sources.get("electronhub").modelScope(JsJson.parse("{\"model\":\"\"}")));
    }

    @Test
    void openRouterSendsItsAttributionHeaders() {
        assertOpenAiCompatible("openrouter", "api_key_openrouter", "{\"model\":\"\"}", "/openrouter/api/v1/embeddings",
                "openai/text-embedding-3-large");
        for (Call call : calls) {
            assertEquals("https://sillytavern.app", call.header("HTTP-Referer"));
            assertEquals("SillyTavern", call.header("X-Title"));
        }
        assertEquals("undefined", sources.get("openrouter").modelScope(JsJson.object()));
    }

    @Test
    void chutesPutsTheModelInTheHostAndNullInTheBody() {
        assertOpenAiCompatible("chutes", "api_key_chutes", "{}", "/chutes-default/v1/embeddings", null);
        calls.clear();
        embed("chutes", "{\"model\":\"my-embedder\"}", texts(2), false);
        assertEquals("/chutes-mine/v1/embeddings", calls.get(0).path());
        assertEquals("my-embedder", sources.get("chutes").modelScope(JsJson.parse("{\"model\":\"my-embedder\"}")));
    }

    @Test
    void nanoGpt() {
        assertOpenAiCompatible("nanogpt", "api_key_nanogpt", "{}", "/nanogpt/api/v1/embeddings",
                "text-embedding-3-small");
    }

    @Test
    void siliconFlowTakesTheChineseEndpointWhenAsked() {
        assertOpenAiCompatible("siliconflow", "api_key_siliconflow", "{\"siliconflow_endpoint\":\"cn\"}",
                "/siliconflow-cn/v1/embeddings", "Qwen/Qwen3-Embedding-0.6B");
        calls.clear();
        embed("siliconflow", "{\"siliconflow_endpoint\":\"com\",\"model\":\"BAAI/bge-m3\"}", texts(1), false);
        assertEquals("/siliconflow-com/v1/embeddings", calls.get(0).path());
        assertEquals("BAAI/bge-m3", calls.get(0).body().get("model").asText());
    }

    @Test
    void workersAiCallsTheAccountsUrlAndNeedsAnAccount() {
        assertOpenAiCompatible("workers_ai", "api_key_workers_ai", "{\"workers_ai_account_id\":\" acc/1 \"}",
                "/cloudflare/client/v4/accounts/acc%2F1/ai/v1/embeddings", "@cf/baai/bge-m3");
        Refusal refusal = refused("workers_ai", "{\"workers_ai_account_id\":\"  \"}");
        assertEquals(Refusal.Kind.BAD_REQUEST, refusal.kind());
        assertTrue(refusal.getMessage().contains("workers_ai_account_id"), refusal.getMessage());
    }

    // ---- the others hosted

    @Test
    void nomicAi() {
        secrets.write(dirs.handle(), "api_key_nomicai", "nomic-key", null);
        assertInOrder(embed("nomicai", "{\"model\":\"x\"}", texts(23), false), 23);
        for (Call call : assertBatches("/nomic/v1/embedding/text", body -> strings(body.get("texts"), x -> x))) {
            assertEquals("Bearer nomic-key", call.header("Authorization"));
            assertEquals("nomic-embed-text-v1.5", call.body().get("model").asText());
        }
        assertEquals("nomic-embed-text-v1.5", sources.get("nomicai").modelScope(JsJson.object()));
    }

    @Test
    void cohereTellsQueriesFromDocuments() {
        secrets.write(dirs.handle(), "api_key_cohere", "co-key", null);
        assertInOrder(embed("cohere", "{\"model\":\"embed-v4.0\"}", texts(23), false), 23);
        for (Call call : assertBatches("/cohere/v2/embed", body -> strings(body.get("texts"), x -> x))) {
            assertEquals("Bearer co-key", call.header("Authorization"));
            JsonNode body = call.body();
            assertEquals("embed-v4.0", body.get("model").asText());
            assertEquals("[\"float\"]", body.get("embedding_types").toString());
            assertEquals("search_document", body.get("input_type").asText());
            assertEquals("END", body.get("truncate").asText());
        }
        calls.clear();
        assertInOrder(embed("cohere", "{\"model\":\"embed-v4.0\"}", texts(1), true), 1);
        assertEquals("search_query", calls.get(0).body().get("input_type").asText());
    }

    @Test
    void googleAiStudioBatchEmbedsWithTheConfiguredApiVersion() {
        secrets.write(dirs.handle(), "api_key_makersuite", "gm-key", null);
        assertInOrder(embed("palm", "{\"model\":\"gemini-embedding-001\",\"api\":\"makersuite\"}", texts(23), false),
                23);
        for (Call call : assertBatches("/aistudio/v1alpha/models/gemini-embedding-001:batchEmbedContents",
                body -> strings(body.get("requests"), x -> x.path("content").path("parts").path(0).path("text")))) {
            assertEquals("gm-key", call.header("x-goog-api-key"));
            assertNull(call.query());
            call.body().get("requests").forEach(request ->
                    assertEquals("models/gemini-embedding-001", request.get("model").asText()));
        }
        assertEquals("text-embedding-005", sources.get("palm").modelScope(JsJson.object()));
    }

    @Test
    void googleAiStudioThroughAReverseProxyTakesItsPassword() {
        calls.clear();
        embed("palm", "{\"reverse_proxy\":\"" + origin + "/proxy/\",\"proxy_password\":\"pw\"}", texts(2), false);
        assertEquals("/proxy/v1alpha/models/text-embedding-005:batchEmbedContents", calls.get(0).path());
        assertEquals("pw", calls.get(0).header("x-goog-api-key"));
    }

    @Test
    void vertexExpressWithAndWithoutAProject() {
        secrets.write(dirs.handle(), "api_key_vertexai", "vx-key", null);
        assertInOrder(embed("vertexai", "{\"model\":\"text-embedding-005\",\"api\":\"vertexai\"}", texts(23), false),
                23);
        for (Call call : assertBatches("/vertex-us/v1/publishers/google/models/text-embedding-005:predict",
                body -> strings(body.get("instances"), x -> x.path("content")))) {
            assertEquals("vx-key", call.header("x-goog-api-key"));
            assertNull(call.header("Authorization"));
        }
        calls.clear();
        embed("vertexai", "{\"vertexai_region\":\"europe-west4\",\"vertexai_express_project_id\":\"proj\"}",
                texts(1), false);
        assertEquals("/vertex-eu/v1/projects/proj/locations/europe-west4/publishers/google/models/"
                + "text-embedding-005:predict", calls.get(0).path());
    }

    @Test
    void vertexFullModeTradesTheServiceAccountForAToken() throws Exception {
        var generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(
                generator.generateKeyPair().getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        ObjectNode account = JsJson.object().put("type", "service_account").put("project_id", "my-project")
                .put("client_email", "sa@my-project.iam.gserviceaccount.com").put("private_key", pem);
        secrets.write(dirs.handle(), "vertexai_service_account_json", JsJson.compact(account), null);
        assertInOrder(embed("vertexai", "{\"vertexai_auth_mode\":\"full\",\"vertexai_region\":\"global\"}",
                texts(12), false), 12);
        assertEquals("/oauth/token", calls.get(0).path());
        for (Call call : calls.subList(1, calls.size())) {
            assertEquals("/vertex-global/v1/projects/my-project/locations/global/publishers/google/models/"
                    + "text-embedding-005:predict", call.path());
            assertEquals("Bearer ya29.token", call.header("Authorization"));
        }
        assertEquals(3, calls.size());
        assertEquals("Unsupported Vertex AI authentication mode: other",
                refused("vertexai", "{\"vertexai_auth_mode\":\"other\"}").getMessage());
    }

    @Test
    void vertexThroughAReverseProxyIsBearerOfItsPassword() {
        embed("vertexai", "{\"reverse_proxy\":\"" + origin + "/vproxy\",\"proxy_password\":\"pw\"}", texts(1), false);
        assertEquals("/vproxy/v1/publishers/google/models/text-embedding-005:predict", calls.get(0).path());
        assertEquals("Bearer pw", calls.get(0).header("Authorization"));
    }

    // ---- the servers the user runs

    @Test
    void ollamaEmbedsAtTheServersOriginWithTheOverrideHeaders() {
        String body = "{\"apiUrl\":\"" + origin + "/some/path\",\"model\":\"nomic-embed-text\",\"keep\":true}";
        assertInOrder(embed("ollama", body, texts(23), false), 23);
        for (Call call : assertBatches("/api/embed", RemoteSourcesTest::input)) {
            assertEquals("nomic-embed-text", call.body().get("model").asText());
            assertEquals(-1, call.body().get("keep_alive").asInt());
            assertTrue(call.body().get("truncate").asBoolean());
            assertEquals("overridden", call.header("X-Override"));
            assertNull(call.header("Authorization"));
        }
        calls.clear();
        embed("ollama", "{\"apiUrl\":\"" + origin + "\",\"model\":\"m\"}", texts(1), false);
        assertFalse(calls.get(0).body().has("keep_alive"));
        assertEquals("m", sources.get("ollama").modelScope(JsJson.parse("{\"model\":\"m\"}")));
    }

    @Test
    void llamaCppTrimsV1AndSendsItsKey() {
        secrets.write(dirs.handle(), "api_key_llamacpp", "ll-key", null);
        assertInOrder(embed("llamacpp", "{\"apiUrl\":\"" + origin + "/v1/\",\"model\":\"x\"}", texts(23), false), 23);
        for (Call call : assertBatches("/v1/embeddings", RemoteSourcesTest::input)) {
            assertEquals("Bearer ll-key", call.header("Authorization"));
            assertEquals("overridden", call.header("X-Override"));
            assertEquals(1, call.body().size()); // {input} only
        }
        assertEquals("", sources.get("llamacpp").modelScope(JsJson.parse("{\"model\":\"x\"}")));
    }

    @Test
    void vllmSendsTheModelAndNoKeyWhenThereIsNone() {
        assertInOrder(embed("vllm", "{\"apiUrl\":\"" + origin + "\",\"model\":\"bge\"}", texts(23), false), 23);
        for (Call call : assertBatches("/v1/embeddings", RemoteSourcesTest::input)) {
            assertNull(call.header("Authorization"));
            assertEquals("bge", call.body().get("model").asText());
        }
    }

    @Test
    void extrasTakesItsKeyAndOneVectorForOneText() {
        String body = "{\"extrasUrl\":\"" + origin + "/ignored\",\"extrasKey\":\"ex-key\"}";
        assertInOrder(embed("extras", body, texts(23), false), 23);
        for (Call call : assertBatches("/api/embeddings/compute", b -> strings(b.get("text"), x -> x))) {
            assertEquals("Bearer ex-key", call.header("Authorization"));
        }
        calls.clear();
        assertInOrder(embed("extras", "{\"extrasUrl\":\"" + origin + "\",\"extrasKey\":\"\"}", texts(1), false), 1);
        assertNull(calls.get(0).header("Authorization"));
        assertEquals("", sources.get("extras").modelScope(JsJson.object()));
    }

    @Test
    void anInvalidServerUrlIsABadRequest() {
        Refusal refusal = refused("ollama", "{\"model\":\"m\"}");
        assertEquals(Refusal.Kind.BAD_REQUEST, refusal.kind());
        assertEquals("Invalid URL: undefined", refusal.getMessage());
        assertEquals(Refusal.Kind.BAD_REQUEST, refused("llamacpp", "{\"apiUrl\":\"not a url\"}").kind());
        assertTrue(calls.isEmpty());
    }

    // ---- failures

    @Test
    void aMissingKeyIsABadRequestNamingTheSecret() {
        Map<String, String> keys = Map.of("openai", "api_key_openai", "mistral", "api_key_mistralai",
                "nomicai", "api_key_nomicai", "cohere", "api_key_cohere", "palm", "api_key_makersuite",
                "vertexai", "api_key_vertexai", "openrouter", "api_key_openrouter", "workers_ai", "api_key_workers_ai");
        keys.forEach((source, secret) -> {
            Refusal refusal = refused(source, "{\"workers_ai_account_id\":\"a\"}");
            assertEquals(Refusal.Kind.BAD_REQUEST, refusal.kind(), source);
            assertTrue(refusal.getMessage().contains(secret), refusal.getMessage());
        });
        Refusal full = refused("vertexai", "{\"vertexai_auth_mode\":\"full\"}");
        assertTrue(full.getMessage().contains("vertexai_service_account_json"), full.getMessage());
        assertTrue(calls.isEmpty());
    }

    @Test
    void anUpstreamErrorPassesItsMessageAndStopsTheBatches() {
        secrets.write(dirs.handle(), "api_key_openai", "k", null);
        mock.answers = call -> new Answer(500, "{\"error\":{\"message\":\"The server had an error\",\"type\":\"server\"}}");
        CompletionException e = assertThrows(CompletionException.class,
                () -> embed("openai", "{\"model\":\"m\"}", texts(23), false));
        Refusal refusal = assertInstanceOf(Refusal.class, e.getCause());
        assertEquals(Refusal.Kind.UPSTREAM, refusal.kind());
        assertEquals("OpenAI answered 500 Internal Server Error: The server had an error", refusal.getMessage());
        assertEquals(1, calls.size());

        mock.answers = call -> new Answer(503, "model is loading");
        Refusal text = refused("ollama", "{\"apiUrl\":\"" + origin + "\",\"model\":\"m\"}");
        assertEquals("Ollama answered 503 Service Unavailable: model is loading", text.getMessage());
    }

    @Test
    void aMalformedAnswerIsRefusedAndUnstorableVectorsAreABadRequest() {
        secrets.write(dirs.handle(), "api_key_openai", "k", null);
        secrets.write(dirs.handle(), "api_key_cohere", "k", null);
        mock.answers = call -> new Answer(200, "{\"object\":\"list\"}");
        Refusal noData = refused("openai", "{}");
        assertEquals(Refusal.Kind.UPSTREAM, noData.kind());
        assertEquals("OpenAI answered without the vectors: no array \"data\"", noData.getMessage());

        mock.answers = call -> new Answer(200, "{\"data\":[{\"index\":0,\"embedding\":[1,2]}]}");
        Refusal count = refused("openai", "{}");
        assertEquals(Refusal.Kind.BAD_REQUEST, count.kind());
        assertEquals("OpenAI answered 1 vectors for 3 texts", count.getMessage());

        mock.answers = call -> new Answer(200, "<html>");
        assertTrue(refused("cohere", "{}").getMessage().endsWith("the answer is not JSON"));

        mock.answers = call -> new Answer(200, "{\"embeddings\":{\"float\":[[1],[\"x\"],[3]]}}");
        Refusal element = refused("cohere", "{}");
        assertEquals(Refusal.Kind.BAD_REQUEST, element.kind());
        assertTrue(element.getMessage().startsWith("Cohere answered a malformed vector"), element.getMessage());
    }

    @Test
    void anUnreachableServerIsAnUpstreamRefusal() throws Exception {
        int port;
        try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Refusal refusal = refused("vllm", "{\"apiUrl\":\"http://127.0.0.1:" + port + "\"}");
        assertEquals(Refusal.Kind.UPSTREAM, refusal.kind());
        assertTrue(refusal.getMessage().startsWith("vLLM could not be called"), refusal.getMessage());
    }

    @Test
    void everyRemoteSourceOfStIsThere() {
        List<String> expected = new ArrayList<>(EmbeddingSources.NAMES);
        expected.removeAll(List.of("transformers", "webllm", "koboldcpp"));
        assertEquals(expected.stream().sorted().toList(), sources.keySet().stream().sorted().toList());
        new EmbeddingSources(sources); // all of ST's names
    }
}
