package tankard.summarize.onnx;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Transformers' logits processors on hand-made scores, and greedy search over a scripted decoder. */
class GeneratorTest {
    private static final double NO = Double.NEGATIVE_INFINITY;

    private static GenerationSettings settings(int minLength, int maxLength, int ngram, int forcedBos, int forcedEos,
                                               List<int[]> badWords) {
        return new GenerationSettings(1, minLength, maxLength, 1.0, ngram, "true", forcedBos, forcedEos, 2, 2,
                badWords, new int[0]);
    }

    private static double[] zeros() {
        return new double[8];
    }

    @Test
    void aMultiTokenBadWordBansItsLastTokenOnlyAfterTheOthers() {
        GenerationSettings s = settings(0, 20, 0, -1, -1, List.of(new int[]{5, 6, 7}, new int[]{4}));
        double[] after = Generator.process(zeros(), new int[]{2, 5, 6}, s);
        assertEquals(NO, after[7]);
        assertEquals(NO, after[4]);
        double[] elsewhere = Generator.process(zeros(), new int[]{2, 6, 5}, s);
        assertEquals(0, elsewhere[7]);
        assertEquals(NO, elsewhere[4]);
        // shorter than the word's prefix: nothing to match yet
        assertEquals(0, Generator.process(zeros(), new int[]{2}, s)[7]);
    }

    @Test
    void noRepeatNgramBansWhatWouldRepeatATrigram() {
        GenerationSettings s = settings(0, 20, 3, -1, -1, List.of());
        double[] scores = Generator.process(zeros(), new int[]{2, 4, 5, 6, 4, 5}, s);
        assertEquals(NO, scores[6]);
        assertEquals(0, scores[7]);
        assertEquals(0, scores[4]);
    }

    @Test
    void minLengthAndForcedTokens() {
        GenerationSettings s = settings(3, 6, 0, 0, 2, List.of());
        assertEquals(NO, Generator.process(zeros(), new int[]{2, 4}, s)[2]);
        assertEquals(0, Generator.process(zeros(), new int[]{2, 4, 5}, s)[2]);
        double[] first = Generator.process(zeros(), new int[]{2}, s);
        assertEquals(0, first[0]);
        assertTrue(java.util.Arrays.stream(first).filter(v -> v == 0).count() == 1);
        double[] last = Generator.process(zeros(), new int[]{2, 0, 4, 5, 6}, s);
        assertEquals(0, last[2]);
        assertEquals(NO, last[4]);
    }

    @Test
    void greedyStopsAtEosAndFeedsTheCacheItsParents() throws Exception {
        int[] script = {5, 6, 2};
        int[] calls = {0};
        StepDecoder decoder = (sequences, parents) -> {
            assertEquals(calls[0] == 0, parents == null);
            float[] logits = new float[8];
            logits[script[calls[0]++]] = 10;
            return new float[][]{logits};
        };
        assertArrayEquals(new int[]{5, 6}, Generator.generate(decoder, settings(0, 20, 0, -1, -1, List.of())));
    }

    @Test
    void forcedDecoderIdsOverrideTheModelAtTheirPositionsOnly() throws Exception {
        // the model would say 5 every step; positions 1 and 3 are forced (Whisper's prompt), position 2 is free
        StepDecoder decoder = (sequences, parents) -> {
            float[] logits = new float[8];
            logits[sequences[0].length < 5 ? 5 : 2] = 10;
            return new float[][]{logits};
        };
        GenerationSettings s = settings(0, 20, 0, -1, -1, List.of()).withForcedDecoderIds(new int[]{-1, 7, -1, 6});
        assertArrayEquals(new int[]{7, 5, 6, 5}, Generator.generate(decoder, s));
    }
}
