package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;

/**
 * A JSONL upload ({@code file_type=jsonl}): an ST chat, or Chub's variant whose {@code mes} and {@code swipes}
 * entries may be objects carrying the text in {@code message}. As in ST, every line that parses to a truthy
 * value is flattened and written compactly, other lines are kept as they are, and when that changes nothing
 * the upload itself is the result (byte for byte).
 */
final class StJsonlChat {
    private StJsonlChat() {
    }

    /**
     * Writes the chat for the upload into the draft, a line at a time (only the longest line is ever held):
     * the upload's own bytes when nothing changes.
     */
    static void convert(Path upload, ChatStore.Draft draft) throws IOException {
        OutputStream out = draft.out();
        try (InputStream in = Files.newInputStream(upload)) {
            byte[] buffer = new byte[1 << 16];
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean first = true;
            for (int n; (n = in.read(buffer)) >= 0; ) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] == '\n') {
                        line.write(buffer, start, i - start);
                        if (!convertLine(line.toByteArray(), first, out)) {
                            copy(upload, draft);
                            return;
                        }
                        out.write('\n');
                        line.reset();
                        first = false;
                        start = i + 1;
                    }
                }
                line.write(buffer, start, n - start);
            }
            if (!convertLine(line.toByteArray(), first, out)) {
                copy(upload, draft);
            }
        }
    }

    /** Writes one line as ST would; false when ST would give up flattening (and keep the upload as it is). */
    private static boolean convertLine(byte[] bytes, boolean header, OutputStream out) throws IOException {
        String line = ImportedChat.utf8(bytes, 0, bytes.length);
        JsonNode value = ImportedChat.parse(line);
        if (header) {
            checkHeader(value);
        }
        String converted;
        try {
            converted = Js.truthy(value) ? JsJson.compact(flatten(value)) : line;
        } catch (NullSwipeException e) {
            return false;
        }
        out.write(converted.equals(line) ? bytes : converted.getBytes(StandardCharsets.UTF_8));
        return true;
    }

    private static void copy(Path upload, ChatStore.Draft draft) throws IOException {
        draft.restart();
        Files.copy(upload, draft.out());
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
