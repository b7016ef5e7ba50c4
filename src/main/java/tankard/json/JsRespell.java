package tankard.json;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * JSON in any valid spelling re-spelled as {@code JSON.stringify(JSON.parse(text))} prints it, in one pass over the
 * bytes and without a tree: the whitespace between tokens goes, escapes JSON.stringify would not write become the
 * characters they stand for (and the ones it writes are written its way), numbers are printed as JavaScript prints
 * them. What only a parse can settle is left to {@link JsRestringify#parse}: duplicate and integer-like keys (which
 * JavaScript keeps last or moves first), invalid UTF-8 (which Node reads as U+FFFD), very deep values, and text
 * that is not JSON, for which the parse gives the reason.
 */
public final class JsRespell {
    /** Deeper values are left to the parser rather than risk this reader's stack. */
    private static final int MAX_DEPTH = 500;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** Each ASCII byte's value as a hex digit of either case, or -1. */
    private static final byte[] HEX_VALUE = new byte[128];

    static {
        Arrays.fill(HEX_VALUE, (byte) -1);
        for (int c = 0; c < 128; c++) {
            HEX_VALUE[c] = (byte) Character.digit(c, 16);
        }
    }

    /** Each thread's output buffer, kept from one text to the next (answers are copied out of it). */
    private static final ThreadLocal<byte[]> OUT = ThreadLocal.withInitial(() -> new byte[1 << 16]);

    private final byte[] b;
    private final int end;
    private byte[] out;
    private int n;
    private final ObjectKeys keys = new ObjectKeys();
    /** Where the keys of the object being read begin in {@link #keys}. */
    private int opened;

    private JsRespell(byte[] text, int end, int capacity) {
        this.b = text;
        this.end = end;
        byte[] kept = OUT.get();
        this.out = kept.length >= capacity ? kept : new byte[capacity];
    }

    /**
     * The bytes {@code JSON.stringify(JSON.parse(text))} gives for {@code text[from, to)}, or null when this cannot
     * tell without a parse (see the class comment).
     */
    public static byte[] respell(byte[] text, int from, int to) {
        Value value = value(text, from, to, to - from + 16);
        return value != null && whitespace(text, value.end(), to) == to ? value.text() : null;
    }

    /** A value re-spelled, and where it ended in the text read (the index after it). */
    public record Value(byte[] text, int end) {
    }

    /**
     * The one value at {@code from} (after any whitespace) re-spelled, when it ends before {@code to}; what follows
     * it is not looked at. Null as {@link #respell} answers null, and when the value does not end before {@code to}.
     */
    public static Value value(byte[] text, int from, int to) {
        return value(text, from, to, Math.min(to - from, 1 << 12) + 16);
    }

    private static Value value(byte[] text, int from, int to, int capacity) {
        JsRespell respell = new JsRespell(text, to, capacity);
        int end = respell.value(whitespace(text, from, to), 0);
        if (end < 0) {
            return null;
        }
        return new Value(Arrays.copyOf(respell.out, respell.n), end);
    }

    private int whitespace(int i) {
        return i < end && b[i] > ' ' ? i : whitespace(b, i, end); // mostly no whitespace: no loop
    }

