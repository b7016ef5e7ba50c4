package tankard.content;

import org.junit.jupiter.api.Test;
import tankard.testing.TestImages;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerchanceCardsTest {
    private static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(content);
        }
        return out.toByteArray();
    }

    @Test
    void aCharacterFileThatInflatesPastTheLimitIsRefused() throws IOException {
        byte[] bomb = gzip(new byte[PerchanceCards.MAX_INFLATED + 1]);
        assertTrue(bomb.length < 100_000, "a small download: " + bomb.length);
        IOException refused = assertThrows(IOException.class, () -> PerchanceCards.character(bomb));
        assertTrue(refused.getMessage().contains("once inflated"), refused.getMessage());
    }

    @Test
    void notAGzipOrNoCharacterIsRefused() throws IOException {
        assertThrows(IOException.class, () -> PerchanceCards.character("{}".getBytes(StandardCharsets.UTF_8)));
        IOException empty = assertThrows(IOException.class, () -> PerchanceCards.character(gzip(new byte[0])));
        assertEquals("Failed to download character: Invalid Perchance character data", empty.getMessage());
        assertEquals("Bob", PerchanceCards.character(gzip("{\"addCharacter\":{\"name\":\"Bob\"}}"
                .getBytes(StandardCharsets.UTF_8))).path("name").asText());
    }

    @Test
    void aPngIsKeptAsItIsAndAnotherImageConverted() throws IOException {
        byte[] png = TestImages.image("png", 3, 2);
        assertArrayEquals(png, PerchanceCards.png(png));
        byte[] converted = PerchanceCards.png(TestImages.image("jpg", 3, 2));
        assertEquals((byte) 0x89, converted[0]);
        assertEquals('P', converted[1]);
        assertThrows(IOException.class, () -> PerchanceCards.png("no image".getBytes(StandardCharsets.UTF_8)));
    }
}
