package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.ByteScan;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.json.JsRestringify;
import tankard.json.JsonSyntaxException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reading JSONL chats the way ST does: whole-file loads split on LF and keep every line that parses to a
 * truthy value; listings stream the file with Node's line reader (LF, CRLF and CR end a line).
 */
final class ChatLines {
    private ChatLines() {
    }

    /** Receives lines one by one; answers false to stop reading. */
    @FunctionalInterface
    interface LineVisitor {
        boolean visit(byte[] line) throws IOException;
    }

    /**
     * Streams through the chat line by line as Node's line reader does: LF, CRLF and CR end a line, empty lines
     * in between are lines, a break at the very end does not start another one.
     */
    static void forEachLine(InputStream in, LineVisitor visitor) throws IOException {
        ByteArrayOutputStream current = new ByteArrayOutputStream();
        boolean afterCr = false;
        byte[] buffer = new byte[64 * 1024];
        int n;
        while ((n = in.read(buffer)) > 0) {
            int start = 0;
            for (int i = 0; i < n; i++) {
                byte b = buffer[i];
                if (b != '\n' && b != '\r') {
                    afterCr = false;
                    continue;
                }
                boolean crlf = afterCr && b == '\n' && i == start;
                afterCr = b == '\r';
                if (crlf) {
                    start = i + 1;
                    continue;
                }
                current.write(buffer, start, i - start);
                start = i + 1;
                if (!visitor.visit(current.toByteArray())) {
                    return;
                }
                current.reset();
            }
            current.write(buffer, start, n - start);
        }
        if (current.size() > 0) {
            visitor.visit(current.toByteArray());
        }
    }

    /** The first line (up to LF or CR), for the integrity check; empty for an empty file. */
    static byte[] firstLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        byte[] buffer = new byte[8 * 1024];
        int n;
        while ((n = in.read(buffer)) > 0) {
            for (int i = 0; i < n; i++) {
                if (buffer[i] == '\n' || buffer[i] == '\r') {
                    line.write(buffer, 0, i);
                    return line.toByteArray();
                }
            }
            line.write(buffer, 0, n);
        }
        return line.toByteArray();
    }

    /** One line as JSON (invalid UTF-8 read as U+FFFD, like Node), or null when it does not parse. */
    static JsonNode parse(byte[] line) {
        try {
            return JsRestringify.parse(line, 0, line.length);
        } catch (JsonSyntaxException e) {
            return null;
        }
    }

    /**
     * What reading a whole chat found: the lines it served, the non-blank lines ST's loader drops, and whether
     * the file is plain: lines already as ST prints them, LF between them and nothing else, so that its array
     * is the file itself with commas for LFs ({@link #writePlainArray}).
     */
    record Read(long kept, long dropped, boolean plain) {
    }

    /**
     * Streams a chat file out as the JSON array {@code /api/chats/get} answers, holding one line at a time:
     * every LF-separated line that parses to a truthy value, in order, printed as ST re-prints it (a line
     * already in that form is copied as it is). With a null output it only counts.
     */
    static Read writeArray(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[1 << 20];
        int filled = 0;
        long kept = 0;
        long dropped = 0;
        boolean plain = true;
        if (out != null) {
            out.write('[');
        }
        boolean end = false;
        int scanned = 0; // buffer[0, scanned) holds no LF
        while (!end) {
            int n = in.read(buffer, filled, buffer.length - filled);
            end = n < 0;
            filled += Math.max(n, 0);
            int start = 0;
            for (int i = ByteScan.indexOf(buffer, scanned, filled, (byte) '\n'); i < filled;
                 i = ByteScan.indexOf(buffer, i + 1, filled, (byte) '\n')) {
                int line = line(buffer, start, i, kept > 0 ? out : null, out);
                kept += line > 0 ? 1 : 0;
                dropped += line < 0 ? 1 : 0;
                plain &= line == AS_IS;
                start = i + 1;
            }
            if (end && start < filled) {
                int line = line(buffer, start, filled, kept > 0 ? out : null, out);
                kept += line > 0 ? 1 : 0;
                dropped += line < 0 ? 1 : 0;
                plain &= line == AS_IS;
                start = filled;
            }
            System.arraycopy(buffer, start, buffer, 0, filled - start);
            filled -= start;
            scanned = filled;
            if (filled == buffer.length) {
                buffer = Arrays.copyOf(buffer, buffer.length * 2); // one line longer than the buffer
            }
        }
        if (out != null) {
            out.write(']');
        }
        return new Read(kept, dropped, plain && kept > 0);
    }

    /** The array of a plain chat (see {@link Read}): the file with commas for LFs, at the speed of a copy. */
    static void writePlainArray(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[1 << 16];
        out.write('[');
        for (int n; (n = in.read(buffer)) >= 0; ) {
            for (int i = ByteScan.indexOf(buffer, 0, n, (byte) '\n'); i < n; i = ByteScan.indexOf(buffer, i + 1, n, (byte) '\n')) {
                buffer[i] = ',';
            }
            out.write(buffer, 0, n);
        }
        out.write(']');
    }

    private static final int AS_IS = 2;

    /**
     * One line: written (after a comma when {@code comma} is given) and {@link #AS_IS} when it is kept as it
     * is, 1 when kept re-printed or trimmed, 0 when blank, -1 when ST's loader drops it (not JSON, or falsy).
     */
    private static int line(byte[] b, int from, int to, OutputStream comma, OutputStream out) throws IOException {
        int length = to - from;
        while (from < to && isJsonWhitespace(b[from])) {
            from++;
        }
        while (to > from && isJsonWhitespace(b[to - 1])) {
            to--;
        }
        if (from == to) {
            return 0;
        }
        byte[] restringified = null;
        if (!JsRestringify.isCanonical(b, from, to)) {
            try {
                JsonNode value = JsRestringify.parse(b, from, to);
                if (!Js.truthy(value)) {
                    return -1;
                }
                restringified = JsJson.stringifyAsJs(value).getBytes(StandardCharsets.UTF_8);
            } catch (JsonSyntaxException e) {
                return -1;
            }
        }
        if (comma != null) {
            comma.write(',');
        }
        if (out != null) {
            if (restringified == null) {
                out.write(b, from, to - from);
            } else {
                out.write(restringified);
            }
        }
        return restringified == null && to - from == length ? AS_IS : 1;
    }

    private static boolean isJsonWhitespace(byte c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }
}
