package tankard.vector.store;

import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SimilarityTest {
    private static VectorItem[] items(int count, int dims, long seed) {
        Random random = new Random(seed);
        VectorItem[] items = new VectorItem[count];
        for (int i = 0; i < count; i++) {
            float[] v = new float[dims];
            for (int j = 0; j < dims; j++) {
                v[j] = random.nextInt(5) - 2; // small integers: many exact ties
            }
            items[i] = VectorItem.create(JsJson.object().put("hash", i), v);
        }
        return items;
    }

    /** Vectra's ranking: every score, sorted best first, stable (ties in the index's order). */
    private static List<Integer> expected(VectorItem[] items, float[] query, int k) {
        double qn = VectorItem.norm(query);
        List<double[]> scored = new ArrayList<>();
        for (int i = 0; i < items.length; i++) {
            double plain = 0;
            for (int j = 0; j < query.length; j++) {
                plain += (double) query[j] * items[i].vector()[j];
            }
            double d = qn * items[i].norm();
            scored.add(new double[]{i, d == 0 ? 0 : plain / d});
        }
        scored.sort(Comparator.comparingDouble((double[] s) -> s[1]).reversed());
        return scored.stream().limit(k).map(s -> (int) s[0]).toList();
    }

    @Test
    void theTopKIsVectrasRankingTiesInIndexOrder() {
        for (int count : new int[]{1, 7, 1000, 40_000}) { // the last one scanned in two halves
            VectorItem[] items = items(count, 19, count);
            float[] query = items[count / 2].vector().clone();
            for (int k : new int[]{1, 3, 10, count + 5}) {
                List<Integer> found = Similarity.top(items, count, query, k).stream()
                        .map(m -> m.item().hash().asInt()).toList();
                assertEquals(expected(items, query, k), found, count + " items, top " + k);
            }
        }
    }

    @Test
    void theSimdAndPlainDotProductsAgree() {
        Random random = new Random(3);
        for (int n : new int[]{0, 1, 15, 16, 17, 384, 1000}) {
            float[] a = new float[n];
            float[] b = new float[n];
            IntStream.range(0, n).forEach(i -> {
                a[i] = random.nextFloat() - 0.5f;
                b[i] = random.nextFloat() - 0.5f;
            });
            assertEquals(Similarity.plainDot(a, b), SimdDot.dot(a, b), 1e-4, n + " dimensions");
        }
    }
}
