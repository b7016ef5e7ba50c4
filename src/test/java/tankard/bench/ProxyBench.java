package tankard.bench;

import io.vertx.core.Context;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import tankard.testing.MockCompletionServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the completion proxy adds (see bench/README.md): a mock OpenAI-compatible server in this process streams
 * SSE token events, and a client reads them directly, through Tankard's
 * {@code /api/backends/chat-completions/generate} (custom source, {@code stream: true}) and, with
 * {@code TANKARD_ST_DIR} set, through real SillyTavern, in the same run. Time to first byte, events per second
 * per stream, and the server's RSS while 100 streams run.
 * <p>
 * Usage: {@code bench/proxy.sh [latency|relay]} (see {@link Mode}).
 */
public final class ProxyBench {
    private static final String GENERATE = "/api/backends/chat-completions/generate";
    private static final Buffer EVENT = Buffer.buffer(MockCompletionServer.deltaEvent(" word"));
    private static final Buffer DONE = Buffer.buffer("data: [DONE]\n\n");
    /** The mock takes how to stream from its path: /n{events}/i{interval ms, 0 = as fast as it can}/v1/chat/completions. */
    private static final Pattern MOCK_PATH = Pattern.compile("/n(\\d+)/i(\\d+)/v1/chat/completions");

    private final HttpClient client;
    /** The client's event loops: a stream's callbacks all run on the one that started it, so no data is missed. */
    private final List<Context> clientLoops;
    private final int mockPort;
    private int started;

    private ProxyBench(Vertx vertx, HttpClient client, int mockPort) {
        this.client = client;
        this.clientLoops = List.of(vertx.getOrCreateContext(), vertx.getOrCreateContext());
        this.mockPort = mockPort;
    }

    /** Where the client sends its requests, and what it sends. */
    private record Target(String name, BenchServer server, Map<String, String> headers) {
        String url(ProxyBench bench, int events, int intervalMs) {
            return server == null ? bench.mockBase(events, intervalMs) + "/chat/completions" : server.uri(GENERATE).toString();
        }
    }

    /** One stream as the client saw it. */
    private record Result(double firstByteMs, double eventsPerSecond) {
    }

