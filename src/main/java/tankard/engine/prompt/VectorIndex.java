package tankard.engine.prompt;

import java.util.List;
import java.util.Map;

/**
 * The chat's collection in the user's vector storage, as ST's Vector Storage extension reaches it through
 * {@code /api/vector/*} (public/scripts/extensions/vectors/index.js: getSavedHashes, insertVectorItems,
 * deleteVectorItems, queryCollection). Blocking.
 */
public interface VectorIndex {
    /** A message (or a chunk of one) to vectorize: its hash is the whole message's. */
    record Item(long hash, String text, int index) {
    }

    /**
     * ST's getStringHash of the chat's texts that have no macros (their hash is the same at every prompt), kept
     * with the chat so a long chat's synchronization does not hash every message each time: a thread-safe map
     * the caller fills.
     */
    Map<String, Long> textHashes();

    List<Long> saved();

    void insert(List<Item> items);

    void delete(List<Long> hashes);

    /** The hashes of the top {@code topK} items scoring at least {@code threshold}, best first. */
    List<Long> query(String text, int topK, double threshold);
}
