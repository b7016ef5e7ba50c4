package tankard.engine.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import tankard.json.Js;
import tankard.json.JsJson;

/**
 * A prompt of the prompt manager (ST: public/scripts/PromptManager.js, class Prompt): the user's prompts, the
 * markers filled with card and world info text, extension prompts and chat messages on their way into the chat
 * completion. Fields ST compares strictly keep their JSON value.
 */
final class ManagedPrompt {
    /** ST's {@code INJECTION_POSITION.ABSOLUTE}: the prompt goes into the chat at a depth. */
    private static final int ABSOLUTE = 1;
    private static final JsonNode DEFAULT_ORDER = IntNode.valueOf(100);

    String identifier;
    String role;
    String content;
    String name;
    JsonNode systemPrompt;
    /** Where an extension prompt goes around the main prompt: "start", "end", or null. */
    String position;
    JsonNode injectionDepth;
    JsonNode injectionPosition;
    JsonNode injectionOrder = DEFAULT_ORDER;
    JsonNode injectionTrigger = JsJson.array();
    JsonNode forbidOverrides;
    boolean extension;

    ManagedPrompt() {
    }

    ManagedPrompt(String identifier, String role, String content) {
        this.identifier = identifier;
        this.role = role;
        this.content = content;
    }

    /** new Prompt(settingsPrompt): the fields ST's Prompt takes from a prompt of settings.json. */
    static ManagedPrompt fromJson(JsonNode json) {
        ManagedPrompt prompt = new ManagedPrompt();
        prompt.identifier = text(json.get("identifier"));
        prompt.role = text(json.get("role"));
        prompt.content = text(json.get("content"));
        prompt.name = text(json.get("name"));
        prompt.systemPrompt = json.get("system_prompt");
        prompt.position = Js.truthy(json.get("position")) ? Js.string(json.get("position")) : null;
        prompt.injectionDepth = json.get("injection_depth");
        prompt.injectionPosition = json.get("injection_position");
        prompt.forbidOverrides = json.get("forbid_overrides");
        prompt.extension = Js.truthy(json.get("extension"));
        prompt.injectionOrder = orDefault(json.get("injection_order"), DEFAULT_ORDER);
        prompt.injectionTrigger = orDefault(json.get("injection_trigger"), JsJson.array());
        return prompt;
    }

    /** new Prompt(prompt): a copy. */
    ManagedPrompt copy() {
        ManagedPrompt copy = new ManagedPrompt(identifier, role, content);
        copy.name = name;
        copy.systemPrompt = systemPrompt;
        copy.position = position;
        copy.injectionDepth = injectionDepth;
        copy.injectionPosition = injectionPosition;
        copy.forbidOverrides = forbidOverrides;
        copy.extension = extension;
        copy.injectionOrder = orDefault(injectionOrder, DEFAULT_ORDER);
        copy.injectionTrigger = orDefault(injectionTrigger, JsJson.array());
        return copy;
    }

    /** {@code injection_position === INJECTION_POSITION.ABSOLUTE}. */
    boolean isAbsolute() {
        return isNumber(injectionPosition, ABSOLUTE);
    }

    /** {@code injection_depth === depth}. */
    boolean isAtDepth(int depth) {
        return isNumber(injectionDepth, depth);
    }

    /** {@code system_prompt === false}: a prompt of the user's own. */
    boolean isUserPrompt() {
        return systemPrompt != null && systemPrompt.isBoolean() && !systemPrompt.booleanValue();
    }

    boolean forbidsOverrides() {
        return forbidOverrides != null && forbidOverrides.isBoolean() && forbidOverrides.booleanValue();
    }

    private static boolean isNumber(JsonNode node, int value) {
        return node != null && node.isNumber() && node.doubleValue() == value;
    }

    private static JsonNode orDefault(JsonNode value, JsonNode fallback) {
        return Js.coalesce(value, fallback);
    }

    /** A string field as ST reads it; null for undefined and null. */
    private static String text(JsonNode value) {
        return Js.isUndefined(value) || value.isNull() ? null : Js.string(value);
    }
}
