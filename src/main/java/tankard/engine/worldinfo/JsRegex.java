package tankard.engine.worldinfo;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A world info key written as a JavaScript regular expression, {@code /pattern/flags}
 * (ST: public/scripts/world-info.js, parseRegexFromString), translated to {@link Pattern} where the two dialects
 * differ: JavaScript's {@code \s}, {@code .}, {@code ^}, {@code $} and {@code \b}, empty and negated-empty classes,
 * a {@code [} inside a class and a {@code {} that starts no quantifier.
 */
final class JsRegex {
    private static final Pattern DELIMITED = Pattern.compile("^/([\\s\\S]+?)/([gimsuy]*)\\z");
    private static final Pattern UNESCAPED_SLASH = Pattern.compile("(^|[^\\\\])/");
    private static final Pattern QUANTIFIER = Pattern.compile("\\{\\d+(,\\d*)?}");
    /** JavaScript's {@code \s}, as the inside of a character class. */
    private static final String SPACES = "\\t\\n\\u000B\\f\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF";
    /** Letters JavaScript reads as escapes; any other escaped letter is the letter itself. */
    private static final String JS_ESCAPES = "dDwWfnrtcxuk";
    private static final String LINE_ENDS = "\\n\\r\\u2028\\u2029";
    private static final String WORD = "[A-Za-z0-9_]";
    private static final String BOUNDARY = "(?:(?<=" + WORD + ")(?!" + WORD + ")|(?<!" + WORD + ")(?=" + WORD + "))";
    private static final String NOT_BOUNDARY = "(?:(?<=" + WORD + ")(?=" + WORD + ")|(?<!" + WORD + ")(?!" + WORD + "))";

    private final Pattern pattern;
    private final boolean sticky;

    private JsRegex(Pattern pattern, boolean sticky) {
        this.pattern = pattern;
        this.sticky = sticky;
    }

    /** ST's parseRegexFromString: the regex a key spells, or null when the key is plain text or no valid regex. */
    static JsRegex parse(String input) {
        Matcher delimited = DELIMITED.matcher(input);
        if (!delimited.find()) {
            return null;
        }
        String source = delimited.group(1);
        String flags = delimited.group(2);
        if (UNESCAPED_SLASH.matcher(source).find() || flags.chars().distinct().count() != flags.length()) {
            return null;
        }
        // ST unescapes the first escaped delimiter only; "\/" means "/" in both dialects anyway.
        int escapedSlash = source.indexOf("\\/");
        if (escapedSlash >= 0) {
            source = source.substring(0, escapedSlash) + source.substring(escapedSlash + 1);
        }
        boolean multiline = flags.indexOf('m') >= 0;
        boolean dotAll = flags.indexOf('s') >= 0;
        int javaFlags = flags.indexOf('i') >= 0 ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
        try {
            return new JsRegex(Pattern.compile(translate(source, multiline, dotAll), javaFlags), flags.indexOf('y') >= 0);
        } catch (PatternSyntaxException e) {
            return null;
        }
    }

    /** RegExp.prototype.test on a fresh regex: a sticky one must match at the start. */
    boolean test(String text) {
        Matcher matcher = pattern.matcher(text);
        return sticky ? matcher.lookingAt() : matcher.find();
    }

    private static String translate(String source, boolean multiline, boolean dotAll) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '\\' && i + 1 < source.length()) {
                out.append(escape(source.charAt(i + 1), false));
                i += 2;
            } else if (c == '[') {
                i = translateClass(source, i, out);
            } else if (c == '.') {
                out.append(dotAll ? "[\\s\\S]" : "[^" + LINE_ENDS + "]");
                i++;
            } else if (c == '^') {
                out.append(multiline ? "(?:^|(?<=[" + LINE_ENDS + "]))" : "^");
                i++;
            } else if (c == '$') {
                out.append(multiline ? "(?=[" + LINE_ENDS + "]|\\z)" : "\\z");
                i++;
            } else if (c == '{' && !QUANTIFIER.matcher(source).region(i, source.length()).lookingAt()) {
                out.append("\\{");
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** A class from its {@code [} on; answers the index after its {@code ]}. */
    private static int translateClass(String source, int open, StringBuilder out) {
        int i = open + 1;
        boolean negated = i < source.length() && source.charAt(i) == '^';
        if (negated) {
            i++;
        }
        if (i < source.length() && source.charAt(i) == ']') {
            out.append(negated ? "[\\s\\S]" : "(?!)");
            return i + 1;
        }
        out.append(negated ? "[^" : "[");
        while (i < source.length() && source.charAt(i) != ']') {
            char c = source.charAt(i);
            if (c == '\\' && i + 1 < source.length()) {
                out.append(escape(source.charAt(i + 1), true));
                i += 2;
            } else {
                out.append(c == '[' || c == '&' ? "\\" + c : String.valueOf(c));
                i++;
            }
        }
        if (i < source.length()) {
            out.append(']');
        }
        // An unclosed class stays unclosed, so it fails to compile as it does in JavaScript.
        return i + 1;
    }

    private static String escape(char c, boolean inClass) {
        return switch (c) {
            case 's' -> inClass ? SPACES : "[" + SPACES + "]";
            case 'S' -> "[^" + SPACES + "]";
            case 'b' -> inClass ? "\\x08" : BOUNDARY;
            case 'B' -> inClass ? "B" : NOT_BOUNDARY;
            case 'v' -> "\\u000B";
            default -> Character.isLetter(c) && JS_ESCAPES.indexOf(c) < 0 ? String.valueOf(c) : "\\" + c;
        };
    }
}
