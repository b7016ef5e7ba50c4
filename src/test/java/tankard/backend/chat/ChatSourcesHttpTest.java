package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every OpenAI-shaped chat source over HTTP against the mock, which stands in for each provider's origin
 * ({@code tankard.providerOrigins}). chat-sources.json holds, for our own frontend bodies (several per source
 * for text mode, post-processing, schemas, names), what ST 1.18.0 sent
 * upstream (URL, headers, body) and answered (errors, status), captured by running ST's route handlers with
 * its fetch replaced by a recorder.
 */
class ChatSourcesHttpTest extends ServerTest {
    private static final String BASE = "/api/backends/chat-completions";
    private static final String REPLY = "{\"id\":\"x\"}";

    private final Vertx mockVertx = Vertx.vertx();
    private MockCompletionServer mock;

    @AfterEach
    void stopMock() {
        mock.close();
        TestServer.await(mockVertx.close());
    }

    private static JsonNode fixture(String name) throws IOException {
        try (InputStream in = ChatSourcesHttpTest.class.getResourceAsStream(name)) {
            return JsJson.parse(in.readAllBytes());
        }
    }

    /** The mock in place of every provider origin the fixture names, and every source's key saved. */
    private void startServers(JsonNode sources, String configYaml) {
        Set<String> urls = new LinkedHashSet<>();
        Set<String> ids = new LinkedHashSet<>();
        sources.forEach(source -> {
            urls.add(source.get("upstream").get("url").asText());
            if (source.get("status").hasNonNull("url")) {
                urls.add(source.get("status").get("url").asText());
            }
            ids.add(source.get("request").get("chat_completion_source").asText());
        });
        startServers(urls, ids, configYaml);
    }

    private void startServers(Set<String> urls, Set<String> sourcesWithKeys, String configYaml) {
        mock = MockCompletionServer.start(mockVertx);
        start(configYaml + TestServer.providerOrigins(urls.stream().map(ChatSourcesHttpTest::origin)
                .collect(Collectors.toMap(origin -> origin, origin -> mock.origin(), (a, b) -> a))));
        sourcesWithKeys.forEach(id -> client.post("/api/secrets/write", "{\"key\":\"api_key_" + id
                + "\",\"value\":\"key-" + id + "\"}"));
    }

    @TestFactory
    List<DynamicTest> multimodalModelListsAreSts() throws IOException {
        JsonNode lists = fixture("multimodal-models.json");
        Set<String> urls = new LinkedHashSet<>();
        lists.forEach(list -> urls.add(list.get("url").asText()));
        startServers(urls, Set.of("chutes", "mistralai", "xai", "moonshot", "workers_ai"), "");
        List<DynamicTest> tests = new ArrayList<>();
        lists.properties().forEach(entry -> tests.add(DynamicTest.dynamicTest(entry.getKey(), () -> {
            JsonNode list = entry.getValue();
            String path = pathAndQuery(list.get("url").asText());
            mock.route(path.replaceFirst("\\?.*", ""), request -> request.response()
                    .end(JsJson.compact(list.get("upstreamReply"))));
            HttpResponse<Buffer> r = client.post(BASE + "/multimodal-models/" + entry.getKey(),
                    JsJson.compact(list.get("request")));
            assertEquals(JsJson.compact(list.get("sent")), r.bodyAsString());
            MockCompletionServer.Call call = mock.lastCall();
            assertEquals(path, call.path() + (call.query() == null ? "" : "?" + call.query()));
            list.get("headers").properties().forEach(header ->
                    assertEquals(header.getValue().asText(), call.headers().get(header.getKey())));
        })));
        tests.add(DynamicTest.dynamicTest("without a key", () -> {
            client.post("/api/secrets/delete", "{\"key\":\"api_key_xai\"}");
            int calls = mock.calls().size();
            assertEquals("[]", client.post(BASE + "/multimodal-models/xai", "{}").bodyAsString());
            assertEquals(calls, mock.calls().size());
        }));
        return tests;
    }

