package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

/**
 * The prompt steps of chat completions that come before any source (the start of the {@code /generate} route in
 * ST's src/endpoints/backends/chat-completions.js), and its {@code /process} route.
 */
public final class ChatPrompts {
    private final PromptConverters converters;

    ChatPrompts(PromptConverters converters) {
        this.converters = converters;
    }

    /**
     * The steps before any source: the user's prompt post-processing ({@code custom_prompt_post_processing}),
     * and the structured-output schema flattened.
     */
    public ObjectNode preprocess(ObjectNode body) {
        JsonNode type = body.get("custom_prompt_post_processing");
        if (body.path("messages").isArray() && type != null && type.isTextual() && !type.textValue().isEmpty()
                && objects(body.get("messages"))) {
            body.set("messages", converters.postProcess((ArrayNode) body.get("messages"), type.textValue(),
                    PromptNames.of(body)));
        }
        return JsonSchemas.flattenJsonSchema(body);
    }

    /** {@code POST /process}: the post-processing of the given type alone, for the frontend's prompt inspector. */
    JsonAnswer process(JsonNode body) {
        JsonNode messages = body.path("messages");
        JsonNode type = body.path("type");
        if (!messages.isArray() || !objects(messages)) {
            return new JsonAnswer(400, JsJson.object().put("error", "Invalid messages format"));
        }
        if (!type.isTextual() || !type.textValue().isEmpty() && !PromptConverters.isProcessingType(type.textValue())) {
            return new JsonAnswer(400, JsJson.object().put("error", "Unknown processing type"));
        }
        ArrayNode processed = converters.postProcess((ArrayNode) messages, type.textValue(),
                PromptNames.of((ObjectNode) body));
        return JsonAnswer.ok(JsJson.object().set("messages", processed));
    }

    /** Messages the converters can work on: objects (ST would fail on anything else). */
    static boolean objects(JsonNode messages) {
        for (JsonNode message : messages) {
            if (!message.isObject()) {
                return false;
            }
        }
        return true;
    }
}
