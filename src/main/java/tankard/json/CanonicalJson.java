package tankard.json;

/**
 * Reads JSON text already known to be as {@code JSON.stringify} prints it ({@link JsRestringify#isCanonical}):
 * where members and values lie, and what JavaScript would make of a value, without parsing it into a tree. On
 * other text the answers are meaningless.
 */
public final class CanonicalJson {
    private static final int OBJECT_STRING_LENGTH = "[object Object]".length();

    private CanonicalJson() {
    }

    /** Called for each member of an object, with the spans of its key (inside the quotes) and of its value. */
    public interface Members {
        void member(int keyFrom, int keyTo, int valueFrom, int valueTo);
    }

    /** The members of the object whose {@code '{'} is at {@code from}, in order. */
    public static void members(byte[] text, int from, Members members) {
        int i = from + 1;
        if (text[i] == '}') {
            return;
        }
        while (true) {
            int keyEnd = stringEnd(text, i);
            int valueEnd = valueEnd(text, keyEnd + 1);
            members.member(i + 1, keyEnd - 1, keyEnd + 1, valueEnd);
            if (text[valueEnd] == '}') {
                return;
            }
            i = valueEnd + 1;
        }
    }

    /** Where the value starting at {@code from} ends (the index after it). */
    public static int valueEnd(byte[] text, int from) {
        return switch (text[from]) {
            case '"' -> stringEnd(text, from);
            case '{', '[' -> containerEnd(text, from);
            default -> {
                int i = from + 1;
                while (i < text.length && text[i] != ',' && text[i] != '}' && text[i] != ']') {
                    i++;
                }
                yield i;
            }
        };
    }

    /** The index after the closing quote of the string whose opening quote is at {@code from}. */
    private static int stringEnd(byte[] text, int from) {
        int i = from + 1;
        while (true) {
            i = ByteScan.quoteOrBackslash(text, i, text.length);
            if (text[i] == '"') {
                return i + 1;
            }
            i += 2; // an escape: what follows the backslash is never a closing quote
        }
    }

    private static int containerEnd(byte[] text, int from) {
        int depth = 0;
        int i = from;
        while (true) {
            byte c = text[i];
            if (c == '"') {
                i = stringEnd(text, i);
                continue;
            }
            if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    return i + 1;
                }
            }
            i++;
        }
    }

    /** JavaScript truthiness of the value: false for {@code ""}, {@code 0}, {@code false} and {@code null}. */
    public static boolean truthy(byte[] text, int from, int to) {
        return switch (text[from]) {
            case '"' -> to - from > 2;
            case 'f', 'n' -> false;
            case '0' -> to - from > 1; // canonical numbers have no leading zero, and "0" is printed for -0
            default -> true;
        };
    }

    /** The length of JavaScript's {@code String(value)} (in UTF-16 code units) for the value at the span. */
    public static int stringLength(byte[] text, int from, int to) {
        return switch (text[from]) {
            case '"' -> utf16Length(text, from + 1, to - 1);
            case '{' -> OBJECT_STRING_LENGTH;
            case '[' -> joinedLength(text, from);
            case 'n' -> 4; // "null"
            default -> to - from; // true, false, and numbers, whose canonical text is JavaScript's String
        };
    }

    /** {@code Array.prototype.join}: the elements' strings, null as nothing, with commas between them. */
    private static int joinedLength(byte[] text, int from) {
        int i = from + 1;
        if (text[i] == ']') {
            return 0;
        }
        int length = 0;
        while (true) {
            int end = valueEnd(text, i);
            if (text[i] != 'n') {
                length += stringLength(text, i, end);
            }
            if (text[end] == ']') {
                return length;
            }
            length++; // the comma
            i = end + 1;
        }
    }

    /** The code units of a string's content as written: an escape is one, a four-byte sequence two. */
    private static int utf16Length(byte[] text, int from, int to) {
        int units = 0;
        int i = from;
        while (true) {
            int plain = ByteScan.plainTextEnd(text, i, to);
            units += plain - i;
            if (plain == to) {
                return units;
            }
            int c = text[plain] & 0xFF;
            if (c == '\\') {
                units++;
                i = plain + (text[plain + 1] == 'u' ? 6 : 2);
            } else { // a UTF-8 lead byte: canonical text has no raw controls
                units += c >= 0xF0 ? 2 : 1;
                i = plain + (c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2);
            }
        }
    }
}
