package tankard.chat.format;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.ByteScan;
import tankard.json.Js;
import tankard.json.JsRestringify;
import tankard.json.JsonSyntaxException;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The lines of a chat file, JSONL with the header first, split the two ways ST splits them:
 * <ul>
 * <li>{@link #split}, a whole-file read: {@code text.split('\n')} (src/endpoints/chats.js, getChatData; the
 * import, the stats and Data Maid read chats the same way). Only LF ends a line: a CR before it stays in the line,
 * where {@code JSON.parse} takes it for whitespace. What follows the last LF is a line too, empty when the file
 * ends with LF, and an empty file is one empty line.</li>
 * <li>{@link #readLines}, Node's line reader with {@code crlfDelay: Infinity} (src/endpoints/chats.js,
 * getChatInfo and the text export; src/util.js, readFirstLine): LF, CRLF and CR end a line, empty lines between
 * are lines, and a break at the very end starts none.</li>
 * </ul>
 * Either way one line is held at a time, however long the file. A line is parsed as {@code JSON.parse} parses
 * what Node decoded ({@link #parse}).
 */
public final class ChatLines {
    private static final int BUFFER = 1 << 16;

    private ChatLines() {
    }

    /** Receives lines one by one; answers false to stop reading. */
    @FunctionalInterface
    public interface LineVisitor {
        /** One line, {@code bytes[from, to)} without its break; the bytes are valid only during the call. */
        boolean visit(byte[] bytes, int from, int to) throws IOException;
    }

    /** Visits the lines of {@code text.split('\n')}. */
    public static void split(InputStream in, LineVisitor visitor) throws IOException {
        split(in, false, visitor);
    }

    /**
     * Visits the lines as the file holds them, each with its LF, so that they add up to the file byte for byte:
     * what follows the last LF is a line (without LF) unless it is empty, and an empty file has no line.
     */
    public static void splitKeepingBreaks(InputStream in, LineVisitor visitor) throws IOException {
        split(in, true, visitor);
    }

    private static void split(InputStream in, boolean keepBreaks, LineVisitor visitor) throws IOException {
        int lf = keepBreaks ? 1 : 0;
        byte[] buffer = new byte[BUFFER];
        int filled = 0;
        for (int n; (n = in.read(buffer, filled, buffer.length - filled)) >= 0; ) {
            int start = 0;
            for (int i = ByteScan.indexOf(buffer, filled, filled + n, (byte) '\n'); i < filled + n;
                 i = ByteScan.indexOf(buffer, i + 1, filled + n, (byte) '\n')) {
                if (!visitor.visit(buffer, start, i + lf)) {
                    return;
                }
                start = i + 1;
            }
            filled = keep(buffer, start, filled + n);
            buffer = roomIn(buffer, filled);
        }
        if (!keepBreaks || filled > 0) {
            visitor.visit(buffer, 0, filled);
        }
    }

    /** Visits the lines as Node's line reader gives them. */
    public static void readLines(InputStream in, LineVisitor visitor) throws IOException {
        byte[] buffer = new byte[BUFFER];
        int filled = 0;
        boolean afterCr = false; // the last line ended at a CR, so an LF right after it ends nothing
        for (int n; (n = in.read(buffer, filled, buffer.length - filled)) >= 0; ) {
            int start = 0;
            for (int i = filled; i < filled + n; i++) {
                byte b = buffer[i];
                if (b != '\n' && b != '\r') {
                    afterCr = false;
                } else if (afterCr && b == '\n' && i == start) {
                    afterCr = false;
                    start = i + 1;
                } else {
                    afterCr = b == '\r';
                    if (!visitor.visit(buffer, start, i)) {
                        return;
                    }
                    start = i + 1;
                }
            }
            filled = keep(buffer, start, filled + n);
            buffer = roomIn(buffer, filled);
        }
        if (filled > 0) {
            visitor.visit(buffer, 0, filled);
        }
    }

    /** The first line as the line reader gives it (ST's readFirstLine); empty for an empty file. */
    public static byte[] firstLine(InputStream in) throws IOException {
        byte[][] first = {new byte[0]};
        readLines(in, (bytes, from, to) -> {
            first[0] = Arrays.copyOfRange(bytes, from, to);
            return false;
        });
        return first[0];
    }

    /**
     * The truthy values of the lines as ST's whole-file read keeps them,
     * {@code split('\n').map(tryParse).filter(x => x)} (src/endpoints/chats.js, getChatData).
     */
    public static void values(InputStream in, Consumer<JsonNode> visitor) throws IOException {
        split(in, (bytes, from, to) -> {
            JsonNode value = parse(bytes, from, to);
            if (Js.truthy(value)) {
                visitor.accept(value);
            }
            return true;
        });
    }

    /**
     * A line as ST's {@code tryParse} reads it, or null when it does not parse: invalid UTF-8 is U+FFFD, as Node
     * decodes it, and a byte order mark, which Node keeps in the text, is no JSON.
     */
    public static JsonNode parse(byte[] bytes, int from, int to) {
        try {
            return JsRestringify.parse(bytes, from, to);
        } catch (JsonSyntaxException e) {
            return null;
        }
    }

    public static JsonNode parse(byte[] line) {
        return parse(line, 0, line.length);
    }

    /** Moves the unfinished line {@code buffer[start, end)} to the front; answers its length. */
    private static int keep(byte[] buffer, int start, int end) {
        System.arraycopy(buffer, start, buffer, 0, end - start);
        return end - start;
    }

    /** The buffer, or a larger copy when the unfinished line fills it (a line longer than the buffer). */
    private static byte[] roomIn(byte[] buffer, int filled) {
        return filled == buffer.length ? Arrays.copyOf(buffer, buffer.length * 2) : buffer;
    }
}
