package tankard.vector.store;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.json.JsJson;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every vector store does, run on each of them by a subclass. */
abstract class VectorStoreContract {
    static final CollectionKey KEY = new CollectionKey("webllm", "chat", "model");
    static final String USER = "someone";

    /**
     * The store under test, made anew over the same place on each call (as a restart, or another node, would), that
     * keeps at most this many bytes of indexes in memory.
     */
    abstract VectorStore open(long budgetBytes);

    VectorStore open() {
        return open(1L << 30);
    }

    static VectorItem item(long hash) {
        return VectorItem.create(JsJson.object().put("hash", hash).put("text", "t" + hash).put("index", 0),
                new float[]{hash, 1, 2});
    }

    static List<Long> hashes(VectorStore store, CollectionKey key) {
        return store.hashes(USER, key).stream().map(JsonNode::asLong).toList();
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] read(VectorStore store, CollectionKey key) {
        Optional<InputStream> in = store.open(USER, key);
        assertTrue(in.isPresent(), "no index " + key.indexPath());
        try (InputStream stream = in.get()) {
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    static void restore(VectorStore store, CollectionKey key, byte[] content, double modifiedMs) {
        store.restore(USER, key, () -> new ByteArrayInputStream(content), modifiedMs);
    }

    /**
     * An index as ST writes it (vectra's LocalIndex: {@code JSON.stringify}, so numbers as JavaScript prints them,
     * doubles kept whole): made up here, not copied from ST.
     */
    static final String ST_INDEX = "{\"version\":1,\"metadata_config\":{},\"items\":["
            + "{\"id\":\"0b6c4f3e-2a8d-4f1b-9c7e-5d3a2b1c0f9e\",\"metadata\":{\"hash\":2946431357,\"text\":\"The"
            + " tavern's door creaks \\\"open\\\" \u00e9t\u00e9 \ud83c\udf7a\",\"index\":0},\"vector\":[0.031415926535897934,"
            + "-0.7071067811865476,0.7,1e-7,-0],\"norm\":0.9999999999999999},"
            + "{\"id\":\"a1f2e3d4-c5b6-4a79-8877-665544332211\",\"metadata\":{\"hash\":-17,\"text\":\"rain\",\"index\":1},"
            + "\"vector\":[0.6,0.8,0,0,0],\"norm\":1},"
            + "{\"id\":\"c0ffee00-1111-4222-8333-944455556666\",\"metadata\":{\"hash\":\"42\",\"text\":\"a string hash\","
            + "\"index\":2},\"vector\":[0,0,1,0,0],\"norm\":1}]}";

    @Test
    void insertedItemsAreListedInOrderWithDuplicatesAndSurviveAReopen() {
        VectorStore store = open();
        store.insert(USER, KEY, List.of(item(1), item(2)));
        store.insert(USER, KEY, List.of(item(3), item(2)));
        assertEquals(List.of(1L, 2L, 3L, 2L), hashes(store, KEY));
        assertEquals(List.of(1L, 2L, 3L, 2L), hashes(open(), KEY));
    }

    @Test
    void aQueryFindsTheMostSimilarBestFirstWithWholeItems() {
        VectorStore store = open();
        List<VectorItem> items = List.of(
                VectorItem.create(JsJson.object().put("hash", 10).put("text", "east"), new float[]{1, 0, 0}),
                VectorItem.create(JsJson.object().put("hash", 20).put("text", "north"), new float[]{0, 1, 0}),
                VectorItem.create(JsJson.object().put("hash", 30).put("text", "north-east"), new float[]{1, 1, 0}));
        store.insert(USER, KEY, items);
        for (VectorStore s : List.of(store, open())) {
            List<Match> found = s.query(USER, KEY, new float[]{2, 0.1f, 0}, 2);
            assertEquals(List.of(10L, 30L), found.stream().map(m -> m.item().hash().asLong()).toList());
            Match best = found.get(0);
            assertEquals(items.get(0).id(), best.item().id());
            assertEquals("{\"hash\":10,\"text\":\"east\"}", best.item().metadata().toString());
            assertArrayEquals(new float[]{1, 0, 0}, best.item().vector());
            assertEquals(1.0, best.item().norm());
            assertEquals(2 / Math.sqrt(4 + 0.01), best.score(), 1e-6);
            assertEquals(3, s.query(USER, KEY, new float[]{0, 1, 0}, 10).size());
        }
    }

    @Test
    void anUnchangedIndexAnswersWhatItAnsweredAndAChangedOneAnswersAfresh() {
        VectorStore store = open();
        store.insert(USER, KEY, List.of(item(1), item(2)));
        float[] query = {2, 1, 2};
        assertSame(store.hashes(USER, KEY), store.hashes(USER, KEY), "the list of an unchanged index is kept");
        assertSame(store.query(USER, KEY, query, 5), store.query(USER, KEY, query, 5),
                "a query repeated with the same vector is answered from the last time");
        store.insert(USER, KEY, List.of(item(3)));
        assertEquals(List.of(1L, 2L, 3L), hashes(store, KEY));
        assertEquals(3, store.query(USER, KEY, query, 5).size(), "the item added since is searched");
        store.delete(USER, KEY, Set.of(1.0));
        assertEquals(List.of(2L, 3L), hashes(store, KEY));
        assertEquals(List.of(2L, 3L), store.query(USER, KEY, query, 5).stream()
                .map(m -> m.item().hash().asLong()).toList(), "the item deleted since is not found");
    }

    @Test
    void aMissingCollectionIsEmpty() {
        VectorStore store = open();
        assertEquals(List.of(), store.query(USER, KEY, new float[]{1, 2, 3}, 5));
        assertEquals(List.of(), hashes(store, KEY));
        store.delete(USER, KEY, Set.of(1.0));
        assertEquals(List.of(), store.indexes(USER));
        assertTrue(store.open(USER, KEY).isEmpty());
    }

    @Test
    void deleteRemovesEveryItemWhoseHashIsOneOfTheNumbers() {
        VectorStore store = open();
        store.insert(USER, KEY, List.of(item(1), item(2), item(3), item(2)));
        store.delete(USER, KEY, Set.of(2.0, 7.0));
        assertEquals(List.of(1L, 3L), hashes(store, KEY));
        assertEquals(List.of(1L, 3L), hashes(open(), KEY));
        store.delete(USER, KEY, Set.of(5.0)); // nothing of it: no change
        store.insert(USER, KEY, List.of(item(4)));
        assertEquals(List.of(1L, 3L, 4L), hashes(open(), KEY));
        assertEquals(List.of(1L, 3L, 4L), hashes(store, KEY));
    }

    @Test
    void aStringHashIsNotDeletedByItsNumber() {
        VectorStore store = open();
        restore(store, KEY, utf8(ST_INDEX), 1_700_000_000_000.5);
        store.delete(USER, KEY, Set.of(42.0, -17.0));
        assertEquals("[2946431357,\"42\"]", JsJson.compact(JsJson.array().addAll(store.hashes(USER, KEY))));
    }

    @Test
    void vectorsOfAnotherLengthAreRefusedAndWriteNothing() {
        VectorStore store = open();
        store.insert(USER, KEY, List.of(item(1)));
        VectorItem longer = VectorItem.create(JsJson.object().put("hash", 9), new float[]{1, 2, 3, 4});
        Refusal refused = assertThrows(Refusal.class, () -> store.insert(USER, KEY, List.of(longer)));
        assertEquals(Refusal.Kind.BAD_REQUEST, refused.kind());
        Refusal refusedOnAnother = assertThrows(Refusal.class, () -> open().insert(USER, KEY, List.of(longer)));
        assertEquals(Refusal.Kind.BAD_REQUEST, refusedOnAnother.kind());
        assertEquals(List.of(1L), hashes(store, KEY));
        assertEquals(List.of(1L), hashes(open(), KEY));
        Refusal query = assertThrows(Refusal.class, () -> store.query(USER, KEY, new float[]{1, 2}, 3));
        assertEquals(Refusal.Kind.BAD_REQUEST, query.kind());
        store.delete(USER, KEY, Set.of(1.0));
        store.insert(USER, KEY, List.of(longer)); // an empty collection takes any length
        assertEquals(List.of(9L), hashes(open(), KEY));
    }

    @Test
    void purgeDeletesACollectionUnderEachSourceAndEveryScopeAndPurgeAllEverySource() {
        VectorStore store = open();
        CollectionKey otherScope = new CollectionKey("webllm", "chat", "");
        CollectionKey otherSource = new CollectionKey("openai", "chat", "model");
        CollectionKey otherCollection = new CollectionKey("webllm", "file_1", "model");
        CollectionKey elsewhere = new CollectionKey("ollama", "chat", "model");
        for (CollectionKey key : List.of(KEY, otherScope, otherSource, otherCollection, elsewhere)) {
            store.insert(USER, key, List.of(item(1)));
            assertEquals(List.of(1L), hashes(store, key));
        }
        store.purge(USER, List.of("webllm", "openai"), "chat");
        assertEquals(List.of(), hashes(store, KEY));
        assertEquals(List.of(), hashes(store, otherScope));
        assertEquals(List.of(), hashes(open(), otherSource));
        assertEquals(List.of(1L), hashes(store, otherCollection));
        assertEquals(List.of(1L), hashes(store, elsewhere));
        store.insert(USER, KEY, List.of(item(2)));
        assertEquals(List.of(2L), hashes(open(), KEY), "a purged collection starts anew");

        store.purgeAll(USER, List.of("webllm"));
        assertEquals(List.of(), hashes(store, KEY));
        assertEquals(List.of(), hashes(open(), otherCollection));
        assertEquals(List.of(1L), hashes(store, elsewhere));
        assertEquals(List.of(elsewhere), store.indexes(USER).stream().map(VectorStore.StoredIndex::key).toList());
    }

    @Test
    void indexesAreListedByPathWithTheirTimes() {
        VectorStore store = open();
        CollectionKey noScope = new CollectionKey("webllm", "chat", "");
        CollectionKey b = new CollectionKey("transformers", "b", "model");
        store.insert(USER, noScope, List.of(item(1)));
        store.insert(USER, KEY, List.of(item(1)));
        restore(store, b, utf8(ST_INDEX), 1_600_000_000_123.25);
        assertEquals(List.of("vectors/transformers/b/model/index.json", "vectors/webllm/chat/index.json",
                        "vectors/webllm/chat/model/index.json"),
                store.indexes(USER).stream().map(index -> index.key().indexPath()).toList());
        VectorStore.StoredIndex restored = open().indexes(USER).get(0);
        assertEquals(1_600_000_000_123.25, restored.modifiedMs(), 0.001);
        double now = System.currentTimeMillis();
        assertEquals(now, open().indexes(USER).get(2).modifiedMs(), 60_000);
        assertEquals(List.of(), store.indexes("another"));
    }

    @Test
    void anIndexAsStWritesItComesBackByteForByteAndIsQueried() {
        VectorStore store = open();
        byte[] st = utf8(ST_INDEX);
        restore(store, KEY, st, 1_700_000_000_000.0);
        assertArrayEquals(st, read(store, KEY));
        assertArrayEquals(st, read(open(), KEY));
        List<Match> found = store.query(USER, KEY, new float[]{0.6f, 0.8f, 0, 0, 0}, 1);
        assertEquals(-17, found.get(0).item().hash().asLong());
        assertEquals("rain", found.get(0).item().metadata().get("text").asText());
        assertEquals(1.0, found.get(0).score(), 1e-6);
        assertEquals("[2946431357,-17,\"42\"]", JsJson.compact(JsJson.array().addAll(store.hashes(USER, KEY))));
        VectorItem first = open().query(USER, KEY, new float[]{0.031415926535897934f, -0.7071067811865476f, 0.7f, 1e-7f, 0}, 1)
                .get(0).item();
        assertEquals("The tavern's door creaks \"open\" \u00e9t\u00e9 \ud83c\udf7a", first.metadata().get("text").asText());
        assertEquals(0.9999999999999999, first.norm());
        assertEquals("0b6c4f3e-2a8d-4f1b-9c7e-5d3a2b1c0f9e", first.id());
        assertArrayEquals(st, read(store, KEY), "reading it changed nothing");
    }

    @Test
    void aChangedIndexIsAVectraIndexWithEveryItem() {
        VectorStore store = open();
        restore(store, KEY, utf8(ST_INDEX), 1_700_000_000_000.0);
        store.insert(USER, KEY, List.of(VectorItem.create(JsJson.object().put("hash", 5).put("text", "new"),
                new float[]{0, 0, 0, 1, 0})));
        store.delete(USER, KEY, Set.of(-17.0));
        store.close();
        VectorStore reopened = open();
        JsonNode index = JsJson.parse(read(reopened, KEY));
        assertEquals(1, index.get("version").asInt());
        assertTrue(index.get("metadata_config").isObject());
        List<String> texts = new ArrayList<>();
        index.get("items").forEach(item -> texts.add(item.get("metadata").get("text").asText()));
        assertEquals(List.of("The tavern's door creaks \"open\" \u00e9t\u00e9 \ud83c\udf7a", "a string hash", "new"), texts);
        assertEquals("[2946431357,\"42\",5]", JsJson.compact(JsJson.array().addAll(reopened.hashes(USER, KEY))));
    }

    @Test
    void aPrettyPrintedIndexComesBackByteForByteAndTakesChanges() {
        String pretty = "{\n  \"version\": 1,\n  \"metadata_config\": {},\n  \"items\": [\n    {\n      \"id\": \"x1\",\n"
                + "      \"metadata\": { \"hash\": 1, \"text\": \"one\" },\n      \"vector\": [ 1, 0 ],\n      \"norm\": 1\n"
                + "    },\r\n    {\"id\": \"x2\", \"metadata\": {\"hash\": 2}, \"vector\": [0, 1]}\n  ],\n"
                + "  \"extra\": [\"kept\"]\n}\n";
        VectorStore store = open();
        restore(store, KEY, utf8(pretty), 1_700_000_000_000.0);
        assertArrayEquals(utf8(pretty), read(store, KEY));
        assertEquals(List.of(1L, 2L), hashes(store, KEY));
        assertEquals("x2", store.query(USER, KEY, new float[]{0, 3}, 1).get(0).item().id());
        assertEquals(1.0, store.query(USER, KEY, new float[]{0, 3}, 1).get(0).item().norm(), "the norm it lacked");
        store.delete(USER, KEY, Set.of(1.0));
        store.insert(USER, KEY, List.of(VectorItem.create(JsJson.object().put("hash", 3), new float[]{1, 1})));
        store.close();
        VectorStore reopened = open();
        JsonNode index = JsJson.parse(read(reopened, KEY));
        assertEquals(2, index.get("items").size());
        assertEquals(List.of(2L, 3L), hashes(reopened, KEY));
    }

    @Test
    void anIndexThatCannotBeReadIsKeptAsItCameAndAnswersEmpty() {
        byte[] broken = utf8("{\"version\":1,\"items\":[{\"id\":\"a\",\"vec");
        VectorStore store = open();
        restore(store, KEY, broken, 1_700_000_000_000.0);
        assertArrayEquals(broken, read(store, KEY));
        assertEquals(List.of(KEY), store.indexes(USER).stream().map(VectorStore.StoredIndex::key).toList());
        assertEquals(List.of(), hashes(store, KEY));
        store.insert(USER, KEY, List.of(item(1)));
        assertEquals(List.of(1L), hashes(open(), KEY));
    }

    @Test
    void aRestoreReplacesWhatTheIndexHeld() {
        VectorStore store = open();
        store.insert(USER, KEY, List.of(item(1), item(2)));
        assertEquals(List.of(1L, 2L), hashes(store, KEY));
        byte[] st = utf8(ST_INDEX);
        restore(store, KEY, st, 1_700_000_000_000.0);
        assertEquals("[2946431357,-17,\"42\"]", JsJson.compact(JsJson.array().addAll(store.hashes(USER, KEY))));
        assertArrayEquals(st, read(open(), KEY));
    }

    private static float[] direction(int c, int i) {
        return new float[]{(float) Math.cos(i * 0.005), (float) Math.sin(i * 0.005), c};
    }

    @Test
    void theLeastRecentlyUsedIndexesLeaveMemoryAndComeBack() {
        VectorStore store = open(2_000); // about one index of 300 items
        List<CollectionKey> keys = new ArrayList<>();
        for (int c = 0; c < 6; c++) {
            CollectionKey key = new CollectionKey("webllm", "c" + c, "model");
            keys.add(key);
            List<VectorItem> items = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                items.add(VectorItem.create(JsJson.object().put("hash", c * 1000L + i), direction(c, i)));
            }
            store.insert(USER, key, items);
        }
        for (int round = 0; round < 2; round++) {
            for (int c = 0; c < keys.size(); c++) {
                List<Match> found = store.query(USER, keys.get(c), direction(c, 299), 1);
                assertEquals(c * 1000L + 299, found.get(0).item().hash().asLong());
                assertEquals(300, store.hashes(USER, keys.get(c)).size());
            }
        }
    }
}
