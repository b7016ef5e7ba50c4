package tankard.extras;

import tankard.http.HttpVerticle;
import tankard.summarize.Summarizer;
import tankard.summarize.SummaryOfSummaries;
import tankard.summarize.SummaryOfSummariesTest;
import tankard.summarize.SummaryQueue;
import tankard.summarize.TextSplitterTest;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.config.ConfigLoader;
import tankard.config.TankardConfig;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Extras-compatible API over HTTP, with a test summarizer standing in for the model. */
class ExtrasServerTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final Path work = TestServer.tempDir();
    private final Vertx vertx = Vertx.vertx();
    private int port;

    @AfterEach
    void stop() {
        TestServer.await(vertx.close());
        TestServer.deleteTree(work);
    }

    /** Echoes the text and params back, and the thread it ran on. */
    private static final Summarizer ECHO = (text, params) ->
            "summary of " + text + " " + JsJson.compact(params) + " on " + Thread.currentThread().getName();

    private void start(String apiKey, SummaryQueue summaries) {
        start(apiKey, summaries, Map.of());
    }

    private void start(String apiKey, SummaryQueue summaries, Map<String, String> env) {
        TankardConfig config = ConfigLoader.load(new String[]{"--enable-modules=summarize", "--extras-port", "0"},
                env, work);
        port = TestServer.await(new ExtrasServer(config, apiKey, summaries, null, null, null).listen(vertx,
                HttpVerticle.listenOptions(config, config.extras().port()))).actualPort();
    }

    private HttpResponse<String> send(String method, String path, String body, String... headers) {
        return sendBody(method, path,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body), headers);
    }

    private HttpResponse<String> sendBody(String method, String path, HttpRequest.BodyPublisher body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, body);
        if (headers.length > 0) {
            request.headers(headers);
        }
        try {
            return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String error(HttpResponse<String> response) {
        return JsJson.parse(response.body()).path("error").asText();
    }

    @Test
    void listsTheEnabledModulesWithOpenCorsAndTiming() {
        start(null, new SummaryQueue(ECHO, 4));
        HttpResponse<String> modules = send("GET", "/api/modules", null, "Origin", "http://localhost:8000");
        assertEquals(200, modules.statusCode());
        assertEquals("{\"modules\":[\"summarize\"]}", modules.body());
        assertEquals("*", modules.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertTrue(Double.parseDouble(modules.headers().firstValue("X-Request-Duration").orElseThrow()) >= 0);
    }

    @Test
    void summarizesOnAWorkerThreadAndPassesParams() {
        start(null, new SummaryQueue(ECHO, 4));
        HttpResponse<String> reply = send("POST", "/api/summarize", "{\"text\":\"Anna:\\nHello\",\"params\":{\"x\":1}}",
                "Content-Type", "application/json", "Bypass-Tunnel-Reminder", "bypass");
        assertEquals(200, reply.statusCode(), reply.body());
        String summary = JsJson.parse(reply.body()).get("summary").asText();
        assertEquals("summary of Anna:\nHello {\"x\":1} on summarizer-1", summary);

        HttpResponse<String> noParams = send("POST", "/api/summarize", "{\"text\":\"t\"}");
        assertEquals("summary of t {} on summarizer-1", JsJson.parse(noParams.body()).get("summary").asText());
        assertEquals("*", noParams.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
    }

    @Test
    void answersCorsPreflightsWithoutTheKey() {
        start("0123456789", new SummaryQueue(ECHO, 4));
        HttpResponse<String> preflight = send("OPTIONS", "/api/summarize", null,
                "Origin", "http://localhost:8000", "Access-Control-Request-Method", "POST",
                "Access-Control-Request-Headers", "authorization,bypass-tunnel-reminder,content-type");
        assertEquals(200, preflight.statusCode());
        assertEquals("*", preflight.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertEquals("authorization,bypass-tunnel-reminder,content-type",
                preflight.headers().firstValue("Access-Control-Allow-Headers").orElse(null));
        assertTrue(preflight.headers().firstValue("Access-Control-Allow-Methods").orElse("").contains("POST"));
    }

    @Test
    void secureModeNeedsTheBearerKeyOnEveryRequest() {
        start("0123456789", new SummaryQueue(ECHO, 4));
        HttpResponse<String> none = send("GET", "/api/modules", null);
        assertEquals(401, none.statusCode());
        assertEquals("401: Invalid API key", error(none));
        assertEquals("*", none.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        assertEquals(401, send("GET", "/api/modules", null, "Authorization", "Bearer 9876543210").statusCode());
        assertEquals(401, send("POST", "/api/summarize", "{\"text\":\"t\"}", "Authorization", "0123456789").statusCode());
        assertEquals(200, send("GET", "/api/modules", null, "Authorization", "Bearer 0123456789").statusCode());
        HttpResponse<String> summary = send("POST", "/api/summarize", "{\"text\":\"t\"}", "Authorization", "Bearer 0123456789");
        assertEquals(200, summary.statusCode());
    }

    @Test
    void apiKeyIsMadeOnceAndKeptInApiKeyTxt() throws Exception {
        Path file = work.resolve("extras/api_key.txt");
        String key = ExtrasApiKey.loadOrCreate(file);
        assertTrue(key.matches("[0-9a-f]{10}"), key);
        assertEquals(key, Files.readString(file));
        assertEquals(key, ExtrasApiKey.loadOrCreate(file));
        Files.writeString(file, "my-own-key\n");
        assertEquals("my-own-key", ExtrasApiKey.loadOrCreate(file));
    }

    @Test
    void refusesBadBodiesWith400() {
        start(null, new SummaryQueue(ECHO, 4));
        for (String body : List.of("{}", "{\"text\":5}", "{\"text\":null,\"params\":{}}", "{\"params\":{}}")) {
            HttpResponse<String> reply = send("POST", "/api/summarize", body, "Content-Type", "application/json");
            assertEquals(400, reply.statusCode(), body);
            assertEquals("\"text\" is required", error(reply), body);
        }
        for (String body : List.of("", "text=hello", "[\"text\"]", "{\"text\":")) {
            HttpResponse<String> reply = send("POST", "/api/summarize", body);
            assertEquals(400, reply.statusCode(), body);
            assertTrue(error(reply).startsWith("The body must be a JSON object"), body);
        }
    }

    @Test
    void aTextOverTheLimitIsRefusedWith413AndNeverReachesTheModel() {
        List<String> seen = new CopyOnWriteArrayList<>();
        start(null, new SummaryQueue((text, params) -> {
            seen.add(text);
            return "ok";
        }, 4), Map.of("SILLYTAVERN_TANKARD_EXTRAS_MAXTEXTMEGABYTES", "1"));
        String fits = "{\"text\":\"" + "a".repeat(1024 * 1024 - 11) + "\"}";
        assertEquals(1024 * 1024, fits.length());
        assertEquals(200, send("POST", "/api/summarize", fits).statusCode());
        String over = "{\"text\":\"" + "b".repeat(1024 * 1024 - 10) + "\"}";
        HttpResponse<String> refused = send("POST", "/api/summarize", over, "Content-Type", "application/json");
        assertEquals(413, refused.statusCode());
        assertEquals("The text to summarize is too long: at most 1 MB (tankard.extras.maxTextMegabytes)", error(refused));
        assertEquals("*", refused.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
        // without a Content-Length, the limit holds while the body streams in
        HttpResponse<String> chunked = sendBody("POST", "/api/summarize", HttpRequest.BodyPublishers.ofInputStream(() ->
                new ByteArrayInputStream(over.getBytes(StandardCharsets.UTF_8))));
        assertEquals(413, chunked.statusCode());
        assertEquals(1, seen.size());
        assertEquals(1024 * 1024 - 11, seen.get(0).length());
    }

    @Test
    void summaryOfSummariesAnswersForATextLongerThanTheWindow() throws Exception {
        SummaryOfSummariesTest.WordModel model = SummaryOfSummariesTest.WordModel.firstWords(50, 5);
        String text = TextSplitterTest.story(new Random(7), 2000);
        String expected = new SummaryOfSummaries(SummaryOfSummariesTest.WordModel.firstWords(50, 5)).summarize(text);
        start(null, new SummaryQueue(new SummaryOfSummaries(model), 4));
        HttpResponse<String> reply = send("POST", "/api/summarize",
                JsJson.compact(JsJson.object().put("text", text).set("params", JsJson.object())),
                "Content-Type", "application/json");
        assertEquals(200, reply.statusCode(), reply.body());
        assertEquals(expected, JsJson.parse(reply.body()).get("summary").asText());
        assertTrue(model.inputs.size() > 40, "one call a chunk: " + model.inputs.size());
    }

    @Test
    void modulesTankardDoesNotHostAnswer403LikeDisabledExtrasModules() {
        start(null, new SummaryQueue(ECHO, 4));
        HttpResponse<String> classify = send("POST", "/api/classify", "{\"text\":\"t\"}");
        assertEquals(403, classify.statusCode());
        assertEquals("Module 'classify' not enabled in config", error(classify));
        assertEquals("Module 'sd' not enabled in config", error(send("GET", "/api/image/samplers", null)));
        assertEquals(404, send("GET", "/api/nothing", null).statusCode());
    }

    @Test
    void aFullQueueAnswers503AndTheQueuedWorkStillFinishes() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        SummaryQueue queue = new SummaryQueue((text, params) -> {
            started.countDown();
            assertTrue(release.await(30, TimeUnit.SECONDS));
            return "done " + text;
        }, 1);
        start(null, queue);
        CompletableFuture<HttpResponse<String>> running = CompletableFuture.supplyAsync(() ->
                send("POST", "/api/summarize", "{\"text\":\"a\"}"));
        assertTrue(started.await(30, TimeUnit.SECONDS));
        CompletableFuture<HttpResponse<String>> waiting = CompletableFuture.supplyAsync(() ->
                send("POST", "/api/summarize", "{\"text\":\"b\"}"));
        while (queue.waiting() < 1) {
            Thread.sleep(5);
        }
        HttpResponse<String> refused = send("POST", "/api/summarize", "{\"text\":\"c\"}");
        assertEquals(503, refused.statusCode());
        assertEquals("The summarization queue is full (1 waiting); try again later", error(refused));
        release.countDown();
        assertEquals("{\"summary\":\"done a\"}", running.get(30, TimeUnit.SECONDS).body());
        assertEquals("{\"summary\":\"done b\"}", waiting.get(30, TimeUnit.SECONDS).body());
    }

    @Test
    void aFailingModelAnswersAJsonError() {
        start(null, new SummaryQueue((text, params) -> {
            throw new IllegalStateException("out of memory");
        }, 4));
        HttpResponse<String> reply = send("POST", "/api/summarize", "{\"text\":\"t\"}");
        assertEquals(500, reply.statusCode());
        assertTrue(error(reply).contains("out of memory"), reply.body());
    }

    @Test
    void tankardStartsTheModuleServerOnlyWhenEnabledAndSaysNoModelIsLoaded() throws Exception {
        try (TestServer off = TestServer.start()) {
            assertEquals(-1, off.tankard.extrasPort());
        }
        // the hub out of reach: the model cannot be downloaded, and the module says so
        String offline = TestServer.providerOrigins(Map.of("https://huggingface.co", "http://127.0.0.1:1"));
        try (TestServer on = TestServer.start(offline, "--enable-modules", "\"summarize\"", "--extras-port", "0", "--secure")) {
            port = on.tankard.extrasPort();
            assertTrue(port > 0 && port != on.port());
            String key = Files.readString(on.dataRoot.resolve("extras/api_key.txt"));
            assertTrue(key.matches("[0-9a-f]{10}"), key);
            String auth = "Bearer " + key;
            assertEquals("{\"modules\":[\"summarize\"]}", send("GET", "/api/modules", null, "Authorization", auth).body());
            HttpResponse<String> reply = send("POST", "/api/summarize", "{\"text\":\"t\",\"params\":{}}", "Authorization", auth);
            for (long deadline = System.nanoTime() + 60_000_000_000L; error(reply).contains("still downloading")
                    && System.nanoTime() < deadline; ) {
                Thread.sleep(50);
                reply = send("POST", "/api/summarize", "{\"text\":\"t\",\"params\":{}}", "Authorization", auth);
            }
            assertEquals(503, reply.statusCode());
            assertEquals("no summarization model loaded", error(reply));
            assertEquals(401, send("GET", "/api/modules", null).statusCode());
        }
    }
}
