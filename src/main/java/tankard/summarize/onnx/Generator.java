package tankard.summarize.onnx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Greedy and beam search as Hugging Face Transformers does them for encoder-decoder models, with its logits
 * processors (no-repeat n-gram, bad words, min length, forced BOS/EOS) applied to the log-probabilities.
 * The result is the generated tokens without the decoder start token and without the closing EOS.
 */
final class Generator {
    private Generator() {
    }

    static int[] generate(StepDecoder decoder, GenerationSettings settings) throws Exception {
        return settings.numBeams() == 1 ? greedy(decoder, settings) : beamSearch(decoder, settings);
    }

    private static int[] greedy(StepDecoder decoder, GenerationSettings settings) throws Exception {
        int[] sequence = {settings.decoderStartTokenId()};
        int[] parents = null;
        while (sequence.length < settings.maxLength()) {
            double[] scores = process(logSoftmax(decoder.next(new int[][]{sequence}, parents)[0]), sequence, settings);
            int token = 0;
            for (int t = 1; t < scores.length; t++) {
                if (scores[t] > scores[token]) {
                    token = t;
                }
            }
            if (token == settings.eosTokenId()) {
                break;
            }
            sequence = append(sequence, token);
            parents = new int[]{0};
        }
        return Arrays.copyOfRange(sequence, 1, sequence.length);
    }

    private static int[] beamSearch(StepDecoder decoder, GenerationSettings settings) throws Exception {
        int beams = settings.numBeams();
        int[][] sequences = new int[beams][];
        double[] beamScores = new double[beams];
        for (int b = 0; b < beams; b++) {
            sequences[b] = new int[]{settings.decoderStartTokenId()};
            // all beams start alike: only the first counts until they differ (Transformers' -1e9)
            beamScores[b] = b == 0 ? 0 : -1e9;
        }
        // the first step runs one row and shares its logits: the beams are the same sequence
        float[][] logits = decoder.next(new int[][]{sequences[0]}, null);
        int[] rows = new int[beams];
        Hypotheses done = new Hypotheses(settings);
        boolean finished = false;
        while (sequences[0].length < settings.maxLength()) {
            int vocab = logits[0].length;
            Candidates top = new Candidates(2 * beams);
            for (int b = 0; b < beams; b++) {
                double[] scores = process(logSoftmax(logits[rows[b]]), sequences[b], settings);
                for (int t = 0; t < vocab; t++) {
                    top.offer(scores[t] + beamScores[b], b * vocab + t);
                }
            }
            int[][] nextSequences = new int[beams][];
            double[] nextScores = new double[beams];
            int[] parents = new int[beams];
            int kept = 0;
            for (int rank = 0; rank < top.size && kept < beams; rank++) {
                int beam = top.indices[rank] / vocab;
                int token = top.indices[rank] % vocab;
                if (token == settings.eosTokenId()) {
                    if (rank < beams) {
                        done.add(sequences[beam], top.scores[rank], sequences[beam].length);
                    }
                } else {
                    nextSequences[kept] = append(sequences[beam], token);
                    nextScores[kept] = top.scores[rank];
                    parents[kept++] = rows[beam];
                }
            }
            finished = done.isDone(top.scores[0], sequences[0].length);
            sequences = nextSequences;
            beamScores = nextScores;
            if (finished || sequences[0].length >= settings.maxLength()) {
                break;
            }
            logits = decoder.next(sequences, parents);
            for (int b = 0; b < beams; b++) {
                rows[b] = b;
            }
        }
        if (!finished) {
            for (int b = 0; b < beams; b++) {
                done.add(sequences[b], beamScores[b], sequences[b].length - 1);
            }
        }
        int[] best = done.best();
        return Arrays.copyOfRange(best, 1, best.length);
    }

