package tankard.json;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
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

    /** Where the JSON number text at {@code i} ends (the index after it, before {@code end}), or -1 when none is there. */
    static int textEnd(byte[] b, int i, int end) {
        if (i < end && b[i] == '-') {
            i++;
        }
        int intStart = i;
        i = digitsEnd(b, i, end);
        if (i == intStart || i - intStart > 1 && b[intStart] == '0') {
            return -1;
        }
        if (i < end && b[i] == '.') {
            int fraction = i + 1;
            i = digitsEnd(b, fraction, end);
            if (i == fraction) {
                return -1;
            }
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int exponent = i;
            i = digitsEnd(b, i, end);
            if (i == exponent) {
                return -1;
            }
        }
        return i;
    }

    private static int digitsEnd(byte[] b, int i, int end) {
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        return i;
    }

    /** The JSON number text as JavaScript prints the double it reads as; null when that is the text itself. */
    static String printedOtherwise(byte[] b, int from, int to) {
        boolean negative = b[from] == '-';
        boolean digitsOnly = true;
        for (int k = negative ? from + 1 : from; k < to && digitsOnly; k++) {
            digitsOnly = b[k] >= '0' && b[k] <= '9';
        }
        if (digitsOnly && to - from - (negative ? 1 : 0) <= 15 && !(negative && b[from + 1] == '0')) {
            return null; // an exact double printed as digits; "-0" is not ("0" in JavaScript)
        }
        String lexeme = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
        String printed = JsJson.jsNumber(Double.parseDouble(lexeme));
        return printed.equals(lexeme) ? null : printed;
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
