package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * ST's prompt converters for the OpenAI-shaped sources (src/prompt-converters.js): {@code postProcessPrompt} and its
 * {@code mergeMessages}, and the Mistral, xAI and AI21 conversions. They change the messages in place, as ST's do.
 */
final class PromptConverters {
    /** The processing types of {@code custom_prompt_post_processing} and the merge flags each one sets. */
    private static final Map<String, Flags> PROCESSING = Map.of(
            "merge", new Flags(false, false, false, false),
            "claude", new Flags(false, false, false, false),
            "merge_tools", new Flags(false, false, false, true),
            "semi", new Flags(true, false, false, false),
            "semi_tools", new Flags(true, false, false, true),
            "strict", new Flags(true, true, false, false),
            "strict_tools", new Flags(true, true, false, true),
            "single", new Flags(true, false, true, false));
    private static final Set<String> MEDIA_PARTS = Set.of("image_url", "video_url", "audio_url");
    private static final SecureRandom RANDOM = new SecureRandom();

    private record Flags(boolean strict, boolean placeholders, boolean single, boolean tools) {
    }

    private final String placeholder;

    /** @param placeholder the user message put where a prompt would otherwise be empty (config promptPlaceholder) */
    PromptConverters(String placeholder) {
        this.placeholder = placeholder;
    }

    static boolean isProcessingType(String type) {
        return PROCESSING.containsKey(type);
    }

    /** ST's postProcessPrompt: the merge for that type, or the messages unchanged for any other type. */
    ArrayNode postProcess(ArrayNode messages, String type, PromptNames names) {
        Flags flags = PROCESSING.get(type);
        return flags == null ? messages : merge(messages, names, flags);
    }

    private ArrayNode merge(ArrayNode messages, PromptNames names, Flags flags) {
        Map<String, JsonNode> media = new LinkedHashMap<>();
        for (JsonNode node : messages) {
            ObjectNode message = (ObjectNode) node;
            if (!Js.truthy(message.get("content"))) {
                message.put("content", "");
            }
            if (message.get("content").isArray()) {
                message.put("content", flatten((ArrayNode) message.get("content"), media));
            }
            String content = Js.string(message.get("content"));
            String role = message.path("role").asText(null);
            JsonNode name = message.get("name");
            content = prefixExampleName(content, role, name, names);
            if (Js.truthy(name) && !"system".equals(role) && !content.startsWith(Js.string(name) + ": ")) {
                content = Js.string(name) + ": " + content;
            }
            if ("tool".equals(role) && !flags.tools()) {
                role = "user";
                message.put("role", role);
            }
            if (flags.single()) {
                if ("assistant".equals(role) && names.needsCharPrefix(content)) {
                    content = names.charName() + ": " + content;
                }
                if ("user".equals(role) && names.needsUserPrefix(content)) {
                    content = names.userName() + ": " + content;
                }
                message.put("role", "user");
            }
            message.put("content", content);
            message.remove("name");
            if (!flags.tools()) {
                message.remove("tool_calls");
                message.remove("tool_call_id");
            }
        }
        ArrayNode merged = JsJson.array();
        for (JsonNode node : messages) {
            ObjectNode previous = merged.isEmpty() ? null : (ObjectNode) merged.get(merged.size() - 1);
            String content = node.get("content").textValue();
            if (previous != null && Objects.equals(previous.get("role"), node.get("role")) && !content.isEmpty()
                    && !"tool".equals(node.path("role").asText(null))) {
                previous.put("content", previous.get("content").textValue() + "\n\n" + content);
            } else {
                merged.add(node);
            }
        }
        if (merged.isEmpty()) {
            merged.add(userPlaceholder());
        }
        if (!media.isEmpty()) {
            merged.forEach(message -> restoreMedia((ObjectNode) message, media));
        }
        if (!flags.strict()) {
            return merged;
        }
        for (int i = 1; i < merged.size(); i++) {
            if ("system".equals(merged.get(i).path("role").asText(null))) {
                ((ObjectNode) merged.get(i)).put("role", "user");
            }
        }
        if (!merged.isEmpty() && flags.placeholders()) {
            String first = merged.get(0).path("role").asText(null);
            if ("system".equals(first) && (merged.size() == 1 || !"user".equals(merged.get(1).path("role").asText(null)))) {
                merged.insert(1, userPlaceholder());
            } else if (!"system".equals(first) && !"user".equals(first)) {
                merged.insert(0, userPlaceholder());
            }
        }
        return merge(merged, names, new Flags(false, flags.placeholders(), false, flags.tools()));
    }

