package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import tankard.json.JsJson;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The converters against ST's: prompt-converters.json holds our own inputs and what ST 1.18.0's converter
 * functions returned for them (run with node), for every post-processing type and name setting.
 */
class PromptConvertersTest {
    private static final String PLACEHOLDER = "Let's get started.";
    private final PromptConverters converters = new PromptConverters(PLACEHOLDER);

    @TestFactory
    List<DynamicTest> convertersGiveStsOutputs() throws IOException {
        JsonNode fixture;
        try (InputStream in = getClass().getResourceAsStream("prompt-converters.json")) {
            fixture = JsJson.parse(in.readAllBytes());
        }
        JsonNode inputs = fixture.get("inputs");
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode output : fixture.get("outputs")) {
            String converter = output.get("converter").asText();
            String type = output.path("type").asText("");
            String label = converter + " " + type + " " + output.get("messages").asText() + " " + output.get("names").asText();
            tests.add(DynamicTest.dynamicTest(label, () -> {
                ObjectNode body = (ObjectNode) inputs.get(output.get("names").asText()).deepCopy();
                ArrayNode messages = (ArrayNode) inputs.get("messages").get(output.get("messages").asText()).deepCopy();
                PromptNames names = PromptNames.of(body);
                ArrayNode actual = switch (converter) {
                    case "postProcess" -> converters.postProcess(messages, type, names);
                    case "mistral" -> PromptConverters.mistral(messages, names, false);
                    case "xai" -> PromptConverters.xai(messages, names);
                    default -> converters.ai21(messages, names);
                };
                assertEquals(JsJson.compact(output.get("expected")), JsJson.compact(actual));
            }));
        }
        return tests;
    }

    @Test
    void mediaPartsComeBackAroundTheMergedText() {
        ArrayNode messages = (ArrayNode) JsJson.parse("[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\","
                + "\"image_url\":{\"url\":\"data:image/png;base64,AAAA\"}}]},{\"role\":\"user\",\"content\":\"Said after.\"}]");
        ArrayNode merged = converters.postProcess(messages, "merge", new PromptNames("", "", List.of()));
        assertEquals("[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":"
                + "\"data:image/png;base64,AAAA\"}},{\"type\":\"text\",\"text\":\"Said after.\"}]}]", JsJson.compact(merged));
    }

    @Test
    void unknownTypesLeaveTheMessagesAlone() {
        ArrayNode messages = (ArrayNode) JsJson.parse("[{\"role\":\"user\",\"name\":\"Wren\",\"content\":\"Hi\"}]");
        String before = JsJson.compact(messages);
        assertEquals(before, JsJson.compact(converters.postProcess(messages, "none", new PromptNames("", "", List.of()))));
        assertTrue(PromptConverters.isProcessingType("claude"));
        assertNotEquals(before, JsJson.compact(converters.postProcess(messages, "claude", new PromptNames("", "", List.of()))));
    }
}
