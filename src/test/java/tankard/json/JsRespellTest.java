package tankard.json;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link JsRespell} against the parse-and-print route it stands in for ({@link JsRestringifyTest} holds that route
 * to what Node prints): the same bytes for every spelling it reads, and null wherever only the parse can tell.
 */
class JsRespellTest {
    private static final String[] NUMBERS = {"0", "-0", "-0.0", "1", "1.0", "1e2", "1E+2", "1e-7", "0.1e1", "-12.50",
            "9007199254740993", "123456789012345678901234", "1e21", "1e400", "-1e-400", "5e-324", "0.30000000000000004",
            "1.7976931348623157e308", "100", "0.000001", "1.5E-7", "42"};
    private static final String[] TEXTS = {"", "plain", "quote \" and backslash \\", "line\nfeed\ttab\r\b\f",
            "\u0000\u001f\u007f", "é ü ß", "日本語", "😀 pair", "\u2028\u2029", "slash / here", "\ud800 lone high",
            "lone low \udc00", "</script>"};

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] respell(byte[] text) {
        return JsRespell.respell(text, 0, text.length);
    }

    /** What the parse-and-print route makes of it; null when that refuses it. */
    private static byte[] parsedAndPrinted(byte[] text) {
        try {
            return JsJson.stringifyAsJs(JsRestringify.parse(text, 0, text.length)).getBytes(StandardCharsets.UTF_8);
        } catch (JsonSyntaxException notJson) {
            return null;
        }
    }

    @Test
    void everySpellingOfAValueIsRespelledAsTheParsedValueIsPrinted() {
        Random random = new Random(7);
        for (int round = 0; round < 3_000; round++) {
            Object value = value(random, 0);
            for (Spelling spelling : Spelling.values()) {
                StringBuilder text = new StringBuilder();
                spelling.write(value, text, random, 0);
                byte[] spelled = bytes(text.toString());
                byte[] respelled = respell(spelled);
                assertNotNull(respelled, () -> spelling + ": " + text);
                assertArrayEquals(parsedAndPrinted(spelled), respelled, () -> spelling + ": " + text);
            }
        }
    }

    @Test
    void eachFormOfNumberAndEscapeIsWrittenAsJavaScriptWritesIt() {
        String in = "{ \"a\" : 1.0 , \"b\" : 1E+2, \"c\": -0, \"d\": 1e400, \"e\": 0.1e1, \"f\": 9007199254740993,\n"
                + "\t\"s\": \"\\u00E9\\/\\u2028\\u001F\\u0008\\uD83D\\uDE00\\uD800 \\uDC00\\u0022\\u005c\\u000A\" }";
        assertEquals("{\"a\":1,\"b\":100,\"c\":0,\"d\":null,\"e\":1,\"f\":9007199254740992,"
                + "\"s\":\"é/\u2028\\u001f\\b😀\\ud800 \\udc00\\\"\\\\\\n\"}", new String(respell(bytes(in)), StandardCharsets.UTF_8));
        assertEquals("\"top\"", new String(respell(bytes("  \"top\"\r\n")), StandardCharsets.UTF_8), "scalars and outer space");
    }

    @Test
    void whatOnlyAParseCanTellIsLeftToIt() {
        for (String parsed : new String[]{"{\"x\":1,\"a\":0,\"x\":2}", "{\"x\":1,\"\\u0078\":2}", "{\"b\":1,\"2\":2}",
                "\ufeff{}", "[".repeat(600) + "]".repeat(600)}) {
            assertNull(respell(bytes(parsed)), parsed);
            if (!parsed.startsWith("\ufeff")) {
                assertNotNull(parsedAndPrinted(bytes(parsed)), parsed);
            }
        }
        byte[] badUtf8 = {'[', '"', 'a', (byte) 0xC3, '"', ']'};
        assertNull(respell(badUtf8), "Node reads it as U+FFFD: the parse does that");
        for (String invalid : new String[]{"{", "[1,]", "{\"a\"}", "{\"a\":}", "[tru]", "[1.]", "[.5]", "[01]", "[+1]",
                "[\"\t\"]", "[\"\\x\"]", "[\"\\u12\"]", "{\"a\":1,}", "[1]x", "[nul]", "['a']", "[NaN]", "", "  "}) {
            assertNull(respell(bytes(invalid)), invalid);
            assertNull(parsedAndPrinted(bytes(invalid)), invalid);
        }
    }

    /** Texts a few bytes away from valid JSON in other spellings: whatever it answers is what the parse prints. */
    @Test
    void aTextItAnswersIsOneTheParsePrintsTheSame() {
        Random random = new Random(42);
        String[] seeds = {
                "{ \"name\" : \"Bramble\", \"is_user\": false, \"mes\": \"Hi \\\"there\\\"\\n\\ud83d\\ude00\",\n"
                        + "  \"swipe_id\": 0, \"extra\": { \"gen_id\": 1.7e12, \"score\": 0.1250, \"list\": [1, -2, 3E-7, null, true] } }",
                "[ {\"a\": {\"b\": [ [ ], { } ] } }, \"\\u0001\\uD800\\/\", -0.50, 1e300 ]",
        };
        byte[] alphabet = bytes("{}[],:\"\\0123456789-+.eEtfnul uxAD \n\t\u00e9");
        int answered = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] text = bytes(seeds[round % seeds.length]);
            for (int edits = 1 + random.nextInt(3); edits > 0; edits--) {
                text[random.nextInt(text.length)] = alphabet[random.nextInt(alphabet.length)];
            }
            byte[] respelled = respell(text);
            if (respelled != null) {
                answered++;
                assertArrayEquals(parsedAndPrinted(text), respelled, new String(text, StandardCharsets.UTF_8));
            }
        }
        assertTrue(answered > 1_000, "the mutations keep some texts valid: " + answered);
    }

    /** A random JSON value: maps with distinct keys that are not integer-like, lists, strings, number lexemes. */
    private static Object value(Random random, int depth) {
        int kind = random.nextInt(depth > 3 ? 4 : 6);
        switch (kind) {
            case 0:
                return TEXTS[random.nextInt(TEXTS.length)] + random.nextInt(10);
            case 1:
                return new Lexeme(NUMBERS[random.nextInt(NUMBERS.length)]);
            case 2:
                return random.nextBoolean() ? Boolean.TRUE : random.nextBoolean() ? Boolean.FALSE : null;
            case 3:
                return new Lexeme(Integer.toString(random.nextInt(2000) - 1000));
            case 4: {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    map.put("k" + TEXTS[random.nextInt(TEXTS.length)] + map.size(), value(random, depth + 1));
                }
                return map;
            }
            default: {
                List<Object> list = new ArrayList<>();
                for (int i = random.nextInt(5); i > 0; i--) {
                    list.add(value(random, depth + 1));
                }
                return list;
            }
        }
    }

    private record Lexeme(String text) {
    }

    /** Ways other writers spell JSON. */
    private enum Spelling {
        /** Python's json.dumps: ", " and ": ", every non-ASCII character as a lowercase escape. */
        PYTHON(", ", ": ", "", true, false),
        /** Pretty with tabs and CRLF, uppercase escapes, "\/". */
        PRETTY(",\r\n\t", " : ", "\t", true, true),
        /** Compact, raw UTF-8 and JSON.stringify's escapes: what ST writes. */
        COMPACT(",", ":", "", false, false);

        private final String comma;
        private final String colon;
        private final String indent;
        private final boolean asciiOnly;
        private final boolean upperAndSlash;

        Spelling(String comma, String colon, String indent, boolean asciiOnly, boolean upperAndSlash) {
            this.comma = comma;
            this.colon = colon;
            this.indent = indent;
            this.asciiOnly = asciiOnly;
            this.upperAndSlash = upperAndSlash;
        }

        void write(Object value, StringBuilder out, Random random, int depth) {
            if (value instanceof Map<?, ?> map) {
                out.append('{').append(indent);
                String separator = "";
                for (Map.Entry<?, ?> member : map.entrySet()) {
                    out.append(separator);
                    string((String) member.getKey(), out);
                    out.append(colon);
                    write(member.getValue(), out, random, depth + 1);
                    separator = comma;
                }
                out.append(indent).append('}');
            } else if (value instanceof List<?> list) {
                out.append('[');
                String separator = "";
                for (Object element : list) {
                    out.append(separator);
                    write(element, out, random, depth + 1);
                    separator = comma;
                }
                out.append(']');
            } else if (value instanceof String s) {
                string(s, out);
            } else if (value instanceof Lexeme lexeme) {
                out.append(this == COMPACT ? JsJson.jsNumber(Double.parseDouble(lexeme.text())) : lexeme.text());
            } else {
                out.append(value);
            }
        }

        private void string(String s, StringBuilder out) {
            if (this == COMPACT) {
                JsJson.quote(s, out);
                return;
            }
            out.append('"');
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                } else if (c == '/' && upperAndSlash) {
                    out.append("\\/");
                } else if (c == '\n') {
                    out.append("\\n");
                } else if (c < 0x20 || c > 0x7e && asciiOnly || Character.isSurrogate(c)) {
                    String hex = String.format("%04x", (int) c);
                    out.append("\\u").append(upperAndSlash ? hex.toUpperCase() : hex);
                } else {
                    out.append(c);
                }
            }
            out.append('"');
        }
    }
}
