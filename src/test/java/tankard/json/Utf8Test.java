package tankard.json;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Utf8Test {
    /** The JDK's decoder, told to report what it would replace. */
    private static boolean decodesStrictly(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Test
    void wellFormedTextIsAccepted() {
        for (String text : new String[]{"", "plain ASCII, longer than one word of eight", "é", "日本語", "\ud83d\ude00",
                "\u007f\u0080\u07ff\u0800\uffff", "\udbff\udfff", "\ufeff{\"name\":\"Ω\"}"}) {
            assertTrue(Utf8.isWellFormed(text.getBytes(StandardCharsets.UTF_8)), text);
        }
    }

    @Test
    void illFormedSequencesAreRefused() {
        int[][] cases = {{0x80}, {0xC0, 0x80}, {0xC1, 0xBF}, {0xE0, 0x80, 0x80}, {0xED, 0xA0, 0x80}, {0xF0, 0x80, 0x80, 0x80},
                {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0xFF}, {0xE2, 0x82}, {0xC3}, {0xE2, 0x28, 0xA1}};
        for (int[] sequence : cases) {
            byte[] bytes = new byte[sequence.length + 9];
            for (int i = 0; i < 8; i++) { // an ASCII word before it: the fast path hands over
                bytes[i] = 'a';
            }
            for (int i = 0; i < sequence.length; i++) {
                bytes[8 + i] = (byte) sequence[i];
            }
            bytes[bytes.length - 1] = 'z';
            assertFalse(Utf8.isWellFormed(bytes), java.util.Arrays.toString(sequence));
        }
    }

    @Test
    void agreesWithTheJdkDecoderOnRandomBytes() {
        Random random = new Random(42);
        byte[] pieces = "aé日\ud83d\ude00".getBytes(StandardCharsets.UTF_8);
        for (int round = 0; round < 20_000; round++) {
            byte[] bytes = new byte[random.nextInt(24)];
            for (int i = 0; i < bytes.length; i++) {
                // mostly pieces of real UTF-8, sometimes any byte: both sides of the line are reached
                bytes[i] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : pieces[random.nextInt(pieces.length)];
            }
            assertEquals(decodesStrictly(bytes), Utf8.isWellFormed(bytes), java.util.HexFormat.of().formatHex(bytes));
        }
    }
}
