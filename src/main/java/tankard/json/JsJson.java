package tankard.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ArrayNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * JSON as SillyTavern writes it: JavaScript's {@code JSON.stringify} layouts (compact, or pretty with
 * 4 spaces) and scalar formatting (e.g. ST: src/endpoints/settings.js, /save). Numbers keep their decimal value
 * exactly (floats are read as BigDecimal), so nothing a client sent loses precision on a round trip.
 */
public final class JsJson {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNestingDepth(10_000)
                    .maxNumberLength(10_000)
                    .build())
            .build();

    /** Reads JSON into trees whose floats are exact decimals. */
    public static final ObjectMapper MAPPER = new ObjectMapper(FACTORY)
            .setNodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsJson() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** Parses a complete JSON document; throws {@link JsonSyntaxException} on malformed input. */
    public static JsonNode parse(byte[] json) {
        try {
            JsonNode node = MAPPER.readTree(json);
            if (node == null || node.isMissingNode()) {
                throw new JsonSyntaxException("empty JSON document");
            }
            return node;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new JsonSyntaxException(e.getOriginalMessage());
        } catch (IOException e) {
            throw new JsonSyntaxException(e.getMessage());
        }
    }

    public static JsonNode parse(String json) {
        return parse(json.getBytes(StandardCharsets.UTF_8));
    }

    /** Parses a document, or returns null when it is not valid JSON. */
    public static JsonNode tryParse(byte[] json) {
        try {
            return parse(json);
        } catch (JsonSyntaxException e) {
            return null;
        }
    }

    public static String compact(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, new TextOut(out), -1, 0, false);
        return out.toString();
    }

    /**
     * What JavaScript's {@code JSON.stringify(JSON.parse(text))} gives for a tree read from text: compact, and
     * every number rounded to a double first ({@code 1.0} → {@code 1}, {@code 1e21} → {@code 1e+21}).
     */
    public static String stringifyAsJs(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, new TextOut(out), -1, 0, true);
        return out.toString();
    }

    /** {@link #stringifyAsJs} as UTF-8 bytes, written as bytes directly. */
    public static byte[] stringifyAsJsBytes(JsonNode node) {
        Utf8Out out = new Utf8Out();
        write(node, out, -1, 0, true);
        return out.toByteArray();
    }

    /** A double the way JavaScript prints it. */
    public static String jsNumber(double value) {
        return decimal(value);
    }

    /**
     * A float written as its shortest decimal, in JavaScript's layout: what JavaScript prints for the number that
     * decimal denotes ({@code 0}, {@code 0.00087}, {@code 1e-7}, {@code 3.4e+38}).
     */
    public static String jsFloat(float value) {
        if (!Float.isFinite(value)) {
            return "null";
        }
        if (value == 0) {
            return "0";
        }
        // Jackson's Schubfach: "[-]ddd.ddd" for 1e-3 <= |value| < 1e7, else "[-]d.dddE[-]n"
        String java = com.fasterxml.jackson.core.io.NumberOutput.toString(value, true);
        int e = java.indexOf('E');
        if (e < 0) {
            return java.endsWith(".0") ? java.substring(0, java.length() - 2) : java;
        }
        String sign = value < 0 ? "-" : "";
        String digits = java.substring(sign.length(), e).replace(".", "");
        int last = digits.length();
        while (last > 1 && digits.charAt(last - 1) == '0') {
            last--;
        }
        digits = digits.substring(0, last);
        int exponent = Integer.parseInt(java.substring(e + 1));
        if (exponent >= 21 || exponent <= -7) {
            String fraction = digits.length() > 1 ? "." + digits.substring(1) : "";
            return sign + digits.charAt(0) + fraction + "e" + (exponent > 0 ? "+" : "-") + Math.abs(exponent);
        }
        if (exponent < 0) {
            return sign + "0." + "0".repeat(-exponent - 1) + digits;
        }
        if (digits.length() <= exponent + 1) {
            return sign + digits + "0".repeat(exponent + 1 - digits.length());
        }
        return sign + digits.substring(0, exponent + 1) + "." + digits.substring(exponent + 1);
    }

    public static String pretty(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, new TextOut(out), 4, 0, false);
        return out.toString();
    }

    /** The compact text's UTF-8 bytes, written as bytes directly (no intermediate text: lists of big cards). */
    public static byte[] compactBytes(JsonNode node) {
        Utf8Out out = new Utf8Out();
        write(node, out, -1, 0, false);
        return out.toByteArray();
    }

    /** Well-formed UTF-8 text as a JSON string, quoted as {@code JSON.stringify} quotes it, without decoding it. */
    public static byte[] quotedUtf8(byte[] wellFormed) {
        Utf8Out out = new Utf8Out();
        out.quoteUtf8(null, wellFormed);
        return out.toByteArray();
    }

    public static byte[] prettyBytes(JsonNode node) {
        return pretty(node).getBytes(StandardCharsets.UTF_8);
    }

    /** Converts any Java value Jackson can map (records, maps, lists) into a tree. */
    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }

    private static void write(JsonNode node, Out out, int indent, int depth, boolean doubles) {
        switch (node.getNodeType()) {
            case OBJECT -> writeObject(node, out, indent, depth, doubles);
            case ARRAY -> writeArray(node, out, indent, depth, doubles);
            case STRING -> out.string(node.textValue());
            case NUMBER -> out.append(doubles ? decimal(node.doubleValue()) : number(node));
            case BOOLEAN -> out.append(node.booleanValue() ? "true" : "false");
            case BINARY -> out.string(java.util.Base64.getEncoder().encodeToString(binary(node)));
            default -> out.append("null");
        }
    }

    private static byte[] binary(JsonNode node) {
        try {
            return node.binaryValue();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeObject(JsonNode node, Out out, int indent, int depth, boolean doubles) {
        if (node.isEmpty()) {
            out.append("{}");
            return;
        }
        out.append('{');
        boolean first = true;
        for (Iterator<Map.Entry<String, JsonNode>> fields = enumerationOrder(node); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!first) {
                out.append(',');
            }
            first = false;
            newline(out, indent, depth + 1);
            out.string(field.getKey());
            out.append(indent < 0 ? ":" : ": ");
            write(field.getValue(), out, indent, depth + 1, doubles);
        }
        newline(out, indent, depth);
        out.append('}');
    }

    /** JavaScript enumerates array-index keys first, ascending, then the rest in insertion order. */
    private static Iterator<Map.Entry<String, JsonNode>> enumerationOrder(JsonNode node) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            if (isArrayIndex(names.next())) {
                return indexKeysFirst(node);
            }
        }
        return node.fields();
    }

    private static Iterator<Map.Entry<String, JsonNode>> indexKeysFirst(JsonNode node) {
        java.util.TreeMap<Long, Map.Entry<String, JsonNode>> indexes = new java.util.TreeMap<>();
        List<Map.Entry<String, JsonNode>> others = new ArrayList<>();
        node.fields().forEachRemaining(e -> {
            if (isArrayIndex(e.getKey())) {
                indexes.put(Long.parseLong(e.getKey()), e);
            } else {
                others.add(e);
            }
        });
        List<Map.Entry<String, JsonNode>> ordered = new ArrayList<>(indexes.values());
        ordered.addAll(others);
        return ordered.iterator();
    }

    static boolean isArrayIndex(String key) {
        int n = key.length();
        if (n == 0 || n > 10 || (n > 1 && key.charAt(0) == '0')) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = key.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return Long.parseLong(key) <= 4294967294L;
    }

    private static void writeArray(JsonNode node, Out out, int indent, int depth, boolean doubles) {
        if (node.isEmpty()) {
            out.append("[]");
            return;
        }
        out.append('[');
        for (int i = 0; i < node.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            newline(out, indent, depth + 1);
            write(node.get(i), out, indent, depth + 1, doubles);
        }
        newline(out, indent, depth);
        out.append(']');
    }

    private static void newline(Out out, int indent, int depth) {
        if (indent < 0) {
            return;
        }
        out.append('\n');
        out.append(" ".repeat(indent * depth));
    }

    /** A JSON number the way JavaScript prints it. */
    static String number(JsonNode node) {
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue().toString();
        }
        if (node.isBigDecimal()) {
            return decimal(node.decimalValue());
        }
        return decimal(node.doubleValue());
    }

    static String decimal(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "null";
        }
        if (value == 0) {
            return "0";
        }
        // Double.toString is not always the shortest round-tripping form before JDK 19; Jackson's Schubfach is,
        // except that it always keeps two digits where JavaScript may need only one (4.9e-324 vs 5e-324).
        BigDecimal shortest = new BigDecimal(com.fasterxml.jackson.core.io.NumberOutput.toString(value, true));
        if (shortest.precision() == 2) {
            BigDecimal oneDigit = shortest.round(new java.math.MathContext(1, java.math.RoundingMode.HALF_EVEN));
            if (Double.parseDouble(oneDigit.toString()) == value) {
                shortest = oneDigit;
            }
        }
        return decimal(shortest);
    }

    static String decimal(BigDecimal value) {
        if (value.signum() == 0) {
            return "0";
        }
        BigDecimal stripped = value.stripTrailingZeros();
        BigDecimal magnitude = stripped.abs();
        if (magnitude.compareTo(new BigDecimal("1e21")) < 0 && magnitude.compareTo(new BigDecimal("1e-6")) >= 0) {
            return stripped.scale() <= 0 ? stripped.toBigInteger().toString() : stripped.toPlainString();
        }
        // Exponent form: d[.ddd]e±x
        String digits = stripped.unscaledValue().abs().toString();
        int exponent = digits.length() - 1 - stripped.scale();
        StringBuilder s = new StringBuilder();
        if (stripped.signum() < 0) {
            s.append('-');
        }
        s.append(digits.charAt(0));
        if (digits.length() > 1) {
            s.append('.').append(digits, 1, digits.length());
        }
        s.append('e').append(exponent >= 0 ? "+" : "-").append(Math.abs(exponent));
        return s.toString();
    }

    /** Appends a string literal escaped like JSON.stringify (lowercase hex, lone surrogates escaped). */
    public static void quote(String s, StringBuilder out) {
        out.append('"');
        int run = 0; // start of the characters not yet appended: runs that need no escape are appended at once
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) {
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++; // a valid pair stays as it is
                continue;
            }
            out.append(s, run, i);
            run = i + 1;
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> hexEscape(c, out); // other controls, lone surrogates
            }
        }
        out.append(s, run, s.length()).append('"');
    }

    private static void hexEscape(char c, StringBuilder out) {
        out.append("\\u");
        String hex = Integer.toHexString(c);
        out.append("0".repeat(4 - hex.length())).append(hex);
    }

    /**
     * Re-lays out a JSON document token by token without building a tree, keeping every number's lexeme
     * as the client wrote it. Used for documents the server only stores (settings, presets).
     */
    public static String relayout(byte[] json, boolean pretty) {
        try (JsonParser parser = FACTORY.createParser(json)) {
            StringBuilder text = new StringBuilder(json.length + json.length / 4);
            Out out = new TextOut(text);
            int indent = pretty ? 4 : -1;
            int depth = 0;
            boolean needComma = false;
            boolean afterOpen = false;
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                boolean isClose = token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY;
                if (isClose) {
                    depth--;
                    if (!afterOpen) {
                        newline(out, indent, depth);
                    }
                    out.append(token == JsonToken.END_OBJECT ? '}' : ']');
                    needComma = true;
                    afterOpen = false;
                    continue;
                }
                var context = parser.getParsingContext();
                if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
                    context = context.getParent(); // the new container's own context is already open
                }
                boolean inObjectValue = context.inObject() && token != JsonToken.FIELD_NAME;
                if (!inObjectValue) {
                    if (needComma) {
                        out.append(',');
                    }
                    if (depth > 0) {
                        newline(out, indent, depth);
                    }
                }
                afterOpen = false;
                needComma = true;
                switch (token) {
                    case FIELD_NAME -> {
                        out.string(parser.currentName());
                        out.append(pretty ? ": " : ":");
                        needComma = false;
                    }
                    case START_OBJECT, START_ARRAY -> {
                        out.append(token == JsonToken.START_OBJECT ? '{' : '[');
                        depth++;
                        needComma = false;
                        afterOpen = true;
                    }
                    case VALUE_STRING -> out.string(parser.getText());
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> out.append(parser.getText());
                    case VALUE_TRUE -> out.append("true");
                    case VALUE_FALSE -> out.append("false");
                    default -> out.append("null");
                }
            }
            return text.toString();
        } catch (IOException e) {
            throw new JsonSyntaxException(e.getMessage());
        }
    }

    /** Where serialised JSON goes: {@code append} takes ASCII syntax, {@code string} a string to quote. */
    private interface Out {
        void append(char c);

        void append(String ascii);

        void string(String s);
    }

    private record TextOut(StringBuilder text) implements Out {
        @Override
        public void append(char c) {
            text.append(c);
        }

        @Override
        public void append(String ascii) {
            text.append(ascii);
        }

        @Override
        public void string(String s) {
            quote(s, text);
        }
    }

    /**
     * UTF-8 bytes. Strings are quoted on their UTF-8 bytes, eight at a time where none needs escaping; only
     * those with a lone surrogate go through {@link #quote}. A long string met again (a card's top-level copies of its
     * {@code data} fields are the same strings) is copied from where it was first written.
     */
    private static final class Utf8Out implements Out {
        private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
        private static final long ONES = 0x0101010101010101L;
        private static final long HIGHS = 0x8080808080808080L;
        private static final int REUSED_LENGTH = 256;
        /** Each thread's buffer, kept between documents up to this size: no regrowing it for every card. */
        private static final int KEPT_BUFFER = 64 << 10;
        private static final ThreadLocal<byte[]> BUFFERS = ThreadLocal.withInitial(() -> new byte[16 << 10]);

        private byte[] bytes = BUFFERS.get();
        private int size;
        /** Where long strings were written: offset and length. */
        private IdentityHashMap<String, long[]> written;

        @Override
        public void append(char c) {
            room(1);
            bytes[size++] = (byte) c;
        }

        @Override
        public void append(String ascii) {
            room(ascii.length());
            ascii.getBytes(0, ascii.length(), bytes, size); // ASCII: the deprecated copy is exact, and fast
            size += ascii.length();
        }

        @Override
        public void string(String s) {
            boolean reused = s.length() >= REUSED_LENGTH;
            if (reused) {
                written = written == null ? new IdentityHashMap<>() : written;
                long[] at = written.get(s);
                if (at != null) {
                    write(bytes, (int) at[0], (int) at[1]);
                    return;
                }
            }
            int start = size;
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            if (!quoteUtf8(s, utf8)) {
                StringBuilder quoted = new StringBuilder(s.length() + 16);
                quote(s, quoted);
                byte[] encoded = quoted.toString().getBytes(StandardCharsets.UTF_8);
                write(encoded, 0, encoded.length);
            }
            if (reused) {
                written.put(s, new long[]{start, size - start});
            }
        }

        /**
         * Quotes a string's UTF-8 bytes, which JSON.stringify leaves as they are but for {@code "}, {@code \} and
         * controls; false, having written nothing, when the encoder turned a lone surrogate (which JSON.stringify
         * escapes) into {@code ?}. Without the string ({@code s} null), the bytes are known to be well-formed.
         */
        private boolean quoteUtf8(String s, byte[] utf8) {
            int start = size;
            room(utf8.length + 2);
            bytes[size++] = '"';
            int run = 0;
            int i = 0;
            boolean questionsChecked = false;
            while (i < utf8.length) {
                if (i + 8 <= utf8.length && !special((long) LONGS.get(utf8, i))) {
                    i += 8;
                    continue;
                }
                for (int stop = Math.min(utf8.length, i + 8); i < stop; i++) {
                    byte c = utf8[i];
                    if (c < 0 || c >= 0x20 && c != '"' && c != '\\' && c != '?') { // non-ASCII bytes are negative
                        continue;
                    }
                    if (c == '?') {
                        if (s == null || questionsChecked || (questionsChecked = count(utf8, (byte) '?') == count(s, '?'))) {
                            continue;
                        }
                        size = start;
                        return false;
                    }
                    write(utf8, run, i - run);
                    run = i + 1;
                    escape(c);
                }
            }
            write(utf8, run, utf8.length - run);
            append('"');
            return true;
        }

        private static int count(byte[] bytes, byte value) {
            int count = 0;
            for (int i = ByteScan.indexOf(bytes, 0, bytes.length, value); i < bytes.length;
                 i = ByteScan.indexOf(bytes, i + 1, bytes.length, value)) {
                count++;
            }
            return count;
        }

        private static int count(String s, char value) {
            int count = 0;
            for (int i = s.indexOf(value); i >= 0; i = s.indexOf(value, i + 1)) {
                count++;
            }
            return count;
        }

        /** Whether one of eight bytes is an ASCII control character, {@code "}, {@code \\} or {@code ?}. */
        private static boolean special(long w) {
            long control = (w - 0x2020202020202020L) & ~w & HIGHS;
            long quote = w ^ 0x2222222222222222L;
            long backslash = w ^ 0x5c5c5c5c5c5c5c5cL;
            long question = w ^ 0x3f3f3f3f3f3f3f3fL;
            return (control | zeroByte(quote) | zeroByte(backslash) | zeroByte(question)) != 0;
        }

        private static long zeroByte(long w) {
            return (w - ONES) & ~w & HIGHS;
        }

        private void escape(byte c) {
            switch (c) {
                case '"' -> append("\\\"");
                case '\\' -> append("\\\\");
                case '\b' -> append("\\b");
                case '\f' -> append("\\f");
                case '\n' -> append("\\n");
                case '\r' -> append("\\r");
                case '\t' -> append("\\t");
                default -> {
                    StringBuilder escape = new StringBuilder(6);
                    hexEscape((char) c, escape);
                    append(escape.toString());
                }
            }
        }

        private void write(byte[] source, int offset, int length) {
            room(length);
            System.arraycopy(source, offset, bytes, size, length);
            size += length;
        }

        private void room(int more) {
            if (size + more > bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }

        byte[] toByteArray() {
            if (bytes.length <= KEPT_BUFFER) {
                BUFFERS.set(bytes);
            }
            return java.util.Arrays.copyOf(bytes, size);
        }
    }
}
