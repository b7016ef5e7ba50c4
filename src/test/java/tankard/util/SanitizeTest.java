package tankard.util;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link Sanitize#filename} against what ST 1.18.0's sanitize-filename answers for the same input. */
class SanitizeTest {
    @Test
    void dropsWhatStDrops() {
        assertEquals("NightShift v2", Sanitize.filename("Night/Shift: v2?"));
        assertEquals("..Outside Atlas.json", Sanitize.filename("../Outside Atlas.json"));
        assertEquals("....settings.json", Sanitize.filename("../../settings.json"));
        assertEquals("qz", Sanitize.filename("q:*?\"<>|\\z"));
        assertEquals("ctlend", Sanitize.filename("ctl\u0000\u001f\u0085\u009fend"));
        assertEquals("prn", Sanitize.filename("prn "), "the trailing space goes after the reserved-name test");
        assertEquals(" nul", Sanitize.filename(" nul"));
        assertEquals("conx", Sanitize.filename("conx"));
    }

    @Test
    void reservedNamesCleanToNothing() {
        for (String name : new String[] {"..", "...", " . ", "con", "Con.txt", "aux.json", "COM1", "com0", "lpt1.txt",
                "lpt9.a.b", "nul.txt."}) {
            assertEquals("", Sanitize.filename(name), name);
        }
    }

    @Test
    void aLineSeparatorAtTheEndIsNoEndOfInput() {
        // JavaScript's $ matches only at the very end; Java's would also match before a final U+2028
        assertEquals("con.\u2028", Sanitize.filename("con.\u2028"));
        assertEquals("a. \u2028", Sanitize.filename("a. \u2028"));
        assertEquals(".\u2028", Sanitize.filename(".\u2028"));
    }

    @Test
    void cutsTo255BytesOfUtf8WithoutSplittingACharacter() {
        assertEquals("x".repeat(255), Sanitize.filename("x".repeat(300)));
        assertEquals("x".repeat(253) + "é", Sanitize.filename("x".repeat(253) + "éé"));
        assertEquals("x".repeat(252), Sanitize.filename("x".repeat(252) + "\uD83D\uDE00"));
        // Node counts a lone surrogate as the 3 bytes of U+FFFD
        assertEquals("x".repeat(254), Sanitize.filename("x".repeat(254) + "\uD800b"));
        assertEquals(255, Sanitize.utf8Length("x".repeat(253) + "é"));
    }
}
