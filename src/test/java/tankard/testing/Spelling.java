package tankard.testing;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import tankard.json.JsJson;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Ways other tools spell the same JSON value, for tests and benches that feed Tankard files and bodies not written
 * by {@code JSON.stringify}. Every spelling but {@link #REORDERED} parses to the very value it was given, so ST
 * answers it as it answers that value's {@code JSON.stringify} ({@link #asSt}).
 */
public enum Spelling {
    /** As {@code JSON.stringify} writes it, which is how ST writes JSON. */
    AS_ST,
    /** As Python's {@code json.dumps}: a space after each {@code ,} and {@code :}, non-ASCII as escapes. */
    PYTHON,
    /** Every character of every string and key as a {@code \\u} escape in upper case, with tabs and spaces between tokens. */
    ESCAPED,
    /** Numbers in other forms: {@code -0} for 0, {@code 1e2} for 100, {@code 7.0} for 7, {@code 0.50} for 0.5. */
    NUMBERS,
    /** The keys of every object in reverse order: another value, which ST keeps in that order. */
    REORDERED;

    private static final ObjectWriter PYTHON_WRITER = JsonMapper.builder()
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
            .build()
            .writer(new DefaultPrettyPrinter(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEntrySpacing(Separators.Spacing.AFTER)
                    .withArrayValueSpacing(Separators.Spacing.AFTER))
                    .withObjectIndenter(DefaultPrettyPrinter.NopIndenter.instance)
                    .withArrayIndenter(DefaultPrettyPrinter.NopIndenter.instance));
    private static final ObjectWriter ESCAPED_WRITER = JsonMapper.builder()
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
            .build()
            .writer(new EveryCharacter())
            .with(new DefaultPrettyPrinter(Separators.createDefaultInstance())
                    .withObjectIndenter(new DefaultPrettyPrinter.FixedSpaceIndenter() {
                        @Override
                        public void writeIndentation(com.fasterxml.jackson.core.JsonGenerator g, int level) throws IOException {
                            g.writeRaw("\t "); // no CR or LF, which end a chat line for ST's line readers
                        }

                        @Override
                        public boolean isInline() {
                            return false;
                        }
                    }));
    private static final ObjectWriter COMPACT_WRITER = JsonMapper.builder().build().writer();

    /** The value's text in this spelling. */
    public String spell(JsonNode value) {
        try {
            return switch (this) {
                case AS_ST -> JsJson.stringifyAsJs(value);
                case PYTHON -> PYTHON_WRITER.writeValueAsString(value);
                case ESCAPED -> ESCAPED_WRITER.writeValueAsString(value);
                case NUMBERS -> COMPACT_WRITER.writeValueAsString(otherNumbers(value));
                case REORDERED -> JsJson.stringifyAsJs(reordered(value));
            };
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JSON text parsed and spelled this way. */
    public String spell(String json) {
        return spell(JsJson.parse(json));
    }

    /** Each line of JSONL text spelled this way; blank lines stay as they are. */
    public String spellLines(String jsonl) {
        List<String> lines = new ArrayList<>();
        for (String line : jsonl.split("\n", -1)) {
            lines.add(line.isBlank() ? line : spell(line));
        }
        return String.join("\n", lines);
    }

    /** The text ST would write for what it reads from this spelling of the value. */
    public String asSt(JsonNode value) {
        return JsJson.stringifyAsJs(this == REORDERED ? reordered(value) : value);
    }

    /** {@link #asSt} of each line. */
    public String asStLines(String jsonl) {
        List<String> lines = new ArrayList<>();
        for (String line : jsonl.split("\n", -1)) {
            lines.add(line.isBlank() ? line : asSt(JsJson.parse(line)));
        }
        return String.join("\n", lines);
    }

    private static JsonNode reordered(JsonNode value) {
        if (value instanceof ObjectNode object) {
            List<Map.Entry<String, JsonNode>> members = new ArrayList<>(object.properties());
            ObjectNode reversed = JsJson.object();
            for (int i = members.size() - 1; i >= 0; i--) {
                reversed.set(members.get(i).getKey(), reordered(members.get(i).getValue()));
            }
            return reversed;
        }
        if (value instanceof ArrayNode array) {
            ArrayNode copy = JsJson.array();
            array.forEach(element -> copy.add(reordered(element)));
            return copy;
        }
        return value;
    }

    private static JsonNode otherNumbers(JsonNode value) {
        if (value instanceof ObjectNode object) {
            ObjectNode copy = JsJson.object();
            object.properties().forEach(member -> copy.set(member.getKey(), otherNumbers(member.getValue())));
            return copy;
        }
        if (value instanceof ArrayNode array) {
            ArrayNode copy = JsJson.array();
            array.forEach(element -> copy.add(otherNumbers(element)));
            return copy;
        }
        if (!value.isNumber()) {
            return value;
        }
        String printed = JsJson.jsNumber(value.doubleValue());
        String other;
        if (printed.equals("0")) {
            other = "-0";
        } else if (printed.contains("e")) {
            int e = printed.indexOf('e');
            String mantissa = printed.substring(0, e);
            other = mantissa + (mantissa.contains(".") ? "0" : ".0") + "E" + printed.substring(e + 1);
        } else if (printed.contains(".")) {
            other = printed + "0";
        } else if (printed.endsWith("00")) {
            other = printed.substring(0, printed.length() - 2) + "e2";
        } else {
            other = printed + ".0";
        }
        return JsJson.MAPPER.getNodeFactory().rawValueNode(new RawValue(other));
    }

    /** Escapes every character, as a tool that writes only ASCII letters and digits might. */
    private static final class EveryCharacter extends CharacterEscapes {
        private final int[] codes = new int[128];

        EveryCharacter() {
            Arrays.fill(codes, CharacterEscapes.ESCAPE_STANDARD);
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return codes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }
}
