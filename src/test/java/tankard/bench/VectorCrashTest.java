package tankard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.json.JsJson;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tankard in a process of its own, killed with SIGKILL while inserts and journal folds are under way. */
class VectorCrashTest {
    private static final int DIMS = 64;

    private static String insert(int writer, int n) {
        ObjectNode body = JsJson.object().put("source", "webllm").put("model", "m").put("collectionId", "chat");
        ArrayNode items = body.putArray("items");
        ObjectNode embeddings = body.putObject("embeddings");
        Random random = new Random(writer * 100_000L + n);
        for (int k = 0; k < 3; k++) {
            long hash = hash(writer, n, k);
            String text = "writer " + writer + " message " + n + " chunk " + k;
            items.addObject().put("hash", hash).put("text", text).put("index", n);
            ArrayNode vector = embeddings.putArray(text);
            for (int i = 0; i < DIMS; i++) {
                vector.add(random.nextFloat() - 0.5f);
            }
        }
        return JsJson.compact(body);
    }

    private static long hash(int writer, int n, int k) {
        return writer * 1_000_000L + n * 10L + k;
    }

    @Test
    void aKilledServerLosesNoAcknowledgedInsert(@TempDir Path work) throws Exception {
        // folds as often as they can come, so that the kill may land in one
        Files.writeString(work.resolve("config.yaml"), "tankard:\n  vectors:\n    foldIdleMillis: 0\n");
        Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        AtomicInteger failures = new AtomicInteger();
        BenchServer server = BenchServer.tankard(work);
        ExecutorService writers = Executors.newFixedThreadPool(4);
        try {
            for (int w = 0; w < 4; w++) {
                int writer = w;
                writers.execute(() -> {
                    for (int n = 0; ; n++) {
                        try {
                            server.post("/api/vector/insert", insert(writer, n));
                        } catch (Exception killed) {
                            failures.incrementAndGet();
                            return;
                        }
                        for (int k = 0; k < 3; k++) {
                            acknowledged.add(hash(writer, n, k));
                        }
                    }
                });
            }
            while (acknowledged.size() < 1500) {
                Thread.sleep(5);
            }
            server.kill();
        } finally {
            writers.shutdown();
            assertTrue(writers.awaitTermination(60, TimeUnit.SECONDS));
        }
        assertEquals(4, failures.get(), "every writer saw the server go");

        try (BenchServer restarted = BenchServer.tankard(work)) {
            List<Long> stored = new ArrayList<>();
            try (InputStream in = restarted.open("/api/vector/list",
                    "{\"source\":\"webllm\",\"model\":\"m\",\"collectionId\":\"chat\"}")) {
                for (JsonNode hash : JsJson.parse(in.readAllBytes())) {
                    stored.add(hash.asLong());
                }
            }
            Set<Long> unique = new HashSet<>(stored);
            assertEquals(unique.size(), stored.size(), "no item twice");
            Set<Long> lost = new HashSet<>(acknowledged);
            lost.removeAll(unique);
            assertEquals(Set.of(), lost, "acknowledged items lost");
        }
        // after a clean stop the index alone holds everything, and it is whole
        Path folder = work.resolve("data/default-user/vectors/webllm/chat/m");
        try (var files = Files.list(folder)) {
            assertEquals(List.of("index.json"), files.map(p -> p.getFileName().toString()).toList());
        }
        assertTrue(JsJson.parse(Files.readAllBytes(folder.resolve("index.json"))).get("items").size()
                >= acknowledged.size());
    }
}
