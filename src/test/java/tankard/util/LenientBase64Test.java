package tankard.util;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class LenientBase64Test {
    private static String text(String base64) {
        return new String(LenientBase64.decode(base64), StandardCharsets.UTF_8);
    }

    @Test
    void skipsWhatIsNotInTheAlphabetAndStopsAtTheFirstPad() {
        assertEquals("hello", text(" aGVs\r\nbG8\t"));
        assertEquals("hello", text("aGVsbG8=aGVsbG8="));
        assertEquals("hello", text("aGVsé bG8"));
        assertEquals("", text(""));
        assertEquals("", text("===="));
    }

    @Test
    void strictAndUnpaddedBase64DecodeAsTheLenientLoopDoes() {
        byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) i;
        }
        for (int length = 0; length <= 6; length++) {
            byte[] some = java.util.Arrays.copyOf(bytes, length);
            String padded = java.util.Base64.getEncoder().encodeToString(some);
            assertArrayEquals(some, LenientBase64.decode(padded));
            assertArrayEquals(some, LenientBase64.decode(padded.replace("=", "")));
            assertArrayEquals(some, LenientBase64.decode(new StringBuilder(padded)));
            assertArrayEquals(some, LenientBase64.decode(latin1(" " + padded + " ", 1, padded.length())));
        }
        assertArrayEquals(bytes, LenientBase64.decode(java.util.Base64.getEncoder().encodeToString(bytes)));
        assertEquals("hi", text("aGk"));
        assertEquals("hi", text("aGk=="));
        assertEquals("h", text("aG=k"));
    }

    @Test
    void latin1BytesDecodeAsTheirText() {
        for (String text : new String[]{"aGVsbG8=", " aGVs\r\nbG8\t", "aGVsbG8=aGVsbG8=", "aGVs\u00e9 bG8", "-_8", "Q", "", "aGk=="}) {
            assertArrayEquals(LenientBase64.decode(text), LenientBase64.decode(latin1(text, 0, text.length())), text);
        }
    }

    private static java.nio.ByteBuffer latin1(String text, int from, int length) {
        return java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1), from, length);
    }

    @Test
    void acceptsUrlSafeLettersAndDropsLeftoverBits() {
        assertArrayEquals(new byte[]{(byte) 0xfb, (byte) 0xff}, LenientBase64.decode("-_8"));
        assertArrayEquals(new byte[]{(byte) 0xfb, (byte) 0xff}, LenientBase64.decode("+/8="));
        assertArrayEquals(new byte[0], LenientBase64.decode("Q"));
    }
}