    @TestFactory
    List<DynamicTest> everySourceCallsItsUpstreamAsStDoes() throws IOException {
        JsonNode sources = fixture("chat-sources.json");
        // recorded with ST's handlers loaded without a config.yaml: its code's fallback placeholder
        startServers(sources, "promptPlaceholder: \"Let's get started.\"\n");
        List<DynamicTest> tests = new ArrayList<>();
        sources.properties().forEach(entry -> {
            String id = entry.getKey();
            JsonNode source = entry.getValue();
            tests.add(DynamicTest.dynamicTest(id + " generate", () -> generate(source)));
            tests.add(DynamicTest.dynamicTest(id + " stream", () -> stream(source)));
            tests.add(DynamicTest.dynamicTest(id + " upstream error", () -> upstreamError(source)));
            tests.add(DynamicTest.dynamicTest(id + " status", () -> status(source)));
        });
        return tests;
    }

    /** ST's config switches (Claude caching through gateways, Mistral's prefix, signatures, the placeholder). */
    @TestFactory
    List<DynamicTest> configuredSourcesCallTheirUpstreamAsStDoes() throws IOException {
        JsonNode fixture = fixture("chat-sources-configured.json");
        startServers(fixture.get("sources"), fixture.get("config").asText());
        List<DynamicTest> tests = new ArrayList<>();
        fixture.get("sources").properties().forEach(entry ->
                tests.add(DynamicTest.dynamicTest(entry.getKey(), () -> generate(entry.getValue()))));
        return tests;
    }

