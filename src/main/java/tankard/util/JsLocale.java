package tankard.util;

import java.text.Collator;
import java.text.ParseException;
import java.text.RuleBasedCollator;
import java.util.Comparator;
import java.util.Locale;

/**
 * JavaScript's {@code a.localeCompare(b)} / {@code Intl.Collator().compare} as ST's Node (ICU, en-US) orders
 * file names in listings. Java's own collator treats spaces and hyphens as ignorable and orders ASCII
 * punctuation differently, so the ASCII part of its rules is re-ordered to ICU's root order:
 * whitespace, punctuation, symbols, currency, digits, then letters (lower case before upper case).
 */
public final class JsLocale {
    /** ICU root order of the printable ASCII characters that are not letters. */
    private static final String ICU_ASCII_ORDER = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789";

    private static final Comparator<String> COLLATOR = build();

    private JsLocale() {
    }

    public static Comparator<String> comparator() {
        return COLLATOR;
    }

    public static int compare(String a, String b) {
        return COLLATOR.compare(a, b);
    }

    private static Comparator<String> build() {
        String base = ((RuleBasedCollator) Collator.getInstance(Locale.ROOT)).getRules();
        // Appended relations move each character to its new place; U+2212 is the last of Java's ignorables.
        StringBuilder rules = new StringBuilder(base).append("& '\u2212'");
        for (char c : ICU_ASCII_ORDER.toCharArray()) {
            rules.append(" < ");
            if (Character.isDigit(c)) {
                rules.append(c);
            } else {
                rules.append('\'').append(c).append('\''); // quoted; "'''" is the apostrophe itself
            }
        }
        try {
            RuleBasedCollator collator = new RuleBasedCollator(rules.toString());
            collator.setDecomposition(Collator.CANONICAL_DECOMPOSITION);
            return collator::compare;
        } catch (ParseException e) {
            throw new IllegalStateException("Bad collation rules", e);
        }
    }
}
