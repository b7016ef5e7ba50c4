package tankard.json;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.StringJoiner;
import java.util.regex.Pattern;

/** JavaScript's {@code Number(value)} and {@code String(value)} of JSON values. */
public final class JsNumber {
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern RADIX = Pattern.compile("0([xX][0-9a-fA-F]+|[oO][0-7]+|[bB][01]+)");

    private JsNumber() {
    }

    /** {@code Number(value)}; an absent value ({@code undefined}) is NaN. */
    public static double of(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return Double.NaN;
        }
        if (value.isNumber()) {
            return value.asDouble();
        }
        if (value.isBoolean()) {
            return value.asBoolean() ? 1 : 0;
        }
        if (value.isNull()) {
            return 0;
        }
        if (value.isTextual()) {
            return parse(value.asText());
        }
        return parse(string(value)); // arrays and objects, through their text as JavaScript does
    }

    /** JavaScript's {@code String(value)} of a JSON value. */
    public static String string(JsonNode value) {
        if (value.isTextual()) {
            return value.asText();
        }
        if (value.isNumber()) {
            return JsJson.jsNumber(value.asDouble());
        }
        if (value.isArray()) {
            StringJoiner joined = new StringJoiner(",");
            value.forEach(element -> joined.add(element.isNull() ? "" : string(element)));
            return joined.toString();
        }
        return value.isObject() ? "[object Object]" : value.asText(); // booleans and null
    }

    /** {@code Number(text)}: surrounding white space ignored, empty is 0, no trailing characters. */
    public static double parse(String text) {
        String s = text.strip();
        if (s.isEmpty()) {
            return 0;
        }
        if (DECIMAL.matcher(s).matches()) {
            return Double.parseDouble(s);
        }
        if (RADIX.matcher(s).matches()) {
            int radix = switch (Character.toLowerCase(s.charAt(1))) {
                case 'x' -> 16;
                case 'o' -> 8;
                default -> 2;
            };
            return new java.math.BigInteger(s.substring(2), radix).doubleValue();
        }
        return switch (s) {
            case "Infinity", "+Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> Double.NaN;
        };
    }
}
