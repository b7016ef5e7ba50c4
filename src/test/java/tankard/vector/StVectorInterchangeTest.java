package tankard.vector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.ServerTest;
import tankard.testing.StServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.vector.VectorBodies.near;
import static tankard.vector.VectorBodies.vector;

/**
 * An index moves between Tankard and a real ST 1.18.0 ({@code webllm}, vectors in the requests, so no model):
 * what one server wrote answers the same queries on the other. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StVectorInterchangeTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StVectorInterchangeTest extends ServerTest {
    private static final int ITEMS = 300;
    private static final int DIMS = 48;
    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    private static String insertBody(String collection, int from, int to) {
        long[] hashes = new long[to - from];
        String[] texts = new String[to - from];
        float[][] vectors = new float[to - from][];
        for (int i = from; i < to; i++) {
            hashes[i - from] = 4_000_000_000_000L + i * 7919L;
            texts[i - from] = "chunk number " + i;
            vectors[i - from] = vector(i, DIMS);
        }
        return JsJson.compact(VectorBodies.insert(collection, hashes, texts, vectors));
    }

    /** Ten queries near known items, with a threshold so that both the filtered and unfiltered parts show. */
    private static void assertSameAnswers(String collection, Function<String, JsonNode> tankard,
                                          Function<String, JsonNode> st) {
        for (int q = 0; q < 10; q++) {
            ObjectNode query = VectorBodies.query(collection, "query " + q, near(vector(q * 29L, DIMS), 1000 + q, 0.6),
                    8, 0.3);
            String body = JsJson.compact(query);
            JsonNode fromSt = st.apply(body);
            JsonNode fromTankard = tankard.apply(body);
            assertEquals(fromSt.get("metadata"), fromTankard.get("metadata"), "query " + q);
            assertTrue(fromSt.get("metadata").size() > 0, "query " + q + " finds something: " + fromSt);
            // ST's hashes are its unfiltered top K; Tankard's, filtered, are their first part
            JsonNode all = fromSt.get("hashes");
            for (int i = 0; i < fromTankard.get("hashes").size(); i++) {
                assertEquals(all.get(i), fromTankard.get("hashes").get(i), "query " + q);
            }
            assertEquals(fromSt.get("metadata").size(), fromTankard.get("hashes").size());
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }

    /**
     * Both servers given the same items, their vectors as a float's shortest decimals (with small and zero
     * components, which JavaScript writes in its own layout), write the same {@code index.json} but for the ids.
     */
    @Test
    void anIndexTankardWritesIsTheOneStWrites() throws IOException {
        start(null);
        Vertx vertx = Vertx.vertx();
        try (StServer st = StServer.start(stDir, vertx)) {
            ObjectNode body = VectorBodies.body("same");
            com.fasterxml.jackson.databind.node.ArrayNode items = body.putArray("items");
            for (int i = 0; i < 20; i++) {
                float[] v = vector(i, DIMS);
                v[0] = 0;
                v[1] *= 1e-3f;
                v[2] *= 1e-6f;
                com.fasterxml.jackson.databind.node.ArrayNode numbers = JsJson.array();
                for (float x : v) {
                    numbers.add(new java.math.BigDecimal(com.fasterxml.jackson.core.io.NumberOutput.toString(x, true)));
                }
                items.addObject().put("hash", 1000L + i).put("text", "chunk " + i).put("index", i);
                ((ObjectNode) body.get("embeddings")).set("chunk " + i, numbers);
            }
            assertEquals(200, st.post("/api/vector/insert", JsJson.compact(body)).statusCode());
            assertEquals(200, client.post("/api/vector/insert", JsJson.compact(body)).statusCode());
            server = server.restart(""); // folded
            String index = "vectors/webllm/same/test-model/index.json";
            String ids = "\"id\":\"[0-9a-f-]{36}\"";
            String fromSt = Files.readString(st.userDir().resolve(index)).replaceAll(ids, "\"id\":\"\"");
            String fromTankard = Files.readString(user(index)).replaceAll(ids, "\"id\":\"\"");
            assertTrue(fromSt.contains("e-"), "small components in exponent form: " + fromSt);
            assertEquals(fromSt, fromTankard);
        } finally {
            vertx.close();
        }
    }

    @Test
    void anIndexEitherServerWroteAnswersTheSameOnTheOther() throws IOException {
        start(null);
        Vertx vertx = Vertx.vertx(); // ST's client outlives Tankard's restart
        try (StServer st = StServer.start(stDir, vertx)) {
            Function<String, JsonNode> onSt = body -> {
                var answer = st.post("/api/vector/query", body);
                assertEquals(200, answer.statusCode(), answer.bodyAsString());
                return JsJson.parse(answer.body().getBytes());
            };
            Function<String, JsonNode> onTankard = body -> {
                var answer = client.post("/api/vector/query", body);
                assertEquals(200, answer.statusCode(), answer.bodyAsString());
                return json(answer);
            };

            // Tankard writes (in three inserts), folds at its stop; ST reads
            for (int from = 0; from < ITEMS; from += 100) {
                assertEquals(200, client.post("/api/vector/insert", insertBody("from-tankard", from, from + 100)).statusCode());
            }
            server = server.restart("");
            client = server.client();
            copyTree(user("vectors/webllm/from-tankard/test-model"),
                    st.userDir().resolve("vectors/webllm/from-tankard/test-model"));
            assertSameAnswers("from-tankard", onTankard, onSt);

            // ST writes; Tankard reads
            for (int from = 0; from < ITEMS; from += 100) {
                var inserted = st.post("/api/vector/insert", insertBody("from-st", from, from + 100));
                assertEquals(200, inserted.statusCode(), inserted.bodyAsString());
            }
            copyTree(st.userDir().resolve("vectors/webllm/from-st/test-model"),
                    user("vectors/webllm/from-st/test-model"));
            assertSameAnswers("from-st", onTankard, onSt);
            assertEquals(st.post("/api/vector/list", JsJson.compact(VectorBodies.body("from-st"))).bodyAsString(),
                    client.post("/api/vector/list", JsJson.compact(VectorBodies.body("from-st"))).bodyAsString());
        } finally {
            vertx.close();
        }
    }

}
