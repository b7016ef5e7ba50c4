package tankard.vector.store;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * Cosine similarity over an index, as Vectra ranks: {@code dot(q, v) / (‖q‖·‖v‖)} with each item's stored norm,
 * best first, ties in the index's order (ST: vectra's LocalIndex.queryItems).
 */
final class Similarity {
    private Similarity() {
    }

    /** From this many items on, a query scans two halves at once (it is bound by memory bandwidth). */
    private static final int PARALLEL_FROM = 32_768;
    /** Best first; among equals, the earlier item first. */
    private static final Comparator<Scored> BEST_FIRST = Comparator.comparingDouble(Scored::score).reversed()
            .thenComparingInt(Scored::index);

    private record Scored(int index, double score) {
    }

    static List<Match> top(VectorItem[] items, int size, float[] query, int topK) {
        int k = Math.min(topK, size);
        if (k <= 0) {
            return List.of();
        }
        double queryNorm = VectorItem.norm(query);
        List<Scored> found;
        if (size >= PARALLEL_FROM) {
            int middle = size / 2;
            CompletableFuture<List<Scored>> first = CompletableFuture.supplyAsync(
                    () -> best(items, 0, middle, query, queryNorm, k), ForkJoinPool.commonPool());
            found = new ArrayList<>(best(items, middle, size, query, queryNorm, k));
            found.addAll(first.join());
        } else {
            found = best(items, 0, size, query, queryNorm, k);
        }
        found.sort(BEST_FIRST);
        List<Match> matches = new ArrayList<>(k);
        for (Scored scored : found.subList(0, Math.min(k, found.size()))) {
            matches.add(new Match(items[scored.index()], scored.score()));
        }
        return matches;
    }

    /** The best {@code k} of {@code items[from, to)}, in no order. */
    private static List<Scored> best(VectorItem[] items, int from, int to, float[] query, double queryNorm, int k) {
        // a min-heap: the worst kept on top (lowest score, and among equals the later item)
        PriorityQueue<Scored> heap = new PriorityQueue<>(k + 1, BEST_FIRST.reversed());
        double worst = Double.NEGATIVE_INFINITY;
        for (int i = from; i < to; i++) {
            VectorItem item = items[i];
            double denominator = queryNorm * item.norm();
            double score = denominator == 0 ? 0 : dot(query, item.vector()) / denominator;
            if (Double.isNaN(score)) {
                score = 0;
            }
            if (heap.size() < k) {
                heap.add(new Scored(i, score));
                worst = heap.peek().score();
            } else if (score > worst) {
                heap.poll();
                heap.add(new Scored(i, score));
                worst = heap.peek().score();
            }
        }
        return new ArrayList<>(heap);
    }

    private static final boolean SIMD = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

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
}
