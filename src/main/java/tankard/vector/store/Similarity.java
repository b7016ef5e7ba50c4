package tankard.vector.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Cosine similarity over an index, as Vectra ranks: {@code dot(q, v) / (‖q‖·‖v‖)} with each item's stored norm,
 * best first, ties in the index's order (ST: vectra's LocalIndex.queryItems).
 */
final class Similarity {
    private Similarity() {
    }

    static List<Match> top(VectorItem[] items, int size, float[] query, int topK) {
        double queryNorm = VectorItem.norm(query);
        int k = Math.min(topK, size);
        if (k <= 0) {
            return List.of();
        }
        double[] scores = new double[size];
        // a min-heap of the best k so far: the lowest score on top, and among equals the later item
        PriorityQueue<Integer> heap = new PriorityQueue<>(k + 1, (a, b) -> {
            int c = Double.compare(scores[a], scores[b]);
            return c != 0 ? c : Integer.compare(b, a);
        });
        for (int i = 0; i < size; i++) {
            VectorItem item = items[i];
            double denominator = queryNorm * item.norm();
            double score = denominator == 0 ? 0 : dot(query, item.vector()) / denominator;
            scores[i] = Double.isNaN(score) ? 0 : score;
            if (heap.size() < k) {
                heap.add(i);
            } else if (scores[i] > scores[heap.peek()]) {
                heap.poll();
                heap.add(i);
            }
        }
        List<Match> matches = new ArrayList<>(heap.size());
        Integer[] chosen = heap.toArray(new Integer[0]);
        Arrays.sort(chosen, (a, b) -> {
            int c = Double.compare(scores[b], scores[a]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        for (int i : chosen) {
            matches.add(new Match(items[i], scores[i]));
        }
        return matches;
    }

    /** The dot product, in eight running sums so the CPU can overlap them. */
    static double dot(float[] a, float[] b) {
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
