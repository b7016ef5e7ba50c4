package tankard.summarize.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.chat.ChatRef;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A summarize request, checked: which chat, which backend and how to call it, and the summary's limits.
 *
 * @param chat        the chat, named as ChatRef names it: {@code avatar_url} + {@code file_name}, or a group chat's {@code id}
 * @param backend     the connection as ST's frontend sends it to a generate route: {@code chat_completion_source},
 *                    {@code model} and the source's settings, or {@code api_type}, {@code api_server} and samplers
 * @param instruct    the instruct template text completions are wrapped in, or null (chat completions: always null)
 * @param focus       what the summary must keep above all, or null
 * @param maxTokens   the configured output limit
 * @param excludeLast how many of the newest messages are left out (at least the last one, as ST's extension)
 * @param contextSize the model's context in tokens, or null for the backend body's or the known model's
 */
public record SummaryOptions(ChatRef chat, ObjectNode backend, JsonNode instruct, String focus, int maxTokens,
                      int excludeLast, Integer contextSize) {
    static final int DEFAULT_MAX_TOKENS = 1024;
    static final int DEFAULT_CONTEXT = 8192;

    boolean textCompletion() {
        return backend.has("api_type");
    }

    String model() {
        JsonNode model = backend.get("model");
        return model != null && model.isTextual() ? model.textValue() : "";
    }

    /**
     * The options of a request body; {@code instructTemplates} finds the user's instruct template of a name
     * ({@link tankard.preset.PresetService#read}), {@code knownSource} tells the chat completion sources there are.
     */
    static SummaryOptions parse(JsonNode body, Function<String, Optional<JsonNode>> instructTemplates,
                                Predicate<String> knownSource) {
        if (body == null || !body.isObject()) {
            throw Refusal.badRequest("The body must be a JSON object");
        }
        ObjectNode chat = JsJson.object();
        for (String field : new String[] {"avatar_url", "file_name", "id"}) {
            JsonNode value = body.get(field);
            if (value != null && !value.isNull()) {
                if (!value.isTextual()) {
                    throw Refusal.badRequest(field + " must be a string");
                }
                chat.set(field, value);
            }
        }
        JsonNode backend = body.get("backend");
        if (backend == null || !backend.isObject()
                || !backend.path("chat_completion_source").isTextual() && !backend.path("api_type").isTextual()) {
            throw Refusal.badRequest("backend must be an object with chat_completion_source (and model and the "
                    + "source's settings), or api_type and api_server");
        }
        ObjectNode connection = ((ObjectNode) backend).deepCopy();
        JsonNode instruct = connection.has("api_type") ? instruct(body.get("instruct"), instructTemplates) : null;
        int maxTokens = positive(body, "max_tokens",
                positive(connection, "max_tokens", DEFAULT_MAX_TOKENS));
        int excludeLast = positive(body, "exclude_last", 1);
        String focus = text(body, "prompt");
        JsonNode context = body.get("context_size");
        Integer contextSize = context == null || context.isNull() ? null : positive(body, "context_size", 0);
        JsonNode source = connection.get("chat_completion_source");
        if (!connection.has("api_type") && !knownSource.test(Js.string(source))) {
            throw Refusal.badRequest("Unknown chat_completion_source: " + Js.string(source));
        }
        return new SummaryOptions(ChatRef.of(chat), connection, instruct, focus, maxTokens, excludeLast, contextSize);
    }

    /** A template given whole, or the name of one in the user's {@code instruct/} folder; null: none. */
    private static JsonNode instruct(JsonNode value, Function<String, Optional<JsonNode>> instructTemplates) {
        if (value == null || value.isNull() || value.isTextual() && value.textValue().isEmpty()) {
            return null;
        }
        if (value.isObject()) {
            return value;
        }
        if (!value.isTextual()) {
            throw Refusal.badRequest("instruct must be a template object or the name of one");
        }
        JsonNode template = instructTemplates.apply(value.textValue()).orElse(null);
        if (template == null || !template.isObject()) {
            throw Refusal.notFound("No instruct template named " + value.textValue());
        }
        return template;
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw Refusal.badRequest(field + " must be a string");
        }
        return value.textValue().isBlank() ? null : value.textValue();
    }

    private static int positive(JsonNode body, String field, int missing) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return missing;
        }
        if (!value.canConvertToInt() || !value.isIntegralNumber() || value.intValue() < 1) {
            throw Refusal.badRequest(field + " must be a whole number of at least 1");
        }
        return value.intValue();
    }
}
