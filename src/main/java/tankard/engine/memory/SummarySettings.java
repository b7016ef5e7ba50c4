package tankard.engine.memory;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.json.JsNumber;

/**
 * {@code extension_settings.memory} as ST's Summarize extension reads it (public/scripts/extensions/memory/index.js,
 * loadSettings): each setting that is undefined takes the extension's default.
 */
record SummarySettings(JsonNode source, boolean frozen, JsonNode prompt, JsonNode promptWords, JsonNode interval,
                       JsonNode forceWords, JsonNode builder, JsonNode overrideResponseLength,
                       JsonNode maxMessagesPerRequest) {
    /** ST's defaultPrompt: the instruction the extension ships with. */
    static final String DEFAULT_PROMPT = "Ignore previous instructions. Summarize the most important facts and "
            + "events in the story so far. If a summary already exists in your memory, use that as a base and "
            + "expand with new facts. Limit the summary to {{words}} words or less. Your response should include "
            + "nothing but the summary.";

    static SummarySettings of(JsonNode memory) {
        return new SummarySettings(
                or(memory, "source", JsJson.tree("extras")),
                Js.truthy(or(memory, "memoryFrozen", JsJson.tree(false))),
                or(memory, "prompt", JsJson.tree(DEFAULT_PROMPT)),
                or(memory, "promptWords", JsJson.tree(200)),
                or(memory, "promptInterval", JsJson.tree(10)),
                or(memory, "promptForceWords", JsJson.tree(0)),
                or(memory, "prompt_builder", JsJson.tree(0)),
                or(memory, "overrideResponseLength", JsJson.tree(0)),
                or(memory, "maxMessagesPerRequest", JsJson.tree(0)));
    }

    private static JsonNode or(JsonNode memory, String name, JsonNode fallback) {
        JsonNode value = memory.get(name);
        return value == null || value.isMissingNode() ? fallback : value;
    }

    /** {@code source === 'main'}: the summary is written by the main API. */
    boolean mainApi() {
        return source.isTextual() && source.textValue().equals("main");
    }

    /** {@code promptInterval === 0}: automatic summaries are off. */
    boolean intervalOff() {
        return interval.isNumber() && interval.asDouble() == 0;
    }

    double intervalNumber() {
        return JsNumber.of(interval);
    }

    /** The response length the summary asks for, when set: a number above 0 (ST checks {@code typeof}). */
    JsonNode responseLength() {
        return overrideResponseLength.isNumber() && overrideResponseLength.asDouble() > 0 ? overrideResponseLength : null;
    }

    double maxMessages() {
        return JsNumber.of(maxMessagesPerRequest);
    }
}
