package tankard.summarize;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToIntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where the splitter cuts, with test tokenizers whose counts are easy to follow. */
public class TextSplitterTest {
    /** One token a word. */
    static final ToIntFunction<String> WORDS = TextSplitterTest::words;
    /** One token a word and one a line break: joined pieces count more than their sum, as real tokenizers may. */
    static final ToIntFunction<String> WORDS_AND_BREAKS = text -> words(text) + (int) text.chars().filter(c -> c == '\n').count();

    static int words(String text) {
        String trimmed = text.strip();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }

    private static List<String> texts(List<TextSplitter.Chunk> chunks) {
        return chunks.stream().map(TextSplitter.Chunk::text).toList();
    }

    /** {@code count} words w1, w2, … each sentence {@code sentence} words long. */
    private static String sentences(String prefix, int count, int sentence) {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i <= count; i++) {
            text.append(prefix).append(i).append(i % sentence == 0 || i == count ? ". " : " ");
        }
        return text.toString().strip();
    }

    @Test
    void aTextThatFitsIsOneChunkAndABlankTextNone() {
        TextSplitter splitter = new TextSplitter(WORDS);
        assertEquals(List.of("One two. Three\n\nfour."), texts(splitter.split("  One two. Three\n\nfour.\n", 4)));
        assertEquals(4, splitter.split("One two. Three\n\nfour.", 4).get(0).tokens());
        assertEquals(List.of(), splitter.split(" \n\n \t", 4));
        assertEquals(List.of(), splitter.split("", 4));
    }

    @Test
    void aParagraphBreakWinsOverFullerLineAndSentenceBreaks() {
        // 12 words, then lines of 5 words: a line break at 17 would be fuller; the paragraph break at 12 is kept
        String first = sentences("a", 6, 3) + "\n" + sentences("b", 6, 3);
        String second = sentences("c", 5, 5) + "\n" + sentences("d", 5, 5) + "\n" + sentences("e", 5, 5);
        List<String> chunks = texts(new TextSplitter(WORDS).split(first + "\n\n" + second, 20, 0));
        assertEquals(List.of(first, second), chunks);
    }

    @Test
    void aLineBreakWinsOverFullerSentenceBreaks() {
        String line = sentences("a", 12, 3);
        String next = sentences("b", 20, 3);
        List<String> chunks = texts(new TextSplitter(WORDS).split(line + "\n" + next, 20, 0));
        assertEquals(line, chunks.get(0));
        assertEquals(List.of(line, next), chunks);
    }

    @Test
    void aSentenceBreakWinsOverFullerWordBreaks() {
        String sentence = sentences("a", 11, 11);
        String longSentence = sentences("b", 30, 30);
        List<String> chunks = texts(new TextSplitter(WORDS).split(sentence + " " + longSentence, 20, 0));
        assertEquals(sentence, chunks.get(0));
        // the long sentence has only word breaks: cut where the chunk is full
        assertEquals(List.of(sentence, sentences("b", 20, 30).replace(".", ""), "b21 b22 b23 b24 b25 b26 b27 b28 b29 b30."),
                chunks);
    }

    @Test
    void aBoundaryTooEarlyToFillHalfTheBudgetGivesWayToAWeakerOneThatFills() {
        String shortParagraph = "Hello there.";
        String paragraph = sentences("b", 40, 4);
        List<String> chunks = texts(new TextSplitter(WORDS).split(shortParagraph + "\n\n" + paragraph, 20, 0));
        assertEquals(shortParagraph + "\n\n" + sentences("b", 16, 4), chunks.get(0));
    }

    @Test
    void chunksOfEqualBoundariesAreAsFullAsTheSentencesAllow() {
        String text = sentences("w", 1000, 5);
        List<TextSplitter.Chunk> chunks = new TextSplitter(WORDS).split(text, 50, 0);
        for (TextSplitter.Chunk chunk : chunks.subList(0, chunks.size() - 1)) {
            assertEquals(50, chunk.tokens(), chunk.text());
        }
        assertEquals(20, chunks.size());
    }

    @Test
    void eachChunkAfterTheFirstRepeatsTheLastSentencesOfTheOneBeforeWithinTheOverlapBudget() {
        String text = sentences("w", 300, 4);
        List<String> chunks = texts(new TextSplitter(WORDS).split(text, 50));
        assertTrue(chunks.size() > 5, chunks.toString());
        for (int i = 1; i < chunks.size(); i++) {
            List<String> before = Arrays.asList(chunks.get(i - 1).split(" "));
            List<String> after = Arrays.asList(chunks.get(i).split(" "));
            int overlap = overlap(before, after);
            // two sentences of 4 words fit the 5-token overlap budget only once: one sentence is repeated
            assertEquals(4, overlap, chunks.get(i));
            assertTrue(before.get(before.size() - overlap - 1).endsWith("."), "the overlap starts a sentence");
        }
    }

    @Test
    void aLastSentenceLongerThanTheOverlapBudgetRepeatsOnlyItsLastWords() {
        String text = sentences("w", 300, 30);
        List<String> chunks = texts(new TextSplitter(WORDS).split(text, 50, 5));
        for (int i = 1; i < chunks.size(); i++) {
            int overlap = overlap(Arrays.asList(chunks.get(i - 1).split(" ")), Arrays.asList(chunks.get(i).split(" ")));
            assertTrue(overlap > 0 && overlap <= 5, chunks.get(i));
        }
        assertEquals(List.of("x1 x2 x3.", "x4 x5 x6."), texts(new TextSplitter(WORDS).split("x1 x2 x3. x4 x5 x6.", 3, 0)));
        assertEquals(List.of("x1 x2 x3.", "x4 x5 x6."), texts(new TextSplitter(WORDS).split("x1 x2 x3. x4 x5 x6.", 3)),
                "no room for an overlap next to a full sentence");
    }

    /** How many words {@code after} starts with that {@code before} ends with. */
    private static int overlap(List<String> before, List<String> after) {
        for (int n = Math.min(before.size(), after.size()); n > 0; n--) {
            if (before.subList(before.size() - n, before.size()).equals(after.subList(0, n))) {
                return n;
            }
        }
        return 0;
    }

    @Test
    void aLongTextIsCutIntoChunksWithinBudgetWithoutSplittingWordsOrLosingAny() {
        String text = story(new Random(6), 4000);
        AtomicInteger counted = new AtomicInteger();
        TextSplitter splitter = new TextSplitter(s -> {
            counted.addAndGet(words(s));
            return WORDS_AND_BREAKS.applyAsInt(s);
        });
        List<TextSplitter.Chunk> chunks = splitter.split(text, 100);
        List<String> source = Arrays.asList(text.strip().split("\\s+"));
        List<String> rebuilt = new ArrayList<>();
        int overlapped = 0;
        for (TextSplitter.Chunk chunk : chunks) {
            assertEquals(WORDS_AND_BREAKS.applyAsInt(chunk.text()), chunk.tokens());
            assertTrue(chunk.tokens() <= 100, chunk.text());
            assertTrue(chunk.tokens() >= 50 || chunk == chunks.get(chunks.size() - 1), "half full: " + chunk.text());
            List<String> words = Arrays.asList(chunk.text().split("\\s+"));
            int overlap = overlap(rebuilt, words);
            assertTrue(overlap <= 10, "the overlap stays within a tenth of the budget");
            overlapped += overlap > 0 ? 1 : 0;
            rebuilt.addAll(words.subList(overlap, words.size()));
        }
        assertEquals(source, rebuilt, "every word once, whole and in order, besides the overlaps");
        assertTrue(overlapped > chunks.size() / 2, overlapped + " of " + chunks.size());
        // pieces are counted once and chunks once more, not word by word
        assertTrue(counted.get() < 4 * source.size(), counted + " words counted for " + source.size());
    }

    /** Paragraphs of lines of sentences of words, like a chat log. */
    public static String story(Random random, int wordCount) {
        StringBuilder text = new StringBuilder();
        for (int word = 1; word <= wordCount; word++) {
            text.append("word").append(word);
            if (word == wordCount) {
                text.append('.');
            } else if (random.nextInt(8) == 0) {
                text.append(random.nextInt(3) == 0 ? "!\n" : random.nextInt(4) == 0 ? ".\n\n" : ". ");
            } else {
                text.append(random.nextInt(25) == 0 ? ",\n" : " ");
            }
        }
        return text.toString();
    }

    @Test
    void aWordLongerThanTheBudgetIsTheOnlyTextCutByCharacters() {
        // a token every four characters of a word
        ToIntFunction<String> fours = s -> Arrays.stream(s.strip().split("\\s+"))
                .mapToInt(w -> (w.length() + 3) / 4).sum();
        String word = "x".repeat(100);
        List<String> chunks = texts(new TextSplitter(fours).split("short words. " + word + " after it.", 10, 0));
        assertEquals(List.of("short words.", "x".repeat(40), "x".repeat(40), "x".repeat(20) + " after it."), chunks);
    }

    @Test
    void characterCutsKeepSurrogatePairsWhole() {
        ToIntFunction<String> codePoints = s -> s.strip().codePointCount(0, s.strip().length());
        String word = "😀".repeat(7);
        List<String> chunks = texts(new TextSplitter(codePoints).split(word, 3, 0));
        assertEquals(List.of("😀😀😀", "😀😀😀", "😀"), chunks);
    }

    @Test
    void theHeadIsTheFirstChunk() {
        String first = sentences("a", 12, 3);
        assertEquals(first, new TextSplitter(WORDS).head(first + "\n\n" + sentences("b", 40, 3), 20));
        assertEquals("", new TextSplitter(WORDS).head("  ", 20));
    }
}
