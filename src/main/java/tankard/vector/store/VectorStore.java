package tankard.vector.store;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
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

    /**
     * Every item's {@code metadata.hash} as stored, in the index's order, duplicates kept; unmodifiable. While the
     * index does not change, the same list (the same object) again, so what a caller makes of it can be kept by it.
     */
    List<com.fasterxml.jackson.databind.JsonNode> hashes(String user, CollectionKey key);

    /** Deletes every item whose {@code metadata.hash} is a number in {@code hashes}. */
    void delete(String user, CollectionKey key, Set<Double> hashes);

    /** Deletes a collection (every model scope) under each of the sources. */
    void purge(String user, List<String> sources, String collection);

    /** Deletes every collection of each of the sources. */
    void purgeAll(String user, List<String> sources);

    /** One index of a user as the file {@code index.json} it stands for: its key and modification time. */
    record StoredIndex(CollectionKey key, double modifiedMs) {
    }

    /** The bytes of an {@code index.json}, opened when they are read (they may be large); openable again. */
    @FunctionalInterface
    interface IndexContent {
        InputStream open() throws IOException;
    }

    /**
     * Every index of the user, sorted by its path ({@link CollectionKey#indexPath()}), for moving a user's data
     * between stores. Pending changes are written into the index first, so the time is that of what
     * {@link #open} reads.
     */
    List<StoredIndex> indexes(String user);

    /**
     * The index as the bytes of its {@code index.json}: exactly the file it was restored from as long as nothing
     * changed it, else Vectra's form. Empty when there is no such index. Close the stream.
     */
    Optional<InputStream> open(String user, CollectionKey key);

    /**
     * Replaces the index with the one of these bytes and this modification time, which {@link #open} and
     * {@link #indexes} then give back as they are. Bytes that are not an index this store can read are kept too,
     * and the index answers as empty until its first change.
     */
    void restore(String user, CollectionKey key, IndexContent content, double modifiedMs);

    /** Writes what is only in journals into the indexes; waits for it. */
    @Override
    void close();
}
