package tankard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static tankard.bench.BenchServer.time;

/**
 * Load driver for the Vector Storage API (see bench/README.md): {@code /api/vector/insert} one item per request
 * as ST's frontend sends them, up to N items in one collection, timed per window; {@code /api/vector/query} at N;
 * for Tankard also at 100,000 items (loaded with batched inserts) and its RSS there; and, with
 * {@code --transformers}, a "Vectorize All" of 1,000 messages through the embedded {@code transformers} source.
 * The {@code webllm} source carries the vectors in the request ({@code embeddings: {text: vector}}), so no model
 * runs for a) to c): what is timed is the server's storage and search. With {@code TANKARD_ST_DIR} set, real
 * SillyTavern runs the same requests in the same run (not at 100,000 items, nor the transformers source).
 * <p>
 * Usage: {@code bench/vectors.sh [N] [--transformers]} (default N 10000); see the README for the environment.
 */
public final class VectorBench {
    private static final int DIMENSIONS = 384;
    private static final long SEED = 20261201L;
    private static final String COLLECTION = "bench";
    private static final String MODEL = "bench-model";
    /** Where both servers are queried, filled with batched inserts when N is smaller. */
    private static final int QUERY_AT = 10_000;
    /** One-per-request inserts timed at 10,000 items after a batched fill. */
    private static final int INSERTS_AT = 50;

    /** The items inserted one per request: the first argument, else BENCH_N, else 10,000. */
    private final int n;
    /** ST's one-per-request inserts: BENCH_ST_N, else N (ST's inserts slow down with the collection: hours at 10,000). */
    private final int stN;
    /** The inserts of a window: BENCH_WINDOW, else a tenth of N, at most 1,000. */
    private final int window;
    private final int big = intEnv("BENCH_BIG", 100_000);
    private final int batch = intEnv("BENCH_BATCH", 500);
    private final int queries = intEnv("BENCH_QUERIES", 100);
    private final int transformersN = intEnv("BENCH_TRANSFORMERS_N", 1000);

    /** One server's figures, by name, as the report prints them. */
    private final Map<String, Map<String, String>> figures = new LinkedHashMap<>();
    /** Median ms per insert of each window, by server. */
    private final Map<String, double[]> windows = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    private VectorBench(int n) {
        this.n = n > 0 ? n : intEnv("BENCH_N", 10_000);
        this.stN = Math.min(this.n, intEnv("BENCH_ST_N", this.n));
        this.window = intEnv("BENCH_WINDOW", Math.max(1, Math.min(1000, this.n / 10)));
    }

    public static void main(String[] args) throws Exception {
        int n = 0;
        boolean transformers = "1".equals(System.getenv("BENCH_TRANSFORMERS"));
        for (String arg : args) {
            if (arg.equals("--transformers")) {
                transformers = true;
            } else {
                n = Integer.parseInt(arg.replace("_", "").replace(",", ""));
            }
        }
        new VectorBench(n).run(transformers);
    }

