package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * ST's addOpenRouterSignatures (src/prompt-converters.js): stored reasoning signatures of messages and tool calls
 * become OpenRouter's {@code reasoning_details}, in the format of the model's maker.
 */
final class OpenRouterSignatures {
    private OpenRouterSignatures() {
    }

    /** @param messageSignatures config gemini.thoughtSignatures: whether messages' own signatures go too */
    static void add(ArrayNode messages, String model, boolean messageSignatures) {
        String format = format(model);
        for (JsonNode node : messages) {
            if (!node.isObject()) {
                continue;
            }
            ObjectNode message = (ObjectNode) node;
            ArrayNode details = message.arrayNode();
            if (message.path("signature").isTextual()) {
                if (messageSignatures) {
                    addDetail(details, message.get("signature").textValue(), null, format);
                }
                message.remove("signature");
            }
            for (JsonNode call : message.path("tool_calls")) {
                if (call.isObject() && call.path("signature").isTextual()) {
                    addDetail(details, call.get("signature").textValue(), call.get("id"), format);
                    ((ObjectNode) call).remove("signature");
                }
            }
            if (!details.isEmpty()) {
                message.set("reasoning_details", details);
            }
        }
    }

    private static void addDetail(ArrayNode details, String data, JsonNode id, String format) {
        if (data.isEmpty()) {
            return;
        }
        ObjectNode detail = details.addObject().put("index", details.size() - 1);
        if (id != null && tankard.json.Js.truthy(id)) {
            detail.set("id", id);
        } else {
            detail.put("id", "signature-" + (details.size() - 1));
        }
        detail.put("type", "reasoning.encrypted").put("data", data).put("format", format);
    }

    private static String format(String model) {
        if (model.contains("google/gemini")) {
            return "google-gemini-v1";
        }
        if (model.contains("anthropic/claude")) {
            return "anthropic-claude-v1";
        }
        if (model.contains("openai/gpt")) {
            return "openai-responses-v1";
        }
        return model.contains("x-ai/grok") ? "xai-responses-v1" : "unknown";
    }
}
