package tankard.util;

import java.util.regex.Pattern;

/**
 * ST's file-name sanitizer (npm sanitize-filename with an empty replacement, as ST calls it). The anchors are
 * {@code \\z}, not {@code $}: Java's {@code $} also matches before a final line terminator such as U+2028, where
 * JavaScript's does not.
 */
public final class Sanitize {
    private static final Pattern ILLEGAL = Pattern.compile("[/?<>\\\\:*|\"]");
    private static final Pattern CONTROL = Pattern.compile("[\\x00-\\x1f\\x80-\\x9f]");
    private static final Pattern RESERVED = Pattern.compile("^\\.+\\z");
    private static final Pattern WINDOWS_RESERVED = Pattern.compile("^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\\..*)?\\z",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern TRAILING = Pattern.compile("[. ]+\\z");

    private Sanitize() {
    }

    public static String filename(String input) {
        return filename(input, "");
    }

    public static String filename(String input, String replacement) {
        String s = ILLEGAL.matcher(input).replaceAll(replacement);
        s = CONTROL.matcher(s).replaceAll(replacement);
        s = RESERVED.matcher(s).replaceAll(replacement);
        s = WINDOWS_RESERVED.matcher(s).replaceAll(replacement);
        s = TRAILING.matcher(s).replaceAll(replacement);
        return truncateUtf8(s, 255);
    }

    /** Cuts to at most {@code maxBytes} of UTF-8 without splitting a code point (npm truncate-utf8-bytes). */
    static String truncateUtf8(String s, int maxBytes) {
        int bytes = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            bytes += utf8Length(cp);
            if (bytes > maxBytes) {
                return s.substring(0, i);
            }
            i += Character.charCount(cp);
        }
        return s;
    }

    /** The name's length in UTF-8 bytes, the count that a file system's 255-byte name limit applies to. */
    public static int utf8Length(String s) {
        return s.codePoints().map(Sanitize::utf8Length).sum();
    }

    /** A lone surrogate counts 3 bytes, as Node's {@code Buffer.byteLength} counts it (it writes U+FFFD). */
    private static int utf8Length(int codePoint) {
        return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    }

    /**
     * A request-supplied file name that must name a file directly inside one folder: rejects names that
     * sanitizing would change (path separators, "..", control characters, reserved names).
     */
    public static boolean isPlainFileName(String name) {
        return name != null && !name.isEmpty() && name.equals(filename(name));
    }

    /**
     * ST's check on file-name request fields (ST: src/middleware/validateFileName.js, getFileNameValidationFunction):
     * a name with {@code /}, {@code \} or NUL is refused. A name that passes can still be "." or ".."; see
     * {@link #isSafeSegment}.
     */
    public static boolean hasForbiddenChars(String name) {
        return name.indexOf('/') >= 0 || name.indexOf('\\') >= 0 || name.indexOf('\0') >= 0;
    }

    /** A non-empty name that is one path segment inside its folder: no separators, NUL, "." or "..". */
    public static boolean isSafeSegment(String name) {
        return name != null && !name.isEmpty() && !hasForbiddenChars(name) && !name.equals(".") && !name.equals("..");
    }
}