    private static int whitespace(byte[] b, int i, int end) {
        while (i < end && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
        return i;
    }

    private int value(int i, int depth) {
        if (i >= end || depth > MAX_DEPTH) {
            return -1;
        }
        return switch (b[i]) {
            case '{' -> object(i + 1, depth + 1);
            case '[' -> array(i + 1, depth + 1);
            case '"' -> string(i + 1, false);
            case 't' -> literal(i, "true");
            case 'f' -> literal(i, "false");
            case 'n' -> literal(i, "null");
            default -> number(i);
        };
    }

    private int object(int i, int depth) {
        put('{');
        i = whitespace(i);
        if (i < end && b[i] == '}') {
            put('}');
            return i + 1;
        }
        int outer = opened;
        opened = keys.open();
        try {
            while (true) {
                if (i >= end || b[i] != '"') {
                    return -1;
                }
                i = string(i + 1, true);
                if (i < 0) {
                    return -1;
                }
                i = whitespace(i);
                if (i >= end || b[i] != ':') {
                    return -1;
                }
                put(':');
                i = value(whitespace(i + 1), depth);
                if (i < 0) {
                    return -1;
                }
                i = whitespace(i);
                if (i >= end) {
                    return -1;
                }
                if (b[i] == '}') {
                    put('}');
                    return i + 1;
                }
                if (b[i] != ',') {
                    return -1;
                }
                put(',');
                i = whitespace(i + 1);
            }
        } finally {
            keys.close(opened);
            opened = outer;
        }
    }

    private int array(int i, int depth) {
        put('[');
        i = whitespace(i);
        if (i < end && b[i] == ']') {
            put(']');
            return i + 1;
        }
        while (true) {
            i = value(i, depth);
            if (i < 0) {
                return -1;
            }
            i = whitespace(i);
            if (i >= end) {
                return -1;
            }
            if (b[i] == ']') {
                put(']');
                return i + 1;
            }
            if (b[i] != ',') {
                return -1;
            }
            put(',');
            i = whitespace(i + 1);
        }
    }

    /** The rest of a string after its opening quote; a key is added to {@link #keys}. */
    private int string(int i, boolean key) {
        int written = n + 1; // where the string's text starts in out, after the quote the first run copies
        int run = i - 1; // the start of the bytes read but not yet written, which need no change
        while (true) {
            i = ByteScan.plainTextEnd(b, i, end);
            if (i >= end) {
                return -1;
            }
            int c = b[i];
            if (c == '"') {
                break;
            }
            if (c >= 0) { // a backslash, or a raw control character (not JSON)
                if (c != '\\' || i + 1 >= end) {
                    return -1;
                }
                int escaped = b[i + 1];
                if (escaped == '"' || escaped == '\\' || escaped == 'n' || escaped == 't' || escaped == 'r'
                        || escaped == 'b' || escaped == 'f') {
                    i += 2; // written as it is read: the run goes on
                    continue;
                }
                write(run, i);
                i = escape(i + 1);
                run = i;
            } else {
                i = Utf8.sequenceEnd(b, i, end);
            }
            if (i < 0) {
                return -1;
            }
        }
        write(run, i + 1); // with the closing quote
        if (key && !keys.add(out, written, n - 1, opened)) {
            return -1;
        }
        return i + 1;
    }

    /** An escape after its backslash, other than those JSON.stringify writes as they are, written its way. */
    private int escape(int i) {
        if (i >= end) {
            return -1;
        }
        switch (b[i]) {
            case '/' -> {
                put('/');
                return i + 1;
            }
            case 'u' -> {
                int code = hex4(i + 1);
                if (code < 0) {
                    return -1;
                }
                if (code >= 0xD800 && code <= 0xDBFF && i + 10 < end && b[i + 5] == '\\' && b[i + 6] == 'u') {
                    int low = hex4(i + 7);
                    if (low >= 0xDC00 && low <= 0xDFFF) {
                        utf8(Character.toCodePoint((char) code, (char) low));
                        return i + 11;
                    }
                }
                character(code);
                return i + 5;
            }
            default -> {
                return -1;
            }
        }
    }

    /** One UTF-16 unit as JSON.stringify writes it in a string: escaped, or as its UTF-8. */
    private void character(int code) {
        switch (code) {
            case '"' -> put2('\\', '"');
            case '\\' -> put2('\\', '\\');
            case '\b' -> put2('\\', 'b');
            case '\f' -> put2('\\', 'f');
            case '\n' -> put2('\\', 'n');
            case '\r' -> put2('\\', 'r');
            case '\t' -> put2('\\', 't');
            default -> {
                if (code < 0x20 || code >= 0xD800 && code <= 0xDFFF) { // other controls, lone surrogates
                    put2('\\', 'u');
                    for (int shift = 12; shift >= 0; shift -= 4) {
                        put(HEX[code >> shift & 0xF]);
                    }
                } else {
                    utf8(code);
                }
            }
        }
    }

    private void utf8(int codePoint) {
        if (codePoint < 0x80) {
            put(codePoint);
        } else if (codePoint < 0x800) {
            put2(0xC0 | codePoint >> 6, 0x80 | codePoint & 0x3F);
        } else if (codePoint < 0x10000) {
            put(0xE0 | codePoint >> 12);
            put2(0x80 | codePoint >> 6 & 0x3F, 0x80 | codePoint & 0x3F);
        } else {
            put2(0xF0 | codePoint >> 18, 0x80 | codePoint >> 12 & 0x3F);
            put2(0x80 | codePoint >> 6 & 0x3F, 0x80 | codePoint & 0x3F);
        }
    }

    /** Four hex digits of either case; -1 when they are not. */
    private int hex4(int i) {
        if (i + 4 > end) {
            return -1;
        }
        int code = 0;
        for (int k = i; k < i + 4; k++) {
            int digit = b[k] < 0 ? -1 : HEX_VALUE[b[k]];
            if (digit < 0) {
                return -1;
            }
            code = code << 4 | digit;
        }
        return code;
    }

    private int literal(int i, String word) {
        int literalEnd = literalEnd(b, i, end, word);
        if (literalEnd > 0) {
            write(i, literalEnd);
        }
        return literalEnd;
    }

    /** Where the literal {@code word} at {@code i} ends, or -1 when it is not there. */
    static int literalEnd(byte[] b, int i, int end, String word) {
        if (i + word.length() > end) {
            return -1;
        }
        for (int k = 0; k < word.length(); k++) {
            if (b[i + k] != word.charAt(k)) {
                return -1;
            }
        }
        return i + word.length();
    }

    /** A JSON number, written as JavaScript prints the double it reads as. */
    private int number(int i) {
        int end = JsNumber.textEnd(b, i, this.end);
        if (end < 0) {
            return -1;
        }
        String printed = JsNumber.printedOtherwise(b, i, end);
        if (printed == null) {
            write(i, end);
        } else {
            for (int k = 0; k < printed.length(); k++) {
                put(printed.charAt(k));
            }
        }
        return end;
    }

    private void write(int from, int to) {
        int length = to - from;
        room(length);
        System.arraycopy(b, from, out, n, length);
        n += length;
    }

    private void put(int c) {
        room(1);
        out[n++] = (byte) c;
    }

    private void put2(int c, int d) {
        room(2);
        out[n++] = (byte) c;
        out[n++] = (byte) d;
    }

    private void room(int length) {
        if (n + length > out.length) {
            out = Arrays.copyOf(out, Math.max(n + length, out.length * 2));
        }
    }
}
