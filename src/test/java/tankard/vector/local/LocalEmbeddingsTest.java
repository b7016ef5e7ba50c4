package tankard.vector.local;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.config.ConfigLoader;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.OutboundPolicy;
import tankard.outbound.ProviderOrigins;
import tankard.outbound.UpstreamClient;
import tankard.summarize.onnx.HubDownloader;
import tankard.testing.MockHub;
import tankard.testing.TestServer;
import tankard.vector.source.EmbeddingCall;
import tankard.vector.source.EmbeddingSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transformers source and its queue: the embedded model, a configured one downloaded once from a mock hub (the
 * embedded model's own files, served by Vert.x), no download when autoDownload is off, 503 when the queue is full.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LocalEmbeddingsTest {
    private static final List<String> TEXTS = List.of("The cat sat on the mat", "Stock markets fell sharply today");
    private final Vertx vertx = Vertx.vertx();
    private final Path work = TestServer.tempDir();
    private final List<String> hubRequests = new CopyOnWriteArrayList<>();
    private final List<LocalEmbeddings> started = new CopyOnWriteArrayList<>();
    private String hub = "http://127.0.0.1:1";

    @AfterEach
    void stop() {
        started.forEach(LocalEmbeddings::close);
        TestServer.await(vertx.close());
        TestServer.deleteTree(work);
    }

    private LocalEmbeddings embeddings(Map<String, String> settings) {
        Map<String, String> env = new HashMap<>();
        settings.forEach((key, value) -> env.put("SILLYTAVERN_" + key.replace('.', '_').toUpperCase(), value));
        TankardConfig config = ConfigLoader.load(new String[0], env, work);
        LocalEmbeddings embeddings = LocalEmbeddings.start(config, new UpstreamClient(vertx, new OutboundPolicy(config),
                new ProviderOrigins(Map.of(HubDownloader.HUB, hub))));
        started.add(embeddings);
        return embeddings;
    }

    private static List<float[]> embed(EmbeddingSource source, List<String> texts) {
        return source.embed(new EmbeddingCall(null, JsJson.object()), texts, false).toCompletableFuture().join();
    }

    private static Refusal refusal(CompletionStage<?> stage) {
        CompletionException e = assertThrows(CompletionException.class, () -> stage.toCompletableFuture().join());
        return assertInstanceOf(Refusal.class, e.getCause());
    }

    /** A hub with the embedded model as {@code Owner/minilm} (Xenova's layout), or one that never answers. */
    private void mockHub(boolean answering) throws Exception {
        Path model = EmbeddedModel.extract(work.resolve("hub-files"));
        Files.writeString(model.resolve("config.json"), "{\"model_type\":\"bert\",\"max_position_embeddings\":512}");
        hub = MockHub.serve(vertx, Map.of("Owner/minilm", model), hubRequests, answering);
    }

    @Test
    void theEmbeddedModelNeedsNoConfigurationAndIsScopedToNoFolder() {
        EmbeddingSource source = embeddings(Map.of()).source();
        assertEquals("", source.modelScope(JsJson.object().put("model", "ignored")));
        List<float[]> vectors = embed(source, TEXTS);
        assertEquals(2, vectors.size());
        assertEquals(384, vectors.get(0).length);
        assertTrue(Files.isRegularFile(work.resolve("data/_models").resolve(EmbeddedModel.FOLDER)
                .resolve("onnx/model_quantized.onnx")));
        assertEquals(List.of(), embed(source, List.of()));
    }

    @Test
    void aConfiguredModelIsDownloadedOnceAndUsedOffline() throws Exception {
        mockHub(true);
        List<float[]> embedded = embed(embeddings(Map.of()).source(), TEXTS);
        EmbeddingSource source = embeddings(Map.of("extensions.models.embedding", "Owner/minilm")).source();
        assertEquals("Owner/minilm", source.modelScope(JsJson.object()));
        List<float[]> downloaded = embed(source, TEXTS);
        for (int i = 0; i < TEXTS.size(); i++) {
            assertArrayEquals(embedded.get(i), downloaded.get(i), 1e-6f);
        }
        Path folder = work.resolve("data/_models/Owner/minilm");
        assertTrue(Files.isRegularFile(folder.resolve("onnx/model_quantized.onnx")));
        assertTrue(Files.isRegularFile(folder.resolve("config.json")));
        assertTrue(hubRequests.contains("/Owner/minilm/resolve/main/tokenizer_config.json"), hubRequests.toString());

        int before = hubRequests.size();
        embed(embeddings(Map.of("extensions.models.embedding", "Owner/minilm")).source(), TEXTS);
        assertEquals(before, hubRequests.size(), "a downloaded model needs no request");
    }

    @Test
    void withoutAutoDownloadAModelNotYetThereFailsClearly() throws Exception {
        mockHub(true);
        LocalEmbeddings embeddings = embeddings(Map.of("extensions.models.embedding", "Owner/minilm",
                "extensions.models.autoDownload", "false"));
        Refusal refused = refusal(embeddings.embed(TEXTS));
        assertEquals(Refusal.Kind.UNAVAILABLE, refused.kind());
        assertTrue(refused.getMessage().contains("The embedding model Owner/minilm is not in")
                && refused.getMessage().contains("extensions.models.autoDownload is false"), refused.getMessage());
        assertEquals(List.of(), hubRequests);
    }

    @Test
    void aHubWithoutTheModelFailsTheRequestsWaiting() {
        LocalEmbeddings embeddings = embeddings(Map.of("extensions.models.embedding", "Owner/none"));
        Refusal refused = refusal(embeddings.embed(TEXTS));
        assertEquals(Refusal.Kind.UNAVAILABLE, refused.kind());
        assertTrue(refused.getMessage().startsWith("Cannot load the embedding model Owner/none: Cannot download "),
                refused.getMessage());
    }

    @Test
    void aFullQueueIsRefusedWith503AndClosingRefusesTheWaiting() throws Exception {
        mockHub(false);
        LocalEmbeddings embeddings = embeddings(Map.of("extensions.models.embedding", "Owner/minilm",
                "tankard.vectors.queueSize", "1"));
        CompletableFuture<List<float[]>> loading = embeddings.embed(TEXTS).toCompletableFuture();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (hubRequests.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10); // the model thread has taken the first request and waits on the hub
        }
        CompletableFuture<List<float[]>> waiting = embeddings.embed(TEXTS).toCompletableFuture();
        Refusal busy = refusal(embeddings.embed(TEXTS));
        assertEquals(Refusal.Kind.UNAVAILABLE, busy.kind());
        assertTrue(busy.getMessage().contains("1 requests wait for it already (tankard.vectors.queueSize)"),
                busy.getMessage());
        assertFalse(loading.isDone());

        embeddings.close();
        assertEquals("The embedding model is stopped", refusal(loading).getMessage());
        assertEquals("The embedding model is stopped", refusal(waiting).getMessage());
        assertEquals("The embedding model is stopped", refusal(embeddings.embed(TEXTS)).getMessage());
    }
}
