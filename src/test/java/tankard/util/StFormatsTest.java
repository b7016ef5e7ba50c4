package tankard.util;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StFormatsTest {
    @Test
    void humanBytesLikeNpmBytes() {
        assertEquals("0B", HumanBytes.format(0));
        assertEquals("236B", HumanBytes.format(236));
        assertEquals("1023B", HumanBytes.format(1023));
        assertEquals("1KB", HumanBytes.format(1024));
        assertEquals("2KB", HumanBytes.format(2048));
        assertEquals("3.05KB", HumanBytes.format(3123));
        assertEquals("1.5KB", HumanBytes.format(1536));
        assertEquals("1.2MB", HumanBytes.format(1_258_291));
        assertEquals("1024KB", HumanBytes.format(1_048_575));
    }

    @Test
    void lenientBase64AcceptsWhatNodeAccepts() {
        assertEquals("hello?>", decode("aGVsbG8/Pg=="));
        assertEquals("hello?>", decode("aGVs\nbG8_Pg"));
        assertEquals("hello?>", decode(" aGVsbG8/Pg== trailing"));
        assertEquals("a", decode("YQ==YQ=="));
        assertEquals("", decode("Y"));
    }

    private static String decode(String s) {
        return new String(LenientBase64.decode(s), StandardCharsets.UTF_8);
    }

    @Test
    void sanitizeChecksForRequestNames() {
        assertEquals(true, Sanitize.hasForbiddenChars("a/b"));
        assertEquals(true, Sanitize.hasForbiddenChars("a\\b"));
        assertEquals(true, Sanitize.hasForbiddenChars("a\0b"));
        assertEquals(false, Sanitize.hasForbiddenChars("a:b?.png"));
        assertEquals(false, Sanitize.isSafeSegment(".."));
        assertEquals(false, Sanitize.isSafeSegment("."));
        assertEquals(false, Sanitize.isSafeSegment(""));
        assertEquals(true, Sanitize.isSafeSegment("..a"));
    }
}
