package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import java.io.IOException;
import java.io.InputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The prompt converters of the dedicated senders (and ST's flattenSchema) against what ST 1.18.0's own converters answered for the same
 * inputs (chat-converters.json: our inputs, ST's outputs as node printed them, promptPlaceholder as ST's
 * shipped config sets it).
 */
class ChatConvertersTest {
    private static final JsonNode CASES = load();
    private static final PromptNames NAMES = PromptNames.of((ObjectNode) CASES.get("names"));
    private static final String PLACEHOLDER = "[Start a new chat]";

    private static JsonNode load() {
        try (InputStream in = ChatConvertersTest.class.getResourceAsStream("chat-converters.json")) {
            return JsJson.parse(in.readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void claudeMessagesAsSt() {
        for (JsonNode c : CASES.get("claude")) {
            ClaudeMessages.Converted converted = ClaudeMessages.convert(c.get("messages"), c.get("prefill").asText(),
                    c.get("useSysPrompt").asBoolean(), c.get("useTools").asBoolean(), NAMES, PLACEHOLDER);
            ObjectNode actual = JsJson.object();
            actual.set("messages", converted.messages());
            actual.set("systemPrompt", converted.system());
            assertEquals(JsJson.compact(c.get("expected")), JsJson.compact(actual), c.get("name").asText());
        }
    }

    @Test
    void claudeCachingAtDepthAsSt() {
        for (JsonNode c : CASES.get("cachingAtDepth")) {
            ArrayNode messages = c.get("messages").deepCopy();
            ClaudeMessages.cacheAtDepth(messages, c.get("depth").asInt(), c.get("ttl").asText());
            assertEquals(JsJson.compact(c.get("expected")), JsJson.compact(messages), c.get("name").asText());
        }
    }

    @Test
    void googlePromptAsSt() {
        for (JsonNode c : CASES.get("google")) {
            GooglePrompt.Converted converted = GooglePrompt.convert(c.get("messages"), c.get("model").asText(),
                    c.get("useSysPrompt").asBoolean(), NAMES);
            ObjectNode actual = JsJson.object();
            actual.set("contents", converted.contents());
            actual.set("system_instruction", converted.systemInstruction());
            assertEquals(JsJson.compact(c.get("expected")), JsJson.compact(actual), c.get("name").asText());
        }
    }

    @Test
    void cohereMessagesAsSt() {
        for (JsonNode c : CASES.get("cohere")) {
            assertEquals(JsJson.compact(c.get("expected")), JsJson.compact(CohereSource.convert(c.get("messages"),
                    NAMES, PLACEHOLDER)), c.get("name").asText());
        }
    }

    @Test
    void jsonSchemasFlattenedAsSt() {
        for (JsonNode c : CASES.get("flattenSchema")) {
            assertEquals(JsJson.compact(c.get("expected")), JsJson.compact(JsonSchemas.flatten(c.get("schema"),
                    c.get("api").asText())), c.get("name").asText());
        }
    }
}
