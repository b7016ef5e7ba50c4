package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ST's convertGooglePrompt (src/prompt-converters.js): OpenAI-style messages as Gemini's {@code contents} (roles
 * user and model, consecutive same-role turns merged) and the leading system messages as its system instruction.
 */
final class GooglePrompt {
    private static final String SKIP_SIGNATURE = "skip_thought_signature_validator";
    private static final Pattern DATA_MIME = Pattern.compile("data:([^;]+)");

    private GooglePrompt() {
    }

    /** Gemini's turns and the system instruction ({@code {parts: [{text}...]}}). */
    record Converted(ArrayNode contents, ObjectNode systemInstruction) {
    }

    static Converted convert(JsonNode input, String model, boolean useSysPrompt, PromptNames names) {
        List<ObjectNode> messages = new ArrayList<>();
        input.forEach(message -> messages.add((ObjectNode) message.deepCopy()));
        ObjectNode systemInstruction = JsJson.object();
        ArrayNode systemParts = systemInstruction.putArray("parts");
        if (useSysPrompt) {
            while (messages.size() > 1 && "system".equals(Js.string(messages.get(0).get("role")))) {
                ObjectNode message = messages.remove(0);
                names.prefixExample(message);
                DedicatedSenders.copy(message, "content", systemParts.addObject(), "text");
            }
        }
        boolean gemini3 = model.contains("gemini-3");
        Map<String, String> toolNames = new HashMap<>();
        ArrayNode contents = JsJson.array();
        for (int index = 0; index < messages.size(); index++) {
            ObjectNode message = messages.get(index);
            String role = switch (Js.string(message.get("role"))) {
                case "system", "tool" -> "user";
                case "assistant" -> "model";
                default -> Js.string(message.get("role"));
            };
            ArrayNode parts = parts(message, model, gemini3, names, toolNames);
            signatures(message, role, parts, model, gemini3);
            ObjectNode last = contents.isEmpty() ? null : (ObjectNode) contents.get(contents.size() - 1);
            if (index > 0 && last != null && role.equals(Js.string(last.get("role")))) {
                merge((ArrayNode) last.get("parts"), parts);
            } else {
                ObjectNode content = contents.addObject().put("role", role);
                content.set("parts", parts);
            }
        }
        return new Converted(contents, systemInstruction);
    }

    /** The message's content as Gemini parts, names prefixed to its text. */
    private static ArrayNode parts(ObjectNode message, String model, boolean gemini3, PromptNames names,
                                   Map<String, String> toolNames) {
        JsonNode content = message.get("content");
        List<JsonNode> source = new ArrayList<>();
        if (content != null && content.isArray()) {
            content.forEach(part -> source.add(part.deepCopy()));
        } else {
            JsonNode toolCalls = message.get("tool_calls");
            JsonNode toolCallId = message.get("tool_call_id");
            String text = content == null || content.isNull() ? "" : Js.string(content);
            if (toolCalls != null && toolCalls.isArray() && !toolCalls.isEmpty()) {
                source.add(JsJson.object().put("type", "tool_calls").set("tool_calls", toolCalls));
            } else if (toolCallId != null && toolCallId.isTextual() && !toolCallId.textValue().isEmpty()) {
                source.add(JsJson.object().put("type", "tool_call_id").put("tool_call_id", toolCallId.textValue())
                        .put("content", text));
            } else {
                source.add(JsJson.object().put("type", "text").put("text", text));
            }
        }
        JsonNode name = message.get("name");
        if (Js.truthy(name)) {
            String speaker = Js.string(name);
            for (JsonNode part : source) {
                if ("text".equals(part.path("type").asText(null))) {
                    String text = Js.string(part.get("text"));
                    boolean example = speaker.equals("example_user") || speaker.equals("example_assistant");
                    String named = example ? names.exampleText(speaker, text)
                            : text.startsWith(speaker + ": ") ? text : speaker + ": " + text;
                    ((ObjectNode) part).put("text", named);
                }
            }
        }
        ArrayNode parts = JsJson.array();
        for (JsonNode part : source) {
            switch (part.path("type").asText("")) {
                case "text" -> DedicatedSenders.copy(part, "text", parts.addObject(), "text");
                case "tool_call_id" -> {
                    String tool = toolNames.getOrDefault(part.get("tool_call_id").textValue(), "unknown");
                    ObjectNode response = parts.addObject().putObject("functionResponse").put("name", tool);
                    response.putObject("response").put("name", tool).set("content", part.get("content"));
                }
                case "tool_calls" -> part.get("tool_calls").forEach(call -> {
                    JsonNode function = call.path("function");
                    ObjectNode functionCall = parts.addObject();
                    ObjectNode body = functionCall.putObject("functionCall");
                    DedicatedSenders.copy(function, "name", body, "name");
                    JsonNode arguments = function.get("arguments");
                    JsonNode parsed = arguments != null && arguments.isTextual()
                            ? JsJson.tryParse(arguments.textValue().getBytes(StandardCharsets.UTF_8))
                            : null;
                    if (parsed != null && !parsed.isNull()) {
                        body.set("args", parsed);
                    } else if (arguments != null) {
                        body.set("args", arguments);
                    }
                    if (Js.truthy(call.get("signature"))) {
                        functionCall.set("thoughtSignature", call.get("signature"));
                    }
                    toolNames.put(Js.string(call.get("id")), Js.string(function.get("name")));
                });
                case "image_url" -> media(parts, part.path("image_url"), "image/png", true, gemini3);
                case "video_url" -> media(parts, part.path("video_url"), "video/mp4", true, gemini3);
                case "audio_url" -> media(parts, part.path("audio_url"), "audio/mpeg", false, gemini3);
                default -> { }
            }
        }
        return parts;
    }

