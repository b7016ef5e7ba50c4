package tankard.vector.store;

import com.sun.management.HotSpotDiagnosticMXBean;
import tankard.core.Refusal;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * Cosine similarity over an index, as Vectra ranks: {@code dot(q, v) / (‖q‖·‖v‖)} with each item's stored norm,
 * best first, ties in the index's order (ST: vectra's LocalIndex.queryItems). The answer is exactly that ranking,
 * found in two steps: a scan of the one-byte codes gives each item's score within a known error, which rules out
 * every item that cannot reach the top {@code k}; the few left are scored again from their full vectors.
 */
final class Similarity {
    private Similarity() {
    }

    /** From this many items on, a query scans two halves at once (it is bound by memory bandwidth). */
    private static final int PARALLEL_FROM = 32_768;
    /**
     * How far a code's dot product can be from the full vector's, per unit of {@code scale·‖q‖₁}: rounding each
     * component to the nearest code is off by at most half a step; the float sums of both dot products add under
     * 0.02 more, even at 4,096 dimensions.
     */
    private static final double ERROR = 0.52;
    /** Best first; among equals, the earlier item first. */
    private static final Comparator<Scored> BEST_FIRST = Comparator.comparingDouble(Scored::score).reversed()
            .thenComparingInt(Scored::index);
    /**
     * SIMD lanes pay only where the optimising compiler (C2) turns them into vector instructions: run by C1
     * alone ({@code -XX:TieredStopAtLevel=1}, as bin/jvm.options runs) they stay objects, far slower than a loop.
     */
    static final boolean SIMD = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
            && optimisingCompiler();

    private static boolean optimisingCompiler() {
        HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        return hotSpot == null || Integer.parseInt(hotSpot.getVMOption("TieredStopAtLevel").getValue()) >= 4;
    }

    private record Scored(int index, double score) {
    }

    /** Refuses a query whose vector is not as long as the collection's: the embedding model changed. */
    static void checkDimensions(LoadedIndex.Snapshot index, float[] query) {
        if (query.length != index.dimensions()) {
            throw Refusal.badRequest("This collection holds vectors of " + index.dimensions() + " dimensions, the query's"
                    + " has " + query.length + ": the embedding model changed; purge the collection and vectorize it again");
        }
    }

    static List<Match> top(LoadedIndex.Snapshot index, float[] query, int topK) throws IOException {
        int size = index.size();
        int k = Math.min(topK, size);
        if (k <= 0) {
            return List.of();
        }
        double queryNorm = VectorItem.norm(query);
        List<Scored> found = new ArrayList<>();
        if (!(queryNorm > 0 && Double.isFinite(queryNorm))) {
            for (int i = 0; i < k; i++) { // every score is 0
                found.add(new Scored(i, 0));
            }
        } else {
            found = rescored(index, query, queryNorm, candidates(index, query, queryNorm, k));
        }
        List<Match> matches = new ArrayList<>(k);
        for (Scored scored : found.subList(0, Math.min(k, found.size()))) {
            matches.add(new Match(index.item(scored.index()), scored.score()));
        }
        return matches;
    }

    /** The items whose score, from the codes, may be among the best {@code k}; in index order. */
    private static int[] candidates(LoadedIndex.Snapshot index, float[] query, double queryNorm, int k) {
        int size = index.size();
        double[] approximate = new double[size];
        double[] error = new double[size];
        double queryL1 = 0;
        for (float q : query) {
            queryL1 += Math.abs(q);
        }
        double errorUnit = ERROR * queryL1 / queryNorm;
        if (size >= PARALLEL_FROM) {
            int middle = size / 2;
            CompletableFuture<Void> first = CompletableFuture.runAsync(
                    () -> scan(index, query, queryNorm, errorUnit, approximate, error, 0, middle),
                    ForkJoinPool.commonPool());
            scan(index, query, queryNorm, errorUnit, approximate, error, middle, size);
            first.join();
        } else {
            scan(index, query, queryNorm, errorUnit, approximate, error, 0, size);
        }
        // the k-th best lower bound: no item whose upper bound is below it can be in the top k
        PriorityQueue<Double> lowest = new PriorityQueue<>(k + 1);
        for (int i = 0; i < size; i++) {
            double lower = approximate[i] - error[i];
            if (lowest.size() < k) {
                lowest.add(lower);
            } else if (lower > lowest.peek()) {
                lowest.poll();
                lowest.add(lower);
            }
        }
        double bar = lowest.peek();
        int[] candidates = new int[size];
        int count = 0;
        for (int i = 0; i < size; i++) {
            if (approximate[i] + error[i] >= bar) {
                candidates[count++] = i;
            }
        }
        return java.util.Arrays.copyOf(candidates, count);
    }

