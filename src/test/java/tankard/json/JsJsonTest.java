package tankard.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class JsJsonTest {
    private static String prettyTree(String json) {
        return JsJson.pretty(JsJson.parse(json));
    }

    private static String relayout(String json) {
        return JsJson.relayout(json.getBytes(StandardCharsets.UTF_8), true);
    }

    @Test
    void prettyLayoutIsJsonStringifyWithFourSpaces() {
        String expected = "{\n    \"name\": \"Example\",\n    \"tags\": [],\n    \"nested\": {\n        \"list\": [\n"
                + "            1,\n            \"two\"\n        ]\n    },\n    \"empty\": {}\n}";
        String input = "{\"name\":\"Example\",\"tags\":[],\"nested\":{\"list\":[1,\"two\"]},\"empty\":{}}";
        assertEquals(expected, prettyTree(input));
        assertEquals(expected, relayout(input));
    }

    @Test
    void compactHasNoWhitespace() {
        assertEquals("{\"a\":[1,{\"b\":null}],\"c\":true}", JsJson.compact(JsJson.parse("{ \"a\" : [ 1 , { \"b\" : null } ] , \"c\" : true }")));
    }

    @Test
    void numbersPrintAsJavaScriptDoes() {
        assertEquals("[1,0.1,0.30000000000000004,100,1e+21,1.5e-7,0.000001,851234567890123400,-0.5,0]",
                JsJson.compact(JsJson.parse("[1.0,0.1,0.30000000000000004,1e2,1e21,1.5e-7,0.000001,851234567890123400,-0.50,-0]")));
        assertEquals("1e+21", JsJson.decimal(1e21));
        assertEquals("123456789012345680000", JsJson.decimal(1.2345678901234568e20));
        assertEquals("5e-324", JsJson.decimal(Double.MIN_VALUE));
        assertEquals("null", JsJson.decimal(Double.NaN));
    }

    @Test
    void bigIntegersSurviveUnchanged() {
        assertEquals("[12345678901234567890123]", JsJson.compact(JsJson.parse("[12345678901234567890123]")));
        assertEquals("{\n    \"gen_id\": 1700000000000123456789\n}", relayout("{\"gen_id\":1700000000000123456789}"));
    }

    @Test
    void relayoutKeepsNumberLexemes() {
        assertEquals("[\n    1.50,\n    1e-7\n]", relayout("[1.50,1e-7]"));
    }

    @Test
    void stringsEscapeLikeJavaScript() {
        String input = "\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001 \\u001F é / < \\u2028 \\ud83d\\ude00 \\ud800\"";
        assertEquals("\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001 \\u001f é / < \u2028 \uD83D\uDE00 \\ud800\"",
                JsJson.compact(JsJson.parse(input)));
        assertEquals("\"q\\\" b\\\\ \\b\\f\\n\\r\\t \\u0001 \\u001f é / < \u2028 \uD83D\uDE00 \\ud800\"",
                relayout(input));
    }

    @Test
    void escapesAtTheEdgesAndLoneSurrogatesOfEitherKind() {
        StringBuilder out = new StringBuilder();
        JsJson.quote("\n\udc00x\ud83d\ude00\"\ud83d", out);
        assertEquals("\"\\n\\udc00x\ud83d\ude00\\\"\\ud83d\"", out.toString());
        out.setLength(0);
        JsJson.quote("", out);
        assertEquals("\"\"", out.toString());
    }

    @Test
    void compactBytesAreTheUtf8OfTheCompactText() {
        // Strings take the byte path, those with a lone surrogate the text path; both must give the same bytes.
        String[] strings = {"", "plain", "q\" b\\ \b\f\n\r\t \u0001\u001f end", "?", "a?b", "?\ud800", "x\udc00?",
                "é", "\u2028 \ud83d\ude00", "\"\u007f\u0080", "\n\ud83d", "é?", "日本語\"\\\n?\u0001 ¿",
                "é\ud800", "?é?\udfff", "\ud83d\ude00?", "Ω".repeat(40) + "\t" + "ü".repeat(9)};
        ObjectNode object = JsJson.object();
        for (String s : strings) {
            object.put(s, s);
            assertArrayEquals(JsJson.compact(TextNode.valueOf(s)).getBytes(StandardCharsets.UTF_8),
                    JsJson.compactBytes(TextNode.valueOf(s)), s);
        }
        object.putArray("list").add(1.5).add(true).add(JsJson.object()).addNull().add(JsJson.array());
        // Long strings, specials at every position of an eight-byte word, and one string written twice.
        String words = "0123456\"89abcdef\\hijklmn\u0007pqrstuv?xyz" + "z".repeat(300) + "\n";
        TextNode twice = TextNode.valueOf(words);
        for (int shift = 0; shift < 9; shift++) {
            String shifted = "s".repeat(shift) + words;
            object.put("shift" + shift, shifted);
            assertArrayEquals(JsJson.compact(TextNode.valueOf(shifted)).getBytes(StandardCharsets.UTF_8),
                    JsJson.compactBytes(TextNode.valueOf(shifted)));
        }
        object.set("once", twice);
        object.putObject("nested").set("again", twice);
        object.put("long lone surrogate", "x".repeat(300) + "\ud800" + "y".repeat(20));
        assertArrayEquals(JsJson.compact(object).getBytes(StandardCharsets.UTF_8), JsJson.compactBytes(object));
        // Documents of every size one after the other (the thread's buffer is reused, and regrown past its size)
        for (int size : new int[]{100_000, 10, 70_000, 20_000, 0}) {
            ObjectNode sized = JsJson.object().put("s", "y".repeat(size));
            assertArrayEquals(JsJson.compact(sized).getBytes(StandardCharsets.UTF_8), JsJson.compactBytes(sized));
        }
    }

    @Test
    void arrayIndexKeysComeFirstInTreeOutput() {
        assertEquals("{\"1\":\"b\",\"2\":\"c\",\"x\":1,\"1700000000000\":2,\"01\":3}",
                JsJson.compact(JsJson.parse("{\"x\":1,\"2\":\"c\",\"1700000000000\":2,\"1\":\"b\",\"01\":3}")));
    }

    @Test
    void malformedInputIsASyntaxError() {
        assertThrows(JsonSyntaxException.class, () -> JsJson.parse("{\"a\":"));
        assertThrows(JsonSyntaxException.class, () -> JsJson.parse("{} {}"));
        assertThrows(JsonSyntaxException.class, () -> JsJson.parse(""));
        assertThrows(JsonSyntaxException.class, () -> JsJson.relayout("[1,".getBytes(StandardCharsets.UTF_8), true));
    }

    @Test
    void aFloatPrintsAsJavaScriptPrintsItsShortestDecimal() {
        assertEquals("0 0 1 0.1 0.00087 1e-7 15000000 3.4e+38 1e+21 100000000000000000000 -0.000025 1.4e-45",
                String.join(" ", java.util.stream.Stream.of(0f, -0f, 1f, 0.1f, 8.7e-4f, 1e-7f, 1.5e7f, 3.4e38f,
                        1e21f, 1e20f, -2.5e-5f, 1e-45f).map(JsJson::jsFloat).toList()));
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 200_000; i++) {
            float f = Float.intBitsToFloat(random.nextInt());
            if (Float.isFinite(f)) {
                String shortest = com.fasterxml.jackson.core.io.NumberOutput.toString(f, true);
                assertEquals(JsJson.jsNumber(Double.parseDouble(shortest)), JsJson.jsFloat(f), shortest);
            }
        }
    }
}
