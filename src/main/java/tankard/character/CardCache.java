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

    synchronized long usedBytes() {
        return used;
    }
}
