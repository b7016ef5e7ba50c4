package tankard.json;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;

/**
 * ST stores and serves every chat line as {@code JSON.stringify(JSON.parse(text))}. Text a browser wrote is
 * already in that form, so this answers it with one cheap pass over the bytes ({@link #isCanonical}) and
 * falls back to a real parse and JavaScript-style print only for the rest: whitespace between tokens, escapes
 * JavaScript would not write, numbers in another spelling, duplicate or integer-like keys, invalid UTF-8.
 */
public final class JsRestringify {
    /** Deeper values are left to the full parser rather than risk the scanner's stack. */
    private static final int MAX_DEPTH = 500;

    private JsRestringify() {
    }

    /**
     * The text's value printed as JavaScript would after parsing it (invalid UTF-8 read as U+FFFD, as Node
     * decodes): re-spelled without a tree where {@link JsRespell} can, else parsed and printed. Throws
     * {@link JsonSyntaxException} when it is not one JSON value.
     */
    public static byte[] restringify(byte[] text, int from, int to) {
        byte[] respelled = JsRespell.respell(text, from, to);
        return respelled != null ? respelled : JsJson.stringifyAsJs(parse(text, from, to)).getBytes(StandardCharsets.UTF_8);
    }

    /** The text parsed the way Node reads it: invalid UTF-8 as U+FFFD. */
    public static JsonNode parse(byte[] text, int from, int to) {
        String decoded = decode(text, from, to);
        if (decoded.startsWith("\uFEFF")) {
            throw new JsonSyntaxException("a byte order mark is not JSON"); // Jackson would skip it
        }
        return JsJson.parse(decoded.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * UTF-8 decoded as Node (and every browser) does: each maximal invalid subsequence becomes one U+FFFD
     * (Java's decoder differs, e.g. for encoded surrogates: one U+FFFD where Node has three).
     */
    public static String decode(byte[] b, int from, int to) {
        StringBuilder out = new StringBuilder(to - from);
        int i = from;
        while (i < to) {
            int lead = b[i] & 0xFF;
            if (lead < 0x80) {
                out.append((char) lead);
                i++;
                continue;
            }
            int need;
            int codePoint;
            if (lead >= 0xC2 && lead <= 0xDF) {
                need = 1;
                codePoint = lead & 0x1F;
            } else if (lead >= 0xE0 && lead <= 0xEF) {
                need = 2;
                codePoint = lead & 0x0F;
            } else if (lead >= 0xF0 && lead <= 0xF4) {
                need = 3;
                codePoint = lead & 0x07;
            } else {
                out.append('\uFFFD');
                i++;
                continue;
            }
            int j = i + 1;
            int got = 0;
            while (got < need && j < to) {
                int next = b[j] & 0xFF;
                int low = got > 0 ? 0x80 : lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
                int high = got > 0 ? 0xBF : lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
                if (next < low || next > high) {
                    break;
                }
                codePoint = codePoint << 6 | next & 0x3F;
                j++;
                got++;
            }
            if (got == need) {
                out.appendCodePoint(codePoint);
            } else {
                out.append('\uFFFD'); // the bytes read so far; the one that broke the sequence is read again
            }
            i = j;
        }
        return out.toString();
    }

    /**
     * Whether the bytes are one JSON object or array exactly as {@code JSON.stringify} prints it, so that
     * restringifying would give them back unchanged. False means "not known to be": the caller parses.
     */
    public static boolean isCanonical(byte[] text, int from, int to) {
        return canonicalEnd(text, from, to) == to;
    }

    /**
     * Where the object or array starting at {@code from} ends (the index after it) when it is exactly as
     * {@code JSON.stringify} prints it and ends before {@code to}; else -1 (not known to be, or cut short at
     * {@code to}). What follows it is not looked at.
     */
    public static int canonicalEnd(byte[] text, int from, int to) {
        if (from >= to || text[from] != '{' && text[from] != '[') {
            return -1;
        }
        return new Scanner(text, to).value(from, 0);
    }

    /** A recursive scanner whose every method answers the index after what it read, or -1. */
    private static final class Scanner {
        private final byte[] b;
        private final int end;
        private final ObjectKeys keys = new ObjectKeys();
        /** Where the keys of the object being read begin in {@link #keys}. */
        private int opened;

        Scanner(byte[] b, int end) {
            this.b = b;
            this.end = end;
        }

        int value(int i, int depth) {
            if (i >= end || depth > MAX_DEPTH) {
                return -1;
            }
            return switch (b[i]) {
                case '{' -> object(i + 1, depth + 1);
                case '[' -> array(i + 1, depth + 1);
                case '"' -> string(i + 1, false);
                case 't' -> JsRespell.literalEnd(b, i, end, "true");
                case 'f' -> JsRespell.literalEnd(b, i, end, "false");
                case 'n' -> JsRespell.literalEnd(b, i, end, "null");
                default -> number(i);
            };
        }

        private int object(int i, int depth) {
            if (i < end && b[i] == '}') {
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
                    if (i < 0 || i >= end || b[i] != ':') {
                        return -1;
                    }
                    i = value(i + 1, depth);
                    if (i < 0 || i >= end) {
                        return -1;
                    }
                    if (b[i] == '}') {
                        return i + 1;
                    }
                    if (b[i] != ',') {
                        return -1;
                    }
                    i++;
                }
            } finally {
                keys.close(opened);
                opened = outer;
            }
        }

        private int array(int i, int depth) {
            if (i < end && b[i] == ']') {
                return i + 1;
            }
            while (true) {
                i = value(i, depth);
                if (i < 0 || i >= end) {
                    return -1;
                }
                if (b[i] == ']') {
                    return i + 1;
                }
                if (b[i] != ',') {
                    return -1;
                }
                i++;
            }
        }

        /** The rest of a string after its opening quote; a key is added to {@link #keys}. */
        private int string(int i, boolean key) {
            int start = i;
            while (true) {
                i = ByteScan.plainTextEnd(b, i, end);
                if (i >= end) {
                    return -1;
                }
                int c = b[i];
                if (c == '"') {
                    break;
                }
                if (c == '\\') {
                    i = escape(i + 1);
                } else if (c < 0) {
                    i = utf8(i);
                } else {
                    return -1; // a raw control character
                }
                if (i < 0) {
                    return -1;
                }
            }
            if (key && !keys.add(b, start, i, opened)) {
                return -1;
            }
            return i + 1;
        }

        /** An escape after its backslash, when it is the one JSON.stringify writes for that character. */
        private int escape(int i) {
            if (i >= end) {
                return -1;
            }
            switch (b[i]) {
                case '"', '\\', 'b', 'f', 'n', 'r', 't' -> {
                    return i + 1;
                }
                case 'u' -> {
                    int code = hex4(i + 1);
                    if (code < 0) {
                        return -1;
                    }
                    boolean control = code < 0x20 && code != '\b' && code != '\f' && code != '\n' && code != '\r' && code != '\t';
                    boolean loneLow = code >= 0xDC00 && code <= 0xDFFF;
                    boolean loneHigh = code >= 0xD800 && code <= 0xDBFF
                            && !(i + 6 < end && b[i + 5] == '\\' && b[i + 6] == 'u');
                    return control || loneLow || loneHigh ? i + 5 : -1;
                }
                default -> {
                    return -1;
                }
            }
        }

        /** Four lowercase hex digits, as JSON.stringify writes them. */
        private int hex4(int i) {
            if (i + 4 > end) {
                return -1;
            }
            int code = 0;
            for (int k = i; k < i + 4; k++) {
                int c = b[k];
                int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
                if (digit < 0) {
                    return -1;
                }
                code = code * 16 + digit;
            }
            return code;
        }

        /** One well-formed UTF-8 sequence of two to four bytes (no surrogates, no overlong forms). */
        private int utf8(int i) {
            return Utf8.sequenceEnd(b, i, end);
        }

        /** A number JavaScript prints the same way: short integers at once, anything else by comparison. */
        private int number(int i) {
            int numberEnd = JsNumber.textEnd(b, i, end);
            return numberEnd >= 0 && JsNumber.printedOtherwise(b, i, numberEnd) == null ? numberEnd : -1;
        }
    }
}
