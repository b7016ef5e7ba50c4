package tankard.util;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class JsLocaleTest {
    /** Orders taken from Node 22 (ICU 78, en-US): {@code names.sort((a, b) => a.localeCompare(b))}. */
    @Test
    void sortsLikeJavaScriptLocaleCompare() {
        List<String> names = new ArrayList<>(List.of("ab.json", "a b.json", "a-b.json", "a_b.json", "A.json", "a.json",
                "B.json", "_x.json", "1.json", "10.json", "9.json", "Zed.json", "émile.json", "ezra.json", "Default.json",
                "default.json"));
        names.sort(JsLocale.comparator());
        assertEquals(List.of("_x.json", "1.json", "10.json", "9.json", "a b.json", "a_b.json", "a-b.json", "a.json",
                "A.json", "ab.json", "B.json", "default.json", "Default.json", "émile.json", "ezra.json", "Zed.json"), names);
    }

    @Test
    void asciiPunctuationFollowsIcuRootOrder() {
        List<String> chars = new ArrayList<>();
        for (char c = 32; c < 127; c++) {
            chars.add(String.valueOf(c));
        }
        chars.sort(JsLocale.comparator());
        assertEquals(" _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ",
                String.join("", chars));
    }

    @Test
    void nodePathExtensions() {
        assertEquals("", FileNames.ext(".json"));
        assertEquals(".json", FileNames.ext("..json"));
        assertEquals(".", FileNames.base("..json"));
        assertEquals(".bak", FileNames.ext("a.json.bak"));
        assertEquals("a.json", FileNames.base("a.json.bak"));
        assertEquals("", FileNames.ext(".."));
        assertEquals("noext", FileNames.base("noext"));
    }
}
