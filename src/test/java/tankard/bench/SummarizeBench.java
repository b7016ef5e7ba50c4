package tankard.bench;

import tankard.summarize.SummaryModel;
import tankard.summarize.SummaryOfSummaries;
import tankard.summarize.onnx.BartModel;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Summary of summaries' throughput and memory (see bench/README.md): on the tiny BART export the tests use and, when
 * {@code TANKARD_SUMMARY_MODEL} names an ONNX export folder, on a real model, in this process. Per model, the
 * baseline is one direct call on a text that fills the window; then texts of each size go through
 * {@link SummaryOfSummaries}, with tokens in per second as a ratio to the baseline's, and the process's RSS and heap
 * sampled while they run.
 * <p>
 * Usage: {@code bench/summarize.sh [TOKENS...]}.
 */
public final class SummarizeBench {
    private static final Path TINY = Path.of("src/test/resources/summarize/tiny-bart");
    /** Words the tiny model knows (so its summaries are words), plain English for a real one. */
    private static final String[] WORDS = ("the a cat dog sat ran on to mat park and big small red old tree house saw "
            + "ate fish bird sang day night home went came sun rain fell").split(" ");

    private SummarizeBench() {
    }

    public static void main(String[] args) throws Exception {
        int[] sizes = args.length == 0 ? new int[]{1_000, 10_000, 100_000}
                : Arrays.stream(args).mapToInt(Integer::parseInt).toArray();
        Map<String, Path> models = new LinkedHashMap<>();
        models.put("tiny", TINY);
        String real = System.getenv("TANKARD_SUMMARY_MODEL");
        if (real != null && !real.isBlank()) {
            models.put(Path.of(real).getFileName().toString(), Path.of(real));
        } else {
            System.out.println("no real model: set TANKARD_SUMMARY_MODEL to an ONNX export folder to add one");
        }
        System.out.printf("load average %s; %d cores; max heap %d MB%n", loadAverage(),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        for (Map.Entry<String, Path> model : models.entrySet()) {
            run(model.getKey(), model.getValue(), sizes);
        }
        System.out.printf("%nload average %s after%n", loadAverage());
    }

    private static void run(String name, Path folder, int[] sizes) throws Exception {
        long rssBefore = rssMb();
        long loadStart = System.nanoTime();
        try (BartModel bart = BartModel.load(folder)) {
            double loadMs = (System.nanoTime() - loadStart) / 1e6;
            CountingModel model = new CountingModel(bart);
            int window = model.inputWindow();
            System.out.printf("%n%s (%s): window %d tokens, %s; loaded in %.0f ms, RSS %d → %d MB%n", name, folder,
                    window, bart.cached() ? "KV cache" : "no KV cache", loadMs, rssBefore, rssMb());

            String full = text(window, model, 0);
            int fullTokens = model.countTokens(full);
            for (int i = 0; i < 20; i++) {
                model.summarize(full); // warm-up: the JIT and ONNX Runtime's first runs
            }
            int runs = window > 500 ? 3 : 21;
            System.out.printf("baseline: one direct call on %d tokens (a full window), median of %d, just before each size%n",
                    fullTokens, runs);
            System.out.printf("%9s %11s %7s %9s %10s %9s %12s %7s %16s %9s%n", "tokens", "baseline/s", "calls",
                    "ms/call", "time", "counting", "tokens in/s", "ratio", "RSS max (Δ)", "heap max");
            for (int size : sizes) {
                String text = text(size, model, size);
                int tokens = model.countTokens(text);
                double baseline = fullTokens / (BenchServer.median(() -> model.summarize(full), runs) / 1000);
                model.calls.set(0);
                model.countingNanos.set(0);
                try (MemorySampler memory = MemorySampler.start()) {
                    long start = System.nanoTime();
                    String summary = new SummaryOfSummaries(model).summarize(text);
                    double seconds = (System.nanoTime() - start) / 1e9;
                    if (summary.isBlank()) {
                        throw new IllegalStateException("an empty summary of " + tokens + " tokens");
                    }
                    double rate = tokens / seconds;
                    int calls = model.calls.get();
                    System.out.printf("%9d %11.0f %7d %9.1f %8.2f s %6.2f s %12.0f %6.2fx %8d (%+d) MB %6d MB%n",
                            tokens, baseline, calls, seconds * 1000 / calls, seconds, model.countingNanos.get() / 1e9,
                            rate, rate / baseline,
                            memory.maxRss(), memory.maxRss() - memory.rssAtStart, memory.maxHeap() >> 20);
                }
            }
        }
    }

    /**
     * About {@code tokens} tokens (counted by the model's tokenizer, paragraph by paragraph) of sentences of 6 to 20
     * words in paragraphs of 2 to 6 sentences; the same text for the same size and seed.
     */
    private static String text(int tokens, SummaryModel model, long seed) {
        Random random = new Random(seed);
        StringBuilder text = new StringBuilder();
        for (int counted = 0; counted < tokens; ) {
            StringBuilder paragraph = new StringBuilder();
            for (int s = 2 + random.nextInt(5); s > 0; s--) {
                StringBuilder sentence = new StringBuilder();
                for (int w = 6 + random.nextInt(15); w > 0; w--) {
                    sentence.append(sentence.isEmpty() ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
                }
                paragraph.append(paragraph.isEmpty() ? "" : " ")
                        .append(Character.toUpperCase(sentence.charAt(0))).append(sentence, 1, sentence.length()).append('.');
            }
            int left = tokens - counted;
            String words = paragraph.toString();
            int paragraphTokens = model.countTokens(words);
            if (paragraphTokens > left) { // the last paragraph: cut to what is left, at a word
                String[] split = words.split(" ");
                words = String.join(" ", Arrays.copyOf(split, Math.max(1, split.length * left / paragraphTokens)));
                paragraphTokens = model.countTokens(words);
            }
            text.append(text.isEmpty() ? "" : "\n\n").append(words);
            counted += paragraphTokens;
        }
        return text.toString();
    }

    /** The model, counting its summarize calls and the time its tokenizer takes to count (the splitter's cost). */
    private static final class CountingModel implements SummaryModel {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicLong countingNanos = new AtomicLong();
        private final SummaryModel model;

        CountingModel(SummaryModel model) {
            this.model = model;
        }

        @Override
        public int countTokens(String text) {
            long start = System.nanoTime();
            int tokens = model.countTokens(text);
            countingNanos.addAndGet(System.nanoTime() - start);
            return tokens;
        }

        @Override
        public int inputWindow() {
            return model.inputWindow();
        }

        @Override
        public String summarize(String text) throws Exception {
            calls.incrementAndGet();
            return model.summarize(text);
        }
    }

    /** This process's RSS and used heap, sampled every 20 ms on a thread of its own: the largest of each. */
    private static final class MemorySampler implements AutoCloseable {
        private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();
        final long rssAtStart;
        private final Thread thread;
        private volatile boolean running = true;
        private volatile long maxRss;
        private volatile long maxHeap;

        private MemorySampler() throws IOException {
            System.gc(); // the heap's high-water is then this run's, not garbage left from the one before
            rssAtStart = rssMb();
            thread = new Thread(() -> {
                while (running) {
                    sample();
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "memory-sampler");
            thread.setDaemon(true);
        }

        static MemorySampler start() throws IOException {
            MemorySampler sampler = new MemorySampler();
            sampler.thread.start();
            return sampler;
        }

        private void sample() {
            try {
                maxRss = Math.max(maxRss, rssMb());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            maxHeap = Math.max(maxHeap, MEMORY.getHeapMemoryUsage().getUsed());
        }

        long maxRss() {
            return maxRss;
        }

        long maxHeap() {
            return maxHeap;
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            thread.join();
            sample();
        }
    }

    private static long rssMb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) >> 10;
            }
        }
        return -1;
    }

    private static String loadAverage() throws IOException {
        return String.join(" ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
    }
}
