package tankard.backend.chat;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.MockServerTest;
import tankard.testing.StreamingClient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Claude, Google AI Studio, Vertex AI and Cohere through {@code /api/backends/chat-completions}, against the mock
 * reached as each source's reverse proxy: the exact upstream call, the answers and ST's error shapes.
 * Cohere and Vertex at their own hosts: {@link ChatFixedHostSendersHttpTest}.
 */
class ChatDedicatedSendersHttpTest extends MockServerTest {
    private static final String BASE = "/api/backends/chat-completions";
    private static final String MESSAGES = "[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hi\"}]";
    private static final String SAFETY = "[{\"category\":\"HARM_CATEGORY_HARASSMENT\",\"threshold\":\"OFF\"},"
            + "{\"category\":\"HARM_CATEGORY_HATE_SPEECH\",\"threshold\":\"OFF\"},"
            + "{\"category\":\"HARM_CATEGORY_SEXUALLY_EXPLICIT\",\"threshold\":\"OFF\"},"
            + "{\"category\":\"HARM_CATEGORY_DANGEROUS_CONTENT\",\"threshold\":\"OFF\"},"
            + "{\"category\":\"HARM_CATEGORY_CIVIC_INTEGRITY\",\"threshold\":\"OFF\"}";
    private static final String VERTEX_SAFETY = ",{\"category\":\"HARM_CATEGORY_IMAGE_HATE\",\"threshold\":\"OFF\"},"
            + "{\"category\":\"HARM_CATEGORY_IMAGE_DANGEROUS_CONTENT\",\"threshold\":\"OFF\"},"
            + "{\"category\":\"HARM_CATEGORY_IMAGE_HARASSMENT\",\"threshold\":\"OFF\"},"
            + "{\"category\":\"HARM_CATEGORY_IMAGE_SEXUALLY_EXPLICIT\",\"threshold\":\"OFF\"},"
            + "{\"category\":\"HARM_CATEGORY_JAILBREAK\",\"threshold\":\"OFF\"}";
    private static final String CLAUDE_ANSWER = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"content\":[{\"type\":\"thinking\",\"thinking\":\"Hmm.\",\"signature\":\"sig\"},"
            + "{\"type\":\"text\",\"text\":\"Hello, Wren.\"}],\"stop_reason\":\"end_turn\"}";
    private static final String GEMINI_ANSWER = "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":["
            + "{\"text\":\"Pondering\",\"thought\":true},{\"text\":\"Hello\"},{\"text\":\"again\"}]},"
            + "\"finishReason\":\"STOP\"}]}";

    private String body(String source, boolean stream, String model, String extra) {
        return "{\"type\":\"normal\",\"messages\":" + MESSAGES + ",\"model\":\"" + model + "\",\"temperature\":1,"
                + "\"max_tokens\":300,\"stream\":" + stream + ",\"top_p\":1,\"top_k\":0,\"stop\":[\"\\nWren:\"],"
                + "\"chat_completion_source\":\"" + source + "\",\"user_name\":\"Wren\",\"char_name\":\"Bramble\","
                + "\"use_sysprompt\":true" + extra + "}";
    }

    private String claude(boolean stream, String model, String extra) {
        return body("claude", stream, model, ",\"reverse_proxy\":\"" + mock.baseUrl() + "\",\"proxy_password\":\"pw\""
                + ",\"assistant_prefill\":\"Bramble: \"" + extra);
    }

    private String makersuite(boolean stream, String model, String extra) {
        return body("makersuite", stream, model, ",\"reverse_proxy\":\"" + mock.origin() + "/\","
                + "\"proxy_password\":\"gk\"" + extra);
    }

    private HttpResponse<Buffer> generate(String json) {
        return client.post(BASE + "/generate", json);
    }

    private String streamed(String json) {
        return StreamingClient.await(StreamingClient.post(server, client, BASE + "/generate", json)
                .compose(HttpClientResponse::body)).toString();
    }

    @Test
    void claudeGetsTheMessagesApiCallAndItsAnswerWrappedAsSt() {
        mock.route("/v1/messages", request -> request.response().end(CLAUDE_ANSWER));
        HttpResponse<Buffer> r = generate(claude(false, "claude-3-5-sonnet-20241022", ""));
        assertEquals(200, r.statusCode());
        assertEquals("{\"choices\":[{\"message\":{\"content\":\"\"}}],\"content\":[{\"type\":\"thinking\","
                + "\"thinking\":\"Hmm.\",\"signature\":\"sig\"},{\"type\":\"text\",\"text\":\"Hello, Wren.\"}]}",
                r.bodyAsString(), "ST takes the first block's text only; the frontend reads the blocks");
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("POST /v1/messages", call.method() + " " + call.path());
        assertEquals("pw", call.headers().get("x-api-key"));
        assertEquals("2023-06-01", call.headers().get("anthropic-version"));
        assertEquals("output-128k-2025-02-19,context-1m-2025-08-07", call.headers().get("anthropic-beta"));
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals("{\"system\":[{\"type\":\"text\",\"text\":\"Be brief.\"}],\"messages\":[{\"role\":\"user\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}]},{\"role\":\"assistant\",\"content\":[{\"type\":"
                + "\"text\",\"text\":\"Bramble:\"}]}],\"model\":\"claude-3-5-sonnet-20241022\",\"max_tokens\":300,"
                + "\"stop_sequences\":[\"\\nWren:\"],\"temperature\":1,\"top_p\":1,\"top_k\":0,\"stream\":false}",
                call.body());
    }

    @Test
    void claudeThinkingToolsAndSchemaAsSt() {
        mock.route("/v1/messages", request -> request.response().end(CLAUDE_ANSWER));
        generate(claude(false, "claude-sonnet-4-20250514", ",\"reasoning_effort\":\"medium\",\"tool_choice\":\"auto\","
                + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"roll\",\"description\":\"Dice\","
                + "\"parameters\":{\"$schema\":\"x\",\"type\":\"object\",\"properties\":{}}}}],\"enable_web_search\":true,"
                + "\"json_schema\":{\"name\":\"out\",\"value\":{\"$ref\":\"#/$defs/O\",\"$defs\":{\"O\":"
                + "{\"type\":\"object\"}}}}"));
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("output-128k-2025-02-19,context-1m-2025-08-07,tools-2024-05-16",
                call.headers().get("anthropic-beta"));
        // thinking: budget 1024 at least, max_tokens raised past it, sampling dropped, the prefill sent as user;
        // schemas flattened
        assertEquals("{\"system\":[{\"type\":\"text\",\"text\":\"Be brief.\"}],\"messages\":[{\"role\":\"user\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Hi\"}]},{\"role\":\"user\",\"content\":[{\"type\":"
                + "\"text\",\"text\":\"Bramble:\"}]}],\"model\":\"claude-sonnet-4-20250514\",\"max_tokens\":1324,"
                + "\"stop_sequences\":[\"\\nWren:\"],\"stream\":false,\"tool_choice\":{\"type\":\"tool\",\"name\":\"out\"},"
                + "\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"},{\"name\":\"roll\","
                + "\"description\":\"Dice\",\"input_schema\":{\"type\":\"object\",\"properties\":{}}},{\"name\":\"out\","
                + "\"description\":\"Well-formed JSON object\",\"input_schema\":{\"type\":\"object\"}}],"
                + "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024}}", call.body());
    }

    @Test
    void claudeErrorsAnswerStsShapes() {
        HttpResponse<Buffer> noKey = generate(claude(false, "claude-3-haiku", "").replace("\"pw\"", "\"\""));
        assertEquals(400, noKey.statusCode());
        assertEquals("{\"error\":true}", noKey.bodyAsString());
        assertEquals(0, mock.calls().size());

        mock.route("/v1/messages", request -> request.response().setStatusCode(529)
                .end("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
        HttpResponse<Buffer> overloaded = generate(claude(false, "claude-3-haiku", ""));
        assertEquals(500, overloaded.statusCode());
        assertEquals("{\"error\":true}", overloaded.bodyAsString());

        mock.route("/v1/messages", request -> request.response().setStatusCode(401).end("{\"error\":\"bad key\"}"));
        HttpResponse<Buffer> streamed = generate(claude(true, "claude-3-haiku", ""));
        assertEquals(400, streamed.statusCode(), "a stream's 401 is relayed as 400");
        assertEquals("{\"error\":\"bad key\"}", streamed.bodyAsString());

        HttpResponse<Buffer> unreachable = generate(claude(false, "claude-3-haiku", "")
                .replace(mock.baseUrl(), "http://127.0.0.1:1/v1"));
        assertEquals(500, unreachable.statusCode());
        assertEquals("{\"error\":true}", unreachable.bodyAsString());

        HttpResponse<Buffer> badArguments = generate(claude(false, "claude-3-haiku", "").replace(MESSAGES,
                "[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c\",\"function\":{\"name\":\"f\","
                + "\"arguments\":\"{oops\"}}]}]"));
        assertEquals(500, badArguments.statusCode());
        assertEquals("{\"error\":true}", badArguments.bodyAsString());

        HttpResponse<Buffer> status = client.post(BASE + "/status", "{\"chat_completion_source\":\"claude\"}");
        assertEquals(400, status.statusCode());
        assertEquals("{\"error\":true}", status.bodyAsString());
    }

    @Test
    void claudesStreamIsRelayedUntouchedErrorEventsIncluded() {
        String start = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\n";
        String delta = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,"
                + "\"delta\":{\"type\":\"text_delta\",\"text\":\"Hel\"}}\n\n";
        String error = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\","
                + "\"message\":\"Overloaded\"}}\n\n";
        mock.route("/v1/messages", request -> {
            HttpServerResponse response = request.response().setChunked(true);
            response.write(start + delta.substring(0, 30)).compose(v -> response.write(delta.substring(30)))
                    .compose(v -> response.end(error));
        });
        assertEquals(start + delta + error, streamed(claude(true, "claude-3-haiku", "")));
        assertTrue(mock.lastCall().json().path("stream").asBoolean());
    }

    @Test
    void aStreamCutUpstreamIsCutForTheBrowser() {
        mock.route("/v1/messages", request -> request.response().setChunked(true)
                .write("event: ping\ndata: {\"type\":\"ping\"}\n\n").onSuccess(v -> request.connection().close()));
        Future<Buffer> body = StreamingClient.post(server, client, BASE + "/generate",
                claude(true, "claude-3-haiku", "")).compose(HttpClientResponse::body);
        assertTrue(body.toCompletionStage().toCompletableFuture().handle((ok, e) -> e != null).join(),
                "the browser must not see a complete answer");
    }

    @Test
    void aiStudioGetsGeminisCallAndItsAnswerWrappedAsSt() {
        mock.route("/v1beta/models/gemini-2.5-flash:generateContent", request -> request.response().end(GEMINI_ANSWER));
        HttpResponse<Buffer> r = generate(makersuite(false, "gemini-2.5-flash",
                ",\"reasoning_effort\":\"low\",\"include_reasoning\":true"));
        assertEquals(200, r.statusCode());
        assertEquals("{\"choices\":[{\"message\":{\"content\":\"Hello\\n\\nagain\"}}],\"responseContent\":"
                + "{\"role\":\"model\",\"parts\":[{\"text\":\"Pondering\",\"thought\":true},{\"text\":\"Hello\"},"
                + "{\"text\":\"again\"}]}}", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("key=gk", call.query());
        assertEquals("application/json", call.headers().get("Content-Type"));
        assertEquals("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Hi\"}]}],\"safetySettings\":" + SAFETY
                + "],\"generationConfig\":{\"stopSequences\":[\"\\nWren:\"],\"candidateCount\":1,\"maxOutputTokens\":300,"
                + "\"temperature\":1,\"topP\":1,\"thinkingConfig\":{\"includeThoughts\":true,\"thinkingBudget\":30}},"
                + "\"systemInstruction\":{\"parts\":[{\"text\":\"Be brief.\"}]}}", call.body());
    }

    @Test
    void aiStudioStreamsGooglesSseUntouchedErrorsIncluded() {
        String one = "data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Hel\"}],\"role\":\"model\"}}]}\r\n\r\n";
        String two = "data: {\"error\":{\"code\":500,\"message\":\"Internal error\",\"status\":\"INTERNAL\"}}\r\n\r\n";
        mock.route("/v1beta/models/gemini-2.0-flash:streamGenerateContent", request -> {
            HttpServerResponse response = request.response().setChunked(true);
            response.write(one).compose(v -> response.end(two));
        });
        assertEquals(one + two, streamed(makersuite(true, "gemini-2.0-flash", "")));
        assertEquals("key=gk&alt=sse", mock.lastCall().query());
    }

    @Test
    void aiStudioErrorsAnswerStsShapes() {
        String path = "/v1beta/models/gemini-2.0-flash:generateContent";
        mock.route(path, request -> request.response().setStatusCode(400)
                .end("{\"error\":{\"code\":400,\"message\":\"API key not valid\"}}"));
        HttpResponse<Buffer> refused = generate(makersuite(false, "gemini-2.0-flash", ""));
        assertEquals(500, refused.statusCode());
        assertEquals("{\"error\":{\"code\":400,\"message\":\"API key not valid\"}}", refused.bodyAsString());

        mock.route(path, request -> request.response().end("{\"promptFeedback\":{\"blockReason\":\"PROHIBITED_CONTENT\"}}"));
        HttpResponse<Buffer> blocked = generate(makersuite(false, "gemini-2.0-flash", ""));
        assertEquals(200, blocked.statusCode());
        assertEquals("{\"error\":{\"message\":\"Google AI Studio API returned no candidate\\nPrompt was blocked due "
                + "to : PROHIBITED_CONTENT\"}}", blocked.bodyAsString());

        mock.route(path, request -> request.response().end("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":"
                + "\"thinking only\",\"thought\":true}]}}]}"));
        assertEquals("{\"error\":{\"message\":\"Google AI Studio Candidate text empty\"}}",
                generate(makersuite(false, "gemini-2.0-flash", "")).bodyAsString());

        mock.route(path, request -> request.response().setStatusCode(503).end("Service Unavailable"));
        assertEquals("{\"error\":true}", generate(makersuite(false, "gemini-2.0-flash", "")).bodyAsString());

        HttpResponse<Buffer> noKey = generate(body("makersuite", false, "gemini-2.0-flash", ""));
        assertEquals(400, noKey.statusCode());
        assertEquals("{\"error\":true}", noKey.bodyAsString());
    }

    @Test
    void aiStudioStatusListsTheGenerativeModels() {
        mock.route("/v1beta/models", request -> request.response().end("{\"models\":[{\"name\":\"models/gemini-2.0-flash\","
                + "\"supportedGenerationMethods\":[\"generateContent\",\"countTokens\"]},{\"name\":\"models/embedding-001\","
                + "\"supportedGenerationMethods\":[\"embedContent\"]}]}"));
        client.post("/api/secrets/write", "{\"key\":\"api_key_makersuite\",\"value\":\"g-secret\"}");
        HttpResponse<Buffer> r = client.post(BASE + "/status", "{\"chat_completion_source\":\"makersuite\","
                + "\"reverse_proxy\":\"" + mock.origin() + "/\"}");
        assertEquals("{\"data\":[{\"name\":\"models/gemini-2.0-flash\",\"supportedGenerationMethods\":"
                + "[\"generateContent\",\"countTokens\"],\"id\":\"gemini-2.0-flash\"}]}", r.bodyAsString());
        assertEquals("GET /v1beta/models", mock.lastCall().method() + " " + mock.lastCall().path());
        assertEquals(null, mock.lastCall().query(), "a proxy without a password is asked without a key");

        client.post(BASE + "/status", "{\"chat_completion_source\":\"makersuite\",\"reverse_proxy\":\""
                + mock.origin() + "\",\"proxy_password\":\"pp\"}");
        assertEquals("key=pp", mock.lastCall().query());

        mock.route("/v1beta/models", request -> request.response().setStatusCode(403).end("{}"));
        HttpResponse<Buffer> failed = client.post(BASE + "/status", "{\"chat_completion_source\":\"makersuite\","
                + "\"reverse_proxy\":\"" + mock.origin() + "\"}");
        assertEquals(200, failed.statusCode());
        assertEquals("{\"error\":true,\"bypass\":true,\"data\":{\"data\":[]}}", failed.bodyAsString());
    }

    @Test
    void vertexThroughAProxyUsesBearerAndVertexSafety() {
        mock.route("/v1/publishers/google/models/gemini-2.5-pro:streamGenerateContent",
                request -> request.response().end("data: {\"candidates\":[]}\r\n\r\n"));
        String received = streamed(body("vertexai", true, "gemini-2.5-pro", ",\"reverse_proxy\":\"" + mock.origin()
                + "\",\"proxy_password\":\"vp\",\"reasoning_effort\":\"min\",\"include_reasoning\":true"));
        assertEquals("data: {\"candidates\":[]}\r\n\r\n", received);
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("alt=sse", call.query());
        assertEquals("Bearer vp", call.headers().get("Authorization"));
        assertEquals("{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Hi\"}]}],\"safetySettings\":" + SAFETY
                + VERTEX_SAFETY + "],\"generationConfig\":{\"stopSequences\":[\"\\nWren:\"],\"candidateCount\":1,"
                + "\"maxOutputTokens\":300,\"temperature\":1,\"topP\":1,\"thinkingConfig\":{\"includeThoughts\":true,"
                + "\"thinkingBudget\":128}},\"systemInstruction\":{\"parts\":[{\"text\":\"Be brief.\"}]}}", call.body());
    }

    @Test
    void vertexWithoutCredentialsAnswersStsMessages() {
        HttpResponse<Buffer> express = generate(body("vertexai", false, "gemini-2.5-pro", ""));
        assertEquals(400, express.statusCode());
        assertEquals("{\"error\":true,\"message\":\"API key is required for Vertex AI Express mode\"}",
                express.bodyAsString());
        HttpResponse<Buffer> full = generate(body("vertexai", false, "gemini-2.5-pro",
                ",\"vertexai_auth_mode\":\"full\""));
        assertEquals("{\"error\":true,\"message\":\"Service Account JSON is required for Vertex AI Full mode\"}",
                full.bodyAsString());
        HttpResponse<Buffer> status = client.post(BASE + "/status", "{\"chat_completion_source\":\"vertexai\"}");
        assertEquals(400, status.statusCode());
        assertEquals("{\"error\":true}", status.bodyAsString());
    }

    @Test
    void cohereWithoutAKeyIsRefusedBeforeAnyCall() {
        HttpResponse<Buffer> r = generate(body("cohere", false, "command-r-08-2024", ""));
        assertEquals(400, r.statusCode());
        assertEquals("{\"error\":true}", r.bodyAsString());
        HttpResponse<Buffer> status = client.post(BASE + "/status", "{\"chat_completion_source\":\"cohere\"}");
        assertEquals(400, status.statusCode());
        assertEquals("{\"error\":true}", status.bodyAsString());
    }
}
