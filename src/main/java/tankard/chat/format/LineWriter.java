package tankard.chat.format;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes a chat's lines as ST writes a chat, {@code lines.map(JSON.stringify).join('\n')}: LF between lines and
 * none after the last (src/endpoints/chats.js, trySaveChat and the importers).
 */
public final class LineWriter {
    private final OutputStream out;
    private long lines;

    public LineWriter(OutputStream out) {
        this.out = out;
    }

    /** Writes {@code bytes[from, to)}, already as ST prints the line, as the next line. */
    public void line(byte[] bytes, int from, int to) throws IOException {
        if (lines++ > 0) {
            out.write('\n');
        }
        out.write(bytes, from, to - from);
    }

    public void line(byte[] bytes) throws IOException {
        line(bytes, 0, bytes.length);
    }

    /** How many lines were written. */
    public long lines() {
        return lines;
    }

    /**
     * A value read from JSON as ST stores it, {@code JSON.stringify} of what {@code JSON.parse} made of it: every
     * number a double.
     */
    public static byte[] stringify(JsonNode value) {
        return JsJson.stringifyAsJs(value).getBytes(StandardCharsets.UTF_8);
    }

    /** A chat made here (an import), each line compact with its numbers as they are. */
    public static byte[] jsonl(List<? extends JsonNode> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < lines.size(); i++) {
            if (i > 0) {
                out.write('\n');
            }
            out.writeBytes(JsJson.compactBytes(lines.get(i)));
        }
        return out.toByteArray();
    }
}
