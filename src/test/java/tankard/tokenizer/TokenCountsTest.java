package tankard.tokenizer;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The token counts the engine keeps: counted once per tokenizer and text, the least recently used let go. */
class TokenCountsTest {
    @Test
    void aTextIsCountedOncePerTokenizer() {
        TokenCounts counts = new TokenCounts();
        AtomicInteger counted = new AtomicInteger();
        java.util.function.ToIntFunction<String> length = text -> {
            counted.incrementAndGet();
            return text.length();
        };
        assertEquals(4, counts.count("a", "four", length));
        assertEquals(4, counts.count("a", new String("four"), text -> 99));
        assertEquals(1, counted.get(), "an equal text is not counted again");
        assertEquals(4, counts.count("b", "four", length));
        assertEquals(2, counted.get(), "another tokenizer counts for itself");
    }

    @Test
    void aTextMadeOfLinesIsCountedAsItsTextOnceAndFoundByItsLines() {
        TokenCounts counts = new TokenCounts();
        java.util.List<String> seen = new java.util.ArrayList<>();
        java.util.function.ToIntFunction<String> length = text -> {
            seen.add(text);
            return text.length();
        };
        Lines grown = Lines.NONE.append("bees").append("hum");
        assertEquals(9, counts.count("t", grown, length));
        assertEquals(java.util.List.of("bees\nhum\n"), seen, "counted as the text the lines make");
        assertEquals(9, counts.count("t", Lines.NONE.append(new String("bees")).append(new String("hum")), length));
        assertEquals(1, seen.size(), "equal lines are found, not counted again");
        counts.count("t", Lines.NONE.append("bee").append("shum"), length);
        counts.count("t", Lines.NONE.append("bees"), length);
        assertEquals(java.util.List.of("bees\nhum\n", "bee\nshum\n", "bees\n"), seen,
                "other lines of the same length, and fewer of them, are other texts");
    }

    @Test
    void theLeastRecentlyUsedGoOnceTheTextsPassTheirTotalLength() {
        TokenCounts counts = new TokenCounts(12);
        for (String text : new String[]{"aaa", "bbb", "ccc", "ddd", "aaa", "eee"}) { // "aaa" used again
            counts.count("t", text, String::length);
        }
        assertEquals(4, counts.size(), "12 characters at most");
        AtomicInteger counted = new AtomicInteger();
        counts.count("t", "aaa", text -> counted.incrementAndGet());
        assertEquals(0, counted.get(), "a text used again stays");
        counts.count("t", "bbb", text -> counted.incrementAndGet());
        assertEquals(1, counted.get(), "the least recently used went first");
    }

    @Test
    void aTextOfMoreThanAQuarterOfTheLimitIsCountedButNotKept() {
        TokenCounts counts = new TokenCounts(12);
        counts.count("t", "a long text", String::length);
        assertEquals(0, counts.size());
    }
}
