package tankard.character;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parsed cards in memory, least recently used first out, within a byte budget
 * ({@code performance.memoryCacheCapacity}). Keyed by the card file's identity and version, so a rewritten
 * file (new mtime or size) is simply a miss; stale entries age out. Thread-safe.
 */
public final class CardCache {
    /** A card file version: who owns it, its name, and the stat values that change when it is rewritten. */
    public record Key(String user, String name, double modifiedMs, long size) {
    }

    private final long capacity;
    private final LinkedHashMap<Key, CardData> entries = new LinkedHashMap<>(256, 0.75f, true);
    private long used;

    public CardCache(long capacityBytes) {
        this.capacity = capacityBytes;
    }

    public synchronized CardData get(Key key) {
        return entries.get(key);
    }

    public synchronized void put(Key key, CardData card) {
        long weight = card.weight();
        if (weight > capacity) {
            return;
        }
        CardData old = entries.put(key, card);
        if (old != null) {
            used -= old.weight();
        }
        used += weight;
        Iterator<Map.Entry<Key, CardData>> eldest = entries.entrySet().iterator();
        while (used > capacity && eldest.hasNext()) {
            used -= eldest.next().getValue().weight();
            eldest.remove();
        }
    }

    /**
     * Drops every version of a card that was rewritten or deleted. Versions are keyed by mtime and size, so
     * this is not needed for correctness; it frees the memory at once and guards against coarse mtimes.
     */
    public synchronized void invalidate(String user, String name) {
        Iterator<Map.Entry<Key, CardData>> it = entries.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Key, CardData> entry = it.next();
            if (entry.getKey().user().equals(user) && entry.getKey().name().equals(name)) {
                used -= entry.getValue().weight();
                it.remove();
            }
        }
    }

    synchronized long usedBytes() {
        return used;
    }
}
