package tankard.summarize;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Summary of summaries over a test model: a word a token, a 50-token window. */
public class SummaryOfSummariesTest {
    /** Counts words, records every text it is given and answers what {@code summary} makes of it. */
    public static final class WordModel implements SummaryModel {
        public final List<String> inputs = new ArrayList<>();
        private final int window;
        private final UnaryOperator<String> summary;

        WordModel(int window, UnaryOperator<String> summary) {
            this.window = window;
            this.summary = summary;
        }

        /** Its summary is the first {@code words} words of the text, and a full stop. */
        public static WordModel firstWords(int window, int words) {
            return new WordModel(window, text -> String.join(" ",
                    Arrays.asList(text.split("\\s+")).subList(0, Math.min(words, TextSplitterTest.words(text)))) + ".");
        }

        @Override
        public int countTokens(String text) {
            return TextSplitterTest.words(text);
        }

        @Override
        public int inputWindow() {
            return window;
        }

        @Override
        public String summarize(String text) {
            assertTrue(countTokens(text) <= window, "over the window: " + text);
            inputs.add(text);
            return summary.apply(text);
        }
    }

    @Test
    void aTextThatFitsTheWindowTakesOneCall() throws Exception {
        WordModel model = WordModel.firstWords(50, 3);
        String text = TextSplitterTest.story(new Random(1), 50);
        assertEquals("word1 word2 word3.", new SummaryOfSummaries(model).summarize(text, null));
        assertEquals(List.of(text), model.inputs);
    }

    @Test
    void aLongTextIsSummarizedInLevelsUntilTheSummariesFit() throws Exception {
        WordModel model = WordModel.firstWords(50, 5);
        String text = TextSplitterTest.story(new Random(2), 3000);
        String summary = new SummaryOfSummaries(model).summarize(text);

        List<TextSplitter.Chunk> level1 = new TextSplitter(model::countTokens).split(text, 50, 5);
        assertTrue(level1.size() >= 60, "about 3000/45 chunks: " + level1.size());
        List<String> summaries1 = level1.stream().map(chunk -> model.summary.apply(chunk.text())).toList();
        String joined1 = String.join("\n\n", summaries1);
        List<TextSplitter.Chunk> level2 = new TextSplitter(model::countTokens).split(joined1, 50, 5);
        String joined2 = String.join("\n\n", level2.stream().map(chunk -> model.summary.apply(chunk.text())).toList());
        assertTrue(model.countTokens(joined2) <= 50, "two levels are enough: " + joined2);

        List<String> expected = new ArrayList<>(level1.stream().map(TextSplitter.Chunk::text).toList());
        expected.addAll(level2.stream().map(TextSplitter.Chunk::text).toList());
        expected.add(joined2);
        assertEquals(expected, model.inputs);
        assertEquals(model.summary.apply(joined2), summary);
        assertTrue(summary.startsWith("word1 word2 word3, word4 word5"), summary);
    }

    @Test
    void atTheDepthLimitOnlyTheStartOfTheLastLevelIsSummarized() throws Exception {
        WordModel model = WordModel.firstWords(50, 10);
        String text = TextSplitterTest.story(new Random(3), 1000);
        String summary = new SummaryOfSummaries(model, 1, 0.1).summarize(text);

        int chunks = new TextSplitter(model::countTokens).split(text, 50, 5).size();
        assertEquals(chunks + 1, model.inputs.size());
        String joined = String.join("\n\n", model.inputs.subList(0, chunks).stream().map(model.summary).toList());
        assertTrue(model.countTokens(joined) > 50, "one level is not enough");
        String last = model.inputs.get(chunks);
        assertEquals(new TextSplitter(model::countTokens).head(joined, 50), last);
        assertTrue(joined.startsWith(last + "\n\n"), "cut between two summaries: " + last);
        assertEquals(model.summary.apply(last), summary);
    }

    @Test
    void aModelWhoseSummariesDoNotShrinkTheTextStopsAfterOneLevel() throws Exception {
        for (UnaryOperator<String> summary : List.<UnaryOperator<String>>of(text -> text, text -> text + " and more")) {
            WordModel model = new WordModel(50, summary);
            String text = TextSplitterTest.story(new Random(4), 500);
            String result = new SummaryOfSummaries(model).summarize(text);
            int chunks = new TextSplitter(model::countTokens).split(text, 50, 5).size();
            assertEquals(chunks + 1, model.inputs.size());
            String head = new TextSplitter(model::countTokens).head(text, 50);
            assertEquals(head, model.inputs.get(chunks));
            assertEquals(summary.apply(head), result);
        }
    }

    @Test
    void aModelWithNothingToSayAnswersAnEmptySummary() throws Exception {
        WordModel model = new WordModel(50, text -> " ");
        assertEquals("", new SummaryOfSummaries(model).summarize(TextSplitterTest.story(new Random(5), 200)));
        assertEquals(new TextSplitter(model::countTokens).split(TextSplitterTest.story(new Random(5), 200), 50).size(),
                model.inputs.size());
    }

    @Test
    void anInterruptedSummaryStopsBeforeItsNextChunk() {
        WordModel model = new WordModel(50, text -> {
            Thread.currentThread().interrupt(); // the server stops while the first chunk is summarized
            return "gist.";
        });
        try {
            SummaryUnavailableException stopped = assertThrows(SummaryUnavailableException.class, () ->
                    new SummaryOfSummaries(model).summarize(TextSplitterTest.story(new Random(6), 200)));
            assertTrue(stopped.getMessage().contains("shutting down"), stopped.getMessage());
            assertEquals(1, model.inputs.size());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void theModelsFailurePropagates() {
        SummaryModel failing = new WordModel(50, text -> {
            throw new IllegalStateException("model crashed");
        });
        assertEquals("model crashed", assertThrows(IllegalStateException.class, () ->
                new SummaryOfSummaries(failing).summarize(TextSplitterTest.story(new Random(6), 200))).getMessage());
    }

    @Test
    void refusesUnusableSettings() {
        WordModel model = WordModel.firstWords(50, 5);
        assertThrows(IllegalArgumentException.class, () -> new SummaryOfSummaries(model, 0, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new SummaryOfSummaries(model, 4, 0.9));
        assertThrows(IllegalArgumentException.class, () -> new SummaryOfSummaries(model, 4, Double.NaN));
    }
}
