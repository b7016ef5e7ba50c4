package tankard.vector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.FileLayout;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.vector.VectorBodies.insert;
import static tankard.vector.VectorBodies.near;
import static tankard.vector.VectorBodies.query;
import static tankard.vector.VectorBodies.vector;

class VectorHttpTest extends ServerTest {
    private static final int DIMS = 16;
    private final float[] cat = vector(1, DIMS);
    private final float[] market = vector(2, DIMS);
    private final float[] rain = vector(3, DIMS);

    private HttpResponse<Buffer> post(String route, JsonNode body) {
        return client.post("/api/vector/" + route, JsJson.compact(body));
    }

    private void insertThree(String collection) {
        HttpResponse<Buffer> inserted = post("insert", insert(collection, new long[]{11, 22, 33},
                new String[]{"the cat", "the market", "the rain"}, new float[][]{cat, market, rain}));
        assertEquals(200, inserted.statusCode(), inserted.bodyAsString());
    }

    private Path collectionFolder(String collection) {
        return user("vectors/webllm").resolve(collection).resolve("test-model");
    }

    private static String indexPath(String collection) {
        return "vectors/webllm/" + collection + "/test-model/index.json";
    }

    /** The default user's indexes as the paths of their index.json, from the store that keeps them. */
    private List<String> indexes() {
        return server.files().vectorIndexes();
    }

    @Test
    void insertedItemsAreListedAndFoundBySimilarity() {
        start(null);
        insertThree("chat-1");
        assertEquals("[11,22,33]", post("list", VectorBodies.body("chat-1")).bodyAsString());

        JsonNode found = json(post("query", query("chat-1", "kitten", near(cat, 9, 0.1), 2, 0)));
        assertEquals("[11", found.get("hashes").toString().substring(0, 3), found.toString());
        assertEquals(2, found.get("hashes").size());
        assertEquals("the cat", found.get("metadata").get(0).get("text").asText());
        assertEquals(0, found.get("metadata").get(0).get("index").asInt());
    }

    @Test
    void theThresholdAppliesToHashesUnlessConfiguredAsSt() {
        start(null);
        insertThree("chat-1");
        JsonNode found = json(post("query", query("chat-1", "kitten", near(cat, 9, 0.1), 3, 0.5)));
        assertEquals("[11]", found.get("hashes").toString());
        assertEquals(1, found.get("metadata").size());
        server.close();

        start("tankard:\n  vectors:\n    thresholdOnHashes: false\n");
        insertThree("chat-1");
        found = json(post("query", query("chat-1", "kitten", near(cat, 9, 0.1), 3, 0.5)));
        assertEquals(3, found.get("hashes").size(), "ST's unfiltered top K");
        assertEquals(1, found.get("metadata").size());
    }

    @Test
    void queryMultiMergesCollectionsAboveTheThreshold() {
        start(null);
        insertThree("file_1");
        post("insert", insert("file_2", new long[]{44}, new String[]{"a cat too"}, new float[][]{near(cat, 5, 0.2)}));
        ObjectNode body = query("x", "kitten", near(cat, 9, 0.05), 2, 0.5);
        body.remove("collectionId");
        body.putArray("collectionIds").add("file_1").add("file_2").add("file_none");
        JsonNode found = json(post("query-multi", body));
        assertEquals("[11]", found.get("file_1").get("hashes").toString(), found.toString());
        assertEquals("[44]", found.get("file_2").get("hashes").toString());
        assertFalse(found.has("file_none"));
    }

    @Test
    void aFractionalTopKIsCutAsJavaScriptsSliceCutsIt() {
        start(null);
        insertThree("chat-1");
        ObjectNode body = query("chat-1", "kitten", near(cat, 9, 0.1), 2, -1).put("topK", 2.7);
        assertEquals(2, json(post("query", body)).get("hashes").size(), "slice(0, 2.7) keeps 2");
        assertEquals("{\"metadata\":[],\"hashes\":[]}", post("query", body.put("topK", 0.5)).bodyAsString());
        body.remove("collectionId");
        body.putArray("collectionIds").add("chat-1");
        assertEquals("[11]", json(post("query-multi", body.put("topK", 1.9))).get("chat-1").get("hashes").toString());
    }

