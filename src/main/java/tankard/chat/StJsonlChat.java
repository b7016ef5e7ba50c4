package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.chat.format.ChatHeader;
import tankard.chat.format.ChatLines;
import tankard.chat.format.LineWriter;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A JSONL upload ({@code file_type=jsonl}): an ST chat, or Chub's variant whose {@code mes} and {@code swipes}
 * entries may be objects carrying the text in {@code message}. As in ST (src/endpoints/chats.js, the /import
 * route and flattenChubChat), every line that parses to a truthy value is flattened and written compactly, other
 * lines are kept as they are, and when that changes nothing the upload itself is the result (byte for byte).
 */
final class StJsonlChat {
    private StJsonlChat() {
    }

    /**
     * Writes the chat for the upload into the draft, a line at a time (only the longest line is ever held):
     * the upload's own bytes when nothing changes.
     */
    static void convert(Path upload, ChatStore.Draft draft) throws IOException {
        LineWriter out = new LineWriter(draft.out());
        boolean[] flattened = {true};
        try (InputStream in = Files.newInputStream(upload)) {
            ChatLines.split(in, (bytes, from, to) -> {
                flattened[0] = convertLine(bytes, from, to, out);
                return flattened[0];
            });
        }
        if (!flattened[0]) {
            draft.restart();
            Files.copy(upload, draft.out());
        }
    }

    /** Writes one line as ST would; false when ST would give up flattening (and keep the upload as it is). */
    private static boolean convertLine(byte[] bytes, int from, int to, LineWriter out) throws IOException {
        String line = ImportedChat.utf8(bytes, from, to - from);
        JsonNode value = ImportedChat.parse(line);
        if (out.lines() == 0 && !ChatHeader.isHeader(value)) {
            throw new ChatImportException("The first line is not a chat header");
        }
        String converted;
        try {
            converted = Js.truthy(value) ? JsJson.compact(flatten(value)) : line;
        } catch (NullSwipeException e) {
            return false;
        }
        if (converted.equals(line)) {
            out.line(bytes, from, to);
        } else {
            out.line(converted.getBytes(StandardCharsets.UTF_8));
        }
        return true;
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
