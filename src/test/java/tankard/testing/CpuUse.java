package tankard.testing;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The processor time every process of the machine used between two readings of /proc (Linux): what else ran while a
 * browser test measured its frames, for the figures it reports. Not an assertion.
 */
public final class CpuUse {
    /** Linux's clock ticks a second (USER_HZ), which /proc/[pid]/stat counts in. */
    private static final double TICKS = 100;
    private static final Path PROCESSES = Path.of("/proc");
    private static final Path THREADS = Path.of("/proc/self/task");
    private final Map<String, Long> processes;
    private final Map<String, Long> threads;
    private final long start = System.nanoTime();
    private final long[] collections = collections();

    private CpuUse(Map<String, Long> processes, Map<String, Long> threads) {
        this.processes = processes;
        this.threads = threads;
    }

    public static CpuUse now() {
        return new CpuUse(read(PROCESSES), read(THREADS));
    }

    /**
     * "12.3 s of CPU in 40.0 s: chromium 8.1, java 3.2, …; in this JVM: vert.x-eventloop-thread-1 0.4, …", the busiest
     * processes and threads of this JVM first, by command name, then the JVM's garbage collections ("2 garbage
     * collections, 31 ms": their pauses take processors from the browser too).
     */
    public String since() {
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Double> byProcess = spent(processes, read(PROCESSES));
        long[] collected = collections();
        return String.format("%.1f s of CPU in %.1f s: %s; in this JVM: %s; %d garbage collections, %d ms",
                byProcess.values().stream().mapToDouble(Double::doubleValue).sum(), seconds, busiest(byProcess),
                busiest(spent(threads, read(THREADS))), collected[0] - collections[0], collected[1] - collections[1]);
    }

    /** This JVM's garbage collections so far: their count and the milliseconds they took. */
    private static long[] collections() {
        long[] sums = new long[2];
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            sums[0] += Math.max(0, collector.getCollectionCount());
            sums[1] += Math.max(0, collector.getCollectionTime());
        }
        return sums;
    }

    /** Seconds spent between the readings, by command name. */
    private static Map<String, Double> spent(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Double> spent = new HashMap<>();
        after.forEach((task, now) -> {
            long ticks = now - before.getOrDefault(task, 0L);
            if (ticks > 0) spent.merge(task.substring(task.indexOf(' ') + 1), ticks / TICKS, Double::sum);
        });
        return spent;
    }

    private static String busiest(Map<String, Double> spent) {
        return spent.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(5)
                .map(e -> String.format("%s %.1f", e.getKey(), e.getValue())).collect(Collectors.joining(", "));
    }

    /** "id command" to user plus system ticks, for every process (or thread) under the folder readable now. */
    private static Map<String, Long> read(Path folder) {
        Map<String, Long> ticks = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder, "[0-9]*")) {
            for (Path process : entries) {
                try {
                    String stat = Files.readString(process.resolve("stat"));
                    int close = stat.lastIndexOf(')'); // the command may hold spaces and parentheses
                    String[] fields = stat.substring(close + 2).split(" ");
                    String command = stat.substring(stat.indexOf('(') + 1, close);
                    // after the command: state is field 0, utime field 11, stime field 12
                    ticks.put(process.getFileName() + " " + command, Long.parseLong(fields[11]) + Long.parseLong(fields[12]));
                } catch (IOException | RuntimeException gone) { // ended meanwhile: no stat, or one cut short
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return ticks;
    }
}