    public static void main(String[] args) throws Exception {
        Path work = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("proxy");
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html>");
        String loadBefore = loadAverage();

        Vertx vertx = Vertx.vertx();
        int mockPort = BenchServer.freePort();
        Supplier<VerticleBase> mock = () -> new VerticleBase() {
            @Override
            public Future<?> start() {
                return vertx.createHttpServer().requestHandler(ProxyBench::stream).listen(mockPort, "127.0.0.1");
            }
        };
        // two instances (the port is shared): the mock must not be what limits the rate
        vertx.deployVerticle(mock, new DeploymentOptions().setInstances(2)).toCompletionStage().toCompletableFuture().get();
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true),
                new PoolOptions().setHttp1MaxSize(256));
        ProxyBench bench = new ProxyBench(vertx, client, mockPort);

        Mode mode = args.length == 0 ? Mode.ALL : Mode.valueOf(args[0].toUpperCase(java.util.Locale.ROOT));
        List<String> report = new ArrayList<>();
        Target direct = new Target("direct", null, Map.of());
        bench.warmUp(direct);
        if (mode != Mode.LATENCY) {
            bench.measureRuns(direct, mode, report);
        }
        try (BenchServer tankard = BenchServer.tankard(work)) {
            bench.measure(new Target("Tankard", tankard, tankard.sessionHeaders()), direct, mode, report);
        }
        Path stData = work.resolve("st-data");
        Files.createDirectories(stData);
        try (BenchServer st = BenchServer.sillyTavern(BenchServer.stDir(), stData)) {
            if (st != null) {
                bench.measure(new Target("ST", st, st.sessionHeaders()), direct, mode, report);
            }
        }
        System.out.printf("load average %s before, %s after%n", loadBefore, loadAverage());
        report.forEach(System.out::println);
        vertx.close();
    }

    /** What to measure: everything, only the interleaved first byte, or only the long flat-out streams (to profile). */
    private enum Mode { ALL, LATENCY, RELAY }

    /** A server: warmed up, its first byte interleaved with direct's, then the runs. */
    private void measure(Target target, Target direct, Mode mode, List<String> report) throws Exception {
        warmUp(target);
        if (mode != Mode.RELAY) {
            report.add(String.format("%-8s RSS idle %d MB; GET /csrf-token median %.2f ms (a request that proxies nothing)",
                    target.name, target.server.rssMb(), BenchServer.median(() -> roundTrip(target.server.uri("/csrf-token").toString()), 50)));
            interleaved(target, direct, report);
        }
        if (mode != Mode.LATENCY) {
            measureRuns(target, mode, report);
        }
    }

    /**
     * The JIT (or V8) and the connection pools. A JVM compiles a request's path with its optimising compiler only
     * after some thousands of calls (a server that has run a while has): before that, Tankard's first byte is
     * several times slower. {@code BENCH_WARMUP} sets the number of short streams (default 5,000).
     */
    private void warmUp(Target target) throws Exception {
        for (int i = 0; i < 5; i++) {
            run(target, 20, 2000, 0);
        }
        String shortStreams = System.getenv("BENCH_WARMUP");
        for (int i = 0; i < (shortStreams == null ? 5000 : Integer.parseInt(shortStreams)); i++) {
            run(target, 1, 20, 0);
        }
    }

    /**
     * The first byte of short streams, one at a time, alternating between the target and direct, so that both
     * see the same load on the shared machine: the medians, and the median of the pairs' differences (what the
     * server adds).
     */
    private void interleaved(Target target, Target direct, List<String> report) throws Exception {
        int pairs = 300;
        double[] server = new double[pairs];
        double[] straight = new double[pairs];
        double[] added = new double[pairs];
        for (int i = 0; i < pairs; i++) {
            straight[i] = run(direct, 1, 20, 0).get(0).firstByteMs();
            server[i] = run(target, 1, 20, 0).get(0).firstByteMs();
            added[i] = server[i] - straight[i];
        }
        Arrays.sort(server);
        Arrays.sort(straight);
        Arrays.sort(added);
        report.add(String.format("%-8s first byte, 1 stream × 20 alternating with direct (%d pairs): %s median %.2f ms, "
                        + "p95 %.2f ms; direct median %.2f ms, p95 %.2f ms; added median %.2f ms, p95 %.2f ms",
                target.name, pairs, target.name, percentile(server, 50), percentile(server, 95),
                percentile(straight, 50), percentile(straight, 95), percentile(added, 50), percentile(added, 95)));
    }

    private void measureRuns(Target target, Mode mode, List<String> report) throws Exception {
        if (mode == Mode.RELAY) {
            for (int i = 0; i < 3; i++) {
                report.add(line(target, "100 streams × 20000, fast", 100 * 20000, () -> run(target, 100, 20000, 0)));
            }
            return;
        }
        List<Result> single = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            single.addAll(run(target, 1, 2000, 0));
        }
        report.add(line(target, "1 stream × 2000, fast", single, ""));
        report.add(line(target, "100 streams × 2000, fast", 100 * 2000, () -> run(target, 100, 2000, 0)));
        report.add(line(target, "100 streams × 200, fast", 100 * 200, () -> run(target, 100, 200, 0)));
        report.add(line(target, "100 streams × 20000, fast", 100 * 20000, () -> run(target, 100, 20000, 0)));
        report.add(line(target, "100 streams × 300, 10 ms", 100 * 300, () -> run(target, 100, 300, 10)));
    }

    /** Runs the streams, with the total rate, and for a server its CPU time and its RSS sampled every 50 ms (the largest). */
    private String line(Target target, String what, long events, Run run) throws Exception {
        AtomicLong maxRss = new AtomicLong();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        if (target.server != null) {
            sampler.scheduleAtFixedRate(() -> {
                try {
                    maxRss.accumulateAndGet(target.server.rssMb(), Math::max);
                } catch (Exception ignored) {
                    // the process is gone: the run fails on its own
                }
            }, 0, 50, TimeUnit.MILLISECONDS);
        }
        double cpu = target.server == null ? 0 : target.server.cpuMs();
        long start = System.nanoTime();
        List<Result> results;
        try {
            results = run.run();
        } finally {
            sampler.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        String extra = String.format("; all streams %8.0f events/s", events / seconds);
        if (target.server != null) {
            extra += String.format(", server CPU %5.0f ms, RSS max %d MB", target.server.cpuMs() - cpu, maxRss.get());
        }
        return line(target, what, results, extra);
    }

    private String line(Target target, String what, List<Result> results, String extra) {
        double[] firstByte = results.stream().mapToDouble(Result::firstByteMs).sorted().toArray();
        double[] rate = results.stream().mapToDouble(Result::eventsPerSecond).sorted().toArray();
        return String.format("%-8s %-26s first byte median %7.2f ms, p95 %7.2f ms; per stream median %8.0f events/s%s",
                target.name, what, percentile(firstByte, 50), percentile(firstByte, 95), percentile(rate, 50), extra);
    }

    private static double percentile(double[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    @FunctionalInterface
    private interface Run {
        List<Result> run() throws Exception;
    }

    /** Starts {@code streams} streams at once and waits for all of them. */
    private List<Result> run(Target target, int streams, int events, int intervalMs) throws Exception {
        List<CompletableFuture<Result>> all = new ArrayList<>();
        for (int i = 0; i < streams; i++) {
            all.add(stream(target, events, intervalMs));
        }
        List<Result> results = new ArrayList<>();
        for (CompletableFuture<Result> one : all) {
            results.add(one.get(3, TimeUnit.MINUTES));
        }
        return results;
    }

    private CompletableFuture<Result> stream(Target target, int events, int intervalMs) {
        CompletableFuture<Result> done = new CompletableFuture<>();
        String body = "{\"type\":\"normal\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\","
                + "\"content\":\"Hi\"}],\"model\":\"mock-model\",\"temperature\":1,\"max_tokens\":300,\"stream\":true,"
                + "\"chat_completion_source\":\"custom\",\"custom_url\":\"" + mockBase(events, intervalMs) + "\"}";
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
                .setAbsoluteURI(target.url(this, events, intervalMs)).putHeader("Content-Type", "application/json");
        target.headers.forEach(options::putHeader);
        long expected = (long) events * EVENT.length() + DONE.length();
        clientLoops.get(started++ % clientLoops.size()).runOnContext(v -> send(target, options, body, events, expected, done));
        return done;
    }

    private void send(Target target, RequestOptions options, String body, int events, long expected, CompletableFuture<Result> done) {
        long start = System.nanoTime();
        client.request(options).compose(request -> request.send(body)).onSuccess(response -> {
            long[] first = {0};
            long[] bytes = {0};
            response.exceptionHandler(done::completeExceptionally);
            response.handler(chunk -> {
                if (first[0] == 0) {
                    first[0] = System.nanoTime();
                }
                bytes[0] += chunk.length();
            });
            response.endHandler(v -> {
                long end = System.nanoTime();
                if (response.statusCode() != 200 || bytes[0] != expected) {
                    done.completeExceptionally(new IllegalStateException(target.name + " answered " + response.statusCode()
                            + " with " + bytes[0] + " bytes, not " + expected));
                } else {
                    done.complete(new Result((first[0] - start) / 1e6, (events - 1) / ((end - first[0]) / 1e9)));
                }
            });
        }).onFailure(done::completeExceptionally);
    }

    /** A GET whose whole answer is read, from one of the client's loops. */
    private Object roundTrip(String url) throws Exception {
        CompletableFuture<Buffer> done = new CompletableFuture<>();
        clientLoops.get(0).runOnContext(v -> client.request(new RequestOptions().setAbsoluteURI(url))
                .compose(request -> request.send().compose(response -> response.body()))
                .onComplete(r -> {
                    if (r.succeeded()) {
                        done.complete(r.result());
                    } else {
                        done.completeExceptionally(r.cause());
                    }
                }));
        return done.get(1, TimeUnit.MINUTES);
    }

    private String mockBase(int events, int intervalMs) {
        return "http://127.0.0.1:" + mockPort + "/n" + events + "/i" + intervalMs + "/v1";
    }

    /** The mock's answer: the events its path asks for, then [DONE], with back-pressure when it writes flat out. */
    private static void stream(HttpServerRequest request) {
        Matcher path = MOCK_PATH.matcher(request.path());
        if (!path.matches()) {
            request.response().setStatusCode(404).end();
            return;
        }
        int events = Integer.parseInt(path.group(1));
        int intervalMs = Integer.parseInt(path.group(2));
        Vertx vertx = Vertx.currentContext().owner();
        request.body().onSuccess(ignored -> {
            HttpServerResponse response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            int[] left = {events};
            if (intervalMs == 0) {
                flatOut(response, left);
                return;
            }
            long timer = vertx.setPeriodic(intervalMs, id -> {
                if (left[0]-- > 0) {
                    response.write(EVENT);
                } else {
                    vertx.cancelTimer(id);
                    response.end(DONE);
                }
            });
            response.closeHandler(v -> vertx.cancelTimer(timer));
        });
    }

    private static void flatOut(HttpServerResponse response, int[] left) {
        while (left[0] > 0) {
            left[0]--;
            response.write(EVENT);
            if (response.writeQueueFull()) {
                response.drainHandler(v -> flatOut(response, left));
                return;
            }
        }
        response.end(DONE);
    }

    private static String loadAverage() throws Exception {
        return String.join(" ", Arrays.copyOf(Files.readString(Path.of("/proc/loadavg")).split(" "), 3));
    }
}
