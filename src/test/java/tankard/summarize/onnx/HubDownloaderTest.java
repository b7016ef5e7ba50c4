package tankard.summarize.onnx;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.outbound.UpstreamClient;
import tankard.outbound.OutboundPolicy;
import tankard.outbound.ProviderOrigins;
import tankard.config.ConfigLoader;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Downloads from a mock hub served by Vert.x: progress, placement only when complete, the failures. A download
 * that hangs fails the test instead of the whole run.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class HubDownloaderTest {
    private static final Path TINY = BartModelTest.TINY;
    private final Vertx vertx = Vertx.vertx();
    private final Path work = TestServer.tempDir();
    private final Path folder = work.resolve("_models/Owner/model");
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<long[]> progress = Collections.synchronizedList(new ArrayList<>());
    private final byte[] big = new byte[3_000_000];

    @AfterEach
    void stop() {
        TestServer.await(vertx.close());
        TestServer.deleteTree(work);
    }

    /** A hub with the tiny export's files at the top (graphs too); {@code encoder_model.onnx} is {@link #big}. */
    private HubDownloader hub(Consumer<Router> overrides) {
        new Random(7).nextBytes(big);
        Router router = Router.router(vertx);
        router.route().handler(ctx -> {
            requests.add(ctx.request().path());
            ctx.next();
        });
        overrides.accept(router);
        router.get("/Owner/model/resolve/main/encoder_model.onnx").handler(ctx -> ctx.response().end(Buffer.buffer(big)));
        router.get("/Owner/model/resolve/main/:file").handler(ctx -> {
            Path file = TINY.resolve(ctx.pathParam("file"));
            if (Files.isRegularFile(file)) {
                ctx.response().sendFile(file.toString());
            } else {
                ctx.response().setStatusCode(404).end();
            }
        });
        HttpServer server = TestServer.await(vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1"));
        return ModelLoader.hub(new UpstreamClient(vertx, new OutboundPolicy(ConfigLoader.load(new String[0], Map.of(), work)),
                new ProviderOrigins(Map.of(HubDownloader.HUB, "http://127.0.0.1:" + server.actualPort()))));
    }

    private void download(HubDownloader hub) throws Exception {
        hub.download("Owner/model", folder, (file, done, total) -> {
            if (file.endsWith("encoder_model.onnx")) {
                progress.add(new long[]{done, total});
            }
        });
    }

    private List<Path> files() throws IOException {
        if (!Files.exists(folder)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void downloadsEachFileWithProgressAndTriesTheTopWhenOnnxHasNone() throws Exception {
        download(hub(router -> { }));
        assertArrayEquals(big, Files.readAllBytes(folder.resolve("encoder_model.onnx")));
        assertArrayEquals(Files.readAllBytes(TINY.resolve("decoder_with_past_model.onnx")),
                Files.readAllBytes(folder.resolve("decoder_with_past_model.onnx")));
        assertTrue(requests.containsAll(List.of("/Owner/model/resolve/main/onnx/encoder_model.onnx",
                "/Owner/model/resolve/main/encoder_model.onnx")), requests.toString());
        assertTrue(ModelLoader.hub(null).complete(folder));
        // progress: from 0 to the whole, never backwards, in more than one step for 3 MB
        assertTrue(progress.size() > 2, String.valueOf(progress.size()));
        assertEquals(0, progress.get(0)[0]);
        assertArrayEquals(new long[]{big.length, big.length}, progress.get(progress.size() - 1));
        for (int i = 1; i < progress.size(); i++) {
            assertTrue(progress.get(i)[0] >= progress.get(i - 1)[0]);
        }
        assertTrue(files().stream().noneMatch(f -> f.toString().endsWith(".part")));

        int before = requests.size();
        download(hub(router -> { }));
        assertEquals(before, requests.size(), "a complete folder needs no request");
    }

    @Test
    void aDownloadCutShortLeavesNothingInPlace() {
        HubDownloader hub = hub(router -> router.get("/Owner/model/resolve/main/encoder_model.onnx").handler(ctx ->
                ctx.response().putHeader("Content-Length", "1000000").write(Buffer.buffer(new byte[1000]))
                        .onComplete(v -> ctx.request().connection().close())));
        IOException e = assertThrows(IOException.class, () -> download(hub));
        assertTrue(e.getMessage().contains("encoder_model.onnx"), e.getMessage());
        assertFalse(Files.exists(folder.resolve("encoder_model.onnx")));
        assertFalse(Files.exists(folder.resolve("encoder_model.onnx.part")));
        assertEquals(3, requests.stream().filter("/Owner/model/resolve/main/encoder_model.onnx"::equals).count(),
                "tried three times: " + requests);
    }

    @Test
    void aConnectionLostOnceIsTriedAgain() throws Exception {
        AtomicInteger tokenizerRequests = new AtomicInteger();
        HubDownloader hub = hub(router -> router.get("/Owner/model/resolve/main/tokenizer.json").handler(ctx -> {
            if (tokenizerRequests.incrementAndGet() == 1) {
                ctx.request().connection().close();
            } else {
                ctx.next();
            }
        }));
        download(hub);
        assertEquals(2, tokenizerRequests.get());
        assertArrayEquals(Files.readAllBytes(TINY.resolve("tokenizer.json")), Files.readAllBytes(folder.resolve("tokenizer.json")));
        assertTrue(ModelLoader.hub(null).complete(folder));
    }

    @Test
    void aHubErrorStopsTheDownload() throws Exception {
        HubDownloader hub = hub(router -> router.get("/Owner/model/resolve/main/tokenizer.json").handler(ctx ->
                ctx.response().setStatusCode(500).end("down")));
        IOException e = assertThrows(IOException.class, () -> download(hub));
        assertTrue(e.getMessage().endsWith("the hub answered HTTP 500"), e.getMessage());
        assertEquals(List.of(folder.resolve("config.json"), folder.resolve("generation_config.json")),
                files().stream().sorted().toList());
    }

    @Test
    void aRepositoryWithoutOnnxGraphsIsNotAnExport() {
        HubDownloader hub = hub(router -> router.get("/Owner/model/resolve/main/*").handler(ctx -> {
            if (ctx.request().path().endsWith(".onnx")) {
                ctx.response().setStatusCode(404).end();
            } else {
                ctx.next();
            }
        }));
        IOException e = assertThrows(IOException.class, () -> download(hub));
        assertTrue(e.getMessage().contains("has no onnx/encoder_model.onnx nor encoder_model.onnx: it is not an ONNX export"
                + " with separate decoders"),
                e.getMessage());
    }
}
