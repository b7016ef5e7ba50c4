package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /api/tankard/prompt} over HTTP: which backend route the prompt is for, what the actions take from
 * the chat, that the chat is only read, and a clear 4xx for each kind of bad input.
 */
class EngineHttpTest extends ServerTest {
    private static final String CHAT = "chats/Bramble/Hive.jsonl";
    private static final String REF = "\"avatar_url\":\"Bramble.png\",\"file_name\":\"Hive\"";
    private static final String CHAT_TEXT = String.join("\n",
            "{\"user_name\":\"Wren\",\"character_name\":\"Bramble\",\"create_date\":\"2026-01-01@10h00m00s\","
                    + "\"chat_metadata\":{\"integrity\":\"a1\"}}",
            "{\"name\":\"Bramble\",\"is_user\":false,\"is_system\":false,\"send_date\":\"January 1, 2026 10:00am\","
                    + "\"mes\":\"Mind the bees, {{user}}.\",\"extra\":{}}",
            "{\"name\":\"Wren\",\"is_user\":true,\"is_system\":false,\"send_date\":\"January 1, 2026 10:01am\","
                    + "\"mes\":\"Which hive is calm?\",\"extra\":{}}",
            "{\"name\":\"SillyTavern System\",\"is_user\":false,\"is_system\":true,\"send_date\":\"January 1, 2026 10:02am\","
                    + "\"mes\":\"A hidden note.\",\"extra\":{}}",
            "{\"name\":\"Bramble\",\"is_user\":false,\"is_system\":false,\"send_date\":\"January 1, 2026 10:03am\","
                    + "\"mes\":\"The blue one by the gate.\",\"extra\":{}}");

    @BeforeEach
    void data() {
        start(null);
        put("characters/Bramble.png", Fixtures.card(Fixtures.text("characters/bramble-v2.json")));
        put(CHAT, CHAT_TEXT.getBytes(StandardCharsets.UTF_8));
        settings("openai");
    }