    @Test
    void queryMultiSearchesARepeatedCollectionAgainInStsKeyOrder() {
        start(null);
        insertThree("file_1");
        post("insert", insert("7", new long[]{44}, new String[]{"a cat too"}, new float[][]{near(cat, 5, 0.2)}));
        ObjectNode body = query("x", "kitten", near(cat, 9, 0.05), 5, -1);
        body.remove("collectionId");
        body.putArray("collectionIds").add("file_1").add("7").add("file_1");
        JsonNode found = json(post("query-multi", body));
        List<String> keys = new ArrayList<>();
        found.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("7", "file_1"), keys, "an array index first, as a JavaScript object has it");
        assertEquals("[44]", found.get("7").get("hashes").toString(), found.toString());
        JsonNode hashes = found.get("file_1").get("hashes");
        assertEquals(4, hashes.size(), found.toString());
        assertEquals(11, hashes.get(0).asLong());
        assertEquals(11, hashes.get(1).asLong(), "the second occurrence's best, tied, after the first's");
        assertEquals(hashes.get(2), hashes.get(3));
        assertEquals(found.get("file_1").get("metadata").get(0), found.get("file_1").get("metadata").get(1));
    }

    @Test
    void anIndexIsWrittenWithStsNumbersAndTheNormOfThem() {
        start(null);
        ObjectNode body = insert("exact", new long[]{5}, new String[]{"five"}, new float[][]{new float[5]});
        ((ObjectNode) body.get("embeddings")).set("five", JsJson.parse("[0.1,0.00087,0,1e-7,-0.3]"));
        assertEquals(200, post("insert", body).statusCode());
        server = server.restart(""); // the journal folded into index.json
        client = server.client();
        String index = new String(documentBytes(indexPath("exact")), java.nio.charset.StandardCharsets.UTF_8);
        // node: JSON.stringify of the vector, and vectra's ItemSelector.normalize of it
        assertTrue(index.endsWith(",\"metadata\":{\"hash\":5,\"text\":\"five\",\"index\":0},"
                + "\"vector\":[0.1,0.00087,0,1e-7,-0.3],\"norm\":0.31622896277856966}]}"), index);
    }

    @Test
    @FileLayout
    void anIndexChangedOnDiskWhileServingIsReadAgainNotWrittenOver() throws IOException {
        start(null);
        insertThree("chat-1");
        server = server.restart(""); // folded: index.json holds the three
        client = server.client();
        assertEquals("[11,22,33]", post("list", VectorBodies.body("chat-1")).bodyAsString());
        Path file = collectionFolder("chat-1").resolve("index.json");

        Files.writeString(file, stIndex(77, cat)); // restored from a backup, say
        assertEquals("[77]", post("list", VectorBodies.body("chat-1")).bodyAsString());
        assertEquals("[77]", json(post("query", query("chat-1", "kitten", near(cat, 9, 0.1), 3, 0)))
                .get("hashes").toString());

        post("insert", insert("chat-1", new long[]{88}, new String[]{"more"}, new float[][]{rain}));
        Files.writeString(file, stIndex(99, market)); // edited while the insert waits in the journal
        server = server.restart(""); // the clean stop folds: the edit with the journal on it, not memory's copy
        client = server.client();
        assertEquals("[99,88]", post("list", VectorBodies.body("chat-1")).bodyAsString());
        JsonNode written = JsJson.parse(Files.readAllBytes(file));
        assertEquals(List.of(99L, 88L), written.get("items").findValues("hash").stream().map(JsonNode::asLong).toList());

        Files.writeString(file, "{\"version\":1,\"items\":[{\"id\""); // damaged by hand
        assertEquals("[]", post("list", VectorBodies.body("chat-1")).bodyAsString());
        assertEquals("[]", json(post("query", query("chat-1", "kitten", cat, 3, 0))).get("hashes").toString());
        try (Stream<Path> files = Files.list(collectionFolder("chat-1"))) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("index.json.unreadable-")));
        }
        insertThree("chat-1");
        assertEquals("[11,22,33]", post("list", VectorBodies.body("chat-1")).bodyAsString());
    }

    /** An index.json as ST writes it, of one item. */
    private static String stIndex(long hash, float[] vector) {
        return "{\"version\":1,\"metadata_config\":{},\"items\":[{\"id\":\"5b2a6c0e-0f59-4b8e-9d7c-1b1f0c3e2a1"
                + hash % 10 + "\",\"metadata\":{\"hash\":" + hash + ",\"text\":\"t" + hash + "\",\"index\":0},"
                + "\"vector\":" + VectorBodies.json(vector) + ",\"norm\":1}]}";
    }

    @Test
    void deleteRemovesEveryItemOfAHashAndPurgeTheCollection() {
        start(null);
        insertThree("chat-1");
        post("insert", insert("chat-1", new long[]{22}, new String[]{"more market"}, new float[][]{market}));
        assertEquals("[11,22,33,22]", post("list", VectorBodies.body("chat-1")).bodyAsString());
        ObjectNode delete = VectorBodies.body("chat-1");
        delete.putArray("hashes").add(22).add("33"); // a text hash is Number()ed, as ST does
        assertEquals(200, post("delete", delete).statusCode());
        assertEquals("[11]", post("list", VectorBodies.body("chat-1")).bodyAsString());

        insertThree("chat-2");
        assertEquals(200, post("purge", JsJson.object().put("collectionId", "chat-1")).statusCode());
        assertFalse(Files.exists(user("vectors/webllm/chat-1")));
        assertEquals(List.of(indexPath("chat-2")), indexes());
        assertEquals("[]", post("list", VectorBodies.body("chat-1")).bodyAsString());
        assertEquals("[11,22,33]", post("list", VectorBodies.body("chat-2")).bodyAsString());
        assertEquals(200, post("purge-all", JsJson.object()).statusCode());
        assertFalse(Files.exists(user("vectors/webllm")));
        assertEquals(List.of(), indexes());
        assertEquals("[]", post("list", VectorBodies.body("chat-2")).bodyAsString());
    }

    @Test
    void collectionIdsAreCleanedAsStCleansThemAndEmptyNamesRefused() throws IOException {
        start(null);
        insertThree("../x");
        assertEquals(List.of(indexPath("..x")), indexes());
        assertTrue(hasDocument(indexPath("..x")));
        for (String bad : List.of("..", "con", "  ")) {
            ObjectNode body = insert(bad, new long[]{1}, new String[]{"a"}, new float[][]{cat});
            assertEquals(400, post("insert", body).statusCode(), bad);
            assertEquals(400, post("purge", JsJson.object().put("collectionId", bad)).statusCode(), bad);
        }
        assertEquals(List.of(indexPath("..x")), indexes(), "the purge of .. deleted nothing");
        assertEquals("[11,22,33]", post("list", VectorBodies.body("../x")).bodyAsString());
    }

    @Test
    void badRequestsAreRefusedAndWriteNothing() {
        start(null);
        insertThree("chat-1");
        List<ObjectNode> bad = new ArrayList<>();
        bad.add(VectorBodies.body("chat-1").put("items", "not an array"));
        bad.add((ObjectNode) insert("chat-1", new long[]{1}, new String[]{"a"}, new float[][]{cat}).without("collectionId"));
        ObjectNode noSource = insert("chat-1", new long[]{1}, new String[]{"a"}, new float[][]{cat});
        noSource.remove("source");
        bad.add(noSource);
        bad.add(insert("chat-1", new long[]{1}, new String[]{"a"}, new float[][]{cat}).put("source", "nope"));
        ObjectNode missingVector = insert("chat-1", new long[]{1, 2}, new String[]{"a", "b"}, new float[][]{cat, cat});
        ((ObjectNode) missingVector.get("embeddings")).remove("b");
        bad.add(missingVector);
        bad.add(insert("chat-1", new long[]{1}, new String[]{"a"}, new float[][]{vector(4, DIMS + 1)}));
        ObjectNode textless = VectorBodies.body("chat-1");
        textless.putArray("items").addObject().put("hash", 1);
        bad.add(textless);
        ObjectNode notNumbers = insert("chat-1", new long[]{1}, new String[]{"a"}, new float[][]{cat});
        ((ObjectNode) notNumbers.get("embeddings")).putArray("a").add("x").add(1);
        bad.add(notNumbers);
        for (ObjectNode body : bad) {
            HttpResponse<Buffer> refused = post("insert", body);
            assertEquals(400, refused.statusCode(), body.toString());
            assertTrue(json(refused).get("error").asText().length() > 5, refused.bodyAsString());
        }
        assertEquals("[11,22,33]", post("list", VectorBodies.body("chat-1")).bodyAsString(), "nothing written");

        HttpResponse<Buffer> mismatch = post("query", query("chat-1", "q", vector(5, DIMS * 2), 3, 0));
        assertEquals(400, mismatch.statusCode());
        assertTrue(json(mismatch).get("error").asText().contains("dimensions"), mismatch.bodyAsString());
        assertEquals(400, post("query", VectorBodies.body("chat-1")).statusCode(), "no searchText");
        assertEquals(400, post("list", JsJson.object().put("source", "webllm")).statusCode());
        assertEquals(400, post("delete", VectorBodies.body("chat-1").put("hashes", 5)).statusCode());
        assertEquals(400, post("query-multi", query("chat-1", "q", cat, 3, 0)).statusCode(), "no collectionIds");
    }

    @Test
    @FileLayout
    void aRestartFoldsTheJournalIntoAVectraIndex() throws IOException {
        start(null);
        insertThree("chat-1");
        Path folder = collectionFolder("chat-1");
        try (Stream<Path> files = Files.list(folder)) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("journal.")));
        }
        server = server.restart("");
        client = server.client();
        try (Stream<Path> files = Files.list(folder)) {
            assertEquals(List.of("index.json"), files.map(p -> p.getFileName().toString()).toList());
        }
        JsonNode index = JsJson.parse(Files.readAllBytes(folder.resolve("index.json")));
        assertEquals(1, index.get("version").asInt());
        assertTrue(index.get("metadata_config").isObject());
        JsonNode first = index.get("items").get(0);
        assertEquals(36, first.get("id").asText().length());
        assertEquals("{\"hash\":11,\"text\":\"the cat\",\"index\":0}", first.get("metadata").toString());
        assertEquals(DIMS, first.get("vector").size());
        assertEquals(1.0, first.get("norm").asDouble(), 1e-6);
        assertEquals("[11,22,33]", post("list", VectorBodies.body("chat-1")).bodyAsString());
    }

    @Test
    void anIndexWrittenByStIsRead() throws IOException {
        start(null);
        put(indexPath("st-chat"), ("{\"version\":1,\"metadata_config\":{},\"items\":["
                + "{\"id\":\"5b2a6c0e-0f59-4b8e-9d7c-1b1f0c3e2a11\",\"metadata\":{\"hash\":4021945675133017,"
                + "\"text\":\"a stored cat\",\"index\":3},\"vector\":" + VectorBodies.json(cat) + ",\"norm\":1},"
                + "{\"id\":\"8f1e2d3c-4b5a-4697-8877-665544332211\",\"metadata\":{\"hash\":77,\"text\":\"rain\","
                + "\"index\":4},\"vector\":" + VectorBodies.json(rain) + ",\"norm\":0.9999999}]}")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        JsonNode found = json(post("query", query("st-chat", "kitten", near(cat, 9, 0.1), 1, 0)));
        assertEquals("[4021945675133017]", found.get("hashes").toString());
        assertEquals(3, found.get("metadata").get(0).get("index").asInt());
    }

    @Test
    void parallelInsertsIntoOneCollectionKeepEveryItem() throws Exception {
        start(null);
        int requests = 40;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<CompletableFuture<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                long hash = 1000 + i;
                float[] v = vector(hash, DIMS);
                statuses.add(CompletableFuture.supplyAsync(() -> post("insert", insert("busy", new long[]{hash},
                        new String[]{"text " + hash}, new float[][]{v})).statusCode(), pool));
            }
            for (CompletableFuture<Integer> status : statuses) {
                assertEquals(200, status.get());
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(requests, json(post("list", VectorBodies.body("busy"))).size());
        server = server.restart("");
        client = server.client();
        assertEquals(requests, json(post("list", VectorBodies.body("busy"))).size(), "after the fold too");
    }

    @Test
    @FileLayout
    void anUnreadableIndexIsSetAsideNotDeleted() throws IOException {
        start(null);
        Path folder = collectionFolder("broken");
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("index.json"), "{\"version\":1,\"items\":[{\"id\":\"a\",\"vec");
        assertEquals("[]", post("list", VectorBodies.body("broken")).bodyAsString());
        try (Stream<Path> files = Files.list(folder)) {
            assertTrue(files.anyMatch(p -> p.getFileName().toString().startsWith("index.json.unreadable-")));
        }
        insertThree("broken");
        assertEquals("[11,22,33]", post("list", VectorBodies.body("broken")).bodyAsString());
    }

}
