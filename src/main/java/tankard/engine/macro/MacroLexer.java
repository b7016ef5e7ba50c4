package tankard.engine.macro;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The macro engine's tokenizer (ST: public/scripts/macros/engine/MacroLexer.js), a chevrotain multi-mode lexer:
 * in each mode the first pattern that matches wins, a token can push and pop modes, and where nothing matches the
 * lexer drops characters until something does (chevrotain's lexer error recovery).
 */
final class MacroLexer {
    /** JavaScript's {@code \s}, which is wider than Java's. */
    private static final String WS = "[\\t\\n\\u000B\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]";
    private static final String IDENTIFIER = "[a-zA-Z][\\w\\-]*";

    enum Type {
        PLAINTEXT, PLAINTEXT_OPEN_BRACE, START, FLAG, FILTER_FLAG, DOUBLE_SLASH, MACRO_IDENTIFIER, END,
        DOUBLE_COLON, COLON, EQUALS, QUOTE, ESCAPED_PIPE, PIPE, FILTER_IDENTIFIER, IDENTIFIER,
        LOCAL_PREFIX, GLOBAL_PREFIX, VAR_IDENTIFIER,
        INCREMENT, DECREMENT, NULLISH_EQUALS, NULLISH, OR_EQUALS, OR, MINUS_EQUALS, DOUBLE_EQUALS, NOT_EQUALS,
        GREATER_EQUALS, GREATER, LESS_EQUALS, LESS, PLUS_EQUALS, VAR_EQUALS,
        UNKNOWN, EOF
    }

    /** A token; {@code end} is inclusive, as chevrotain's endOffset. */
    record Token(Type type, String image, int start, int end) {
    }

    private enum Mode {
        PLAINTEXT, MACRO_DEF, IDENTIFIER_END, ARGS, FILTER, FILTER_END, VAR_IDENTIFIER, VAR_AFTER_IDENTIFIER, VAR_VALUE
    }

    /**
     * A pattern of a mode (null: plain text, see matchAt): the token it makes (null: skipped), and the mode changes
     * it makes (pop, then push).
     */
    private record Rule(Pattern pattern, Type type, boolean pop, Mode push) {
    }

    private static final Map<Mode, List<Rule>> MODES = new EnumMap<>(Mode.class);

    private static Rule rule(String regex, Type type, boolean pop, Mode push) {
        return new Rule(Pattern.compile(regex), type, pop, push);
    }

    private static Rule using(String regex, Type type) {
        return rule(regex, type, false, null);
    }

    static {
        Rule start = rule("\\{\\{", Type.START, false, Mode.MACRO_DEF);
        Rule whiteSpace = using(WS + "+", null);
        Rule identifier = using(IDENTIFIER, Type.IDENTIFIER);
        Rule unknown = using("(?:[^}]|\\}(?!\\}))", Type.UNKNOWN);
        Rule modePopper = rule("", null, true, null);
        Rule beforeEnd = rule("(?=\\}\\})", null, true, null);
        String endOfIdentifier = "(?:" + WS + "+|(?=:{1,2})|(?=[|}]))";
        MODES.put(Mode.PLAINTEXT, List.of(
                // ST's /(?:[^{]|\{(?!\{))+/ is scanned, not matched: Java's regex recurses once per repetition
                new Rule(null, Type.PLAINTEXT, false, null),
                using("\\{(?=\\{\\{)", Type.PLAINTEXT_OPEN_BRACE),
                start));
        MODES.put(Mode.MACRO_DEF, List.of(
                rule("\\}\\}", Type.END, true, null),
                rule("//", Type.DOUBLE_SLASH, false, Mode.ARGS),
                rule("\\.", Type.LOCAL_PREFIX, false, Mode.VAR_IDENTIFIER),
                rule("\\$", Type.GLOBAL_PREFIX, false, Mode.VAR_IDENTIFIER),
                using("[!?~#/]", Type.FLAG),
                using(">", Type.FILTER_FLAG),
                whiteSpace,
                rule(IDENTIFIER, Type.MACRO_IDENTIFIER, false, Mode.IDENTIFIER_END),
                modePopper));
        MODES.put(Mode.IDENTIFIER_END, List.of(beforeEnd, rule(endOfIdentifier, null, true, Mode.ARGS)));
        MODES.put(Mode.ARGS, List.of(
                start,
                using("\\\\\\|", Type.ESCAPED_PIPE),
                rule("\\|", Type.PIPE, false, Mode.FILTER),
                using("::", Type.DOUBLE_COLON),
                using(":", Type.COLON),
                using("=", Type.EQUALS),
                using("\"", Type.QUOTE),
                identifier,
                whiteSpace,
                unknown,
                modePopper));
        MODES.put(Mode.FILTER, List.of(whiteSpace, rule(IDENTIFIER, Type.FILTER_IDENTIFIER, true, Mode.FILTER_END)));
        MODES.put(Mode.FILTER_END, List.of(beforeEnd, rule(endOfIdentifier, null, true, null)));
        MODES.put(Mode.VAR_IDENTIFIER, List.of(
                whiteSpace,
                rule("[a-zA-Z](?:[\\w\\-]*\\w)?", Type.VAR_IDENTIFIER, true, Mode.VAR_AFTER_IDENTIFIER),
                modePopper));
        MODES.put(Mode.VAR_AFTER_IDENTIFIER, List.of(
                whiteSpace,
                using("\\+\\+", Type.INCREMENT),
                using("--", Type.DECREMENT),
                operator("\\?\\?=", Type.NULLISH_EQUALS),
                operator("\\?\\?", Type.NULLISH),
                operator("\\|\\|=", Type.OR_EQUALS),
                operator("\\|\\|", Type.OR),
                operator("-=", Type.MINUS_EQUALS),
                operator("==", Type.DOUBLE_EQUALS),
                operator("!=", Type.NOT_EQUALS),
                operator(">=", Type.GREATER_EQUALS),
                operator(">", Type.GREATER),
                operator("<=", Type.LESS_EQUALS),
                operator("<", Type.LESS),
                operator("\\+=", Type.PLUS_EQUALS),
                operator("=", Type.VAR_EQUALS),
                beforeEnd,
                modePopper));
        MODES.put(Mode.VAR_VALUE, List.of(start, identifier, whiteSpace, unknown, modePopper));
    }

    /** A variable shorthand operator that takes a value: it leaves the operator mode for the value mode. */
    private static Rule operator(String regex, Type type) {
        return rule(regex, type, true, Mode.VAR_VALUE);
    }

    private MacroLexer() {
    }

    static List<Token> tokenize(String text) {
        List<Token> tokens = new ArrayList<>();
        Deque<Mode> modes = new ArrayDeque<>();
        modes.push(Mode.PLAINTEXT);
        int offset = 0;
        while (offset < text.length()) {
            List<Rule> rules = MODES.get(modes.peek());
            Rule matched = null;
            int matchEnd = offset;
            for (Rule rule : rules) {
                int end = matchAt(rule, text, offset);
                if (end >= 0) {
                    matched = rule;
                    matchEnd = end;
                    break;
                }
            }
            if (matched == null) {
                offset = resync(rules, text, offset);
                continue;
            }
            if (matched.type() != null) {
                tokens.add(new Token(matched.type(), text.substring(offset, matchEnd), offset, matchEnd - 1));
            }
            if (matched.pop() && modes.size() > 1) {
                modes.pop();
            }
            if (matched.push() != null) {
                modes.push(matched.push());
            }
            offset = matchEnd;
        }
        return tokens;
    }

    /** Chevrotain's lexer error recovery: drop characters until a pattern of the mode matches. */
    private static int resync(List<Rule> rules, String text, int offset) {
        while (offset < text.length()) {
            offset++;
            for (Rule rule : rules) {
                if (offset < text.length() && matchAt(rule, text, offset) >= 0) {
                    return offset;
                }
            }
        }
        return offset;
    }

    /** Where the rule's match at offset ends, or -1. */
    private static int matchAt(Rule rule, String text, int offset) {
        if (rule.pattern() == null) { // plain text: everything up to the next "{{"
            int next = text.indexOf("{{", offset);
            int end = next < 0 ? text.length() : next;
            return end > offset ? end : -1;
        }
        Matcher matcher = rule.pattern().matcher(text);
        matcher.region(offset, text.length());
        matcher.useTransparentBounds(true);
        return matcher.lookingAt() ? matcher.end() : -1;
    }
}
