package tankard.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * Many clients at once on Tankard in its own process, as {@code bin/tankard} runs it, arriving one after the other
 * over the first seconds ({@code -Dbench.rampMs}, 5000; 0 for all in one instant): each client loads the page,
 * lists the characters, reads and saves its own chat and reads the settings, with a short pause between requests.
 * Prints throughput, p50 and p99 and the server's resident memory at the start, the middle and the end, then
 * after a quiet spell (heap given back). Run once with {@code bin/jvm.options} and once with the JVM's defaults.
 * <p>
 * Usage: {@code bench/load.sh [clients] [seconds] [cards]} (default 100 60 500).
 */
public final class LoadBench {
    private static final long THINK_MS = Long.getLong("bench.thinkMs", 200);
    /** Clients arrive one after the other over this long, as users do, rather than all in the same instant. */
    private static final long RAMP_MS = Long.getLong("bench.rampMs", 5000);
    /** A client's round, as a page load and a chat turn make it. */
    private static final List<String> REQUESTS = List.of("GET /", "GET /js/app.js", "characters/all", "chats/get",
            "chats/save", "chats/get", "settings/get", "GET /app.css");

    public static void main(String[] args) throws Exception {
        int clients = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int cards = args.length > 2 ? Integer.parseInt(args[2]) : 500;
        Path work = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("load");
        prepare(work, clients, cards);
        System.out.printf("%d clients arriving over %d ms, %d s, %d cards, pause up to %d ms between requests "
                + "(load average %s)%n", clients, RAMP_MS, seconds, cards, 2 * THINK_MS,
                Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        run("bin/jvm.options", work, List.of("@" + Path.of("bin/jvm.options").toAbsolutePath()), clients, seconds);
        if (Boolean.getBoolean("bench.onlyOptionsFile")) {
            return;
        }
        run("JVM defaults", work, List.of("--add-modules=jdk.incubator.vector"), clients, seconds);
    }

    /** The library, one chat of 200 messages per client, settings of about 40 KB, Tankard's own UI to load. */
    static void prepare(Path work, int clients, int cards) throws Exception {
        StringBuilder settings = new StringBuilder("{\"firstRun\":false,\"power_user\":{\"theme\":\"Bench\"},\"notes\":[");
        for (int i = 0; i < 400; i++) {
            settings.append(i == 0 ? "" : ",").append("\"setting ").append(i).append(" of the bench's user, some text to carry\"");
        }
        Files.createDirectories(work.resolve("data/default-user"));
        Files.writeString(work.resolve("data/default-user/settings.json"), settings.append("]}"));
        CharacterListBench.buildLibrary(work.resolve("data/default-user/characters"), cards);
        Path chats = work.resolve("data/default-user/chats/Bench");
        Files.createDirectories(chats);
        byte[] chat = ChatBench.chatBytes(200);
        for (int c = 0; c < clients; c++) {
            Files.write(chats.resolve("load" + c + ".jsonl"), chat);
        }
        copyTree(Path.of("public"), work.resolve("public"));
    }

    /** Copies a folder's files over those of another. */
    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void run(String name, Path work, List<String> jvm, int clients, int seconds) throws Exception {
        try (BenchServer server = BenchServer.tankard(work, jvm)) {
            System.out.printf("%n%s: RSS at start %d MB%n", name, server.rssMb());
            Measured measured = drive(server, server, clients, seconds);
            measured.print(name);
            Thread.sleep(Long.getLong("bench.idleMs", 30_000));
            System.out.printf("RSS after 30 s idle %d MB%n", server.rssMb());
        }
    }

    /** What a run of the clients measured: latencies in microseconds by third of the run and by request. */
    record Measured(List<long[]> thirds, long[] rss, Map<String, long[]> byRequest, int errors, int seconds) {
        /** Requests per second over the whole run. */
        double throughput() {
            return thirds.stream().mapToLong(ms -> ms.length).sum() / (double) seconds;
        }

        /** The percentile over the whole run, in ms. */
        double percentile(int p) {
            return LoadBench.percentile(thirds.stream().flatMapToLong(java.util.Arrays::stream).sorted().toArray(), p);
        }

        void print(String name) {
            for (int third = 0; third < 3; third++) {
                long[] ms = thirds.get(third);
                System.out.printf("%s  %-6s %6.0f requests/s  p50 %6.1f ms  p99 %6.1f ms  RSS %4d MB%n", name,
                        List.of("start", "middle", "end").get(third), ms.length / (seconds / 3.0),
                        LoadBench.percentile(ms, 50), LoadBench.percentile(ms, 99), rss[third]);
            }
            byRequest.forEach((request, ms) -> System.out.printf("%s    %-22s p50 %6.1f ms  p99 %6.1f ms%n", name,
                    request, LoadBench.percentile(ms, 50), LoadBench.percentile(ms, 99)));
            System.out.printf("%s  errors %d; ", name, errors);
        }
    }

    /**
     * The clients' rounds against the target (a server, or a proxy before servers) for that long, each on its own
     * chat {@code load<client>}; the resident memory sampled at the end of each third is {@code measured}'s (-1
     * with none).
     */
    static Measured drive(BenchServer target, BenchServer measured, int clients, int seconds) throws Exception {
        byte[][] saves = new byte[clients][];
        for (int c = 0; c < clients; c++) {
            saves[c] = ChatBench.saveBody("load" + c, ChatBench.chatBytes(200));
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        AtomicInteger errors = new AtomicInteger();
        List<ConcurrentLinkedQueue<Long>> thirds = List.of(new ConcurrentLinkedQueue<>(),
                new ConcurrentLinkedQueue<>(), new ConcurrentLinkedQueue<>());
        Map<String, ConcurrentLinkedQueue<Long>> byRequest = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        long start = System.nanoTime();
        for (int c = 0; c < clients; c++) {
            int client = c;
            long arrival = start + RAMP_MS * 1_000_000 * c / clients;
            pool.execute(() -> client(target, client, saves[client], start, arrival, end, seconds, thirds,
                    byRequest, errors));
        }
        long[] rss = new long[3];
        for (int third = 0; third < 3; third++) {
            Thread.sleep(seconds * 1000L / 3);
            rss[third] = measured == null ? -1 : measured.rssMb();
        }
        pool.shutdown();
        pool.awaitTermination(5, TimeUnit.MINUTES);
        Map<String, long[]> requests = new java.util.TreeMap<>();
        byRequest.forEach((request, micros) -> requests.put(request, sorted(micros)));
        return new Measured(thirds.stream().map(LoadBench::sorted).toList(), rss, requests, errors.get(), seconds);
    }

    private static long[] sorted(ConcurrentLinkedQueue<Long> micros) {
        return micros.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    private static void client(BenchServer server, int client, byte[] save, long start, long arrival, long end,
                               int seconds, List<ConcurrentLinkedQueue<Long>> thirds,
                               Map<String, ConcurrentLinkedQueue<Long>> byRequest, AtomicInteger errors) {
        Random random = new Random(client);
        byte[] get = ("{\"ch_name\":\"Bench\",\"avatar_url\":\"Bench.png\",\"file_name\":\"load" + client + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        try {
            Thread.sleep(Math.max(0, (arrival - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
            return;
        }
        for (int step = 0; System.nanoTime() < end; step++) {
            long t0 = System.nanoTime();
            String request = REQUESTS.get(step % REQUESTS.size());
            try {
                switch (request) {
                    case "GET /", "GET /js/app.js", "GET /app.css" -> server.get(request.substring(4));
                    case "characters/all" -> server.post("/api/characters/all", "{}");
                    case "chats/get" -> server.post("/api/chats/get", get);
                    case "chats/save" -> server.post("/api/chats/save", save);
                    default -> server.post("/api/settings/get", "{}");
                }
            } catch (Exception e) {
                if (errors.incrementAndGet() <= 3) {
                    System.out.println("error: " + e);
                }
            }
            long t1 = System.nanoTime();
            int third = (int) Math.min(2, (t0 - start) * 3 / (seconds * 1_000_000_000L));
            thirds.get(third).add((t1 - t0) / 1000);
            byRequest.computeIfAbsent(request, k -> new ConcurrentLinkedQueue<>()).add((t1 - t0) / 1000);
            try {
                Thread.sleep(random.nextLong(2 * THINK_MS + 1));
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The percentile of microsecond figures, in ms. */
    private static double percentile(long[] sortedMicros, int p) {
        if (sortedMicros.length == 0) {
            return Double.NaN;
        }
        return sortedMicros[Math.min(sortedMicros.length - 1, sortedMicros.length * p / 100)] / 1000.0;
    }
}