    private static void media(ArrayNode parts, JsonNode media, String defaultMime, boolean hasDetail,
                              boolean gemini3) {
        String url = media.path("url").isTextual() ? media.get("url").textValue() : "";
        if (!url.startsWith("data:")) {
            return;
        }
        String[] pieces = url.split(",", -1);
        Matcher mime = DATA_MIME.matcher(pieces[0]);
        ObjectNode part = parts.addObject();
        ObjectNode inline = part.putObject("inlineData").put("mimeType", mime.find() ? mime.group(1) : defaultMime);
        if (pieces.length > 1) {
            inline.put("data", pieces[1]);
        }
        String detail = hasDetail ? media.path("detail").asText("") : "";
        if (gemini3 && (detail.equals("low") || detail.equals("high"))) {
            part.putObject("mediaResolution").put("level", "media_resolution_" + detail);
        }
    }

    /** Stored thought signatures on text parts, or Gemini 3's validator bypass where one is required. */
    private static void signatures(ObjectNode message, String role, ArrayNode parts, String model, boolean gemini3) {
        if (!gemini3 && !model.contains("gemini-2.5")) {
            return;
        }
        JsonNode signature = message.get("signature");
        boolean image = model.contains("-image");
        for (JsonNode node : parts) {
            ObjectNode part = (ObjectNode) node;
            boolean text = part.path("text").isTextual();
            if (Js.truthy(signature) && text) {
                part.set("thoughtSignature", signature);
            } else if (gemini3) {
                if (part.has("functionCall") && !Js.truthy(part.get("thoughtSignature"))) {
                    part.put("thoughtSignature", SKIP_SIGNATURE);
                }
                if (image && "model".equals(role) && (text || part.has("inlineData"))) {
                    part.put("thoughtSignature", SKIP_SIGNATURE);
                }
            }
        }
    }

    /** Merges a turn into the previous same-role one: text appended to its first text part, the rest pushed. */
    private static void merge(ArrayNode into, ArrayNode parts) {
        for (JsonNode part : parts) {
            if (Js.truthy(part.get("text"))) {
                ObjectNode textPart = null;
                for (JsonNode existing : into) {
                    if (existing.path("text").isTextual()) {
                        textPart = (ObjectNode) existing;
                        break;
                    }
                }
                if (textPart != null) {
                    textPart.put("text", textPart.get("text").textValue() + "\n\n" + Js.string(part.get("text")));
                } else {
                    into.add(part);
                }
            }
            if (Js.truthy(part.get("inlineData")) || Js.truthy(part.get("functionCall"))
                    || Js.truthy(part.get("functionResponse")) || Js.truthy(part.get("thoughtSignature"))
                    || Js.truthy(part.get("mediaResolution"))) {
                into.add(part);
            }
        }
    }
}
