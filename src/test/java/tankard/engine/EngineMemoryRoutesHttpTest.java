package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.MockCompletionServer;
import tankard.testing.MockServerTest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's memory routes for a client that shows memory: "Summarize now" (ST's forceSummarizeChat, paused or
 * not, stored in {@code extra.memory} as ST stores it), "Vectorize all" step by step with its counts, and the
 * prompt answer's context and memory texts; bad input refused writing nothing.
 */
class EngineMemoryRoutesHttpTest extends MockServerTest {
    private static final String CHAT = "chats/Bramble/Hive.jsonl";
    private static final String INSTRUCTION = "Summarize the story so far.";
    private static final String CHAT_REF = "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"Hive\"";
    private final List<JsonNode> requests = new ArrayList<>();
    private volatile int status = 200;

    @BeforeEach
    void data() {
        put("characters/Bramble.png", Fixtures.card(Fixtures.text("characters/bramble-v2.json")));
        put(CHAT, Fixtures.brambleChat(12, i -> "Message " + i + " about the bees by the river gate."));
        mock.onCompletion(this::answer);
    }

    private void answer(HttpServerRequest request) {
        requests.add(mock.lastCall().json());
        String json = status != 200 ? "{\"error\":{\"message\":\"The model is asleep\"}}"
                : "{\"id\":\"mock\",\"object\":\"chat.completion\",\"model\":\"" + MockCompletionServer.MODEL
                + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Wren and Bramble "
                + "watched the bees.\"},\"finish_reason\":\"stop\"}]}";
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(json);
    }

