package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The reply's text in what a generate route answers, as ST's frontend reads it: a whole answer
 * (public/script.js extractMessageFromData) and a stream's events (public/scripts/openai.js getStreamingReply,
 * public/scripts/textgen-settings.js generateTextGenWithStreaming). Thoughts are left out, as with
 * {@code show_thoughts} off.
 */
final class ReplyText {
    private ReplyText() {
    }

    /** extractMessageFromData for chat completion ("openai") or text completion. */
    static String whole(boolean chatCompletion, JsonNode data) {
        if (data == null) {
            return "";
        }
        if (data.isTextual()) {
            return data.textValue();
        }
        JsonNode choice = data.path("choices").path(0);
        if (chatCompletion) {
            if (data.path("content").isArray()) {
                List<String> texts = new ArrayList<>();
                data.get("content").forEach(part -> {
                    if ("text".equals(part.path("type").asText())) {
                        texts.add(text(part.get("text")));
                    }
                });
                return String.join("\n\n", texts);
            }
            return first(choice.path("message").get("content"), choice.get("text"), data.get("text"),
                    data.path("message").path("content").path(0).get("text"), data.path("message").get("tool_plan"));
        }
        return first(choice.get("text"), choice.path("message").get("content"), data.get("content"),
                data.get("response"), data.path(0).get("content"));
    }

    /** getStreamingReply's text of one event for the chat completion source (null: text completion). */
    static String delta(String source, JsonNode data) {
        if (source == null) {
            return or(data.path("choices").path(0).get("text"), data.get("content"));
        }
        return switch (source) {
            case "claude" -> or(data.path("delta").get("text"), null);
            case "makersuite", "vertexai" -> {
                for (JsonNode part : data.path("candidates").path(0).path("content").path("parts")) {
                    if (!Js.truthy(part.get("thought"))) {
                        yield or(part.get("text"), null);
                    }
                }
                yield "";
            }
            case "cohere" -> or(data.path("delta").path("message").path("content").get("text"),
                    data.path("delta").path("message").get("tool_plan"));
            case "deepseek", "xai" -> or(data.path("choices").path(0).path("delta").get("content"), null);
            default -> {
                JsonNode choice = data.path("choices").path(0);
                yield first(choice.path("delta").get("content"), choice.path("message").get("content"),
                        choice.get("text"));
            }
        };
    }

    /**
     * Reads server-sent events as they arrive, a chunk at a time, and adds up their texts; events may be cut
     * anywhere between chunks.
     */
    static final class Stream {
        private final String source;
        private final StringBuilder text = new StringBuilder();
        private byte[] partial = new byte[0];

        /** @param source the chat completion source, or null for text completion */
        Stream(String source) {
            this.source = source;
        }

        void feed(byte[] chunk) {
            byte[] bytes = new byte[partial.length + chunk.length];
            System.arraycopy(partial, 0, bytes, 0, partial.length);
            System.arraycopy(chunk, 0, bytes, partial.length, chunk.length);
            int start = 0;
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] == '\n') {
                    event(new String(bytes, start, i - start, StandardCharsets.UTF_8).strip());
                    start = i + 1;
                }
            }
            partial = java.util.Arrays.copyOfRange(bytes, start, bytes.length);
        }

        private void event(String line) {
            if (!line.startsWith("data:")) {
                return;
            }
            String data = line.substring(5).strip();
            if (data.equals("[DONE]")) {
                return;
            }
            JsonNode json = JsJson.tryParse(data.getBytes(StandardCharsets.UTF_8));
            if (json != null) {
                text.append(delta(source, json));
            }
        }

        String text() {
            return text.toString();
        }
    }

    /** JavaScript's {@code a || b}, as text. */
    private static String or(JsonNode a, JsonNode b) {
        return Js.truthy(a) ? text(a) : Js.truthy(b) ? text(b) : "";
    }

    /** JavaScript's {@code a ?? b ?? …}, as text. */
    private static String first(JsonNode... values) {
        for (JsonNode value : values) {
            if (value != null && !value.isNull() && !value.isMissingNode()) {
                return text(value);
            }
        }
        return "";
    }

    private static String text(JsonNode value) {
        return value == null || value.isNull() || value.isMissingNode() ? "" : Js.string(value);
    }
}
