package tankard.summarize.chat;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Summaries through sources at fixed hosts (Cohere), reached on the mock by {@code tankard.providerOrigins}, with
 * the user's stored API key; and a text completion without an instruct template (ST's plain raw layout).
 */
class ChatSummaryHostsHttpTest extends ServerTest {
    private Vertx mockVertx;
    private MockCompletionServer mock;

    @BeforeEach
    void startServers() throws IOException {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        start(TestServer.providerOrigins(Map.of("https://api.cohere.ai", mock.origin())));
        put("chats/Bramble/Hollow Oak.jsonl", ChatSummaryHttpTest.chat(ChatSummaryHttpTest.MESSAGES)
                .getBytes(StandardCharsets.UTF_8));
    }

    @AfterEach
    void stopMock() {
        mock.close();
        TestServer.await(mockVertx.close());
    }

    private HttpResponse<Buffer> summarize(String fields) {
        return client.post("/api/tankard/summarize", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"Hollow Oak\","
                + fields + "}");
    }

    @Test
    void cohereGetsV2ChatWithTheStoredKeyAndItsContentBlocksAreRead() {
        client.post("/api/secrets/write", JsJson.compact(JsJson.object().put("key", "api_key_cohere").put("value", "co-key")));
        mock.route("/v2/chat", request -> request.response().end("{\"id\":\"c1\",\"message\":{\"role\":\"assistant\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Wren rented room four.\"}]},\"finish_reason\":\"COMPLETE\"}"));
        HttpResponse<Buffer> r = summarize("\"backend\":{\"chat_completion_source\":\"cohere\",\"model\":"
                + "\"command-r-08-2024\"},\"max_tokens\":9000");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("Wren rented room four.", json(r).path("summary").asText());
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("Bearer co-key", call.headers().get("Authorization"));
        assertEquals(4000, call.json().path("max_tokens").asInt(), "command-r writes at most 4000 tokens");
        assertEquals("Conversation:\n" + ChatSummaryHttpTest.CONVERSATION, call.json().at("/messages/1/content").asText());
    }

    @Test
    void cohereCutOffAtMaxTokensIsRefused() throws IOException {
        byte[] before = documentBytes("chats/Bramble/Hollow Oak.jsonl");
        client.post("/api/secrets/write", JsJson.compact(JsJson.object().put("key", "api_key_cohere").put("value", "co-key")));
        mock.route("/v2/chat", request -> request.response().end("{\"message\":{\"role\":\"assistant\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"Wren rented\"}]},\"finish_reason\":\"MAX_TOKENS\"}"));
        HttpResponse<Buffer> r = summarize("\"backend\":{\"chat_completion_source\":\"cohere\",\"model\":\"command-r\"}");
        assertEquals(502, r.statusCode());
        assertEquals("length", json(r).path("reason").asText());
        assertArrayEquals(before, documentBytes("chats/Bramble/Hollow Oak.jsonl"));
    }

    @Test
    void cohereWithoutAKeyIsABadRequestAndNothingIsCalled() {
        HttpResponse<Buffer> r = summarize("\"backend\":{\"chat_completion_source\":\"cohere\",\"model\":\"command-r\"}");
        assertEquals(400, r.statusCode(), r.bodyAsString());
        assertTrue(json(r).path("error").asText().contains("API key"), r.bodyAsString());
        assertEquals(0, mock.calls().size());
    }

    @Test
    void textCompletionWithoutATemplateTakesThePlainLayoutAndOllamasAnswer() {
        mock.route("/api/generate", request -> request.response().end("{\"model\":\"llama3\",\"response\":"
                + "\" Wren paid five gold.\",\"done\":true,\"done_reason\":\"stop\"}"));
        HttpResponse<Buffer> r = summarize("\"backend\":{\"api_type\":\"ollama\",\"api_server\":\"" + mock.origin()
                + "\",\"model\":\"llama3\"},\"max_tokens\":120");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("Wren paid five gold.", json(r).path("summary").asText());
        var body = mock.lastCall("/api/generate").json();
        assertEquals(SummaryPrompt.instruction(null, false) + "\nConversation:\n" + ChatSummaryHttpTest.CONVERSATION + "\n",
                body.path("prompt").asText());
        assertEquals(120, body.at("/options/num_predict").asInt());
        assertEquals(false, body.path("stream").asBoolean(true));
    }
}
