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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Summaries the engine makes after a reply on the main API, as ST's Summarize extension does: in place (the
 * summary request is the generation's own request with the reply and the instruction after it, so a provider's
 * prompt cache serves it: the mock reports the shared prefix as OpenAI reports cached tokens), raw blocking
 * (stored before the reply is answered), raw non-blocking (after), the message and word triggers, and the
 * fallback to the previous summary when the message carrying the latest is gone.
 */
class EngineSummaryHttpTest extends MockServerTest {
    private static final String CHAT = "chats/Bramble/Hive.jsonl";
    private static final String INSTRUCTION = "Summarize the story so far.";
    /** Each completion request's messages, as the mock received them, and the prefix it shared with the one before. */
    private final List<String> requests = new ArrayList<>();
    private final List<Integer> cached = new ArrayList<>();
    private volatile long summaryDelayMs;

    @BeforeEach
    void data() {
        put("characters/Bramble.png", Fixtures.card(Fixtures.text("characters/bramble-v2.json")));
        put(CHAT, Fixtures.brambleChat(100, i -> "Message " + i + " about the bees and the hives by the river gate."));
        mock.onCompletion(this::answer);
    }

    /** Answers a summary request (its last message is the instruction) with a summary, any other with a reply. */
    private void answer(HttpServerRequest request) {
        JsonNode body = mock.lastCall().json();
        String messages = body.path("messages").toString();
        String previous = requests.isEmpty() ? "" : requests.get(requests.size() - 1);
        int shared = 0;
        while (shared < Math.min(previous.length(), messages.length()) && previous.charAt(shared) == messages.charAt(shared)) {
            shared++;
        }
        requests.add(messages);
        cached.add(shared);
        JsonNode last = body.path("messages").path(body.path("messages").size() - 1);
        boolean summary = last.path("content").asText().contains(INSTRUCTION)
                || body.at("/messages/0/content").asText().contains(INSTRUCTION);
        String text = summary ? "Wren asked about the bees." : "Reply " + requests.size() + ".";
        String json = "{\"id\":\"mock\",\"object\":\"chat.completion\",\"model\":\"" + MockCompletionServer.MODEL
                + "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + text + "\"},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":" + messages.length()
                + ",\"prompt_tokens_details\":{\"cached_tokens\":" + shared + "}}}";
        long delay = summary ? summaryDelayMs : 0;
        if (delay > 0) {
            server.vertx.setTimer(delay, id -> request.response().putHeader("Content-Type", "application/json").end(json));
        } else {
            request.response().putHeader("Content-Type", "application/json").end(json);
        }
    }

    private void settings(String memory) {
        settings(memory, 16384);
    }

