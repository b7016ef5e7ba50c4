package tankard.chat.format;

import tankard.json.ByteScan;
import tankard.json.CanonicalJson;
import tankard.json.JsRestringify;
import tankard.json.JsonSyntaxException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.LongConsumer;

/**
 * A chat as the JSON array {@code /api/chats/get} answers: the lines of {@code split('\n')} that parse to a
 * truthy value, in order, as {@code JSON.stringify} prints them (src/endpoints/chats.js, getChatData and the
 * /get route). A line already in that form is copied as it is; one line is held at a time.
 */
public final class ChatArray {
    private static final int AS_IS = 2;

    private ChatArray() {
    }

    /**
     * What reading a whole chat found: the lines it served, the non-blank lines ST's read drops, and whether
     * the file is plain: lines already as ST prints them, LF between them and nothing else, so that its array
     * is the file itself with commas for LFs ({@link #writePlain}).
     */
    public record Read(long kept, long dropped, boolean plain) {
    }

    /** Streams the chat out as its array; with a null output it only counts. */
    public static Read write(InputStream in, OutputStream out) throws IOException {
        return write(in, out, null);
    }

    /** As {@link #write(InputStream, OutputStream)}, telling {@code kept} where each served line starts in {@code in}. */
    public static Read write(InputStream in, OutputStream out, LongConsumer kept) throws IOException {
        long[] counts = new long[2]; // kept, dropped
        long[] at = {0};
        boolean[] plain = {true};
        if (out != null) {
            out.write('[');
        }
        ChatLines.split(in, (bytes, from, to) -> {
            int line = line(bytes, from, to, counts[0] > 0 ? out : null, out);
            if (line > 0 && kept != null) {
                kept.accept(at[0]);
            }
            at[0] += to - from + 1; // the line and its LF
            counts[0] += line > 0 ? 1 : 0;
            counts[1] += line < 0 ? 1 : 0;
            plain[0] &= line == AS_IS;
            return true;
        });
        if (out != null) {
            out.write(']');
        }
        return new Read(counts[0], counts[1], plain[0] && counts[0] > 0);
    }

    /** The array of a plain chat (see {@link Read}): the file with commas for LFs, at the speed of a copy. */
    public static void writePlain(InputStream in, OutputStream out) throws IOException {
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

    /**
     * One line: written (after a comma when {@code comma} is given) and {@link #AS_IS} when it is kept as it
     * is, 1 when kept re-printed or trimmed, 0 when blank, -1 when ST's read drops it (not JSON, or falsy).
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
                restringified = JsRestringify.restringify(b, from, to);
            } catch (JsonSyntaxException e) {
                return -1;
            }
            if (!CanonicalJson.truthy(restringified, 0, restringified.length)) {
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
