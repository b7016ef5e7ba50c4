package tankard.http;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The {@code Content-Disposition} header of Express's {@code res.download} / {@code res.attachment} (npm
 * content-disposition 0.5): the name as a quoted string when it is Latin-1 text; otherwise a Latin-1 fallback
 * with {@code ?} for every other UTF-16 unit plus the exact name as {@code filename*=UTF-8''…}, which a name
 * that looks percent-encoded also gets.
 */
public final class ContentDisposition {
    private static final Pattern PERCENT_ESCAPE = Pattern.compile("%[0-9A-Fa-f]{2}");

    private ContentDisposition() {
    }

    public static String attachment(String name) {
        boolean quotable = !name.isEmpty() && name.chars().allMatch(c -> c >= 0x20 && c <= 0x7e || c >= 0x80 && c <= 0xff);
        StringBuilder fallback = new StringBuilder();
        for (char c : name.toCharArray()) {
            fallback.append(c >= 0x20 && c <= 0x7e || c >= 0xa0 && c <= 0xff ? c : '?');
        }
        boolean hasFallback = !fallback.toString().equals(name);
        StringBuilder header = new StringBuilder("attachment");
        if (quotable || hasFallback) {
            header.append("; filename=\"").append(fallback.toString().replaceAll("([\\\\\"])", "\\\\$1")).append('"');
        }
        if (hasFallback || !quotable || PERCENT_ESCAPE.matcher(name).find()) {
            header.append("; filename*=UTF-8''").append(percentEncode(name, "-_.!~"));
        }
        return header.toString();
    }

    /** JavaScript's {@code encodeURI}: UTF-8 percent-encoding of everything but its reserved and unreserved set. */
    public static String encodeUri(String text) {
        return percentEncode(text, "-_.!~*'();/?:@&=+$,#");
    }

    /** UTF-8 percent-encoding of everything but ASCII letters, digits and the {@code kept} punctuation. */
    private static String percentEncode(String text, String kept) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || kept.indexOf(c) >= 0)) {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }
}