    private void settings(String memory, String vectors) {
        put("settings.json", ("{\"main_api\":\"openai\",\"username\":\"Wren\",\"user_avatar\":\"user.png\","
                + "\"power_user\":{},\"oai_settings\":{\"chat_completion_source\":\"custom\",\"custom_url\":\""
                + mock.baseUrl() + "\",\"custom_model\":\"" + MockCompletionServer.MODEL + "\",\"stream_openai\":false,"
                + "\"openai_max_context\":8192,\"openai_max_tokens\":300},\"extension_settings\":{\"memory\":{"
                + "\"prompt\":\"" + INSTRUCTION + "\"," + memory + "},\"vectors\":{" + vectors + "}}}")
                .getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<Buffer> post(String path, String more) {
        return client.post(path, CHAT_REF + more + "}");
    }

    private List<JsonNode> messages() {
        String[] lines = document(CHAT).split("\n");
        return Arrays.stream(lines).skip(1).map(JsJson::parse).toList();
    }

    @Test
    void summarizeNowMakesAClassicSummaryWhilePausedAndKeepsItOnTheMessageBeforeTheLast() {
        settings("\"source\":\"main\",\"memoryFrozen\":true,\"promptInterval\":0,\"prompt_builder\":0", "");
        HttpResponse<Buffer> response = post("/api/tankard/memory/summarize", "");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertEquals("Wren and Bramble watched the bees.", json(response).path("summary").asText());
        assertEquals(10, json(response).path("index").asInt());

        assertEquals(1, requests.size(), "one summary request, though paused and with the interval off");
        JsonNode sent = requests.get(0).path("messages");
        JsonNode last = sent.get(sent.size() - 1);
        assertEquals("system", last.path("role").asText());
        assertEquals(INSTRUCTION, last.path("content").asText(), "the chat's own prompt with the instruction last");
        assertTrue(sent.toString().contains("Message 11 about the bees"), "the user's last message is in the prompt");
        assertEquals(false, requests.get(0).path("stream").asBoolean(true));

        List<JsonNode> messages = messages();
        assertEquals(12, messages.size(), "no message added");
        assertEquals("Wren and Bramble watched the bees.", messages.get(10).path("extra").path("memory").asText(),
                "ST's setMemoryContext keeps it on the message before the last");
    }

    @Test
    void summarizeNowRawSummarizesTheMessagesSinceTheLatestSummary() {
        settings("\"source\":\"main\",\"prompt_builder\":1,\"promptInterval\":50", "");
        HttpResponse<Buffer> response = post("/api/tankard/memory/summarize", "");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        JsonNode sent = requests.get(0).path("messages");
        assertEquals(INSTRUCTION, sent.at("/0/content").asText());
        assertTrue(sent.at("/1/content").asText().startsWith("Bramble:\nMessage 0 about the bees"), sent.toString());
        assertEquals(10, json(response).path("index").asInt(), "the last message it took in (the last is left out)");
        assertEquals("Wren and Bramble watched the bees.", messages().get(10).path("extra").path("memory").asText());
    }

    @Test
    void summarizeNowRefusesAnotherSourceAndReportsABackendFailureWritingNothing() {
        byte[] before = documentBytes(CHAT);
        settings("\"source\":\"extras\"", "");
        HttpResponse<Buffer> refused = post("/api/tankard/memory/summarize", "");
        assertEquals(400, refused.statusCode());
        assertTrue(json(refused).toString().contains("main API"), refused.bodyAsString());
        assertEquals(0, requests.size());

        settings("\"source\":\"main\"", "");
        status = 500;
        HttpResponse<Buffer> failed = post("/api/tankard/memory/summarize", "");
        assertEquals(502, failed.statusCode(), failed.bodyAsString());
        assertTrue(failed.bodyAsString().contains("The summary request failed"), failed.bodyAsString());
        assertArrayEquals(before, documentBytes(CHAT), "the chat is as it was");

        assertEquals(404, client.post("/api/tankard/memory/summarize",
                "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"Nowhere\"}").statusCode());
    }

    @Test
    void vectorizingStepByStepFillsTheChatsCollectionAndCountsIt() {
        settings("\"source\":\"main\"", "\"enabled_chats\":true,\"source\":\"transformers\"");
        JsonNode counted = json(post("/api/tankard/memory/vectors", ""));
        assertEquals(12, counted.path("messages").asInt());
        assertEquals(0, counted.path("saved").asInt(), "counting inserts nothing");
        assertEquals(12, counted.path("remaining").asInt());

        JsonNode step = json(post("/api/tankard/memory/vectors", ",\"insert\":5"));
        assertEquals(5, step.path("saved").asInt());
        assertEquals(7, step.path("remaining").asInt());
        assertEquals(5, json(client.post("/api/vector/list", "{\"source\":\"transformers\",\"collectionId\":\"Hive\"}"))
                .size(), "the collection ST's /api/vector routes read");
        step = json(post("/api/tankard/memory/vectors", ",\"insert\":10"));
        assertEquals(12, step.path("saved").asInt());
        assertEquals(0, step.path("remaining").asInt());

        assertEquals(400, post("/api/tankard/memory/vectors", ",\"insert\":-1").statusCode());
        assertEquals(400, post("/api/tankard/memory/vectors", ",\"insert\":\"all\"").statusCode());
        settings("\"source\":\"main\"", "\"enabled_chats\":false");
        HttpResponse<Buffer> off = post("/api/tankard/memory/vectors", ",\"insert\":5");
        assertEquals(400, off.statusCode());
        assertTrue(off.bodyAsString().contains("enabled_chats"), off.bodyAsString());
    }

    @Test
    void thePromptAnswerNamesTheContextAndTheSummaryAsInjected() {
        settings("\"source\":\"main\",\"template\":\"[Summary: {{summary}}]\",\"position\":0", "");
        put(CHAT, document(CHAT).replace("\"mes\":\"Message 9 about", "\"extra\":{\"memory\":\"The bees swarmed.\"},"
                + "\"mes\":\"Message 9 about").getBytes(StandardCharsets.UTF_8));
        JsonNode answer = json(post("/api/tankard/prompt", ",\"action\":\"send\",\"text\":\"Hello\""));
        assertEquals(8192, answer.at("/context/size").asInt());
        assertEquals(8192 - 300, answer.at("/context/prompt").asInt());
        assertEquals("[Summary: The bees swarmed.]", answer.at("/memory/summary").asText());
        assertEquals("", answer.at("/memory/vectors").asText(), "vector memory is off");
        assertTrue(answer.at("/itemization/parts/summary").asInt() > 0);
    }
}
