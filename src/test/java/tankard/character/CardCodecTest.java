package tankard.character;

import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Fixtures;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CardCodecTest {
    private static final String JUNIPER = Fixtures.text("characters/juniper-v3.json");

    @Test
    void jsonCardsKeepTheirTextAndParse() {
        CardData card = CardCodec.readJson(Fixtures.bytes("characters/juniper-v3.json"));
        assertEquals(JUNIPER, card.text());
        assertEquals("Juniper", card.json().get("data").get("name").asText());
        assertThrows(CardFormatException.class, () -> CardCodec.readJson("[]".getBytes(StandardCharsets.UTF_8)));
        assertThrows(CardFormatException.class, () -> CardCodec.readJson("{\"a\":".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void pngCardsReadCcv3First() {
        CardData card = CardCodec.readPng(Fixtures.card("{\"name\":\"v2\"}", JUNIPER));
        assertEquals(JUNIPER, card.text());
        assertEquals("{\"name\":\"v2\"}", CardCodec.readPng(Fixtures.card("{\"name\":\"v2\"}")).text());
    }

    @Test
    void cardFilesReadPiecewiseGiveWhatTheirBytesGive(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        // Text chunks smaller and larger than a read block, before and after a large image chunk.
        String small = "{\"name\":\"small\"}";
        String large = "{\"name\":\"large\",\"description\":\"" + "x".repeat(40_000) + "\"}";
        byte[] image = Fixtures.withText(Fixtures.plainPng(), "Comment", "p".repeat(50_000));
        byte[][] pngs = {Fixtures.card(small, large), Fixtures.card(large, small),
                Fixtures.withText(Fixtures.withText(image, "chara", Fixtures.base64(small)), "ccv3", Fixtures.base64(large)),
                Fixtures.withText(Fixtures.withText(Fixtures.card(small), "Comment", "p".repeat(50_000)), "ccv3", Fixtures.base64(large))};
        for (byte[] png : pngs) {
            java.nio.file.Path file = dir.resolve("card.png");
            java.nio.file.Files.write(file, png);
            String text = new String(CardCodec.readPngText(file), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(text.equals(CardCodec.readPng(png).text()), "the same card as the bytes give");
            assertEquals(png != pngs[1], text.length() > 1000, "the ccv3 chunk's card");
        }
        java.nio.file.Path truncated = dir.resolve("truncated.png");
        byte[] png = Fixtures.card(small, large);
        java.nio.file.Files.write(truncated, java.util.Arrays.copyOf(png, png.length - 30_000));
        assertThrows(CardFormatException.class, () -> CardCodec.readPngText(truncated));
    }

    @Test
    void invalidUtf8IsReadAsReplacementCharacters() {
        byte[] json = {'{', '"', 'n', '"', ':', '"', (byte) 0xff, '"', '}'};
        String base64 = java.util.Base64.getEncoder().encodeToString(json);
        CardData card = CardCodec.readPng(Fixtures.withText(Fixtures.plainPng(), "chara", base64));
        assertEquals("\uFFFD", card.json().get("n").asText());
        assertEquals("{\"n\":\"\uFFFD\"}", card.text());
        // an encoded surrogate, which a JSON parser reading bytes would take as it is
        byte[] surrogate = {'{', '"', 'n', '"', ':', '"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"', '}'};
        CardData decoded = CardCodec.readPng(Fixtures.withText(Fixtures.plainPng(), "chara",
                java.util.Base64.getEncoder().encodeToString(surrogate)));
        String replaced = new String(surrogate, java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(replaced, decoded.text());
        assertEquals(replaced.substring(6, replaced.length() - 2), decoded.json().get("n").asText());
    }

    @Test
    void textChunkWithNulIsUnreadable() {
        byte[] png = Fixtures.withText(Fixtures.plainPng(), "chara", Fixtures.base64("{}") + "\0x");
        assertThrows(CardFormatException.class, () -> CardCodec.readPng(png));
        String card = Fixtures.base64("{\"name\":\"" + "n".repeat(100) + "\"}");
        for (int at = 0; at < 17; at++) { // at every place in a word of eight
            byte[] nul = Fixtures.withText(Fixtures.plainPng(), "chara", card.substring(0, 40 + at) + "\0" + card.substring(40 + at));
            assertThrows(CardFormatException.class, () -> CardCodec.readPng(nul));
        }
    }

    @Test
    void cacheStaysWithinItsBudget() {
        CardData small = CardCodec.readJson("{\"name\":\"a\"}".getBytes(StandardCharsets.UTF_8));
        CardCache cache = new CardCache(small.weight() * 2);
        CardCache.Key a = new CardCache.Key("u", "a.png", 1, 10);
        CardCache.Key b = new CardCache.Key("u", "b.png", 1, 10);
        CardCache.Key c = new CardCache.Key("u", "c.png", 1, 10);
        cache.put(a, small);
        cache.put(b, small);
        assertSame(small, cache.get(a)); // a is now the most recently used
        cache.put(c, small);
        assertNull(cache.get(b), "the least recently used entry goes first");
        assertSame(small, cache.get(a));
        assertEquals(small.weight() * 2, cache.usedBytes());
        CardData big = CardCodec.readJson(JsJson.compact(JsJson.object().put("x", "y".repeat(1000))).getBytes(StandardCharsets.UTF_8));
        cache.put(new CardCache.Key("u", "big.png", 1, 1), big);
        assertNull(cache.get(new CardCache.Key("u", "big.png", 1, 1)), "an entry over the whole budget is not kept");
        assertEquals(0, new CardCache(0).usedBytes());
    }

    @Test
    void cacheKeepsOneVersionPerCardAndForgetsItOnInvalidation() {
        CardData first = CardCodec.readJson("{\"name\":\"a\"}".getBytes(StandardCharsets.UTF_8));
        CardData second = CardCodec.readJson("{\"name\":\"ab\"}".getBytes(StandardCharsets.UTF_8));
        CardCache cache = new CardCache(1 << 20);
        CardCache.Key old = new CardCache.Key("u", "a.png", 1, 10);
        CardCache.Key rewritten = new CardCache.Key("u", "a.png", 2, 11);
        CardCache.Key otherUser = new CardCache.Key("v", "a.png", 1, 10);
        cache.put(old, first);
        cache.put(otherUser, first);
        assertNull(cache.get(rewritten), "another version of the file is a miss");
        cache.put(rewritten, second);
        assertNull(cache.get(old), "the new version replaced the old one");
        assertSame(second, cache.get(rewritten));
        assertEquals(first.weight() + second.weight(), cache.usedBytes());
        cache.invalidate("u", "a.png");
        assertNull(cache.get(rewritten));
        assertSame(first, cache.get(otherUser), "only that user's card is forgotten");
        assertEquals(first.weight(), cache.usedBytes());
        cache.invalidate("u", "missing.png");
        assertEquals(first.weight(), cache.usedBytes());
    }
}