    private void generate(JsonNode source) {
        String path = pathAndQuery(source.get("upstream").get("url").asText());
        mock.route(path.replaceFirst("\\?.*", ""), request -> request.response()
                .putHeader("Content-Type", "application/json").end(REPLY));
        HttpResponse<Buffer> r = client.post(BASE + "/generate", JsJson.compact(source.get("request")));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(REPLY, r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("POST " + path, call.method() + " " + call.path() + (call.query() == null ? "" : "?" + call.query()));
        source.get("upstream").get("headers").properties().forEach(header ->
                assertEquals(header.getValue().asText().strip(), call.headers().get(header.getKey()), header.getKey()));
        assertEquals(JsJson.compact(source.get("upstream").get("body")), JsJson.compact(call.json()));
    }

    /** The same body streamed: the upstream gets {@code stream: true} in place, the SSE comes back as sent. */
    private void stream(JsonNode source) {
        String path = pathAndQuery(source.get("upstream").get("url").asText()).replaceFirst("\\?.*", "");
        String events = MockCompletionServer.deltaEvent("Hel") + ": keep-alive\n\n" + MockCompletionServer.deltaEvent("lo")
                + "data: [DONE]\n\n";
        mock.route(path, request -> request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                .write(events.substring(0, 30)).compose(v -> request.response().end(events.substring(30))));
        ObjectNode body = ((ObjectNode) source.get("request")).deepCopy().put("stream", true);
        HttpResponse<Buffer> r = client.post(BASE + "/generate", JsJson.compact(body));
        assertEquals(200, r.statusCode());
        assertEquals(events, r.bodyAsString());
        ObjectNode expected = ((ObjectNode) source.get("upstream").get("body")).deepCopy().put("stream", true);
        assertEquals(JsJson.compact(expected), JsJson.compact(mock.lastCall().json()));
    }

    private void upstreamError(JsonNode source) {
        String path = pathAndQuery(source.get("upstream").get("url").asText()).replaceFirst("\\?.*", "");
        mock.route(path, request -> request.response().setStatusCode(503).setStatusMessage("Service Unavailable")
                .end("{\"error\":{\"message\":\"down\"}}"));
        HttpResponse<Buffer> r = client.post(BASE + "/generate", JsJson.compact(source.get("request")));
        assertEquals(source.get("error").get("status").asInt(), r.statusCode());
        assertEquals(JsJson.compact(source.get("error").get("sent")), r.bodyAsString());
    }

    private void status(JsonNode source) {
        JsonNode status = source.get("status");
        int callsBefore = mock.calls().size();
        if (status.hasNonNull("url")) {
            String path = pathAndQuery(status.get("url").asText());
            mock.route(path.replaceFirst("\\?.*", ""), request -> request.response()
                    .putHeader("Content-Type", "application/json").end(JsJson.compact(status.get("upstreamReply"))));
        }
        HttpResponse<Buffer> r = client.post(BASE + "/status", JsJson.compact(status.get("request")));
        if (!status.hasNonNull("url")) {
            assertEquals(callsBefore, mock.calls().size(), "no upstream call");
        } else {
            // the first call of the check (Azure then probes its deployment)
            MockCompletionServer.Call call = mock.lastCall(URI.create(status.get("url").asText()).getRawPath());
            assertEquals("GET " + pathAndQuery(status.get("url").asText()), call.method() + " " + call.path()
                    + (call.query() == null ? "" : "?" + call.query()));
            status.get("headers").properties().forEach(header ->
                    assertEquals(header.getValue().asText(), call.headers().get(header.getKey()), header.getKey()));
        }
        assertEquals(status.get("code").asInt(), r.statusCode());
        assertEquals(JsJson.compact(status.get("sent")), JsJson.compact(json(r)));
    }

    @Test
    void missingKeysAndSettingsAnswerStsShapes() throws IOException {
        mock = MockCompletionServer.start(mockVertx);
        start(null);
        Map<String, String> noKey = Map.of("openai", "{\"error\":true}", "mistralai", "{\"error\":true}",
                "azure_openai", "{\"error\":{\"message\":\"Azure OpenAI configuration is incomplete. Please provide Base URL, "
                        + "Deployment Name, API Version, and API Key in the connection settings.\"}}");
        noKey.forEach((source, answer) -> {
            HttpResponse<Buffer> r = client.post(BASE + "/generate", "{\"chat_completion_source\":\"" + source
                    + "\",\"messages\":[],\"model\":\"m\"}");
            assertEquals(400, r.statusCode(), source);
            assertEquals(answer, r.bodyAsString(), source);
            assertEquals("{\"error\":true}", client.post(BASE + "/status", "{\"chat_completion_source\":\""
                    + source + "\"}").bodyAsString().replaceFirst(",\"message\":\"Azure configuration is incomplete.\"", ""));
        });
        client.post("/api/secrets/write", "{\"key\":\"api_key_workers_ai\",\"value\":\"k\"}");
        HttpResponse<Buffer> noAccount = client.post(BASE + "/generate", "{\"chat_completion_source\":\"workers_ai\"}");
        assertEquals(400, noAccount.statusCode());
        HttpResponse<Buffer> comet = client.post(BASE + "/generate", "{\"chat_completion_source\":\"cometapi\"}");
        assertEquals(502, comet.statusCode());
        assertEquals("{\"error\":{\"message\":\"This provider is temporarily disabled.\"}}", comet.bodyAsString());
        assertEquals("{\"error\":true}", client.post(BASE + "/status", "{\"chat_completion_source\":\"cometapi\"}").bodyAsString());
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void aReverseProxyTakesTheProxyPasswordAsKey() {
        mock = MockCompletionServer.start(mockVertx);
        start(null);
        HttpResponse<Buffer> r = client.post(BASE + "/generate", "{\"chat_completion_source\":\"deepseek\",\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"Hi\"}],\"model\":\"deepseek-chat\",\"reverse_proxy\":\""
                + mock.baseUrl() + "\",\"proxy_password\":\"pw\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("/v1/chat/completions", call.path());
        assertEquals("Bearer pw", call.headers().get("Authorization"));
        // ST's apiKey is the password as a JavaScript value: DeepSeek and xAI send it whatever it is ("Bearer " +
        // undefined), Mistral and Claude refuse a falsy one (!apiKey)
        for (String source : List.of("deepseek", "xai")) {
            for (String password : List.of("", ",\"proxy_password\":null", ",\"proxy_password\":0")) {
                int calls = mock.calls().size();
                client.post(BASE + "/generate", "{\"chat_completion_source\":\"" + source + "\",\"messages\":[],"
                        + "\"reverse_proxy\":\"" + mock.baseUrl() + "\"" + password + "}");
                assertEquals(calls + 1, mock.calls().size(), source + password);
                String sent = password.isEmpty() ? "undefined" : password.substring(password.indexOf(':') + 1);
                assertEquals("Bearer " + sent, mock.lastCall().headers().get("Authorization"), source + password);
            }
        }
        for (String source : List.of("mistralai", "claude")) {
            for (String password : List.of("", ",\"proxy_password\":null", ",\"proxy_password\":0")) {
                assertEquals(400, client.post(BASE + "/generate", "{\"chat_completion_source\":\"" + source
                        + "\",\"messages\":[],\"reverse_proxy\":\"" + mock.baseUrl() + "\"" + password + "}").statusCode(),
                        source + password);
            }
        }
    }

    @Test
    void azureStatusProbesTheDeploymentForItsModel() {
        mock = MockCompletionServer.start(mockVertx);
        start(TestServer.providerOrigins(Map.of("https://res.openai.azure.com", mock.origin())));
        client.post("/api/secrets/write", "{\"key\":\"api_key_azure_openai\",\"value\":\"az\"}");
        String body = "{\"chat_completion_source\":\"azure_openai\",\"azure_base_url\":\"https://res.openai.azure.com\","
                + "\"azure_deployment_name\":\"dep\",\"azure_api_version\":\"2024-10-21\"}";
        mock.route("/openai/models", request -> request.response().end("{\"data\":[{\"id\":\"other\"}]}"));
        mock.route("/openai/deployments/dep/chat/completions", request -> request.response()
                .end("{\"model\":\"gpt-4o-2024-08-06\",\"choices\":[]}"));
        assertEquals("{\"data\":[{\"id\":\"gpt-4o-2024-08-06\"}]}", client.post(BASE + "/status", body).bodyAsString());
        MockCompletionServer.Call probe = mock.lastCall();
        assertEquals("api-version=2024-10-21", probe.query());
        assertEquals("az", probe.headers().get("api-key"));
        assertEquals("{\"messages\":[{\"role\":\"user\",\"content\":\"Say word Hi\"}],\"stream\":false,"
                + "\"max_completion_tokens\":5}", probe.body());

        mock.route("/openai/models", request -> request.response().setStatusCode(401).end());
        HttpResponse<Buffer> refused = client.post(BASE + "/status", body);
        assertEquals(401, refused.statusCode());
        assertEquals("{\"error\":true,\"message\":\"Invalid API key or insufficient permissions.\"}", refused.bodyAsString());

        HttpResponse<Buffer> unreachable = client.post(BASE + "/status", body.replace("https://res.openai.azure.com",
                "http://127.0.0.1:1"));
        assertEquals(500, unreachable.statusCode());
        assertEquals("{\"error\":true,\"message\":\"Failed to connect to the Azure endpoint.\"}", unreachable.bodyAsString());
    }

    /** ST's own Workers AI status branch, unlike the generic one: the upstream's error status, 500 on a failure. */
    @Test
    void workersAiStatusAnswersAsStsOwnBranch() {
        mock = MockCompletionServer.start(mockVertx);
        start(TestServer.providerOrigins(Map.of("https://api.cloudflare.com", mock.origin())));
        client.post("/api/secrets/write", "{\"key\":\"api_key_workers_ai\",\"value\":\"cf\"}");
        String body = "{\"chat_completion_source\":\"workers_ai\",\"workers_ai_account_id\":\"\\u00a0a!(b)~\\n\"}";
        String path = "/client/v4/accounts/a!(b)~/ai/models/search";
        mock.route(path, request -> request.response().end("{\"result\":[{\"id\":\"x\",\"name\":\"m1\"},{\"id\":\"y\"},"
                + "{\"name\":null},\"ab\",[7],3]}"));
        HttpResponse<Buffer> listed = client.post(BASE + "/status", body);
        assertEquals(200, listed.statusCode());
        // {...model, id: model.name}: a model without a name loses its id (undefined), other values are spread
        assertEquals("{\"data\":[{\"id\":\"m1\",\"name\":\"m1\"},{},{\"name\":null,\"id\":null},{\"0\":\"a\",\"1\":\"b\"},"
                + "{\"0\":7},{}]}", listed.bodyAsString());
        assertEquals("task=Text+Generation&per_page=1000", mock.lastCall().query());
        assertEquals("Bearer cf", mock.lastCall().headers().get("Authorization"));

        mock.route(path, request -> request.response().end("{\"result\":{\"name\":\"m1\"}}"));
        assertEquals("{\"data\":[]}", client.post(BASE + "/status", body).bodyAsString());

        mock.route(path, request -> request.response().setStatusCode(403).end("{\"errors\":[]}"));
        HttpResponse<Buffer> refused = client.post(BASE + "/status", body);
        assertEquals(403, refused.statusCode());
        assertEquals("{\"error\":true}", refused.bodyAsString());

        mock.route(path, request -> request.response().end("not json"));
        HttpResponse<Buffer> garbled = client.post(BASE + "/status", body);
        assertEquals(500, garbled.statusCode());
        assertEquals("{\"error\":true}", garbled.bodyAsString());

        mock.close();
        HttpResponse<Buffer> unreachable = client.post(BASE + "/status", body);
        assertEquals(500, unreachable.statusCode());
        assertEquals("{\"error\":true}", unreachable.bodyAsString());
    }

    @Test
    void openAiCanGetARandomUserIdEachTime() {
        mock = MockCompletionServer.start(mockVertx);
        start("openai:\n  randomizeUserId: true\n");
        String body = "{\"chat_completion_source\":\"openai\",\"messages\":[],\"model\":\"gpt-4o\",\"reverse_proxy\":\""
                + mock.baseUrl() + "\",\"proxy_password\":\"pw\"}";
        client.post(BASE + "/generate", body);
        String first = mock.lastCall().json().path("user").asText();
        client.post(BASE + "/generate", body);
        String second = mock.lastCall().json().path("user").asText();
        assertTrue(first.matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), first);
        assertTrue(!first.equals(second));
    }

    @Test
    void dedicatedSendersAnswerFailedCallsWithErrorTrue() {
        mock = MockCompletionServer.start(mockVertx);
        start(null);
        HttpResponse<Buffer> r = client.post(BASE + "/generate", "{\"chat_completion_source\":\"xai\",\"messages\":[],"
                + "\"reverse_proxy\":\"http://127.0.0.1:1/v1\",\"proxy_password\":\"pw\"}");
        assertEquals(200, r.statusCode());
        assertEquals("{\"error\":true}", r.bodyAsString());
    }

    @Test
    void processAppliesAPostProcessingType() {
        mock = MockCompletionServer.start(mockVertx);
        start(null); // no promptPlaceholder: ST's start-up adds its default config's "[Start a new chat]"
        HttpResponse<Buffer> r = client.post(BASE + "/process", "{\"type\":\"strict\",\"char_name\":\"Bramble\","
                + "\"messages\":[{\"role\":\"system\",\"content\":\"Sys\"},{\"role\":\"assistant\",\"content\":\"Hi\"}]}");
        assertEquals("{\"messages\":[{\"role\":\"system\",\"content\":\"Sys\"},{\"role\":\"user\",\"content\":"
                + "\"[Start a new chat]\"},{\"role\":\"assistant\",\"content\":\"Hi\"}]}", r.bodyAsString());
        HttpResponse<Buffer> bad = client.post(BASE + "/process", "{\"type\":\"strict\",\"messages\":\"x\"}");
        assertEquals(400, bad.statusCode());
        assertEquals("{\"error\":\"Invalid messages format\"}", bad.bodyAsString());
        HttpResponse<Buffer> unknown = client.post(BASE + "/process", "{\"type\":\"loose\",\"messages\":[]}");
        assertEquals("{\"error\":\"Unknown processing type\"}", unknown.bodyAsString());
    }

    private static String origin(String url) {
        URI uri = URI.create(url);
        return uri.getScheme() + "://" + uri.getRawAuthority();
    }

    private static String pathAndQuery(String url) {
        URI uri = URI.create(url);
        return uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    }
}
