package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.MockBackendTest;
import tankard.testing.StreamingClient;
import tankard.testing.TestServer;
import tankard.testing.TextCompletionProtocols;

import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.TextCompletionProtocols.completionEvent;
import static tankard.testing.TextCompletionProtocols.llamaCppEvent;
import static tankard.testing.TextCompletionProtocols.ollamaLine;
import static tankard.testing.TextCompletionProtocols.replyText;

class TextCompletionsHttpTest extends MockBackendTest {
    private static final String BASE = "/api/backends/text-completions";
    private static final String PROMPT = "<|im_start|>user\\nHi<|im_end|>\\n<|im_start|>assistant\\n";


    /** How each api_type is reached: its paths, how it authenticates, what its status names, how it streams. */
    enum Type {
        OOBA("ooba", Auth.BEARER, "/v1/models", TextCompletionProtocols.OOBA_MODEL, "/v1/completions", Wire.OPENAI),
        MANCER("mancer", Auth.API_KEY, "/oai/v1/models", MockCompletionServer.MODEL, "/oai/v1/completions", Wire.OPENAI),
        VLLM("vllm", Auth.BEARER, "/v1/models", MockCompletionServer.MODEL, "/v1/completions", Wire.OPENAI),
        APHRODITE("aphrodite", Auth.API_KEY, "/v1/models", MockCompletionServer.MODEL, "/v1/completions", Wire.OPENAI),
        TABBY("tabby", Auth.API_KEY, "/v1/model/list", TextCompletionProtocols.TABBY_MODEL, "/v1/completions", Wire.OPENAI),
        KOBOLDCPP("koboldcpp", Auth.BEARER, "/v1/models", MockCompletionServer.MODEL, "/v1/completions", Wire.OPENAI),
        TOGETHERAI("togetherai", Auth.BEARER, "/api/models", "together/model", "/v1/completions", Wire.OPENAI),
        LLAMACPP("llamacpp", Auth.BEARER, "/v1/models", MockCompletionServer.MODEL, "/completion", Wire.LLAMACPP),
        OLLAMA("ollama", Auth.NONE, "/api/tags", TextCompletionProtocols.OLLAMA_MODEL, "/api/generate", Wire.OLLAMA),
        INFERMATICAI("infermaticai", Auth.BEARER, "/v1/models", MockCompletionServer.MODEL, "/v1/completions", Wire.OPENAI),
        DREAMGEN("dreamgen", Auth.BEARER, "/api/openai/v1/models", MockCompletionServer.MODEL,
                "/api/openai/v1/completions", Wire.OPENAI),
        OPENROUTER("openrouter", Auth.REFERER, "/v1/models", MockCompletionServer.MODEL, "/v1/chat/completions", Wire.CHAT),
        FEATHERLESS("featherless", Auth.REFERER, "/v1/models", MockCompletionServer.MODEL, "/v1/completions", Wire.OPENAI),
        HUGGINGFACE("huggingface", Auth.BEARER, "/info", "Valid", "/v1/completions", Wire.OPENAI),
        GENERIC("generic", Auth.BEARER, "/v1/models", MockCompletionServer.MODEL, "/v1/completions", Wire.OPENAI);

        final String id;
        final Auth auth;
        final String modelsPath;
        final String result;
        final String completionPath;
        final Wire wire;

        Type(String id, Auth auth, String modelsPath, String result, String completionPath, Wire wire) {
            this.id = id;
            this.auth = auth;
            this.modelsPath = modelsPath;
            this.result = result;
            this.completionPath = completionPath;
            this.wire = wire;
        }
    }

    enum Auth { BEARER, API_KEY, REFERER, NONE }

