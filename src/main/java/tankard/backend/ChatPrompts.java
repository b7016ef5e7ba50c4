package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.http.Reply;
import tankard.json.JsJson;

/** The prompt steps of chat completions that come before any source (st-backends.md §2.2, §2.7.1). */
final class ChatPrompts {
    private final PromptConverters converters;

    ChatPrompts(PromptConverters converters) {
        this.converters = converters;
    }

    /**
     * The steps before any source: the user's prompt post-processing ({@code custom_prompt_post_processing}),
     * and the structured-output schema flattened.
     */
    ObjectNode preprocess(ObjectNode body) {
        JsonNode type = body.get("custom_prompt_post_processing");
        if (body.path("messages").isArray() && type != null && type.isTextual() && !type.textValue().isEmpty()
                && objects(body.get("messages"))) {
            body.set("messages", converters.postProcess((ArrayNode) body.get("messages"), type.textValue(),
                    PromptNames.of(body)));
        }
        return JsonSchemas.flattenJsonSchema(body);
    }

    /** {@code POST /process}: the post-processing of the given type alone, for the frontend's prompt inspector. */
    Reply process(JsonNode body) {
        JsonNode messages = body.path("messages");
        JsonNode type = body.path("type");
        if (!messages.isArray() || !objects(messages)) {
            return Reply.json(400, JsJson.object().put("error", "Invalid messages format"));
        }
        if (!type.isTextual() || !type.textValue().isEmpty() && !PromptConverters.isProcessingType(type.textValue())) {
            return Reply.json(400, JsJson.object().put("error", "Unknown processing type"));
        }
        ArrayNode processed = converters.postProcess((ArrayNode) messages, type.textValue(),
                PromptNames.of((ObjectNode) body));
        return Reply.json(JsJson.object().set("messages", processed));
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