    /**
     * Transformers' logits processors, in its order (forced decoder ids last); the forced tokens get 0 and every
     * other -infinity.
     */
    static double[] process(double[] scores, int[] sequence, GenerationSettings settings) {
        int length = sequence.length;
        int n = settings.noRepeatNgramSize();
        if (n > 0 && length + 1 >= n) {
            for (int i = 0; i + n - 1 < length; i++) {
                if (Arrays.equals(sequence, i, i + n - 1, sequence, length - n + 1, length)) {
                    scores[sequence[i + n - 1]] = Double.NEGATIVE_INFINITY;
                }
            }
        }
        for (int[] word : settings.badWordsIds()) {
            if (word.length == 1 && word[0] == settings.eosTokenId()) {
                continue;
            }
            int prefix = word.length - 1;
            if (prefix == 0 || (length >= prefix
                    && Arrays.equals(sequence, length - prefix, length, word, 0, prefix))) {
                scores[word[prefix]] = Double.NEGATIVE_INFINITY;
            }
        }
        if (length < settings.minLength()) {
            scores[settings.eosTokenId()] = Double.NEGATIVE_INFINITY;
        }
        force(scores, length == 1 ? settings.forcedBosTokenId() : -1);
        force(scores, length == settings.maxLength() - 1 ? settings.forcedEosTokenId() : -1);
        int[] forced = settings.forcedDecoderIds();
        force(scores, length < forced.length ? forced[length] : -1);
        return scores;
    }

    private static void force(double[] scores, int token) {
        if (token >= 0) {
            Arrays.fill(scores, Double.NEGATIVE_INFINITY);
            scores[token] = 0;
        }
    }

    static double[] logSoftmax(float[] logits) {
        double max = Double.NEGATIVE_INFINITY;
        for (float logit : logits) {
            max = Math.max(max, logit);
        }
        double sum = 0;
        for (float logit : logits) {
            sum += Math.exp(logit - max);
        }
        double log = Math.log(sum);
        double[] scores = new double[logits.length];
        for (int t = 0; t < logits.length; t++) {
            scores[t] = logits[t] - max - log;
        }
        return scores;
    }

    private static int[] append(int[] sequence, int token) {
        int[] longer = Arrays.copyOf(sequence, sequence.length + 1);
        longer[sequence.length] = token;
        return longer;
    }

    /** The k best (score, index) pairs, best first; equal scores keep the lower index first. */
    private static final class Candidates {
        final double[] scores;
        final int[] indices;
        int size;

        Candidates(int k) {
            scores = new double[k];
            indices = new int[k];
        }

        void offer(double score, int index) {
            if (size == scores.length && !(score > scores[size - 1])) {
                return;
            }
            int at = size == scores.length ? size - 1 : size++;
            while (at > 0 && scores[at - 1] < score) {
                scores[at] = scores[at - 1];
                indices[at] = indices[at - 1];
                at--;
            }
            scores[at] = score;
            indices[at] = index;
        }
    }

    /** The finished hypotheses of beam search, scored by sum of log-probabilities over length^penalty. */
    private static final class Hypotheses {
        private record Hypothesis(double score, int[] sequence) {
        }

        private final GenerationSettings settings;
        private final List<Hypothesis> beams = new ArrayList<>();
        private double worst = 1e9;

        Hypotheses(GenerationSettings settings) {
            this.settings = settings;
        }

        void add(int[] sequence, double sumLogprobs, int generatedLength) {
            double score = sumLogprobs / Math.pow(generatedLength, settings.lengthPenalty());
            if (beams.size() < settings.numBeams() || score > worst) {
                beams.add(new Hypothesis(score, sequence));
                if (beams.size() > settings.numBeams()) {
                    List<Hypothesis> ranked = new ArrayList<>(beams);
                    ranked.sort(Comparator.comparingDouble(Hypothesis::score));
                    beams.remove(ranked.get(0));
                    worst = ranked.get(1).score();
                } else {
                    worst = Math.min(score, worst);
                }
            }
        }

        boolean isDone(double bestSumLogprobs, int currentLength) {
            if (beams.size() < settings.numBeams()) {
                return false;
            }
            String early = settings.earlyStopping();
            if (early.equals("true")) {
                return true;
            }
            int length = early.equals("never") && settings.lengthPenalty() > 0
                    ? settings.maxLength() - 1 : currentLength;
            return worst >= bestSumLogprobs / Math.pow(length, settings.lengthPenalty());
        }

        /** The best; of equal scores the last added, as Transformers' sort-then-pop picks. */
        int[] best() {
            Hypothesis best = beams.get(0);
            for (Hypothesis hypothesis : beams) {
                if (hypothesis.score() >= best.score()) {
                    best = hypothesis;
                }
            }
            return best.sequence();
        }
    }
}