    /** What the browser receives for the mock's two-piece streamed reply. */
    enum Wire {
        OPENAI(completionEvent("Text r") + completionEvent("eply 1.") + "data: [DONE]\n\n"),
        LLAMACPP(llamaCppEvent("Text r", false) + llamaCppEvent("eply 1.", false) + llamaCppEvent("", true)),
        OLLAMA("data: {\"choices\":[{\"text\":\"Text r\",\"thinking\":\"\"}]}\n\n"
                + "data: {\"choices\":[{\"text\":\"eply 1.\",\"thinking\":\"\"}]}\n\n"
                + "data: {\"choices\":[{\"text\":\"\",\"thinking\":\"\"}]}\n\ndata: [DONE]\n\n"),
        CHAT(MockCompletionServer.deltaEvent("Mock r") + MockCompletionServer.deltaEvent("eply 1.") + "data: [DONE]\n\n");

        final String received;

        Wire(String received) {
            this.received = received;
        }
    }

    static Stream<Type> types() {
        return Stream.of(Type.values());
    }

    /** A generate body as the frontend sends it (abbreviated), for the mock reached through "localhost". */
    private String generateBody(String type, boolean stream, String extra) {
        return "{\"prompt\":\"" + PROMPT + "\",\"model\":\"mock-model\",\"max_new_tokens\":300,\"max_tokens\":300,"
                + "\"temperature\":0.7,\"top_p\":1,\"top_k\":40,\"rep_pen\":1.1,\"repetition_penalty\":1.1,"
                + "\"repeat_penalty\":1.1,\"num_predict\":300,\"num_ctx\":8192,\"min_p\":0.05,\"seed\":-1,"
                + "\"stop\":[\"\\nUser:\",\"<|im_end|>\",\"\\n\\n\",\"###\",\"</s>\"],"
                + "\"stopping_strings\":[\"\\nUser:\"],\"ban_eos_token\":false,\"logit_bias\":{},"
                + (stream ? "\"stream\":true," : "")
                + "\"api_type\":\"" + type + "\",\"api_server\":\"" + localhost() + "/v1\"" + extra + "}";
    }

    /** The mock's origin named as "localhost", which ST's routes rewrite to 127.0.0.1. */
    private String localhost() {
        return mock.origin().replace("127.0.0.1", "localhost");
    }

    private MockCompletionServer.Call call(String path) {
        return mock.lastCall(path);
    }

    private void writeKey(String type) {
        client.post("/api/secrets/write", "{\"key\":\"api_key_" + type + "\",\"value\":\"sk-" + type + "\"}");
    }

    static void assertAuth(Type type, MockCompletionServer.Call call) {
        String key = "sk-" + type.id;
        assertEquals(type.auth == Auth.NONE ? null : "Bearer " + key, call.headers().get("Authorization"));
        assertEquals(type.auth == Auth.API_KEY ? key : null, call.headers().get("X-API-KEY"));
        assertEquals(type.auth == Auth.REFERER ? "https://sillytavern.app" : null, call.headers().get("HTTP-Referer"));
        assertEquals(type.auth == Auth.REFERER ? "SillyTavern" : null, call.headers().get("X-Title"));
    }

    // ---- status

