package tankard.engine.memory;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import tankard.util.StringHash;

/** What ST's frontend computes for these inputs (its getStringHash and splitRecursive, run in Node.js). */
class HashAndChunksTest {
    @Test
    void givesTheFrontendsHashForEmptyAsciiNewlinesAndSurrogatePairs() {
        assertEquals(3338908027751811L, StringHash.of(""));
        assertEquals(7929297801672961L, StringHash.of("a"));
        assertEquals(2981818331365660L, StringHash.of("Hello, world!"));
        assertEquals(7786353595068195L, StringHash.of("The blue hive by the gate."));
        assertEquals(805428482302114L, StringHash.of("Ünïcödé ✓ 🐝 bees"));
        assertEquals(7143137064071205L, StringHash.of("line one\nline two\n\nline three"));
    }

    @Test
    void splitsAtTheFirstDelimiterThatFitsAndMergesShortPartsAsTheFrontendDoes() {
        String text = "First paragraph about bees and honey.\n\nSecond paragraph, which is rather longer than the "
                + "first one and goes on about hives, smoke and the gate.\nA third line.\n\n" + "word ".repeat(30);
        List<String> delimiters = List.of("\n\n", "\n", " ", "");
        assertEquals(List.of("First paragraph about bees and honey.",
                "Second paragraph, which is rather longer than the first one",
                "and goes on about hives, smoke and the gate.\nA third line.",
                "word word word word word word word word word word word word",
                "word word word word word word word word word word word word",
                "word word word word word word "), TextChunks.split(text, 60, delimiters));
        assertEquals(List.of("abcd", "efgh", "ij"), TextChunks.split("abcdefghij", 4, delimiters));
        assertEquals(List.of(""), TextChunks.split("", 4, delimiters));
        assertEquals(List.of("no limit"), TextChunks.split("no limit", 0, delimiters));
    }
}
