package tankard.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;

import java.math.BigDecimal;

/**
 * JavaScript's value semantics on JSON trees, for the places where ST's behaviour depends on them
 * (truthiness checks, {@code String(x)}, {@code Number(x)}). A Java {@code null} or a missing node is
 * JavaScript's {@code undefined}.
 */
public final class Js {
    private Js() {
    }

    public static boolean isUndefined(JsonNode node) {
        return node == null || node.isMissingNode();
    }

    /** JavaScript truthiness: false for undefined, null, false, 0, NaN and "". */
    public static boolean truthy(JsonNode node) {
        if (isUndefined(node) || node.isNull()) {
            return false;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isNumber()) {
            return node.isBigDecimal() ? node.decimalValue().signum() != 0 : node.doubleValue() != 0;
        }
        if (node.isTextual()) {
            return !node.textValue().isEmpty();
        }
        return true;
    }

    /** A character of JavaScript's {@code \\s} (what {@code trim} removes): ASCII spaces, NBSP, Unicode spaces, BOM. */
    public static boolean isWhitespace(char c) {
        return c == ' ' || c >= '\t' && c <= '\r' || c == '\u00a0' || c == '\u1680' || c >= '\u2000' && c <= '\u200a'
                || c == '\u2028' || c == '\u2029' || c == '\u202f' || c == '\u205f' || c == '\u3000' || c == '\ufeff';
    }

    /** {@code a || b}. */
    public static JsonNode or(JsonNode value, JsonNode fallback) {
        return truthy(value) ? value : fallback;
    }

    /** {@code a ?? b}. */
    public static JsonNode coalesce(JsonNode value, JsonNode fallback) {
        return isUndefined(value) || value.isNull() ? fallback : value;
    }

    /** lodash {@code _.get} / optional chaining: a dotted path through objects, or null when a step is missing. */
    public static JsonNode get(JsonNode node, String path) {
        for (int from = 0; ; ) {
            if (node == null || !node.isObject()) {
                return null;
            }
            int dot = path.indexOf('.', from);
            node = node.get(dot < 0 ? path.substring(from) : path.substring(from, dot));
            if (dot < 0) {
                return node;
            }
            from = dot + 1;
        }
    }

    /** JavaScript's {@code a === b} for JSON values; containers are equal only to themselves. */
    public static boolean strictEquals(JsonNode a, JsonNode b) {
        if (isUndefined(a) || isUndefined(b)) {
            return isUndefined(a) && isUndefined(b);
        }
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isContainerNode() || b.isContainerNode()) {
            return a == b;
        }
        return a.getNodeType() == b.getNodeType() && a.equals(b);
    }

    /** {@code String(x ?? '')}: JavaScript's string of a value, and empty where it is null or missing. */
    public static String text(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode() ? "" : string(node);
    }

    /** JavaScript's {@code String(x)} (also what template literals and {@code Array.join} produce). */
    public static String string(JsonNode node) {
        if (isUndefined(node)) {
            return "undefined";
        }
        return switch (node.getNodeType()) {
            case STRING -> node.textValue();
            case NUMBER -> JsJson.compact(node);
            case BOOLEAN -> String.valueOf(node.booleanValue());
            case NULL -> "null";
            case ARRAY -> {
                StringBuilder out = new StringBuilder();
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    JsonNode element = node.get(i);
                    if (!element.isNull()) {
                        out.append(string(element));
                    }
                }
                yield out.toString();
            }
            default -> "[object Object]";
        };
    }

    /**
     * JavaScript's {@code Number(x)} for the values JSON can hold, or null where the result is NaN.
     * Numbers come back unchanged, so their lexeme survives.
     */
    public static JsonNode number(JsonNode node) {
        if (isUndefined(node)) {
            return null;
        }
        if (node.isNumber()) {
            return node;
        }
        if (node.isNull()) {
            return IntNode.valueOf(0);
        }
        if (node.isBoolean()) {
            return IntNode.valueOf(node.booleanValue() ? 1 : 0);
        }
        if (node.isTextual() || node.isArray() && node.size() <= 1) {
            String text = string(node).strip();
            if (text.isEmpty()) {
                return IntNode.valueOf(0);
            }
            try {
                return DecimalNode.valueOf(new BigDecimal(text));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** {@code String.prototype.trim}: strips JavaScript's whitespace and line terminators, which Java's strip does not match. */
    public static String trim(String s) {
        int from = 0;
        int to = s.length();
        while (from < to && isJsWhitespace(s.charAt(from))) {
            from++;
        }
        while (to > from && isJsWhitespace(s.charAt(to - 1))) {
            to--;
        }
        return s.substring(from, to);
    }

    /** {@code String.prototype.trimStart}. */
    public static String trimStart(String s) {
        int from = 0;
        while (from < s.length() && isJsWhitespace(s.charAt(from))) {
            from++;
        }
        return s.substring(from);
    }

    /** {@code String.prototype.trimEnd}. */
    public static String trimEnd(String s) {
        int to = s.length();
        while (to > 0 && isJsWhitespace(s.charAt(to - 1))) {
            to--;
        }
        return s.substring(0, to);
    }

    private static boolean isJsWhitespace(char c) {
        return c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r' || c == 0xFEFF || c == 0x2028 || c == 0x2029
                || Character.getType(c) == Character.SPACE_SEPARATOR;
    }
}