    @ParameterizedTest
    @MethodSource("types")
    void statusNamesTheModelFromEachBackendsModelList(Type type) {
        writeKey(type.id);
        HttpResponse<Buffer> r = client.post(BASE + "/status", "{\"api_type\":\"" + type.id + "\",\"api_server\":\""
                + localhost() + "/v1/\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        JsonNode answer = json(r);
        assertEquals(type.result, answer.path("result").asText());
        assertTrue(answer.path("data").isArray());
        assertEquals(type == Type.HUGGINGFACE ? 0 : 1, answer.path("data").size());
        MockCompletionServer.Call models = call(type.modelsPath);
        assertEquals("GET", models.method());
        assertEquals("application/json", models.headers().get("Content-Type"));
        assertAuth(type, models);
        assertEquals(type == Type.OOBA ? "true" : null, r.getHeader("x-supports-tokenization"));
    }

    @Test
    void statusRewrapsTogetherOllamaAndTabbyAnswers() {
        HttpResponse<Buffer> together = client.post(BASE + "/status",
                "{\"api_type\":\"togetherai\",\"api_server\":\"" + mock.origin() + "\"}");
        assertEquals("{\"result\":\"together/model\",\"data\":[{\"id\":\"together/model\",\"name\":\"together/model\","
                + "\"type\":\"language\"}]}", together.bodyAsString());
        assertEquals("&info", call("/api/models").query());
        HttpResponse<Buffer> ollama = client.post(BASE + "/status",
                "{\"api_type\":\"ollama\",\"api_server\":\"" + mock.origin() + "\"}");
        assertEquals("{\"result\":\"mock-llama:latest\",\"data\":[{\"id\":\"mock-llama:latest\",\"name\":"
                + "\"mock-llama:latest\",\"size\":7}]}", ollama.bodyAsString());
        mock.route("/v1/model", request -> request.response().setStatusCode(400).end("{\"detail\":\"No model\"}"));
        HttpResponse<Buffer> tabby = client.post(BASE + "/status",
                "{\"api_type\":\"tabby\",\"api_server\":\"" + mock.origin() + "\"}");
        assertEquals("None", json(tabby).path("result").asText(), "Tabby without a loaded model");
    }

    @Test
    void lmStudioIsNotAskedForOobasModelInfo() {
        mock.route("/v1/models", request -> request.response().putHeader("x-powered-by", "Express")
                .end("{\"data\":[{\"id\":\"lm-model\"}]}"));
        HttpResponse<Buffer> r = client.post(BASE + "/status", "{\"api_type\":\"ooba\",\"api_server\":\"" + mock.origin() + "\"}");
        assertEquals("{\"result\":\"lm-model\",\"data\":[{\"id\":\"lm-model\"}]}", r.bodyAsString());
        assertTrue(mock.calls().stream().noneMatch(c -> c.path().equals("/v1/internal/model/info")));
        assertNull(r.getHeader("x-supports-tokenization"));
    }

    @Test
    void statusFailuresAnswerStsStatuses() {
        mock.route("/v1/models", request -> request.response().setStatusCode(503).end("down"));
        HttpResponse<Buffer> down = client.post(BASE + "/status", "{\"api_type\":\"vllm\",\"api_server\":\"" + mock.origin() + "\"}");
        assertEquals(400, down.statusCode());
        assertEquals("Bad Request", down.bodyAsString());
        mock.route("/v1/models", request -> request.response().end("{\"models\":\"not a list\"}"));
        assertEquals(400, client.post(BASE + "/status", "{\"api_type\":\"vllm\",\"api_server\":\"" + mock.origin() + "\"}").statusCode());
        HttpResponse<Buffer> noServer = client.post(BASE + "/status", "{\"api_type\":\"vllm\"}");
        assertEquals("400 {\"error\":\"No API server URL (api_server) was given\"}",
                noServer.statusCode() + " " + noServer.bodyAsString(), "ST crashes with a 500");
        HttpResponse<Buffer> refused = client.post(BASE + "/status", "{\"api_type\":\"vllm\",\"api_server\":\"http://127.0.0.1:1\"}");
        assertEquals(502, refused.statusCode());
    }

    // ---- generate

    @ParameterizedTest
    @MethodSource("types")
    void generateAnswersTheBackendsCompletionUnchanged(Type type) {
        writeKey(type.id);
        HttpResponse<Buffer> r = client.post(BASE + "/generate", generateBody(type.id, false, ""));
        assertEquals(200, r.statusCode());
        String expected = switch (type.wire) {
            case OPENAI -> "{\"id\":\"cmpl\",\"object\":\"text_completion\",\"model\":\"mock-model\",\"choices\":[{"
                    + (type == Type.INFERMATICAI ? "\"text\":\"Text reply 1.\",\"index\":0}]}"
                    : "\"index\":0,\"text\":\"Text reply 1.\",\"finish_reason\":\"stop\"}]}");
            case LLAMACPP -> "{\"content\":\"Text reply 1.\",\"stop\":true,\"tokens_predicted\":4}";
            case OLLAMA -> ollamaLine(replyText(1), true).trim();
            case CHAT -> "{\"id\":\"mock\",\"object\":\"chat.completion\",\"model\":\"mock-model\",\"choices\":[{\"index\":0,"
                    + "\"message\":{\"role\":\"assistant\",\"content\":\"Mock reply 1.\"},\"finish_reason\":\"stop\"}]}";
        };
        assertEquals(expected, r.bodyAsString());
        MockCompletionServer.Call generate = call(type.completionPath);
        assertEquals("POST", generate.method());
        assertEquals("application/json", generate.headers().get("Content-Type"));
        assertAuth(type, generate);
        assertFalse(generate.json().path("stream").asBoolean());
        assertEquals(type == Type.OLLAMA ? "Hi" : "mock-model",
                type == Type.OLLAMA ? "Hi" : generate.json().path("model").asText());
    }

    @ParameterizedTest
    @MethodSource("types")
    void generateStreamsEachBackendsFormat(Type type) {
        writeKey(type.id);
        Buffer received = Buffer.buffer();
        HttpClientResponse response = StreamingClient.await(StreamingClient.post(server, client, BASE + "/generate",
                generateBody(type.id, true, "")).compose(r -> {
            r.handler(received::appendBuffer);
            return r.end().map(r);
        }));
        assertEquals(200, response.statusCode());
        assertEquals(type.wire.received, received.toString());
        MockCompletionServer.Call generate = call(type.completionPath);
        assertTrue(generate.json().path("stream").asBoolean());
        assertAuth(type, generate);
    }

    @Test
    void fullBodyTypesForwardEverythingWithTheRewrittenServer() {
        client.post(BASE + "/generate", generateBody("ooba", false, ",\"secret_id\":\"nope\""));
        JsonNode sent = call("/v1/completions").json();
        assertEquals(mock.origin() + "/v1", sent.path("api_server").asText(), "localhost is rewritten in the body too");
        assertEquals("ooba", sent.path("api_type").asText());
        assertEquals("[\"\\nUser:\"]", JsJson.compact(sent.path("stopping_strings")));
        assertEquals(5, sent.path("stop").size());
    }

    @Test
    void filteredTypesSendOnlyTheirParametersInTheBodysOrder() {
        String start = "{\"prompt\":\"" + PROMPT + "\",\"model\":\"mock-model\",\"max_tokens\":300,\"temperature\":0.7,"
                + "\"top_p\":1,";
        String samplers = "\"top_k\":40,\"repetition_penalty\":1.1,\"min_p\":0.05,";
        String stops = "\"stop\":[\"\\nUser:\",\"<|im_end|>\",\"\\n\\n\",\"###\",\"</s>\"]";
        assertEquals(start + samplers + stops + "}", sentBody("togetherai", ""));
        assertEquals(start + samplers + "\"seed\":-1," + stops + "}", sentBody("infermaticai", ""));
        assertEquals(start + "\"seed\":-1," + stops.replace(",\"</s>\"", "") + ",\"logit_bias\":{}}",
                sentBody("generic", ""), "OpenAI's fields, four stop strings at most");
        String vllm = start + samplers + "\"seed\":-1," + stops + ",\"logit_bias\":{},\"guided_json\":{\"type\":\"object\"}}";
        assertEquals(vllm, sentBody("vllm", ",\"guided_json\":{\"type\":\"object\"}"));
        assertEquals(vllm, sentBody("featherless", ",\"guided_json\":{\"type\":\"object\"}"));
    }

    /** The body the backend got for a non-streamed generate of that type. */
    private String sentBody(String type, String extra) {
        client.post(BASE + "/generate", generateBody(type, false, extra));
        return call("/v1/completions").body();
    }

    @Test
    void openRouterFoldsProvidersAndQuantizationsIntoItsRoutingObject() {
        client.post(BASE + "/generate", generateBody("openrouter", false,
                ",\"provider\":[\"A\",\"B\"],\"allow_fallbacks\":false,\"quantizations\":[\"fp8\"],\"include_reasoning\":true"));
        JsonNode sent = call("/v1/chat/completions").json();
        assertEquals("{\"allow_fallbacks\":false,\"order\":[\"A\",\"B\"],\"quantizations\":[\"fp8\"]}",
                JsJson.compact(sent.path("provider")));
        assertTrue(sent.path("include_reasoning").asBoolean());
        assertFalse(sent.has("allow_fallbacks") || sent.has("quantizations") || sent.has("api_type"));
        client.post(BASE + "/generate", generateBody("openrouter", false, ",\"provider\":[],\"quantizations\":[\"int4\"]"));
        assertEquals("{\"quantizations\":[\"int4\"]}", JsJson.compact(call("/v1/chat/completions").json().path("provider")));
    }

    @Test
    void ollamaGetsARawPromptWithItsOptions() {
        client.post(BASE + "/generate", generateBody("ollama", false, ""));
        assertEquals("{\"model\":\"mock-model\",\"prompt\":\"" + PROMPT + "\",\"stream\":false,\"keep_alive\":-1,"
                + "\"raw\":true,\"options\":{\"temperature\":0.7,\"top_p\":1,\"top_k\":40,\"repeat_penalty\":1.1,"
                + "\"num_predict\":300,\"num_ctx\":8192,\"min_p\":0.05,\"seed\":-1,"
                + "\"stop\":[\"\\nUser:\",\"<|im_end|>\",\"\\n\\n\",\"###\",\"</s>\"]}}", call("/api/generate").body());
    }

    @Test
    void infermaticChatChoicesBecomeTextChoices() {
        mock.route("/v1/completions", request -> request.response().end("{\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":\"Hello\"},\"logprobs\":null}],\"usage\":{\"total_tokens\":3}}"));
        HttpResponse<Buffer> r = client.post(BASE + "/generate", generateBody("infermaticai", false, ""));
        assertEquals("{\"choices\":[{\"text\":\"Hello\",\"logprobs\":null,\"index\":0}],\"usage\":{\"total_tokens\":3}}",
                r.bodyAsString());
    }

    @Test
    void aSecretIdPicksThatKeyOverTheActiveOne() {
        String first = json(client.post("/api/secrets/write", "{\"key\":\"api_key_ooba\",\"value\":\"sk-first\"}"))
                .path("id").asText();
        client.post("/api/secrets/write", "{\"key\":\"api_key_ooba\",\"value\":\"sk-second\"}");
        client.post(BASE + "/generate", generateBody("ooba", false, ""));
        assertEquals("Bearer sk-second", call("/v1/completions").headers().get("Authorization"));
        client.post(BASE + "/generate", generateBody("ooba", false, ",\"secret_id\":\"" + first + "\""));
        assertEquals("Bearer sk-first", call("/v1/completions").headers().get("Authorization"));
    }

    @Test
    void upstreamErrorsAnswerStsErrorBodies() {
        mock.route("/v1/completions", request -> request.response().setStatusCode(500).end("CUDA out of memory"));
        HttpResponse<Buffer> failed = client.post(BASE + "/generate", generateBody("vllm", false, ""));
        assertEquals(200, failed.statusCode());
        assertEquals("{\"error\":true,\"status\":500,\"response\":\"CUDA out of memory\"}", failed.bodyAsString());

        mock.route("/v1/completions", request -> request.response().setStatusCode(401).end("{\"detail\":\"Bad key\"}"));
        HttpResponse<Buffer> streamed = client.post(BASE + "/generate", generateBody("vllm", true, ""));
        assertEquals(400, streamed.statusCode(), "401 is passed on as 400 so the browser keeps its credentials");
        assertEquals("{\"detail\":\"Bad key\"}", streamed.bodyAsString());

        HttpResponse<Buffer> refused = client.post(BASE + "/generate", generateBody("vllm", false, "")
                .replace(localhost(), "http://127.0.0.1:1"));
        assertEquals(200, refused.statusCode());
        assertEquals("ECONNREFUSED", json(refused).path("status").asText());
        assertTrue(json(refused).path("response").asText().startsWith("request to http://127.0.0.1:1/v1/completions failed"),
                refused.bodyAsString());

        HttpResponse<Buffer> noServer = client.post(BASE + "/generate", "{\"api_type\":\"vllm\",\"prompt\":\"x\"}");
        assertEquals(200, noServer.statusCode());
        assertTrue(json(noServer).path("error").asBoolean());
        HttpResponse<Buffer> unknown = client.post(BASE + "/generate", generateBody("nonesuch", false, ""));
        assertTrue(json(unknown).path("error").asBoolean());
        assertEquals(2, mock.calls().size(), "neither reached the backend");
    }

    // ---- stream edge cases

    @Test
    void streamChunksArriveByteForByteAsTheyComeWhateverTheirFraming() {
        String keepAlive = ": keep-alive\n\n";
        String two = completionEvent("Once") + completionEvent(" upon");
        String split = completionEvent(" a time");
        String head = keepAlive + two + split.substring(0, 30);
        String tail = split.substring(30) + "data: [DONE]\n\n";
        Promise<Void> headSeen = Promise.promise();
        mock.route("/v1/completions", request -> {
            HttpServerResponse response = request.response().setChunked(true);
            response.write(keepAlive);
            response.write(two);
            response.write(split.substring(0, 30));
            // the rest only once the browser has the first part: a buffering relay would never get there
            headSeen.future().onSuccess(v -> response.end(tail));
        });
        Buffer received = Buffer.buffer();
        StreamingClient.await(StreamingClient.post(server, client, BASE + "/generate", generateBody("generic", true, ""))
                .compose(r -> {
                    r.handler(chunk -> {
                        received.appendBuffer(chunk);
                        if (received.length() >= head.length()) {
                            headSeen.tryComplete();
                        }
                    });
                    return r.end();
                }));
        assertEquals(head + tail, received.toString());
    }

    @Test
    void backendConnectionsAreKeptAliveOnlyWithEnableKeepAlive() {
        java.util.Set<Integer> ports = java.util.concurrent.ConcurrentHashMap.newKeySet();
        mock.route("/completion", request -> {
            ports.add(request.connection().remoteAddress().port());
            request.response().setChunked(true).end(llamaCppEvent("Hi", true));
        });
        for (int i = 0; i < 3; i++) {
            assertEquals(llamaCppEvent("Hi", true), client.post(BASE + "/generate", generateBody("llamacpp", true, "")).bodyAsString());
        }
        assertEquals(3, ports.size(), "ST's default: a connection per request");

        ports.clear();
        try (TestServer keepingAlive = TestServer.start("enableKeepAlive: true\n")) {
            TestServer.Client other = keepingAlive.client();
            for (int i = 0; i < 3; i++) {
                HttpResponse<Buffer> r = other.post(BASE + "/generate", generateBody("llamacpp", true, ""));
                assertEquals(llamaCppEvent("Hi", true), r.bodyAsString());
            }
        }
        assertEquals(1, ports.size(), "one kept-alive connection for requests one after the other");
    }

    @Test
    void anErrorEventMidStreamReachesTheFrontendAsSent() {
        String error = "data: {\"error\":{\"message\":\"CUDA out of memory\"}}\n\n";
        mock.route("/completion", request -> request.response().setChunked(true)
                .write(llamaCppEvent("Hel", false)).compose(v -> request.response().end(error)));
        String received = StreamingClient.await(StreamingClient.post(server, client, BASE + "/generate",
                generateBody("llamacpp", true, "")).compose(HttpClientResponse::body)).toString();
        assertEquals(llamaCppEvent("Hel", false) + error, received);
    }

    @Test
    void aStreamCutUpstreamIsCutForTheBrowser() {
        mock.route("/v1/completions", request -> request.response().setChunked(true)
                .write(completionEvent("Hel")).onSuccess(v -> request.connection().close()));
        Future<Buffer> body = StreamingClient.post(server, client, BASE + "/generate", generateBody("aphrodite", true, ""))
                .compose(HttpClientResponse::body);
        assertTrue(body.toCompletionStage().toCompletableFuture().handle((ok, e) -> e != null).join(),
                "the browser must not see a complete answer");
    }

    @Test
    void aStalledStreamIsCancelledUpstreamWhenTheBrowserLeaves() {
        Promise<Void> upstreamClosed = Promise.promise();
        mock.route("/v1/completions", request -> {
            request.connection().closeHandler(v -> upstreamClosed.tryComplete());
            // one event, then nothing: the model is thinking
            request.response().setChunked(true).write(completionEvent("Once upon"));
        });
        assertEquals(completionEvent("Once upon"), leaveAfterTheFirstChunk(generateBody("tabby", true, "")).toString());
        StreamingClient.await(upstreamClosed.future());
    }

    @Test
    void koboldCppIsToldToAbortWhenTheBrowserLeaves() {
        writeKey("koboldcpp");
        Promise<Void> aborted = Promise.promise();
        mock.route("/v1/completions", request -> request.response().setChunked(true).write(completionEvent("Once")));
        mock.route("/api/extra/abort", request -> {
            request.response().end("{\"success\":\"true\"}");
            aborted.tryComplete();
        });
        leaveAfterTheFirstChunk(generateBody("koboldcpp", true, ""));
        StreamingClient.await(aborted.future());
        MockCompletionServer.Call abort = call("/api/extra/abort");
        assertEquals("POST", abort.method());
        assertEquals("Bearer sk-koboldcpp", abort.headers().get("Authorization"));
    }

    private Buffer leaveAfterTheFirstChunk(String body) {
        return StreamingClient.leaveAfterTheFirstChunk(server, client, BASE + "/generate", body);
    }

    @Test
    void koboldCppIsNotAbortedAfterAFinishedAnswer() {
        client.post(BASE + "/generate", generateBody("koboldcpp", false, ""));
        client.post(BASE + "/generate", generateBody("koboldcpp", true, ""));
        assertTrue(mock.calls().stream().noneMatch(c -> c.path().equals("/api/extra/abort")));
    }

    // ---- Ollama's NDJSON

    @Test
    void ollamaLinesAreConvertedWhereverTheChunksSplitThem() {
        String first = ollamaLine("Hello", false);
        String second = "{\"response\":\"\",\"thinking\":\"Hmm\",\"done\":false}\n";
        String accented = ollamaLine(" café", false);
        byte[] accentedBytes = accented.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int inE = accented.indexOf('é') + 1; // between the two bytes of é
        mock.route("/api/generate", request -> {
            HttpServerResponse response = request.response().setChunked(true);
            response.write(first + second); // two lines in one chunk: ST loses everything from here on
            response.write(Buffer.buffer(java.util.Arrays.copyOfRange(accentedBytes, 0, inE)));
            response.write(Buffer.buffer(java.util.Arrays.copyOfRange(accentedBytes, inE, accentedBytes.length)));
            response.end(ollamaLine("", true).trim()); // the last line without its newline
        });
        String received = StreamingClient.await(StreamingClient.post(server, client, BASE + "/generate",
                generateBody("ollama", true, "")).compose(HttpClientResponse::body)).toString();
        assertEquals("data: {\"choices\":[{\"text\":\"Hello\",\"thinking\":\"\"}]}\n\n"
                + "data: {\"choices\":[{\"text\":\"\",\"thinking\":\"Hmm\"}]}\n\n"
                + "data: {\"choices\":[{\"text\":\" café\",\"thinking\":\"\"}]}\n\n"
                + "data: {\"choices\":[{\"text\":\"\",\"thinking\":\"\"}]}\n\n"
                + "data: [DONE]\n\n", received);
    }

    @Test
    void aSlowBrowserHoldsBackOllamasConvertedStream() throws InterruptedException {
        String text = "x".repeat(64 * 1024);
        Buffer line = Buffer.buffer("{\"response\":\"" + text + "\",\"done\":false}\n");
        long total = 64L * line.length() * 16;
        AtomicLong written = new AtomicLong();
        mock.route("/api/generate", request -> MockCompletionServer.flood(request.response().setChunked(true), line, total, written));
        long received = StreamingClient.readSlowly(StreamingClient.post(server, client, BASE + "/generate",
                generateBody("ollama", true, "")), written, total);
        long event = ("data: {\"choices\":[{\"text\":\"" + text + "\",\"thinking\":\"\"}]}\n\n").length();
        assertEquals(total / line.length() * event + "data: [DONE]\n\n".length(), received);
    }

    @Test
    void ollamaErrorsReachTheFrontendAsErrorEvents() {
        mock.route("/api/generate", request -> request.response().setStatusCode(404)
                .end("{\"error\":\"model 'x' not found\"}"));
        String received = StreamingClient.await(StreamingClient.post(server, client, BASE + "/generate",
                generateBody("ollama", true, "")).compose(r -> r.body().map(body -> r.statusCode() + " " + body)));
        assertEquals("200 data: {\"error\":\"model 'x' not found\"}\n\ndata: [DONE]\n\n", received,
                "ST does not pass Ollama's status on");
    }

    // ---- props

    @Test
    void propsCarryTheTemplateHash() throws Exception {
        HttpResponse<Buffer> r = client.post(BASE + "/props", "{\"api_type\":\"llamacpp\",\"api_server\":\""
                + mock.baseUrl() + "\",\"model\":\"my model (q4)\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        String template = "{{ messages }}\n";
        String hash = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(template.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals("{\"chat_template\":\"{{ messages }}\\n\",\"default_generation_settings\":{\"n_ctx\":4096},"
                + "\"total_slots\":1,\"chat_template_hash\":\"" + hash + "\"}", r.bodyAsString());
        assertEquals("model=my%20model%20(q4)", call("/props").query());

        HttpResponse<Buffer> kobold = client.post(BASE + "/props", "{\"api_type\":\"koboldcpp\",\"api_server\":\""
                + mock.origin() + "\",\"model\":\"m\"}");
        assertTrue(json(kobold).path("chat_template").asText().endsWith("\u0000"), "only llama.cpp's NUL is fixed");
        assertNull(call("/props").query());
    }

    @Test
    void propsFailuresAnswerStsStatuses() {
        assertEquals(400, client.post(BASE + "/props", "{\"api_type\":\"llamacpp\"}").statusCode());
        mock.route("/props", request -> request.response().end("{\"default_generation_settings\":{}}"));
        assertEquals(500, client.post(BASE + "/props", "{\"api_type\":\"llamacpp\",\"api_server\":\"" + mock.origin() + "\"}").statusCode());
        mock.route("/props", request -> request.response().setStatusCode(404).end());
        assertEquals(400, client.post(BASE + "/props", "{\"api_type\":\"llamacpp\",\"api_server\":\"" + mock.origin() + "\"}").statusCode());
    }

    // ---- config

    @Test
    void requestOverridesAndOllamaSettingsComeFromTheConfig() {
        String host = "127.0.0.1:" + mock.origin().substring(mock.origin().lastIndexOf(':') + 1);
        startInstead("requestOverrides:\n  - hosts: [\"other:1\"]\n    headers: {X-Which: other}\n"
                + "  - hosts: [\"" + host + "\"]\n    headers: {Authorization: Basic abc, X-Which: mock}\n"
                + "ollama:\n  keepAlive: 300\n  batchSize: 512\n");
        writeKey("vllm");
        client.post(BASE + "/generate", generateBody("vllm", false, ""));
        assertEquals("Basic abc", call("/v1/completions").headers().get("Authorization"));
        assertEquals("mock", call("/v1/completions").headers().get("X-Which"));
        client.post(BASE + "/generate", generateBody("ollama", false, ""));
        JsonNode sent = call("/api/generate").json();
        assertEquals(300, sent.path("keep_alive").asInt());
        assertEquals(512, sent.path("options").path("num_batch").asInt());
    }
}
