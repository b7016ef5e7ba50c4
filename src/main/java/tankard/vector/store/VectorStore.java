package tankard.vector.store;

import java.util.List;
import java.util.Set;

/**
 * The vector indexes of ST's Vector Storage, per user (handle) and {@link CollectionKey}. The file store keeps ST's Vectra
 * {@code index.json}; another store (PostgreSQL) implements the same without the routes knowing. Every method
 * blocks: call it on a worker. A write that returns is durable; one that throws wrote nothing.
 */
public interface VectorStore extends AutoCloseable {
    /**
     * Adds the items. Refused ({@code BAD_REQUEST}) when their vectors' length is not the collection's, and then
     * nothing is added.
     */
    void insert(String user, CollectionKey key, List<VectorItem> items);

    /**
     * The {@code topK} items most similar to {@code vector}, best first (ties in insertion order). Refused when
     * the vector's length is not the collection's; an empty or missing collection has no matches.
     */
    List<Match> query(String user, CollectionKey key, float[] vector, int topK);

    /** Every item's {@code metadata.hash} as stored, in the index's order, duplicates kept. */
    List<com.fasterxml.jackson.databind.JsonNode> hashes(String user, CollectionKey key);

    /** Deletes every item whose {@code metadata.hash} is a number in {@code hashes}. */
    void delete(String user, CollectionKey key, Set<Double> hashes);

    /** Deletes a collection (every model scope) under each of the sources. */
    void purge(String user, List<String> sources, String collection);

    /** Deletes every collection of each of the sources. */
    void purgeAll(String user, List<String> sources);

    /** Writes what is only in journals into the indexes; waits for it. */
    @Override
    void close();
}
