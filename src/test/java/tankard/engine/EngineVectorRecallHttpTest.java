package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.util.StringHash;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Vector recall on the server with the embedded model, offline: in a 1,000-message chat about the weather, the one
 * early message about a lost silver key comes back when the newest messages ask about the key, as Vector Storage's
 * "Past events", and the chat's collection holds every message under ST's hash.
 */
class EngineVectorRecallHttpTest extends ServerTest {
    private static final String KEY_MESSAGE = "I hid the silver key to the cellar under the loose floorboard by the hearth.";

    @Test
    void anEarlyTopicIsRecalledIntoThePromptFromAThousandMessageChat() {
        start(null);
        put("characters/Bramble.png", Fixtures.card(Fixtures.text("characters/bramble-v2.json")));
        List<String> lines = new ArrayList<>();
        lines.add("{\"user_name\":\"Wren\",\"character_name\":\"Bramble\",\"create_date\":\"2026-01-01@10h00m00s\","
                + "\"chat_metadata\":{}}");
        String[] weather = {"The rain keeps falling on the meadow.", "Clouds gather over the hills again.",
                "A cold wind blows through the orchard.", "The sun finally breaks through the fog.",
                "Snow is settling on the beehives tonight."};
        for (int i = 0; i < 1000; i++) {
            boolean user = i % 2 == 1;
            String text = i == 40 ? KEY_MESSAGE : weather[i % weather.length] + " (" + i + ")";
            if (i == 998) {
                text = "Where did you put the silver key to the cellar?";
            }
            lines.add(JsJson.compact(JsJson.object().put("name", user ? "Wren" : "Bramble").put("is_user", user)
                    .put("is_system", false).put("send_date", "January 1, 2026 10:00am").put("mes", text)));
        }
        put("chats/Bramble/Long.jsonl", String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
        put("settings.json", ("{\"main_api\":\"openai\",\"username\":\"Wren\",\"user_avatar\":\"user.png\","
                + "\"power_user\":{},\"oai_settings\":{\"chat_completion_source\":\"openai\",\"openai_model\":\"gpt-4o\","
                + "\"openai_max_context\":128000,\"openai_max_tokens\":300},\"extension_settings\":{\"vectors\":"
                + "{\"enabled_chats\":true,\"source\":\"transformers\",\"query\":2,\"insert\":3,\"protect\":5,"
                + "\"score_threshold\":0.25,\"message_chunk_size\":400}}}").getBytes(StandardCharsets.UTF_8));

        HttpResponse<Buffer> response = client.post("/api/tankard/prompt",
                "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"Long\",\"action\":\"regenerate\"}");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        String request = json(response).path("request").toString();
        assertTrue(request.contains("Past events:\\nBramble: " + KEY_MESSAGE), request.substring(0, Math.min(2000, request.length())));
        assertEquals(1, request.split(java.util.regex.Pattern.quote(KEY_MESSAGE), -1).length - 1,
                "the recalled message left the chat history: it is in the prompt once");

        JsonNode saved = json(client.post("/api/vector/list",
                "{\"source\":\"transformers\",\"collectionId\":\"Long\"}"));
        assertEquals(1000, saved.size(), "every message is in the chat's collection");
        List<Long> hashes = new ArrayList<>();
        saved.forEach(hash -> hashes.add(hash.asLong()));
        assertTrue(hashes.contains(StringHash.of(KEY_MESSAGE)), "under ST's hash of its text");
        assertFalse(hashes.contains(StringHash.of("Not in the chat.")));
    }
}
