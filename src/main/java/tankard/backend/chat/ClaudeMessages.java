package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;

/**
 * ST's convertClaudeMessages (src/prompt-converters.js): OpenAI-style messages as Anthropic's Messages API takes
 * them, the leading system messages lifted into the system prompt, strictly alternating content-block turns;
 * and its caching at depth (cachingAtDepthForClaude).
 */
final class ClaudeMessages {
    private ClaudeMessages() {
    }

    /** The converted turns and the system prompt blocks (empty unless the system prompt is used). */
    record Converted(ArrayNode messages, ArrayNode system) {
    }

    /** @param placeholder the user turn put in when the system prompt took every message (config promptPlaceholder) */
    static Converted convert(JsonNode input, String prefill, boolean useSysPrompt, boolean useTools,
                             PromptNames names, String placeholder) {
        List<ObjectNode> messages = new ArrayList<>();
        input.forEach(message -> messages.add((ObjectNode) message.deepCopy()));
        ArrayNode system = JsJson.array();
        if (useSysPrompt) {
            while (!messages.isEmpty() && "system".equals(role(messages.get(0)))) {
                ObjectNode message = messages.remove(0);
                names.prefixExample(message);
                DedicatedSenders.copy(message, "content", system.addObject().put("type", "text"), "text");
            }
            if (messages.isEmpty()) {
                messages.add(textMessage("user", placeholder));
            }
        }
        messages.forEach(message -> toBlocks(message, names));
        moveAssistantImages(messages);
        if (prefill != null && !prefill.isEmpty()) {
            ObjectNode assistant = JsJson.object().put("role", "assistant");
            assistant.putArray("content").addObject().put("type", "text").put("text", Js.trimEnd(prefill));
            messages.add(assistant);
        }
        ArrayNode merged = JsJson.array();
        for (ObjectNode message : messages) {
            JsonNode last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last.path("role").equals(message.path("role"))) {
                ((ArrayNode) last.get("content")).addAll((ArrayNode) message.get("content"));
            } else {
                merged.add(message);
            }
        }
        if (!useTools) {
            merged.forEach(message -> message.get("content").forEach(ClaudeMessages::toolBlockAsText));
        }
        return new Converted(merged, system);
    }

    private static void toBlocks(ObjectNode message, PromptNames names) {
        JsonNode toolCalls = message.get("tool_calls");
        if ("assistant".equals(role(message)) && Js.truthy(toolCalls)) {
            ArrayNode uses = JsJson.array();
            toolCalls.forEach(call -> {
                JsonNode arguments = call.path("function").get("arguments");
                ObjectNode use = uses.addObject().put("type", "tool_use");
                DedicatedSenders.copy(call, "id", use, "id");
                DedicatedSenders.copy(call.path("function"), "name", use, "name");
                if (arguments != null) {
                    use.set("input", arguments.isTextual() ? JsJson.parse(arguments.textValue()) : arguments);
                }
            });
            message.set("content", uses);
        }
        if ("tool".equals(role(message))) {
            message.put("role", "user");
            ObjectNode result = JsJson.object().put("type", "tool_result");
            DedicatedSenders.copy(message, "tool_call_id", result, "tool_use_id");
            DedicatedSenders.copy(message, "content", result, "content");
            message.set("content", JsJson.array().add(result));
        }
        if ("system".equals(role(message))) {
            names.prefixExample(message);
            message.put("role", "user");
            message.remove("name");
        }
        JsonNode name = message.get("name");
        String prefix = Js.truthy(name) ? Js.string(name) + ": " : "";
        JsonNode content = message.get("content");
        if (content != null && content.isTextual()) {
            ArrayNode blocks = JsJson.array();
            blocks.addObject().put("type", "text").put("text", prefix + content.textValue());
            message.set("content", blocks);
        } else if (content != null && content.isArray()) {
            ArrayNode blocks = JsJson.array();
            content.forEach(part -> blocks.add(block(part, prefix)));
            message.set("content", blocks);
        }
        message.remove(List.of("name", "tool_calls", "tool_call_id"));
    }

    private static JsonNode block(JsonNode part, String namePrefix) {
        String type = part.path("type").asText(null);
        if ("image_url".equals(type)) {
            String url = part.path("image_url").path("url").asText(null);
            ObjectNode source = JsJson.object().put("type", "base64");
            if (url != null) {
                String[] header = url.split(";", -1)[0].split(":", -1);
                if (header.length > 1) {
                    source.put("media_type", header[1]);
                }
                String[] data = url.split(",", -1);
                if (data.length > 1) {
                    source.put("data", data[1]);
                }
            }
            ObjectNode image = JsJson.object().put("type", "image");
            image.set("source", source);
            return image;
        }
        if ("text".equals(type)) {
            String text = namePrefix + (namePrefix.isEmpty() ? textOf(part) : Js.string(part.get("text")));
            return JsJson.object().put("type", "text").put("text", text.isEmpty() ? "\u200b" : text);
        }
        return part;
    }

    /** A text part's text as JavaScript's {@code text || ...} sees it: absent or null is empty. */
    private static String textOf(JsonNode part) {
        JsonNode text = part.get("text");
        return Js.truthy(text) ? Js.string(text) : "";
    }

    /** Images in assistant turns go to the next user turn, which is made if there is none (ST's index quirk kept). */
    private static void moveAssistantImages(List<ObjectNode> messages) {
        for (int i = 0; i < messages.size(); i++) {
            ObjectNode message = messages.get(i);
            if (!"assistant".equals(role(message)) || !hasImage(message.get("content"))) {
                continue;
            }
            int j = i + 1;
            while (j < messages.size() && !"user".equals(role(messages.get(j)))) {
                j++;
            }
            if (j >= messages.size()) {
                ObjectNode user = JsJson.object().put("role", "user");
                user.putArray("content");
                messages.add(i + 1, user);
            }
            ArrayNode kept = JsJson.array();
            ArrayNode target = (ArrayNode) messages.get(j).get("content");
            message.get("content").forEach(block -> (isImage(block) ? target : kept).add(block));
            message.set("content", kept);
        }
    }

    private static boolean hasImage(JsonNode content) {
        for (JsonNode block : content) {
            if (isImage(block)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isImage(JsonNode block) {
        return "image".equals(block.path("type").asText(null));
    }

    private static void toolBlockAsText(JsonNode node) {
        ObjectNode block = (ObjectNode) node;
        String type = block.path("type").asText(null);
        if ("tool_use".equals(type)) {
            JsonNode input = block.get("input");
            block.put("type", "text");
            if (input == null) {
                block.remove("text");
            } else {
                block.put("text", JsJson.compact(input));
            }
            block.remove(List.of("id", "name", "input"));
        } else if ("tool_result".equals(type)) {
            block.put("type", "text");
            DedicatedSenders.copy(block, "content", block, "text");
            block.remove(List.of("tool_use_id", "content"));
        }
    }

    /**
     * ST's cachingAtDepthForClaude: walking back from the end past the prefill, the last block of the turn at
     * role-switch depth {@code depth} and {@code depth + 2} gets an ephemeral cache_control.
     */
    static void cacheAtDepth(ArrayNode messages, int depth, String ttl) {
        boolean passedPrefill = false;
        int current = 0;
        String previousRole = "";
        for (int i = messages.size() - 1; i >= 0; i--) {
            String role = role(messages.get(i));
            if (!passedPrefill && "assistant".equals(role)) {
                continue;
            }
            passedPrefill = true;
            if (!role.equals(previousRole)) {
                if (current == depth || current == depth + 2) {
                    JsonNode content = messages.get(i).get("content");
                    ((ObjectNode) content.get(content.size() - 1)).set("cache_control",
                            JsJson.object().put("type", "ephemeral").put("ttl", ttl));
                }
                if (current == depth + 2) {
                    break;
                }
                current++;
                previousRole = role;
            }
        }
    }

    private static String role(JsonNode message) {
        return Js.string(message.get("role"));
    }

    private static ObjectNode textMessage(String role, String content) {
        return JsJson.object().put("role", role).put("content", content);
    }
}
