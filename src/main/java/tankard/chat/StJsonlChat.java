package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A JSONL upload ({@code file_type=jsonl}): an ST chat, or Chub's variant whose {@code mes} and {@code swipes}
 * entries may be objects carrying the text in {@code message}. As in ST, every line that parses to a truthy
 * value is flattened and written compactly, other lines are kept as they are, and when that changes nothing
 * the upload itself is the result.
 */
final class StJsonlChat {
    private StJsonlChat() {
    }

    /** The chat file to write for the upload. */
    static byte[] convert(byte[] upload) {
        ByteArrayOutputStream rewritten = null; // created at the first line that changes
        int start = 0;
        for (int end = 0; end <= upload.length; end++) {
            if (end < upload.length && upload[end] != '\n') {
                continue;
            }
            String line = ImportedChat.utf8(upload, start, end - start);
            JsonNode value = ImportedChat.parse(line);
            if (start == 0) {
                checkHeader(value);
            }
            String converted;
            try {
                converted = Js.truthy(value) ? JsJson.compact(flatten(value)) : line;
            } catch (NullSwipeException e) {
                return upload; // ST gives up flattening and keeps the upload as it is
            }
            if (rewritten != null) {
                rewritten.write('\n');
                rewritten.writeBytes(converted.getBytes(StandardCharsets.UTF_8));
            } else if (!converted.equals(line)) {
                rewritten = new ByteArrayOutputStream(upload.length);
                rewritten.write(upload, 0, start); // the unchanged lines before, with their separators
                rewritten.writeBytes(converted.getBytes(StandardCharsets.UTF_8));
            }
            start = end + 1;
        }
        return rewritten == null ? upload : rewritten.toByteArray();
    }

    /** ST's test that the upload is a chat: a first line with {@code user_name}, {@code name} or {@code chat_metadata}. */
    private static void checkHeader(JsonNode header) {
        if (header == null || !header.isObject()
                || !(header.has("user_name") || header.has("name") || header.has("chat_metadata"))) {
            throw new ChatImportException("The first line is not a chat header");
        }
    }

    private static JsonNode flatten(JsonNode value) {
        if (!value.isObject()) {
            return value;
        }
        ObjectNode line = (ObjectNode) value;
        JsonNode mes = line.get("mes");
        if (mes != null && mes.isObject() && Js.truthy(mes.get("message"))) {
            line.set("mes", mes.get("message"));
        }
        if (line.get("swipes") instanceof ArrayNode swipes) {
            for (int i = 0; i < swipes.size(); i++) {
                JsonNode swipe = swipes.get(i);
                if (swipe.isNull()) {
                    throw new NullSwipeException();
                }
                if (swipe.isObject() && Js.truthy(swipe.get("message"))) {
                    swipes.set(i, swipe.get("message"));
                }
            }
        }
        return line;
    }

    /** ST reads {@code swipe.message} of a null swipe, which throws and abandons the flattening. */
    private static final class NullSwipeException extends RuntimeException {
        NullSwipeException() {
            super(null, null, false, false);
        }
    }
}
