package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.config.TankardConfig.ChatSettings;
import tankard.json.JsJson;

/**
 * Claude's prompt caching through OpenAI-shaped gateways (OpenRouter, Electron Hub): {@code cache_control} marks
 * on the system prompt and at a depth of the chat, as the config asks (ST's cachingSystemPromptForOpenRouter and
 * cachingAtDepthForOpenRouterClaude, src/prompt-converters.js).
 */
final class PromptCaching {
    private PromptCaching() {
    }

    /** Both marks, each when the config turns it on. */
    static void markForClaude(ArrayNode messages, ChatSettings settings) {
        if (settings.claudeSystemPromptCache()) {
            markSystemPrompt(messages, settings.claudeCacheTtl());
        }
        if (settings.claudeCachingAtDepth() >= 0) {
            markAtDepth(messages, settings.claudeCachingAtDepth(), settings.claudeCacheTtl());
        }
    }

    /** ST's cachingSystemPromptForOpenRouter: the first system message's last text part gets the mark. */
    static void markSystemPrompt(ArrayNode messages, String ttl) {
        ObjectNode system = null;
        for (JsonNode message : messages) {
            if (message.isObject() && "system".equals(message.path("role").asText(null))) {
                system = (ObjectNode) message;
                break;
            }
        }
        if (system == null || tankard.json.Js.truthy(system.get("cache_control"))) {
            return;
        }
        JsonNode content = system.get("content");
        if (content != null && content.isArray()) {
            for (JsonNode part : content) {
                if (tankard.json.Js.truthy(part.get("cache_control"))) {
                    return;
                }
            }
            for (int i = content.size() - 1; i >= 0; i--) {
                if ("text".equals(content.get(i).path("type").asText(null))) {
                    ((ObjectNode) content.get(i)).set("cache_control", mark(ttl));
                    return;
                }
            }
        } else if (content != null && content.isTextual()) {
            system.set("content", textPart(content.textValue(), ttl));
        }
    }

    /**
     * ST's cachingAtDepthForOpenRouterClaude: from the end, past the prefill and not counting system messages,
     * each role switch is one deeper; the messages at the depth and two deeper get the mark.
     */
    static void markAtDepth(ArrayNode messages, int cachingAtDepth, String ttl) {
        boolean passedThePrefill = false;
        int depth = 0;
        String previousRole = "";
        for (int i = messages.size() - 1; i >= 0; i--) {
            ObjectNode message = (ObjectNode) messages.get(i);
            String role = message.path("role").asText(null);
            if (!passedThePrefill && "assistant".equals(role)) {
                continue;
            }
            passedThePrefill = true;
            if ("system".equals(role) || java.util.Objects.equals(role, previousRole)) {
                continue;
            }
            if (depth == cachingAtDepth || depth == cachingAtDepth + 2) {
                JsonNode content = message.get("content");
                if (content != null && content.isTextual()) {
                    message.set("content", textPart(content.textValue(), ttl));
                } else if (content != null && content.isArray() && !content.isEmpty()) {
                    ((ObjectNode) content.get(content.size() - 1)).set("cache_control", mark(ttl));
                }
            }
            if (depth == cachingAtDepth + 2) {
                break;
            }
            depth++;
            previousRole = role;
        }
    }

    private static ArrayNode textPart(String text, String ttl) {
        ArrayNode parts = JsJson.array();
        parts.addObject().put("type", "text").put("text", text).set("cache_control", mark(ttl));
        return parts;
    }

    private static ObjectNode mark(String ttl) {
        ObjectNode mark = JsJson.object().put("type", "ephemeral");
        return ttl == null ? mark : mark.put("ttl", ttl);
    }
}