    private void settings(String api) {
        put("settings.json", ("{\"main_api\":\"" + api + "\",\"username\":\"Wren\",\"user_avatar\":\"user.png\","
                + "\"power_user\":{\"instruct\":{\"enabled\":false}},\"oai_settings\":{\"openai_model\":\"gpt-4o\","
                + "\"openai_max_context\":4096,\"openai_max_tokens\":300}}").getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<Buffer> prompt(String fields) {
        return client.post("/api/tankard/prompt", "{" + REF + (fields.isEmpty() ? "" : "," + fields) + "}");
    }

    private static String requestText(HttpResponse<Buffer> response) {
        assertEquals(200, response.statusCode(), response.bodyAsString());
        return json(response).path("request").toString();
    }

    @Test
    void chatCompletionSettingsAnswerTheChatCompletionsRouteWithItsItemization() {
        HttpResponse<Buffer> response = prompt("\"action\":\"regenerate\"");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        JsonNode answer = json(response);
        assertEquals("/api/backends/chat-completions/generate", answer.path("route").asText());
        assertTrue(answer.path("request").isObject(), answer.toString());
        assertTrue(answer.path("itemization").path("parts").isObject(), answer.toString());
    }

    @Test
    void textCompletionSettingsAnswerTheTextCompletionsRoute() {
        settings("textgenerationwebui");
        HttpResponse<Buffer> response = prompt("\"action\":\"continue\"");
        assertEquals("/api/backends/text-completions/generate", json(response).path("route").asText(),
                response.bodyAsString());
    }

    @Test
    void aSendAddsTheTypedTextAsTheUsersMessageAndTheChatIsOnlyRead() {
        String request = requestText(prompt("\"action\":\"send\",\"text\":\"Do they sting, {{char}}?\""));
        assertTrue(request.contains("Do they sting, Bramble?"), request);
        assertTrue(request.contains("The blue one by the gate."), request);
        assertFalse(request.contains("A hidden note."), "system messages stay out of the prompt: " + request);
        assertTrue(request.contains("Mind the bees, Wren."), "the first message's macros are replaced: " + request);
        assertArrayEquals(CHAT_TEXT.getBytes(StandardCharsets.UTF_8), documentBytes(CHAT));
    }

    @Test
    void regenerateAndSwipeLeaveOutTheLastReplyButContinueKeepsIt() {
        for (String action : new String[]{"regenerate", "swipe"}) {
            String request = requestText(prompt("\"action\":\"" + action + "\""));
            assertFalse(request.contains("The blue one by the gate."), action + ": " + request);
            assertTrue(request.contains("Which hive is calm?"), action + ": " + request);
        }
        assertTrue(requestText(prompt("\"action\":\"continue\"")).contains("The blue one by the gate."));
    }

    @Test
    void aChatOrLorebookChangedSinceTheLastPromptIsReadAgain() {
        // the engine keeps what it parsed (ChatSnapshots, prepared books); the store's version and text decide
        put("settings.json", ("{\"main_api\":\"openai\",\"username\":\"Wren\",\"oai_settings\":{"
                + "\"openai_max_context\":4096,\"openai_max_tokens\":300},\"world_info_settings\":{"
                + "\"world_info\":{\"globalSelect\":[\"Hives\"]}}}").getBytes(StandardCharsets.UTF_8));
        String book = "{\"entries\":{\"0\":{\"uid\":0,\"key\":[],\"constant\":true,\"position\":0,\"order\":100,"
                + "\"content\":\"Bees swarm at dusk.\"}}}";
        put("worlds/Hives.json", book.getBytes(StandardCharsets.UTF_8));
        String first = requestText(prompt("\"action\":\"regenerate\""));
        assertTrue(first.contains("Which hive is calm?") && first.contains("Bees swarm at dusk."), first);

        // the same sizes, so only the version tells the chat apart
        put(CHAT, CHAT_TEXT.replace("is calm?", "is loud?").getBytes(StandardCharsets.UTF_8));
        put("worlds/Hives.json", book.replace("swarm", "sleep").getBytes(StandardCharsets.UTF_8));
        String second = requestText(prompt("\"action\":\"regenerate\""));
        assertTrue(second.contains("Which hive is loud?") && !second.contains("Which hive is calm?"), second);
        assertTrue(second.contains("Bees sleep at dusk.") && !second.contains("Bees swarm at dusk."), second);
    }

    @Test
    void badInputIsAClear4xx() {
        assertRefused(prompt("\"action\":\"dance\""), 400, "Unknown action");
        assertRefused(prompt("\"now\":\"yesterday\""), 400, "ISO-8601");
        assertRefused(prompt("\"gen_id\":\"soon\""), 400, "gen_id must be a whole number");
        assertRefused(client.post("/api/tankard/prompt", "{\"avatar_url\":\"Bramble.png\"}"), 400, "file_name");
        assertRefused(client.post("/api/tankard/prompt", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"None\"}"),
                404, "No such chat");
        assertRefused(client.post("/api/tankard/prompt", "{\"avatar_url\":\"Nobody.png\",\"file_name\":\"Hive\"}"),
                404, "Not Found");
        assertRefused(client.post("/api/tankard/prompt", "{\"group_id\":\"42\",\"file_name\":\"Hive\"}"),
                404, "No such group");
        settings("novel");
        assertRefused(prompt(""), 400, "not novel");
        put("settings.json", "{\"main_api\": ".getBytes(StandardCharsets.UTF_8));
        assertRefused(prompt(""), 400, "settings.json does not parse");
    }

    private static void assertRefused(HttpResponse<Buffer> response, int status, String message) {
        assertEquals(status, response.statusCode(), response.bodyAsString());
        assertTrue(json(response).path("error").asText().contains(message), response.bodyAsString());
    }
}
