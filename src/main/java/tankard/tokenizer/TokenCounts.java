package tankard.tokenizer;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * Token counts already made, by tokenizer and text: what ST's frontend keeps as its token cache
 * (public/scripts/tokenizers.js, getTokenCacheObject), so a chat's messages and a lorebook's entries are tokenized
 * once, not at every prompt. Keyed by the whole text, not ST's hash of it, so a count is always the text's own.
 * The least recently used go first once the texts kept pass a total length. Thread-safe; counting runs outside
 * the lock.
 */
public final class TokenCounts {
    /** About 8 MB of Latin-1 text at most: a long chat's history and a large lorebook's entries. */
    private static final long DEFAULT_MAX_CHARS = 8L << 20;

    private record Key(Object tokenizer, String text) {
    }

    private final long maxChars;
    private final LinkedHashMap<Key, Integer> counts = new LinkedHashMap<>(1024, 0.75f, true);
    private long chars;

    public TokenCounts() {
        this(DEFAULT_MAX_CHARS);
    }

    TokenCounts(long maxChars) {
        this.maxChars = maxChars;
    }

    /**
     * The text's count by the tokenizer, counted with {@code counter} the first time.
     *
     * @param tokenizer what the count depends on besides the text, compared with equals: the {@link Tokenizer}
     *                  itself (a vocabulary loaded later is another one), with whatever else the counter reads
     */
    public int count(Object tokenizer, String text, ToIntFunction<String> counter) {
        Key key = new Key(tokenizer, text);
        synchronized (this) {
            Integer known = counts.get(key);
            if (known != null) {
                return known;
            }
        }
        int count = counter.applyAsInt(text);
        if (text.length() <= maxChars / 4) { // one huge text does not push out all others
            synchronized (this) {
                if (counts.put(key, count) == null) {
                    chars += text.length();
                }
                evict();
            }
        }
        return count;
    }

    private void evict() {
        Iterator<Map.Entry<Key, Integer>> eldest = counts.entrySet().iterator();
        while (chars > maxChars && eldest.hasNext()) {
            chars -= eldest.next().getKey().text().length();
            eldest.remove();
        }
    }

    synchronized int size() {
        return counts.size();
    }
}
