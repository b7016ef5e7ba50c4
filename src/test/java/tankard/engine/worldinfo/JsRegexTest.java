package tankard.engine.worldinfo;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Each case's answer is what JavaScript's RegExp.test gives for ST's parseRegexFromString of the key. */
class JsRegexTest {
    private static boolean test(String key, String text) {
        return JsRegex.parse(key).test(text);
    }

    @Test
    void dollarMatchesOnlyAtTheVeryEndWithoutMultiline() {
        assertEquals(false, test("/end$/", "the end\n"));
        assertEquals(true, test("/end$/", "the end"));
        assertEquals(true, test("/a$/m", "a\r\nb"));
    }

    @Test
    void caretMatchesAfterLineBreaksOnlyInMultiline() {
        assertEquals(true, test("/^b/m", "a\nb"));
        assertEquals(false, test("/^b/", "a\nb"));
    }

    @Test
    void dotStopsAtLineBreaksUnlessDotAll() {
        assertEquals(false, test("/a.c/", "a\nc"));
        assertEquals(true, test("/a.c/s", "a\nc"));
    }

    @Test
    void whitespaceClassesAreJavaScripts() {
        assertEquals(true, test("/a\\sb/", "a\u00a0b"));
        assertEquals(true, test("/a[\\s]b/", "a\u3000b"));
        assertEquals(false, test("/a\\Sb/", "a\u00a0b"));
        assertEquals(true, test("/a\\vb/", "a\u000bb"));
    }

    @Test
    void emptyClassesAndBracketsInsideClasses() {
        assertEquals(true, test("/x[^]y/", "x\ny"));
        assertEquals(false, test("/x[]y/", "xy"));
        assertEquals(true, test("/[[]x/", "[x"));
        assertEquals(true, test("/[a&&b]/", "&"));
    }

    @Test
    void bracesThatStartNoQuantifierAreLiteral() {
        assertEquals(true, test("/{{user}}/", "hi {{user}}"));
        assertEquals(true, test("/a{2}/", "aa"));
    }

    @Test
    void wordBoundariesAndDigitsAreAscii() {
        assertEquals(true, test("/\\bcat\\b/", "\u00e9cat"));
        assertEquals(true, test("/\\bcat\\b/", "the cat"));
        assertEquals(false, test("/\\d+/", "\u0661\u0662"));
    }

    @Test
    void flagsAndEscapes() {
        assertEquals(false, test("/a/y", "ba"));
        assertEquals(true, test("/a/y", "ab"));
        assertEquals(true, test("/a/gi", "A"));
        assertEquals(true, test("/caf\\u00e9/i", "CAF\u00c9"));
        assertEquals(true, test("/a\\/b/", "a/b"));
        assertEquals(true, test("/\\x41/", "A"));
        assertEquals(true, test("/\\Qx/", "Qx"));
    }

    @Test
    void invalidRegexesAreNoRegexes() {
        assertNull(JsRegex.parse("/a/b/"));
        assertNull(JsRegex.parse("/(unclosed/"));
        assertNull(JsRegex.parse("/[a-z/"));
        assertNull(JsRegex.parse("/a/gg"));
        assertNull(JsRegex.parse("plain"));
    }
}