    /** Each item's score from its codes, and how far off it may be, for {@code [from, to)}. */
    private static void scan(LoadedIndex.Snapshot index, float[] query, double queryNorm, double errorUnit,
                             double[] approximate, double[] error, int from, int to) {
        int dimensions = index.dimensions();
        for (int i = from; i < to; i++) {
            float scale = index.scale(i);
            double denominator = queryNorm * index.norm(i);
            if (Float.isNaN(scale)) {
                error[i] = Double.POSITIVE_INFINITY; // scored from its full vector
            } else if (denominator == 0 || Double.isNaN(denominator)) {
                approximate[i] = 0; // the score is 0, exactly
            } else {
                byte[] codes = index.block(i);
                int offset = index.offset(i);
                double dot = SIMD ? SimdDot.dot(query, codes, offset, dimensions)
                        : plainDot(query, codes, offset, dimensions);
                approximate[i] = scale * dot / denominator;
                error[i] = scale * errorUnit / index.norm(i);
                if (!Double.isFinite(approximate[i]) || !Double.isFinite(error[i])) {
                    approximate[i] = 0;
                    error[i] = Double.POSITIVE_INFINITY;
                }
            }
        }
    }

    /** The candidates scored from their full vectors, best first. */
    private static List<Scored> rescored(LoadedIndex.Snapshot index, float[] query, double queryNorm,
                                         int[] candidates) throws IOException {
        List<Scored> scored = new ArrayList<>(candidates.length);
        for (int i : candidates) {
            double denominator = queryNorm * index.norm(i);
            double score = denominator == 0 ? 0 : dot(query, index.vector(i)) / denominator;
            scored.add(new Scored(i, Double.isNaN(score) ? 0 : score));
        }
        scored.sort(BEST_FIRST);
        return scored;
    }

    static double dot(float[] a, float[] b) {
        return SIMD ? SimdDot.dot(a, b) : plainDot(a, b);
    }

    /** The dot product, in eight running sums so the CPU can overlap them. */
    static double plainDot(float[] a, float[] b) {
        int n = Math.min(a.length, b.length);
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            s0 += a[i] * b[i];
            s1 += a[i + 1] * b[i + 1];
            s2 += a[i + 2] * b[i + 2];
            s3 += a[i + 3] * b[i + 3];
            s4 += a[i + 4] * b[i + 4];
            s5 += a[i + 5] * b[i + 5];
            s6 += a[i + 6] * b[i + 6];
            s7 += a[i + 7] * b[i + 7];
        }
        double sum = (double) s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
        for (; i < n; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    /** The dot product of a vector with {@code n} codes from {@code offset}, as {@link #plainDot(float[], float[])}. */
    static double plainDot(float[] a, byte[] codes, int offset, int n) {
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int i = 0;
        for (; i + 4 <= n; i += 4) {
            s0 += a[i] * codes[offset + i];
            s1 += a[i + 1] * codes[offset + i + 1];
            s2 += a[i + 2] * codes[offset + i + 2];
            s3 += a[i + 3] * codes[offset + i + 3];
        }
        double sum = (double) s0 + s1 + s2 + s3;
        for (; i < n; i++) {
            sum += a[i] * codes[offset + i];
        }
        return sum;
    }
}
