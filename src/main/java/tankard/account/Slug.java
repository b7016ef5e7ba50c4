package tankard.account;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * ST's account-handle slug (ST: src/endpoints/users-admin.js, slugify): lower case, Latin letters stripped of their
 * accents (as lodash's deburr does), every run of other characters turned into {@code -}, no {@code -} at either end.
 */
public final class Slug {
    private static final Pattern COMBINING_MARKS = Pattern.compile("[\\u0300-\\u036f\\ufe20-\\ufe2f\\u20d0-\\u20ff]");
    private static final Pattern OTHER = Pattern.compile("[^a-z0-9]+");
    private static final Pattern EDGE_DASHES = Pattern.compile("^-+|-+$");
    /** Letters of Latin-1 Supplement and Latin Extended-A that have no canonical decomposition. */
    private static final Map<Character, String> SPECIAL = Map.ofEntries(
            Map.entry('Æ', "Ae"), Map.entry('æ', "ae"), Map.entry('Ð', "D"), Map.entry('ð', "d"),
            Map.entry('Ø', "O"), Map.entry('ø', "o"), Map.entry('Þ', "Th"), Map.entry('þ', "th"),
            Map.entry('ß', "ss"), Map.entry('Đ', "D"), Map.entry('đ', "d"), Map.entry('Ħ', "H"),
            Map.entry('ħ', "h"), Map.entry('ı', "i"), Map.entry('Ĳ', "IJ"), Map.entry('ĳ', "ij"),
            Map.entry('ĸ', "k"), Map.entry('Ŀ', "L"), Map.entry('ŀ', "l"), Map.entry('Ł', "L"),
            Map.entry('ł', "l"), Map.entry('ŉ', "'n"), Map.entry('Ŋ', "N"), Map.entry('ŋ', "n"),
            Map.entry('Œ', "Oe"), Map.entry('œ', "oe"), Map.entry('Ŧ', "T"), Map.entry('ŧ', "t"),
            Map.entry('ſ', "s"));

    private Slug() {
    }

    public static String of(String text) {
        String deburred = deburr(text.toLowerCase(Locale.ROOT));
        return EDGE_DASHES.matcher(OTHER.matcher(deburred).replaceAll("-")).replaceAll("");
    }

    /** Whether the text is already a slug (a handle ST could have made). */
    public static boolean isSlug(String text) {
        return text != null && !text.isEmpty() && text.equals(of(text));
    }

    /** Latin-1 Supplement and Latin Extended-A letters to plain Latin; combining marks removed. */
    static String deburr(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            boolean latin = c >= '\u00c0' && c <= '\u017f' && c != '\u00d7' && c != '\u00f7';
            if (!latin) {
                out.append(c);
            } else if (SPECIAL.containsKey(c)) {
                out.append(SPECIAL.get(c));
            } else {
                out.append(Normalizer.normalize(String.valueOf(c), Normalizer.Form.NFD));
            }
        }
        return COMBINING_MARKS.matcher(out).replaceAll("");
    }
}
