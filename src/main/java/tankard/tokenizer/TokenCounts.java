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

    /**
     * A text (a string or {@link Lines}) counted by a tokenizer. Its equals and hashCode are written out: a record's
     * are made through method handles, which cost more per lookup under the quick compiler the server runs with.
     */
    private static final class Key {
        private final Object tokenizer;
        private final Object text;
        private final int length;

        Key(Object tokenizer, Object text, int length) {
            this.tokenizer = tokenizer;
            this.text = text;
            this.length = length;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key that && that.length == length && that.text.equals(text)
                    && that.tokenizer.equals(tokenizer);
        }

        @Override
        public int hashCode() {
            return 31 * tokenizer.hashCode() + text.hashCode();
        }
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
        return counted(new Key(tokenizer, text, text.length()), text, counter);
    }

    /** The same for a text made of lines, made into a string only when it is counted. */
    public int count(Object tokenizer, Lines text, ToIntFunction<String> counter) {
        return counted(new Key(tokenizer, text, text.length()), text, counter);
    }

    private int counted(Key key, Object text, ToIntFunction<String> counter) {
        synchronized (this) {
            Integer known = counts.get(key);
            if (known != null) {
                return known;
            }
        }
        int count = counter.applyAsInt(text.toString());
        if (key.length <= maxChars / 4) { // one huge text does not push out all others
            synchronized (this) {
                if (counts.put(key, count) == null) {
                    chars += key.length;
                }
                evict();
            }
        }
        return count;
    }

    private void evict() {
        Iterator<Map.Entry<Key, Integer>> eldest = counts.entrySet().iterator();
        while (chars > maxChars && eldest.hasNext()) {
            chars -= eldest.next().getKey().length;
            eldest.remove();
        }
    }

    synchronized int size() {
        return counts.size();
    }
}