    /** Text parts as text, media parts as unique tokens remembered for later, all joined by blank lines. */
    private static String flatten(ArrayNode parts, Map<String, JsonNode> media) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < parts.size(); i++) {
            JsonNode part = parts.get(i);
            String type = part.path("type").asText(null);
            if (i > 0) {
                text.append("\n\n");
            }
            if ("text".equals(type)) {
                JsonNode value = part.get("text");
                text.append(value == null || value.isNull() ? "" : Js.string(value));
            } else if (MEDIA_PARTS.contains(type)) {
                byte[] bytes = new byte[32];
                RANDOM.nextBytes(bytes);
                String token = Base64.getEncoder().encodeToString(bytes);
                media.put(token, part);
                text.append(token);
            }
        }
        return text.toString();
    }

    /** A message holding media tokens gets its parts back: each token its media part, text between as text parts. */
    private static void restoreMedia(ObjectNode message, Map<String, JsonNode> media) {
        String content = message.get("content").textValue();
        if (media.keySet().stream().noneMatch(content::contains)) {
            return;
        }
        ArrayNode parts = JsJson.array();
        for (String piece : content.split("\n\n", -1)) {
            JsonNode part = media.get(piece);
            JsonNode last = parts.isEmpty() ? null : parts.get(parts.size() - 1);
            if (part != null) {
                parts.add(part);
            } else if (last != null && "text".equals(last.path("type").asText(null))) {
                ((ObjectNode) last).put("text", Js.string(last.get("text")) + "\n\n" + piece);
            } else {
                parts.addObject().put("type", "text").put("text", piece);
            }
        }
        message.set("content", parts);
    }

    /** Example dialogue is sent as system messages named example_user/example_assistant: they get the speaker. */
    private static String prefixExampleName(String content, String role, JsonNode name, PromptNames names) {
        return "system".equals(role) && name != null ? names.exampleText(name.asText(), content) : content;
    }

    private ObjectNode userPlaceholder() {
        return JsJson.object().put("role", "user").put("content", placeholder);
    }

    /** ST's convertMistralMessages; with {@code prefix} (config mistral.enablePrefix) a final assistant message leads the reply. */
    static ArrayNode mistral(ArrayNode messages, PromptNames names, boolean prefix) {
        if (prefix && !messages.isEmpty() && hasRole(messages.get(messages.size() - 1), "assistant")) {
            ((ObjectNode) messages.get(messages.size() - 1)).put("prefix", true);
        }
        for (JsonNode node : messages) {
            ObjectNode message = (ObjectNode) node;
            String role = message.path("role").asText(null);
            if (message.path("tool_calls").isArray()) {
                message.get("tool_calls").forEach(call -> ((ObjectNode) call).put("id", toolId(call.get("id"))));
            }
            if (message.has("tool_call_id") && "tool".equals(role)) {
                message.put("tool_call_id", toolId(message.get("tool_call_id")));
            }
            JsonNode name = message.get("name");
            if ("system".equals(role) && name != null
                    && Set.of("example_assistant", "example_user").contains(name.asText())) {
                message.put("content", prefixExampleName(Js.string(message.get("content")), role, name, names));
                message.remove("name");
                continue;
            }
            String content = Js.string(message.get("content"));
            if (Js.truthy(name) && !"system".equals(role) && !content.startsWith(Js.string(name) + ": ")) {
                message.put("content", Js.string(name) + ": " + content);
                message.remove("name");
            }
        }
        for (boolean rerun = true; rerun; ) {
            rerun = false;
            for (int i = 0; i < messages.size() - 1; i++) {
                if (hasRole(messages.get(i), "tool") && hasRole(messages.get(i + 1), "user")) {
                    int lastUser = -1;
                    for (int j = i - 1; j >= 0 && lastUser < 0; j--) {
                        if (hasRole(messages.get(j), "user") && Js.truthy(messages.get(j).get("content"))) {
                            lastUser = j;
                        }
                    }
                    if (lastUser >= 0) {
                        ObjectNode target = (ObjectNode) messages.get(lastUser);
                        target.put("content", Js.string(target.get("content")) + "\n\n"
                                + Js.string(messages.get(i + 1).get("content")));
                        messages.remove(i + 1);
                        rerun = true;
                    }
                }
            }
        }
        for (int i = 0; i < messages.size() - 1; i++) {
            if (hasRole(messages.get(i), "assistant") && hasRole(messages.get(i + 1), "system")) {
                ((ObjectNode) messages.get(i + 1)).put("role", "user");
            }
        }
        return messages;
    }

    /** Mistral wants tool call ids of nine characters: the start of the id's SHA-512. */
    private static String toolId(JsonNode id) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-512").digest(Js.string(id).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 9);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** ST's convertXAIMessages: names become prefixes of assistant and example lines, then go. */
    static ArrayNode xai(ArrayNode messages, PromptNames names) {
        for (JsonNode node : messages) {
            ObjectNode message = (ObjectNode) node;
            String role = message.path("role").asText(null);
            if (!Js.truthy(message.get("name")) || "user".equals(role)) {
                continue;
            }
            String content = Js.string(message.get("content"));
            String name = Js.string(message.get("name"));
            boolean asChar = ("assistant".equals(role) || "system".equals(role) && "example_assistant".equals(name))
                    && names.needsCharPrefix(content);
            boolean exampleUser = "system".equals(role) && "example_user".equals(name);
            if (asChar || exampleUser && names.needsUserPrefix(content)) {
                message.put("content", (exampleUser ? names.userName() : names.charName()) + ": " + content);
            }
            message.remove("name");
        }
        return messages;
    }

    /** ST's convertAI21Messages: the leading system messages as one, names as prefixes, same roles merged. */
    ArrayNode ai21(ArrayNode messages, PromptNames names) {
        StringBuilder system = new StringBuilder();
        int i = 0;
        for (; i < messages.size() && hasRole(messages.get(i), "system"); i++) {
            ObjectNode message = (ObjectNode) messages.get(i);
            String content = prefixExampleName(Js.string(message.get("content")), "system", message.get("name"), names);
            message.put("content", content);
            system.append(content).append("\n\n");
        }
        ArrayNode rest = JsJson.array();
        for (int j = i; j < messages.size(); j++) {
            rest.add(messages.get(j));
        }
        if (rest.isEmpty()) {
            rest.add(userPlaceholder());
        }
        if (!system.isEmpty()) {
            rest.insert(0, JsJson.object().put("role", "system").put("content", system.toString().strip()));
        }
        ArrayNode merged = JsJson.array();
        for (JsonNode node : rest) {
            ObjectNode message = (ObjectNode) node;
            if (message.has("name")) {
                String content = Js.string(message.get("content"));
                String prefix = Js.string(message.get("name")) + ": ";
                if (!hasRole(message, "system") && !content.startsWith(prefix)) {
                    message.put("content", prefix + content);
                }
                message.remove("name");
            }
            ObjectNode previous = merged.isEmpty() ? null : (ObjectNode) merged.get(merged.size() - 1);
            if (previous != null && Objects.equals(previous.get("role"), message.get("role"))) {
                previous.put("content", Js.string(previous.get("content")) + "\n\n" + Js.string(message.get("content")));
            } else {
                merged.add(message);
            }
        }
        return merged;
    }

    /** ST's addAssistantPrefix: a final assistant message is marked as the reply's start when no tools are in play. */
    static void markAssistantPrefix(ArrayNode messages, JsonNode tools, String property) {
        if (messages.isEmpty()) {
            return;
        }
        boolean anyTools = tools != null && tools.isArray() && !tools.isEmpty()
                || java.util.stream.StreamSupport.stream(messages.spliterator(), false)
                        .anyMatch(message -> hasRole(message, "tool"));
        JsonNode last = messages.get(messages.size() - 1);
        if (!anyTools && hasRole(last, "assistant")) {
            ((ObjectNode) last).put(property, true);
        }
    }

    private static boolean hasRole(JsonNode message, String role) {
        return role.equals(message.path("role").asText(null));
    }
}
