package tankard.summarize.onnx;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Extras summarize module over HTTP with the tiny BART export: from a local folder, downloaded once from a
 * mock Hugging Face hub into the data root, and with the hub out of reach (the server still starts, 503).
 */
class BartExtrasHttpTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Path TINY = BartModelTest.TINY;
    private final Vertx vertx = Vertx.vertx();
    private final List<String> hubRequests = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        TestServer.await(vertx.close());
    }

    /** The reference's first summary with the model's own settings: its text and summary. */
    private static JsonNode defaultCase() throws Exception {
        JsonNode expected = JsJson.parse(Files.readString(Path.of("src/test/resources/summarize/tiny-bart-expected.json")));
        for (JsonNode testCase : expected.get("cases")) {
            if (testCase.get("name").asText().equals("default")) {
                return testCase;
            }
        }
        throw new IllegalStateException("no default case");
    }

    private static String text() throws Exception {
        return defaultCase().get("text").asText();
    }

    private static String expectedSummary() throws Exception {
        return defaultCase().get("summary").asText();
    }

    private static HttpResponse<String> summarize(TestServer server, String text) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.tankard.extrasPort() + "/api/summarize"))
                .POST(HttpRequest.BodyPublishers.ofString(JsJson.compact(JsJson.object().put("text", text)
                        .set("params", JsJson.object())))).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The answer once the model has loaded or failed to: 503 "…still downloading or loading…" meanwhile. */
    private static HttpResponse<String> summarizeWhenSettled(TestServer server, String text) throws Exception {
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (true) {
            HttpResponse<String> reply = summarize(server, text);
            if (reply.statusCode() != 503 || !reply.body().contains("still downloading") || System.nanoTime() > deadline) {
                return reply;
            }
            Thread.sleep(50);
        }
    }

    private static TestServer start(String configYaml, String model) {
        return TestServer.start(configYaml, "--enable-modules=summarize", "--extras-port", "0",
                "--summarization-model", model);
    }

    @Test
    void summarizesWithALocalExportFolder() throws Exception {
        BartModel model;
        try (TestServer server = start(null, TINY.toAbsolutePath().toString())) {
            HttpResponse<String> reply = summarizeWhenSettled(server, text());
            assertEquals(200, reply.statusCode(), reply.body());
            assertEquals(expectedSummary(), JsJson.parse(reply.body()).get("summary").asText());
            assertEquals("*", reply.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
            model = server.tankard.summaryModel().loaded().join();
        }
        // the server stopped: its model's native sessions are freed
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> model.summarize(text()));
        assertTrue(closed.getMessage().contains("released"), closed.getMessage());
    }

    /** A mock hub with the Xenova layout (graphs under onnx/, none at the top); the encoder behind a redirect. */
    private String mockHub() {
        Router router = Router.router(vertx);
        router.route().handler(ctx -> {
            hubRequests.add(ctx.request().path());
            ctx.next();
        });
        router.get("/Tiny/bart/resolve/main/onnx/encoder_model.onnx").handler(ctx ->
                ctx.response().setStatusCode(302).putHeader("Location", "/cdn/encoder").end());
        router.get("/cdn/encoder").handler(ctx -> ctx.response().sendFile(TINY.resolve("encoder_model.onnx").toString()));
        router.get("/Tiny/bart/resolve/main/*").handler(ctx -> {
            String path = ctx.pathParam("*");
            Path file = TINY.resolve(path.startsWith("onnx/") ? path.substring(5) : path);
            boolean graph = path.endsWith(".onnx");
            if (graph != path.startsWith("onnx/") || !Files.isRegularFile(file)) {
                ctx.response().setStatusCode(404).end("Entry not found");
            } else {
                ctx.response().sendFile(file.toString());
            }
        });
        HttpServer server = TestServer.await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
        return "http://127.0.0.1:" + server.actualPort();
    }

    @Test
    void downloadsARepositoryOnceIntoTheDataRootAndThenWorksFromThere() throws Exception {
        String hub = TestServer.providerOrigins(Map.of(HubDownloader.HUB, mockHub()));
        try (TestServer first = start(hub, "Tiny/bart")) {
            HttpResponse<String> reply = summarizeWhenSettled(first, text());
            assertEquals(200, reply.statusCode(), reply.body());
            assertEquals(expectedSummary(), JsJson.parse(reply.body()).get("summary").asText());
            Path folder = first.dataRoot.resolve("_models/Tiny/bart");
            for (String file : List.of("config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json",
                    "onnx/encoder_model.onnx", "onnx/decoder_model.onnx", "onnx/decoder_with_past_model.onnx")) {
                Path original = TINY.resolve(file.replace("onnx/", ""));
                assertArrayEquals(Files.readAllBytes(original), Files.readAllBytes(folder.resolve(file)), file);
            }
            try (Stream<Path> files = Files.walk(folder)) {
                assertTrue(files.noneMatch(f -> f.getFileName().toString().endsWith(".part")));
            }
            assertTrue(hubRequests.contains("/cdn/encoder"), hubRequests.toString());
            int requests = hubRequests.size();

            // a second server on the same data root loads what is there: no request reaches the hub
            try (TestServer second = TestServer.startIn(first.workDir, "--enable-modules=summarize",
                    "--extras-port", "0", "--summarization-model", "Tiny/bart")) {
                HttpResponse<String> again = summarizeWhenSettled(second, text());
                assertEquals(200, again.statusCode(), again.body());
                assertEquals(requests, hubRequests.size(), hubRequests.toString());
            }
        }
    }

    @Test
    void withTheHubOutOfReachTheServerStartsAndTheModuleAnswers503() throws Exception {
        String offline = TestServer.providerOrigins(Map.of(HubDownloader.HUB, "http://127.0.0.1:1"));
        try (TestServer server = start(offline, "Tiny/bart")) {
            HttpResponse<String> reply = summarizeWhenSettled(server, text());
            assertEquals(503, reply.statusCode());
            assertEquals("no summarization model loaded", JsJson.parse(reply.body()).get("error").asText());
            HttpResponse<String> modules = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + server.tankard.extrasPort() + "/api/modules")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("{\"modules\":[\"summarize\"]}", modules.body());
            try (Stream<Path> files = Files.walk(server.dataRoot)) {
                assertTrue(files.noneMatch(f -> f.toString().contains("_models") && Files.isRegularFile(f)));
            }
        }
    }
}
