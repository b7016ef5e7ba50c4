package tankard.vector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.json.JsNumber;
import tankard.vector.source.EmbeddingCall;
import tankard.vector.source.EmbeddingSource;
import tankard.vector.source.EmbeddingSources;
import tankard.vector.store.CollectionKey;
import tankard.vector.store.Match;
import tankard.vector.store.VectorItem;
import tankard.vector.store.VectorStore;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * ST's Vector Storage (ST: src/endpoints/vectors.js): the request fields read as ST reads them, the vectors from
 * the request's source, the items in the {@link VectorStore}. Where ST answers 500, Tankard refuses with a 4xx that
 * says why, and nothing is written: a bad item, a missing or malformed vector, an unknown source, a dimension that is
 * not the collection's.
 */
public final class VectorService {
    private final VectorStore store;
    private final EmbeddingSources sources;
    private final Executor storeThreads;
    private final boolean thresholdOnHashes;
    /** The vectors of recent search texts: a chat's regenerations and swipes search with the same text again. */
    private final Map<QueryText, float[]> searched = java.util.Collections.synchronizedMap(
            new LinkedHashMap<>(64, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<QueryText, float[]> eldest) {
                    return size() > SEARCHES_KEPT;
                }
            });
    private static final int SEARCHES_KEPT = 256;

    /** The sorted numbers of the hash lists of recent {@link #sortedHashes} calls, newest first. */
    private final ArrayDeque<Sorted> sorted = new ArrayDeque<>();
    private static final int SORTED_KEPT = 16;

    private record Sorted(List<JsonNode> hashes, long[] numbers) {
    }

    /** A search text embedded for a user by a source and model. */
    private record QueryText(String user, String source, String model, String text) {
    }

    /**
     * @param storeThreads      where the store's blocking work runs once the vectors are there
     * @param thresholdOnHashes whether {@code /query} drops from {@code hashes} what scores under the threshold, as
     *                          ST's documentation says (ST itself answers every top-K hash)
     */
    public VectorService(VectorStore store, EmbeddingSources sources, Executor storeThreads, boolean thresholdOnHashes) {
        this.store = store;
        this.sources = sources;
        this.storeThreads = storeThreads;
        this.thresholdOnHashes = thresholdOnHashes;
    }

    /** {@code /insert}: embeds the items' texts as documents and adds them. */
    public CompletionStage<Void> insert(String user, JsonNode body) {
        JsonNode items = body.path("items");
        if (!items.isArray() || !EmbeddingCall.truthy(body.get("collectionId"))) {
            throw Refusal.badRequest("\"items\" must be an array and \"collectionId\" must be given");
        }
        List<ObjectNode> metadata = new ArrayList<>(items.size());
        List<String> texts = new ArrayList<>(items.size());
        for (JsonNode item : items) {
            if (!item.isObject() || !item.path("text").isTextual()) {
                throw Refusal.badRequest("Each item must be an object with a text: {\"hash\", \"text\", \"index\"}");
            }
            ObjectNode kept = JsJson.object(); // ST keeps these three, as given
            copy(item, kept, "hash");
            copy(item, kept, "text");
            copy(item, kept, "index");
            metadata.add(kept);
            texts.add(item.get("text").asText());
        }
        Target target = target(user, body);
        CollectionKey key = target.key(collectionId(body));
        if (texts.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return embed(target, texts, false).thenAcceptAsync(vectors -> {
            List<VectorItem> added = new ArrayList<>(vectors.size());
            for (int i = 0; i < vectors.size(); i++) {
                added.add(VectorItem.create(metadata.get(i), vectors.get(i)));
            }
            store.insert(user, key, added);
        }, storeThreads);
    }

    /** {@code /query}: the collection's top K for the search text: {@code {hashes, metadata}}. */
    public CompletionStage<ObjectNode> query(String user, JsonNode body) {
        if (!EmbeddingCall.truthy(body.get("collectionId")) || !EmbeddingCall.truthy(body.get("searchText"))) {
            throw Refusal.badRequest("\"collectionId\" and \"searchText\" must be given");
        }
        Target target = target(user, body);
        CollectionKey key = target.key(collectionId(body));
        int topK = topK(body);
        double threshold = threshold(body);
        String searchText = new EmbeddingCall(user, body).string("searchText");
        return searchVector(target, searchText).thenApplyAsync(vector -> {
            List<Match> matches = store.query(user, key, vector, topK);
            ObjectNode answer = JsJson.object();
            ArrayNode metadata = answer.putArray("metadata"); // ST's { metadata, hashes }
            ArrayNode hashes = answer.putArray("hashes");
            for (Match match : matches) {
                boolean kept = match.score() >= threshold;
                if (kept || !thresholdOnHashes) {
                    hashes.add(number(match.item().hash()));
                }
                if (kept) {
                    metadata.add(match.item().metadata());
                }
            }
            return answer;
        }, storeThreads);
    }

    /**
     * {@code /query-multi}: the overall top K over several collections, above the threshold, grouped by collection:
     * {@code {id: {hashes, metadata}}}.
     */
    public CompletionStage<ObjectNode> queryMulti(String user, JsonNode body) {
        JsonNode ids = body.path("collectionIds");
        if (!ids.isArray() || !EmbeddingCall.truthy(body.get("searchText"))) {
            throw Refusal.badRequest("\"collectionIds\" must be an array and \"searchText\" must be given");
        }
        Target target = target(user, body);
        record Collection(String id, CollectionKey key) {
        }
        List<Collection> collections = new ArrayList<>(ids.size()); // a repeated id is searched again, as in ST
        for (JsonNode id : ids) {
            String name = JsNumber.string(id);
            collections.add(new Collection(name, target.key(name)));
        }
        int topK = topK(body);
        double threshold = threshold(body);
        return searchVector(target, target.call().string("searchText")).thenApplyAsync(vector -> {
            record Found(String collection, Match match) {
            }
            List<Found> found = new ArrayList<>();
            for (Collection collection : collections) {
                store.query(user, collection.key(), vector, topK)
                        .forEach(match -> found.add(new Found(collection.id(), match)));
            }
            found.sort(Comparator.comparingDouble((Found f) -> f.match().score()).reversed()); // stable, as ST's sort
            ObjectNode answer = JsJson.object();
            found.stream().filter(f -> f.match().score() >= threshold).limit(topK).forEach(f -> {
                ObjectNode group = (ObjectNode) answer.get(f.collection());
                if (group == null) {
                    group = answer.putObject(f.collection());
                    group.putArray("hashes");
                    group.putArray("metadata");
                }
                ((ArrayNode) group.get("hashes")).add(number(f.match().item().hash()));
                ((ArrayNode) group.get("metadata")).add(f.match().item().metadata());
            });
            return answer;
        }, storeThreads);
    }

    /** {@code /list}: every item's hash as a number, duplicates kept. Blocking. */
    public ArrayNode list(String user, JsonNode body) {
        ArrayNode hashes = JsJson.array();
        store.hashes(user, listed(user, body)).forEach(hash -> hashes.add(number(hash)));
        return hashes;
    }

    /** The collection {@code /list} and {@link #sortedHashes} name: {@code collectionId} required. */
    private CollectionKey listed(String user, JsonNode body) {
        if (!EmbeddingCall.truthy(body.get("collectionId"))) {
            throw Refusal.badRequest("\"collectionId\" must be given");
        }
        return target(user, body).key(collectionId(body));
    }

    /**
     * The collection's hashes as the numbers a client reads from {@code /list}, ascending, duplicates kept: made once
     * for each state of the index (the store answers the same list while it is unchanged). Do not change it. Blocking.
     */
    public long[] sortedHashes(String user, JsonNode body) {
        List<JsonNode> hashes = store.hashes(user, listed(user, body));
        synchronized (sorted) {
            for (Sorted known : sorted) {
                if (known.hashes() == hashes) {
                    return known.numbers();
                }
            }
        }
        long[] numbers = new long[hashes.size()];
        for (int i = 0; i < numbers.length; i++) {
            numbers[i] = number(hashes.get(i)).asLong();
        }
        Arrays.sort(numbers);
        synchronized (sorted) {
            sorted.addFirst(new Sorted(hashes, numbers));
            if (sorted.size() > SORTED_KEPT) {
                sorted.removeLast();
            }
        }
        return numbers;
    }

    /** {@code /delete}: removes every item whose hash is one of {@code hashes}. Blocking. */
    public void delete(String user, JsonNode body) {
        JsonNode hashes = body.path("hashes");
        if (!hashes.isArray() || !EmbeddingCall.truthy(body.get("collectionId"))) {
            throw Refusal.badRequest("\"hashes\" must be an array and \"collectionId\" must be given");
        }
        Target target = target(user, body);
        CollectionKey key = target.key(collectionId(body));
        Set<Double> numbers = new HashSet<>();
        hashes.forEach(hash -> numbers.add(JsNumber.of(hash)));
        numbers.remove(Double.NaN); // equal to nothing, as in JavaScript
        store.delete(user, key, numbers);
    }

    /** {@code /purge}: deletes the collection under every source. Blocking. */
    public void purge(String user, JsonNode body) {
        if (!EmbeddingCall.truthy(body.get("collectionId"))) {
            throw Refusal.badRequest("\"collectionId\" must be given");
        }
        store.purge(user, EmbeddingSources.NAMES, CollectionKey.folderName("collection id", collectionId(body)));
    }

    /** {@code /purge-all}: deletes every collection of every source. Blocking. */
    public void purgeAll(String user) {
        store.purgeAll(user, EmbeddingSources.NAMES);
    }

    /** The request's source: its name, its embedder, and the settings the body gives it. */
    private record Target(EmbeddingCall call, String name, EmbeddingSource source) {
        /** The index of a collection for this source and its model scope. */
        CollectionKey key(String collectionId) {
            return new CollectionKey(name, collectionId, source.modelScope(call.body()));
        }
    }

    private Target target(String user, JsonNode body) {
        EmbeddingCall call = new EmbeddingCall(user, body);
        String name = source(call);
        return new Target(call, name, sources.require(name));
    }

    /** ST's {@code String(req.body.source) || 'transformers'}: an absent source is "undefined", unknown. */
    private static String source(EmbeddingCall call) {
        String source = call.string("source");
        return source.isEmpty() ? "transformers" : source;
    }

    private static String collectionId(JsonNode body) {
        return new EmbeddingCall(null, body).string("collectionId");
    }

    /** The search text's vector: embedded as a query once, then kept among the recent ones. */
    private CompletionStage<float[]> searchVector(Target target, String text) {
        QueryText key = new QueryText(target.call().user(), target.name(),
                target.source().modelScope(target.call().body()), text);
        float[] known = searched.get(key);
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        return embed(target, List.of(text), true).thenApply(vectors -> {
            searched.put(key, vectors.get(0));
            return vectors.get(0);
        });
    }

    /** The vectors, checked: one per text, all of one length, every number finite. */
    private static CompletionStage<List<float[]>> embed(Target target, List<String> texts, boolean query) {
        return target.source().embed(target.call(), texts, query).thenApply(vectors -> {
            String source = target.name();
            if (vectors == null || vectors.size() != texts.size()) {
                throw Refusal.badRequest("The " + source + " source gave " + (vectors == null ? 0 : vectors.size())
                        + " vectors for " + texts.size() + " texts");
            }
            int length = vectors.get(0).length;
            for (float[] vector : vectors) {
                if (vector.length == 0 || vector.length != length) {
                    throw Refusal.badRequest("The " + source + " source gave vectors of different lengths ("
                            + length + " and " + vector.length + ")");
                }
                for (float v : vector) {
                    if (!Float.isFinite(v)) {
                        throw Refusal.badRequest("The " + source + " source gave a vector with " + v + " in it");
                    }
                }
            }
            return vectors;
        });
    }

    /**
     * ST's {@code Number(topK) || 10}, as the count Vectra's {@code slice(0, topK)} takes (a fraction is cut off:
     * vectra's LocalIndex.queryItems, src/endpoints/vectors.js multiQueryCollection); a negative count is refused.
     */
    private static int topK(JsonNode body) {
        double topK = JsNumber.of(body.get("topK"));
        if (Double.isNaN(topK) || topK == 0) {
            return 10;
        }
        if (topK < 0) {
            throw Refusal.badRequest("\"topK\" must be a positive number");
        }
        return (int) Math.min(Math.floor(topK), Integer.MAX_VALUE - 1);
    }

    /** ST's {@code Number(threshold) || 0}. */
    private static double threshold(JsonNode body) {
        double threshold = JsNumber.of(body.get("threshold"));
        return Double.isNaN(threshold) ? 0 : threshold;
    }

    private static void copy(JsonNode from, ObjectNode to, String field) {
        JsonNode value = from.get(field);
        if (value != null) {
            to.set(field, value);
        }
    }

    /** JavaScript's {@code Number(value)} of a JSON value as a JSON number; NaN is written as null by JSON. */
    private static JsonNode number(JsonNode value) {
        double number = JsNumber.of(value);
        JsonNodeFactory nodes = JsJson.MAPPER.getNodeFactory();
        if (Double.isNaN(number) || Double.isInfinite(number)) {
            return nodes.nullNode();
        }
        return number == Math.rint(number) && Math.abs(number) < 0x1p53 ? nodes.numberNode((long) number)
                : nodes.numberNode(number);
    }
}
