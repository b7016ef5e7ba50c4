package tankard.vector.local;

import com.sun.management.OperatingSystemMXBean;
import tankard.testing.TestServer;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Chunks of 400 characters of English prose (Tankard's own docs) a second through the embedded model, one at a time and
 * in one call ({@code ./mvnw -o -q test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt}, then
 * {@code java -cp target/test-classes:target/classes:$(cat target/cp.txt) tankard.vector.local.EmbeddingBenchmark
 * [chunks]}). Wall-clock figures depend on what else the machine runs; the CPU seconds tell the model's cost.
 */
public final class EmbeddingBenchmark {
    private static final OperatingSystemMXBean CPU = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static long cpuStart;

    private EmbeddingBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        List<String> chunks = chunks(count);
        Path work = TestServer.tempDir();
        try (LocalEmbeddingModel model = LocalEmbeddingModel.load(EmbeddedModel.extract(work))) {
            model.embed(chunks.subList(0, 32)); // warm-up
            cpuStart = CPU.getProcessCpuTime();
            long start = System.nanoTime();
            for (String chunk : chunks.subList(0, count / 3)) {
                model.embed(List.of(chunk));
            }
            report("one at a time", count / 3, start);
            start = System.nanoTime();
            model.embed(chunks);
            report("in one call", count, start);
        } finally {
            TestServer.deleteTree(work);
        }
    }

    private static void report(String how, int chunks, long start) {
        double seconds = (System.nanoTime() - start) / 1e9;
        long cpu = CPU.getProcessCpuTime();
        System.out.printf("%d chunks of 400 characters %s: %.2f s, %.0f chunks/s (%.2f CPU s: %.0f chunks a CPU second)%n",
                chunks, how, seconds, chunks / seconds, (cpu - cpuStart) / 1e9, chunks / ((cpu - cpuStart) / 1e9));
        cpuStart = cpu;
    }

    /**
     * Consecutive 400-character pieces of the prose of README.md and docs/*.md (their lines that begin with a
     * letter: no tables, code or headings), repeated as needed.
     */
    static List<String> chunks(int count) throws Exception {
        StringBuilder text = new StringBuilder();
        try (var docs = Files.list(Path.of("docs"))) {
            for (Path doc : Stream.concat(Stream.of(Path.of("README.md")), docs.filter(p -> p.toString().endsWith(".md"))
                    .sorted()).toList()) {
                Files.readAllLines(doc).stream().filter(line -> !line.isEmpty() && Character.isLetter(line.charAt(0)))
                        .forEach(line -> text.append(line).append(' '));
            }
        }
        List<String> chunks = new ArrayList<>(count);
        for (int at = 0; chunks.size() < count; at = (at + 400) % (text.length() - 400)) {
            chunks.add(text.substring(at, at + 400));
        }
        return chunks;
    }
}
