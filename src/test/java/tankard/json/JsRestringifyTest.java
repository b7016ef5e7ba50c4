package tankard.json;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Expected values are what Node 22 prints for {@code JSON.stringify(JSON.parse(text))}. */
class JsRestringifyTest {
    private static String restringify(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return new String(JsRestringify.restringify(bytes, 0, bytes.length), StandardCharsets.UTF_8);
    }

    private static boolean canonical(String text) {
        return canonical(text.getBytes(StandardCharsets.UTF_8));
    }

    private static boolean canonical(byte[] bytes) {
        return JsRestringify.isCanonical(bytes, 0, bytes.length);
    }

    @Test
    void numbersArePrintedAsJavaScriptDoubles() {
        String in = "{\"a\":1.0,\"b\":1e21,\"c\":-0,\"d\":1E+2,\"e\":0.1e1,\"f\":9007199254740993,\"g\":1e-7,"
                + "\"h\":123456789012345678901234}";
        assertEquals("{\"a\":1,\"b\":1e+21,\"c\":0,\"d\":100,\"e\":1,\"f\":9007199254740992,\"g\":1e-7,"
                + "\"h\":1.2345678901234569e+23}", restringify(in));
        assertFalse(canonical(in));
        assertEquals("{\"n\":null,\"m\":0,\"o\":5e-324,\"p\":0.30000000000000004,\"q\":1.7976931348623157e+308}",
                restringify("{\"n\":1e400,\"m\":-1e-400,\"o\":5e-324,\"p\":0.30000000000000004,\"q\":1.7976931348623157e308}"));
        for (String same : new String[]{"[0]", "[-1]", "[123456789012345]", "[0.5]", "[1e+21]", "[1.5e-7]",
                "[0.30000000000000004]", "[851234567890123400]", "[-1.7976931348623157e+308]"}) {
            assertTrue(canonical(same), same);
            assertEquals(same, restringify(same));
        }
        for (String other : new String[]{"[-0]", "[1.0]", "[1E5]", "[1e21]", "[01]", "[9007199254740993]", "[0.1e1]"}) {
            assertFalse(canonical(other), other);
        }
    }

    @Test
    void keysAreOrderedAndDeduplicatedAsInJavaScript() {
        assertEquals("{\"x\":2,\"a\":0}", restringify("{\"x\":1,\"a\":0,\"x\":2}"));
        assertFalse(canonical("{\"x\":1,\"a\":0,\"x\":2}"));
        assertEquals("{\"1\":1,\"2\":2,\"4294967294\":4,\"b\":1,\"01\":3,\"4294967295\":5}",
                restringify("{\"b\":1,\"2\":2,\"1\":1,\"01\":3,\"4294967295\":5,\"4294967294\":4}"));
        assertTrue(canonical("{\"__proto__\":{\"p\":1},\"x\":{\"x\":{}}}"), "the same key in nested objects");
        assertEquals("{\"__proto__\":{\"p\":1}}", restringify("{\"__proto__\":{\"p\":1}}"));
    }

    @Test
    void stringsAreEscapedAsJavaScriptDoes() {
        String in = "{\"s\":\"\\u00e9\\/\\u2028\\u001F\\u0008\\ud83d\\ude00\\ud800 \\udc00x\"}";
        assertEquals("{\"s\":\"é/\u2028\\u001f\\b😀\\ud800 \\udc00x\"}", restringify(in));
        assertFalse(canonical(in));
        String out = restringify(in);
        assertTrue(canonical(out), "lone surrogates and controls stay escaped");
        assertEquals(out, restringify(out));
        assertTrue(canonical("[\"\\\"\\\\\\b\\f\\n\\r\\t\\u0000\\u001f é😀\u2028\"]"));
        assertFalse(canonical("[\"\\u00E9\"]"));
        assertFalse(canonical("[\"\\u001F\"]"), "uppercase hex");
    }

    @Test
    void invalidUtf8IsReadAsReplacementCharacters() {
        byte[] bad = {'[', '"', 'a', (byte) 0xC3, '"', ',', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', ']'};
        assertFalse(canonical(bad));
        assertEquals("[\"a\uFFFD\",\"\uFFFD\uFFFD\uFFFD\"]",
                new String(JsRestringify.restringify(bad, 0, bad.length), StandardCharsets.UTF_8));
    }

    @Test
    void whitespaceAndScalarsGoThroughTheParser() {
        assertEquals("[1,{\"k\":[]}]", restringify("[ 1 , { \"k\" : [ ] } ]"));
        assertFalse(canonical("[ 1 ]"));
        assertFalse(canonical("\"text\""));
        assertEquals("\"text\"", restringify("\"text\""));
        assertThrows(JsonSyntaxException.class, () -> restringify("{broken"));
        assertThrows(JsonSyntaxException.class, () -> restringify("{} {}"));
        for (String invalid : new String[]{"{", "[1,]", "{\"a\"}", "{\"a\":}", "[tru]", "[1.]", "[.5]", "[\"\t\"]",
                "[\"\\x\"]", "[\"\\u12\"]", "{\"a\":1,}", "[1]x", "[nul]", "{\"a\" :1}"}) {
            assertFalse(canonical(invalid), invalid);
        }
    }

    /** The scanner's one promise: whatever it calls canonical, restringifying gives back unchanged. */
    @Test
    void canonicalTextNeverChangesWhenRestringified() {
        Random random = new Random(42);
        String[] seeds = {
                "{\"name\":\"Bramble\",\"is_user\":false,\"mes\":\"Hi \\\"there\\\"\\n😀\",\"swipe_id\":0,"
                        + "\"extra\":{\"gen_id\":1700000000000,\"score\":0.125,\"list\":[1,-2,3e-7,null,true]}}",
                "[{\"a\":{\"b\":[[],{}]}},\"\\u0001\\ud800\",-0.5,1e+300]",
        };
        int canonicalCount = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] text = seeds[round % seeds.length].getBytes(StandardCharsets.UTF_8);
            int edits = 1 + random.nextInt(3);
            for (int e = 0; e < edits; e++) {
                byte[] alphabet = "{}[],:\"\\0123456789-+.eEtfnul ux\u00e9".getBytes(StandardCharsets.UTF_8);
                text[random.nextInt(text.length)] = alphabet[random.nextInt(alphabet.length)];
            }
            if (canonical(text)) {
                canonicalCount++;
                assertArrayEquals(text, JsRestringify.restringify(text, 0, text.length), new String(text, StandardCharsets.UTF_8));
            }
        }
        assertTrue(canonicalCount > 100, "the mutations keep some texts valid: " + canonicalCount);
    }
}