    private void settings(String memory, int context) {
        put("settings.json", ("{\"main_api\":\"openai\",\"username\":\"Wren\",\"user_avatar\":\"user.png\","
                + "\"power_user\":{},\"oai_settings\":{\"chat_completion_source\":\"custom\",\"custom_url\":\""
                + mock.baseUrl() + "\",\"custom_model\":\"" + MockCompletionServer.MODEL + "\",\"stream_openai\":false,"
                + "\"openai_max_context\":" + context + ",\"openai_max_tokens\":300},\"extension_settings\":{\"memory\":{"
                + "\"source\":\"main\",\"prompt\":\"" + INSTRUCTION + "\"," + memory + "}}}").getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<Buffer> send(String text) {
        return client.post("/api/tankard/generate", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"Hive\","
                + "\"action\":\"send\",\"text\":\"" + text + "\"}");
    }

    private List<JsonNode> messages() {
        List<JsonNode> messages = new ArrayList<>();
        String[] lines = new String(documentBytes(CHAT), StandardCharsets.UTF_8).split("\n");
        for (int i = 1; i < lines.length; i++) {
            messages.add(JsJson.parse(lines[i]));
        }
        return messages;
    }

    private String memoryAt(int index) {
        return messages().get(index).path("extra").path("memory").asText(null);
    }

    @Test
    void anInPlaceSummaryIsTheGenerationsRequestWithTheReplyAndTheInstructionSoTheCacheServesIt() {
        settings("\"prompt_builder\":0,\"promptInterval\":10");
        HttpResponse<Buffer> response = send("Where are the bees?");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertEquals(2, requests.size(), "the reply, then the summary");

        JsonNode generation = JsJson.parse(requests.get(0));
        JsonNode summary = JsJson.parse(requests.get(1));
        assertEquals(generation.size() + 2, summary.size());
        for (int i = 0; i < generation.size(); i++) {
            assertEquals(generation.get(i), summary.get(i), "message " + i + " is the generation's, byte for byte");
        }
        assertEquals("{\"role\":\"assistant\",\"content\":\"Reply 1.\"}", summary.get(generation.size()).toString());
        assertEquals("system", summary.get(generation.size() + 1).path("role").asText());
        double share = cached.get(1) / (double) requests.get(1).length();
        assertTrue(share >= 0.95, "the cached prefix is " + Math.round(share * 100) + " % of the summary request");

        List<JsonNode> messages = messages();
        assertEquals(102, messages.size());
        assertEquals("Wren asked about the bees.", memoryAt(100), "stored on the message before the last, as ST");
        assertEquals("Reply 1.", messages.get(101).path("mes").asText());
    }

    @Test
    void aRawBlockingSummaryIsStoredBeforeTheReplyIsAnswered() {
        settings("\"prompt_builder\":1,\"promptInterval\":10");
        assertEquals(200, send("Where are the bees?").statusCode());
        JsonNode summary = JsJson.parse(requests.get(1));
        assertEquals("system", summary.at("/0/role").asText());
        assertEquals(INSTRUCTION, summary.at("/0/content").asText());
        assertTrue(summary.at("/1/content").asText().startsWith("Bramble:\nMessage 0 about the bees"),
                summary.at("/1/content").asText());
        int stored = -1;
        List<JsonNode> messages = messages();
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).path("extra").has("memory")) {
                stored = i;
            }
        }
        assertEquals(100, stored, "on the last message the raw prompt took in (the reply is left out)");
    }

    @Test
    void aBacklogNoRawRequestTakesWholeIsSummarizedPartByPartThenAsOne() {
        // 100 messages of about 20 tokens: a context of 1,200 less 300 for the answer takes some 40 of them
        settings("\"prompt_builder\":1,\"promptInterval\":10", 1200);
        assertEquals(200, send("Where are the bees?").statusCode());
        List<String> asked = new ArrayList<>();
        for (String request : requests.subList(1, requests.size())) {
            JsonNode messages = JsJson.parse(request);
            assertEquals(INSTRUCTION, messages.at("/0/content").asText(), "each part under the instruction");
            asked.add(messages.at("/1/content").asText());
        }
        assertTrue(asked.size() >= 3, "two parts at least, then their summaries as one: " + asked.size());
        String parts = String.join("\n", asked.subList(0, asked.size() - 1));
        for (int i = 0; i < 100; i++) {
            assertTrue(parts.contains("Message " + i + " about"), "message " + i + " is in a part");
        }
        assertTrue(parts.contains("Wren:\nWhere are the bees?"), "up to the message before the reply");
        assertTrue(asked.get(asked.size() - 1).startsWith("Wren asked about the bees.\n\nWren asked about the bees."),
                "the last request summarizes the parts' summaries: " + asked.get(asked.size() - 1));
        assertEquals("Wren asked about the bees.", memoryAt(100), "kept on the last message the backlog covers");
    }

    @Test
    void aRawNonBlockingSummaryComesAfterTheReplyIsAnswered() throws InterruptedException {
        settings("\"prompt_builder\":2,\"promptInterval\":10");
        summaryDelayMs = 1500;
        assertEquals(200, send("Where are the bees?").statusCode());
        assertFalse(messages().stream().anyMatch(m -> m.path("extra").has("memory")), "answered before the summary");
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline && memoryAt(100) == null) {
            Thread.sleep(100);
        }
        assertEquals("Wren asked about the bees.", memoryAt(100));
    }

    @Test
    void theWordTriggerFiresWhereTheMessageTriggerWouldNot() {
        putMemory(10, "Old summary.");
        settings("\"prompt_builder\":0,\"promptInterval\":100,\"promptForceWords\":0");
        assertEquals(200, send("Where are the bees?").statusCode());
        assertEquals(1, requests.size(), "91 messages since the last summary, fewer than 100, and no word trigger");

        settings("\"prompt_builder\":0,\"promptInterval\":100,\"promptForceWords\":100");
        assertEquals(200, send("And the hives?").statusCode());
        assertEquals(3, requests.size(), "well over 100 words since the last summary: one");
        assertEquals("Wren asked about the bees.", memoryAt(102));
    }

    /** Puts a summary on one message of the stored chat. */
    private void putMemory(int index, String memory) {
        List<String> lines = new ArrayList<>(List.of(new String(documentBytes(CHAT), StandardCharsets.UTF_8).split("\n")));
        lines.set(index + 1, lines.get(index + 1).replace("\"mes\":", "\"extra\":{\"memory\":\"" + memory + "\"},\"mes\":"));
        put(CHAT, String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void deletingTheMessageWithTheLatestSummaryFallsBackToThePreviousOne() {
        settings("\"prompt_builder\":0,\"promptInterval\":0");
        putMemory(40, "Old summary.");
        putMemory(80, "New summary.");
        String prompt = json(client.post("/api/tankard/prompt", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"Hive\","
                + "\"action\":\"regenerate\"}")).path("request").toString();
        assertTrue(prompt.contains("[Summary: New summary.]") && !prompt.contains("Old summary."), prompt);

        List<String> lines = new ArrayList<>(List.of(new String(documentBytes(CHAT), StandardCharsets.UTF_8).split("\n")));
        lines.remove(81);
        put(CHAT, String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
        prompt = json(client.post("/api/tankard/prompt", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"Hive\","
                + "\"action\":\"regenerate\"}")).path("request").toString();
        assertTrue(prompt.contains("[Summary: Old summary.]"), prompt);
    }
}
