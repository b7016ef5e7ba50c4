package tankard.vector.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.json.JsJson;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SimilarityTest {
    @TempDir
    Path root;

    private static List<VectorItem> items(int count, IntFunction<float[]> vectors) {
        List<VectorItem> items = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            items.add(VectorItem.create(JsJson.object().put("hash", i), vectors.apply(i)));
        }
        return items;
    }

    /** Small integers: many exact ties. */
    private static IntFunction<float[]> integers(int dims, long seed) {
        Random random = new Random(seed);
        return i -> {
            float[] v = new float[dims];
            for (int j = 0; j < dims; j++) {
                v[j] = random.nextInt(5) - 2;
            }
            return v;
        };
    }

    /** Unit vectors close to one another, so that the codes alone often rank them wrong. */
    private static IntFunction<float[]> crowded(int dims, long seed) {
        Random random = new Random(seed);
        return i -> {
            float[] v = new float[dims];
            for (int j = 0; j < dims; j++) {
                v[j] = 1 + (float) random.nextGaussian() * 1e-2f;
            }
            return v;
        };
    }

    private LoadedIndex.Snapshot indexed(List<VectorItem> items) throws IOException {
        LoadedIndex index = LoadedIndex.load(root.resolve("index-" + System.nanoTime()), root.resolve("scratch"));
        for (int from = 0; from < items.size(); from += 1000) {
            index.insert(items.subList(from, Math.min(items.size(), from + 1000)));
        }
        return index.snapshot();
    }

    /** Vectra's ranking: every item scored from its full vector, sorted best first, stable (ties in index order). */
    private static List<Integer> expected(List<VectorItem> items, float[] query, int k) {
        double qn = VectorItem.norm(query);
        List<double[]> scored = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            double d = qn * items.get(i).norm();
            scored.add(new double[]{i, d == 0 ? 0 : Similarity.dot(query, items.get(i).vector()) / d});
        }
        scored.sort(Comparator.comparingDouble((double[] s) -> s[1]).reversed());
        return scored.stream().limit(k).map(s -> (int) s[0]).toList();
    }

    private void assertVectrasRanking(List<VectorItem> items, float[] query) throws IOException {
        LoadedIndex.Snapshot index = indexed(items);
        for (int k : new int[]{1, 3, 10, items.size() + 5}) {
            List<Match> found = Similarity.top(index, query, k);
            assertEquals(expected(items, query, k), found.stream().map(m -> m.item().hash().asInt()).toList(),
                    items.size() + " items, top " + k);
            for (Match match : found) { // the whole item comes back, with its exact score
                VectorItem item = items.get(match.item().hash().asInt());
                assertEquals(item.id(), match.item().id());
                assertEquals(item.metadata(), match.item().metadata());
                assertEquals(Similarity.dot(query, item.vector()) / (VectorItem.norm(query) * item.norm()),
                        match.score(), 1e-12);
            }
        }
    }

    @Test
    void theTopKIsVectrasRankingTiesInIndexOrder() throws IOException {
        for (int count : new int[]{1, 7, 1000, 40_000}) { // the last one scanned in two halves
            List<VectorItem> items = items(count, integers(19, count));
            assertVectrasRanking(items, items.get(count / 2).vector().clone());
        }
    }

    @Test
    void itemsTheCodesCannotTellApartAreRankedByTheirFullVectors() throws IOException {
        List<VectorItem> items = items(3000, crowded(384, 5));
        assertVectrasRanking(items, crowded(384, 6).apply(0));
    }

    @Test
    void afterADeleteAcrossBlocksTheRestRanksAsBefore() throws IOException {
        List<VectorItem> items = items(5000, crowded(16, 8));
        LoadedIndex index = LoadedIndex.load(root.resolve("deleted"), root.resolve("scratch"));
        index.insert(items);
        java.util.Set<Double> gone = new java.util.HashSet<>();
        for (int i = 0; i < 5000; i += 3) {
            gone.add((double) i);
        }
        LoadedIndex.Snapshot before = index.snapshot();
        index.delete(gone);
        List<VectorItem> kept = items.stream().filter(item -> !gone.contains(item.hash().asDouble())).toList();
        float[] query = crowded(16, 9).apply(0);
        List<Integer> expected = expected(kept, query, 20).stream().map(i -> kept.get(i).hash().asInt()).toList();
        assertEquals(expected, Similarity.top(index.snapshot(), query, 20).stream()
                .map(m -> m.item().hash().asInt()).toList());
        assertEquals(expected(items, query, 20), Similarity.top(before, query, 20).stream()
                .map(m -> m.item().hash().asInt()).toList(), "a snapshot taken before keeps every item");
    }

    @Test
    void anItemOfAnotherLengthOrAZeroVectorIsScoredAsVectraScoresIt() throws IOException {
        List<VectorItem> items = new ArrayList<>(items(50, integers(8, 9)));
        items.add(VectorItem.create(JsJson.object().put("hash", 50), new float[8])); // norm 0: score 0
        float[] query = items.get(3).vector().clone();
        LoadedIndex.Snapshot index = indexed(items);
        assertEquals(expected(items, query, 60), Similarity.top(index, query, 60).stream()
                .map(m -> m.item().hash().asInt()).toList());
        assertEquals(List.of(0, 1, 2), Similarity.top(index, new float[8], 3).stream()
                .map(m -> m.item().hash().asInt()).toList(), "a zero query scores everything 0");
    }

    @Test
    void simdLanesAreUsedOnlyWhereTheOptimisingCompilerRuns() throws Exception {
        assertEquals("true", simdIn("-XX:TieredStopAtLevel=4"));
        assertEquals("false", simdIn("-XX:TieredStopAtLevel=1"), "C1 alone, as bin/jvm.options runs");
    }

    /** What {@link Similarity#SIMD} is in a JVM with the Vector API and this compiler option. */
    private static String simdIn(String compilers) throws Exception {
        Process probe = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--add-modules=jdk.incubator.vector", compilers, "-cp", System.getProperty("java.class.path"),
                SimdProbe.class.getName()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(probe.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, probe.waitFor());
        return out.trim();
    }

    static final class SimdProbe {
        public static void main(String[] args) {
            System.out.println(Similarity.SIMD);
        }
    }

    @Test
    void theSimdAndPlainDotProductsAgree() {
        Random random = new Random(3);
        for (int n : new int[]{0, 1, 15, 16, 17, 384, 1000}) {
            float[] a = new float[n];
            float[] b = new float[n];
            byte[] codes = new byte[n + 3];
            IntStream.range(0, n).forEach(i -> {
                a[i] = random.nextFloat() - 0.5f;
                b[i] = random.nextFloat() - 0.5f;
                codes[i + 3] = (byte) (random.nextInt(255) - 127);
            });
            assertEquals(Similarity.plainDot(a, b), SimdDot.dot(a, b), 1e-4, n + " dimensions");
            assertEquals(Similarity.plainDot(a, codes, 3, n), SimdDot.dot(a, codes, 3, n), 1e-2, n + " codes");
        }
    }
}
