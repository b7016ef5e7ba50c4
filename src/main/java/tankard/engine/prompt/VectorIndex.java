package tankard.engine.prompt;

import java.util.List;

/**
 * The chat's collection in the user's vector storage, as ST's Vector Storage extension reaches it through
 * {@code /api/vector/*} (public/scripts/extensions/vectors/index.js: getSavedHashes, insertVectorItems,
 * deleteVectorItems, queryCollection). Blocking.
 */
public interface VectorIndex {
    /** A message (or a chunk of one) to vectorize: its hash is the whole message's. */
    record Item(long hash, String text, int index) {
    }

    /** The hashes of the items in the collection, ascending, duplicates kept (ST: getSavedHashes); do not change it. */
    long[] saved();

    void insert(List<Item> items);

    void delete(List<Long> hashes);

    /** The hashes of the top {@code topK} items scoring at least {@code threshold}, best first. */
    List<Long> query(String text, int topK, double threshold);
}