    private void run(boolean transformers) throws Exception {
        Path work = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("vectors");
        // each run starts from empty data roots: the vector stores of a previous run would be loaded otherwise
        deleteTree(work.resolve("data"));
        deleteTree(work.resolve("st-data"));
        Files.createDirectories(work.resolve("public"));
        Files.createDirectories(work.resolve("st-data"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html>");
        String loadBefore = loadAverage();
        System.out.printf("load average %s; N %d (ST %d), window %d, %d queries, %d dimensions%n", loadBefore, n, stN, window, queries, DIMENSIONS);

        try (BenchServer tankard = BenchServer.tankard(work)) {
            measure("Tankard", tankard, work.resolve("data"), true, transformers);
        }
        try (BenchServer st = BenchServer.sillyTavern(BenchServer.stDir(), work.resolve("st-data"))) {
            if (st != null) {
                measure("ST", st, work.resolve("st-data"), false, false);
                if (transformers) {
                    notes.add("transformers: Tankard only (ST's source downloads its model from the Hugging Face hub at the first request)");
                }
            } else {
                notes.add("ST not run: set TANKARD_ST_DIR to a SillyTavern install to compare in the same run");
            }
        }
        System.out.printf("load average %s before, %s after%n", loadBefore, loadAverage());
        report();
    }

    private void measure(String server, BenchServer http, Path dataRoot, boolean tankard, boolean transformers) {
        Map<String, String> f = figures.computeIfAbsent(server, k -> new LinkedHashMap<>());
        try {
            System.out.printf("%s: warm-up%n", server);
            warmUp(http);
            f.put("RSS idle", http.rssMb() + " MB");

            int items = tankard ? n : stN;
            double[] medians = new double[(items + window - 1) / window];
            double[] times = new double[window];
            double total = 0;
            for (int i = 0; i < items; i++) {
                double ms = time(insertOne(http, i));
                total += ms;
                times[i % window] = ms;
                if ((i + 1) % window == 0 || i == items - 1) {
                    int k = i % window + 1;
                    double[] w = Arrays.copyOf(times, k);
                    Arrays.sort(w);
                    medians[i / window] = w[k / 2];
                    System.out.printf("%s: %d items, median %.2f ms per insert%n", server, i + 1, w[k / 2]);
                }
            }
            windows.put(server, medians);
            f.put("inserts of " + items + ", wall", String.format("%.1f s", total / 1000));
            checkCount(http, items);
            if (items >= QUERY_AT) { // its last window ends there
                f.put("insert at " + QUERY_AT + ", one per request", String.format("%.2f ms", medians[medians.length - 1]));
            }
            f.put("query at " + items, query(http, items));
            f.put("RSS at " + items, http.rssMb() + " MB");

            f.put("store on disk at " + items, diskMb(dataRoot) + " MB");
            // then filled with batched inserts (quick) to the sizes queried: 10,000 on both, BENCH_BIG on Tankard
            int at = items;
            for (int size : new int[] {QUERY_AT, big}) {
                if (size <= at) {
                    continue;
                }
                if (!tankard && size > QUERY_AT) {
                    long mb = diskMb(dataRoot);
                    long projected = mb * size / Math.max(1, at);
                    notes.add(String.format("ST not run at %,d items: vectra keeps a collection in one index.json (%d MB at %,d items here), "
                            + "read, parsed and rewritten whole on every request; at %,d items about %,d MB%s", size, mb, at, size, projected,
                            projected > 500 ? ", past V8's longest string (about 512 MB), so it cannot even load it" : ""));
                    break;
                }
                double load = 0;
                for (int from = at; from < size; from += batch) {
                    byte[] body = insertBody(from, Math.min(size, from + batch));
                    load += time(() -> http.post("/api/vector/insert", body));
                }
                f.put("batched load " + at + "-" + size, String.format("%.1f s (%d per request, %.0f items/s)", load / 1000, batch, (size - at) / (load / 1000)));
                at = size;
                checkCount(http, at);
                if (size == QUERY_AT) { // where ST's one-per-request run stopped short of it
                    f.put("insert at " + QUERY_AT + ", one per request", String.format("%.2f ms", medianInsertsAt(http, at, at + INSERTS_AT)));
                    at += INSERTS_AT;
                }
                f.put("query at " + size, query(http, at)); // named by the size, whatever the timed inserts added
                f.put("RSS at " + size, http.rssMb() + " MB");
                f.put("store on disk at " + size, diskMb(dataRoot) + " MB");
                System.out.printf("%s: %d items, query %s%n", server, at, f.get("query at " + size));
            }
            if (transformers) {
                f.put("transformers", transformers(http));
            }
        } catch (Exception e) {
            f.put("failed", e.getMessage());
            System.out.printf("%s: failed: %s%n", server, e.getMessage());
        }
    }

    /** Inserts and queries on a collection of their own, deleted after, until the server's compilers are warm. */
    private void warmUp(BenchServer http) throws Exception {
        String collection = "\"collectionId\":\"warm\",\"source\":\"webllm\",\"model\":\"" + MODEL + "\"";
        for (int i = 0; i < 200; i++) {
            String text = text(-1 - i);
            http.post("/api/vector/insert", "{" + collection + ",\"items\":[{\"hash\":" + (-1 - i) + ",\"text\":\"" + text
                    + "\",\"index\":" + i + "}],\"embeddings\":{\"" + text + "\":" + vectorJson(vector(-1 - i)) + "}}");
        }
        for (int q = 0; q < 100; q++) {
            String text = "warm query " + q;
            http.post("/api/vector/query", "{" + collection + ",\"searchText\":\"" + text + "\",\"topK\":10,\"threshold\":0,"
                    + "\"embeddings\":{\"" + text + "\":" + vectorJson(vector(1_000_000_000 + q)) + "}}");
        }
        http.post("/api/vector/purge", "{\"collectionId\":\"warm\"}");
    }

    /**
     * The median time of one-item inserts of items [from, to) into a collection of 10,000, filled by batches: for a
     * server whose one-per-request run stopped short of 10,000 (ST's takes hours).
     */
    private static double medianInsertsAt(BenchServer http, int from, int to) throws Exception {
        double[] times = new double[to - from];
        for (int i = from; i < to; i++) {
            times[i - from] = time(insertOne(http, i));
        }
        Arrays.sort(times);
        return times[times.length / 2];
    }

    /** Waits until the server has used under 5% of a core for a second: journals folded, compilers done. */
    private static void settle(BenchServer http) throws Exception {
        for (int i = 0; i < 240; i++) {
            double before = http.cpuMs();
            Thread.sleep(1000);
            if (http.cpuMs() - before < 50) {
                return;
            }
        }
    }

    /** One item per request, as ST's frontend inserts them for the sources it embeds in the browser. */
    private static BenchServer.Task insertOne(BenchServer http, int i) {
        byte[] body = insertBody(i, i + 1);
        return () -> http.post("/api/vector/insert", body);
    }

    private static byte[] insertBody(int from, int to) {
        StringBuilder items = new StringBuilder();
        StringBuilder embeddings = new StringBuilder();
        for (int i = from; i < to; i++) {
            String text = text(i);
            items.append(i > from ? "," : "").append("{\"hash\":").append(hash(i)).append(",\"text\":\"").append(text)
                    .append("\",\"index\":").append(i).append('}');
            embeddings.append(i > from ? "," : "").append('"').append(text).append("\":").append(vectorJson(vector(i)));
        }
        return ("{\"collectionId\":\"" + COLLECTION + "\",\"source\":\"webllm\",\"model\":\"" + MODEL + "\",\"items\":[" + items
                + "],\"embeddings\":{" + embeddings + "}}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The median of {@code queries} queries of random vectors, and a check that an item's own vector finds it first. */
    private String query(BenchServer http, int items) throws Exception {
        settle(http);
        // warm on this collection's size: 2,000 queries or 10 s, whichever comes first. Tankard's JIT compilers take
        // a thousand or so requests to settle (at 10,000 items: 3.9 ms a query after 100, 2.4 after 400, 1.6 after
        // 1,500); ST's queries take most of a second each, so it gets about a dozen
        long warmUntil = System.nanoTime() + 10_000_000_000L;
        for (int q = 0; q < 2000 && System.nanoTime() < warmUntil; q++) {
            String body = queryBody("warm-up " + q + " at " + items, vector(1_500_000_000 - q));
            http.post("/api/vector/query", body);
        }
        double[] times = new double[queries];
        for (int q = 0; q < queries; q++) {
            String body = queryBody("query " + q + " at " + items, vector(2_000_000_000 - q));
            times[q] = time(() -> http.post("/api/vector/query", body));
        }
        Arrays.sort(times);
        Random random = new Random(SEED + items);
        int target = random.nextInt(items);
        JsonNode answer;
        try (InputStream in = http.open("/api/vector/query", queryBody("check " + target, vector(target)))) {
            answer = JsJson.parse(in.readAllBytes());
        }
        JsonNode hashes = answer.get("hashes");
        if (hashes == null || hashes.size() != Math.min(10, items) || hashes.get(0).asLong() != hash(target)) {
            throw new IllegalStateException("query by item " + target + "'s own vector did not find it first: " + answer);
        }
        return String.format("%.2f ms (p90 %.2f)", times[queries / 2], times[Math.min(queries - 1, queries * 9 / 10)]);
    }

    private static String queryBody(String text, float[] vector) {
        return "{\"collectionId\":\"" + COLLECTION + "\",\"source\":\"webllm\",\"model\":\"" + MODEL + "\",\"searchText\":\"" + text
                + "\",\"topK\":10,\"threshold\":0,\"embeddings\":{\"" + text + "\":" + vectorJson(vector) + "}}";
    }

    private static void checkCount(BenchServer http, int items) throws Exception {
        JsonNode list;
        try (InputStream in = http.open("/api/vector/list", "{\"collectionId\":\"" + COLLECTION + "\",\"source\":\"webllm\",\"model\":\"" + MODEL + "\"}")) {
            list = JsJson.parse(in.readAllBytes());
        }
        if (list.size() != items) {
            throw new IllegalStateException("/api/vector/list has " + list.size() + " hashes, not " + items);
        }
    }

    /**
     * "Vectorize All" of a chat through the local {@code transformers} source: one message per request, no
     * embeddings in the body, the server embeds with its model. The first request (which loads the model) is
     * given apart.
     */
    private String transformers(BenchServer http) {
        String collection = "\"collectionId\":\"bench-transformers\",\"source\":\"transformers\"";
        try {
            double[] times = new double[transformersN];
            for (int i = 0; i < transformersN; i++) {
                String body = "{" + collection + ",\"items\":[{\"hash\":" + hash(i) + ",\"text\":\"" + text(i) + "\",\"index\":" + i + "}]}";
                times[i] = time(() -> http.post("/api/vector/insert", body));
            }
            double first = times[0];
            double total = Arrays.stream(times).sum();
            double[] rest = Arrays.copyOfRange(times, 1, transformersN);
            Arrays.sort(rest);
            double[] q = new double[queries];
            for (int i = 0; i < queries; i++) {
                String body = "{" + collection + ",\"searchText\":\"" + text(5_000_000 + i) + "\",\"topK\":10,\"threshold\":0}";
                q[i] = time(() -> http.post("/api/vector/query", body));
            }
            Arrays.sort(q);
            return String.format("%d messages in %.1f s (%.1f/s), first %.0f ms, then median %.1f ms each; query (embedding included) median %.1f ms; RSS %d MB",
                    transformersN, total / 1000, transformersN / (total / 1000), first, rest.length == 0 ? 0 : rest[rest.length / 2],
                    q[queries / 2], http.rssMb());
        } catch (Exception e) {
            return "failed: " + e.getMessage();
        }
    }

    private void report() {
        double[] tankard = windows.get("Tankard");
        double[] st = windows.get("ST");
        int rows = Math.max(tankard == null ? 0 : tankard.length, st == null ? 0 : st.length);
        System.out.println();
        System.out.printf("insert, one item per request: median ms per insert in each window of %d%n", window);
        System.out.printf("%10s %10s %10s %10s%n", "items", "Tankard", "ST", "ST/Tankard");
        int common = -1;
        for (int r = 0; r < rows; r++) {
            double t = tankard == null || r >= tankard.length ? Double.NaN : tankard[r];
            double s = st == null || r >= st.length ? Double.NaN : st[r];
            if (!Double.isNaN(t) && !Double.isNaN(s)) {
                common = r;
            }
            System.out.printf("%10d %10s %10s %10s%n", Math.min(n, (r + 1) * window), ms(t), ms(s), ratio(s, t));
        }
        if (common >= 0) {
            double t = tankard[common];
            double s = st[common];
            System.out.printf("throughput Tankard/ST at the last window both ran (to %d items): %.1fx (%.0f vs %.1f inserts/s)%n",
                    Math.min(n, (common + 1) * window), s / t, 1000 / t, 1000 / s);
        }
        System.out.println();
        List<String> keys = new ArrayList<>();
        figures.values().forEach(m -> m.keySet().forEach(k -> {
            if (!keys.contains(k)) {
                keys.add(k);
            }
        }));
        for (String key : keys) {
            StringBuilder line = new StringBuilder(String.format("%-24s", key));
            figures.forEach((server, m) -> line.append(String.format("  %s: %s", server, m.getOrDefault(key, "-"))));
            String t = figures.getOrDefault("Tankard", Map.of()).get(key);
            String s = figures.getOrDefault("ST", Map.of()).get(key);
            if (t != null && s != null && (key.startsWith("query") || key.startsWith("insert at"))) {
                line.append(String.format("  (ST/Tankard %s)", ratio(leadingNumber(s), leadingNumber(t))));
            }
            System.out.println(line);
        }
        notes.forEach(System.out::println);
        System.out.println("command: " + System.getProperty("bench.command", "bench/vectors.sh"));
    }

    private static String ms(double v) {
        return Double.isNaN(v) ? "-" : String.format("%.2f", v);
    }

    private static String ratio(double num, double den) {
        return Double.isNaN(num) || Double.isNaN(den) || den == 0 ? "-" : String.format("%.1fx", num / den);
    }

    private static double leadingNumber(String s) {
        try {
            return Double.parseDouble(s.split(" ", 2)[0]);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static long hash(int i) {
        return 1_000_000L + i; // ST's frontend sends getStringHash(text), a 32-bit integer
    }

    private static final String[] WORDS = ("the a keeper of old bees lantern harbour quiet storm mead tavern road sword "
            + "song winter river stone smile secret letter candle naïve café and then she said it was late").split(" ");

    /** About 400 characters of words, unique (it keys the embeddings map), without JSON escapes. */
    static String text(int i) {
        Random random = new Random(SEED ^ (i * 0x9E3779B97F4A7C15L));
        StringBuilder text = new StringBuilder("#").append(i).append(' ');
        while (text.length() < 400) {
            text.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(12) == 0 ? ". " : " ");
        }
        return text.toString().trim();
    }

    /** A random unit vector (Gaussian components, normalised), the same for the same i in every run. */
    static float[] vector(long i) {
        Random random = new Random(SEED * 31 + i);
        float[] v = new float[DIMENSIONS];
        double norm = 0;
        for (int d = 0; d < DIMENSIONS; d++) {
            double x = random.nextGaussian();
            v[d] = (float) x;
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        for (int d = 0; d < DIMENSIONS; d++) {
            v[d] = (float) (v[d] / norm);
        }
        return v;
    }

    /**
     * The vector as the browser sends it: a Float32Array's values as JavaScript numbers, printed in full
     * (e.g. 0.05173416808247566), as JSON.stringify of Array.from(embedding) does.
     */
    static String vectorJson(float[] v) {
        StringBuilder json = new StringBuilder(v.length * 21).append('[');
        for (int d = 0; d < v.length; d++) {
            json.append(d > 0 ? "," : "").append((double) v[d]);
        }
        return json.append(']').toString();
    }

    private static int intEnv(String name, int fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : Integer.parseInt(value.trim().replace("_", "").replace(",", ""));
    }

    static void deleteTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> paths = Files.walk(root)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** The size of the user's vector store folder (ST's and Tankard's alike: default-user/vectors), in MB. */
    private static long diskMb(Path dataRoot) throws IOException {
        Path vectors = dataRoot.resolve("default-user/vectors");
        if (!Files.exists(vectors)) {
            return 0;
        }
        try (Stream<Path> paths = Files.walk(vectors)) {
            long bytes = 0;
            for (Path p : paths.filter(Files::isRegularFile).toList()) {
                bytes += Files.size(p);
            }
            return bytes >> 20;
        }
    }

    private static String loadAverage() throws IOException {
        return String.join(" ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
    }
}
