package tankard.character;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parsed cards in memory, least recently used first out, within a byte budget
 * ({@code performance.memoryCacheCapacity}). One version per card file, checked against the file's mtime and
 * size, so a rewritten file is simply a miss and its new version replaces the old one. Thread-safe.
 */
public final class CardCache {
    /** A card file version: who owns it, its name, and the stat values that change when it is rewritten. */
    public record Key(String user, String name, double modifiedMs, long size) {
    }

    private record Card(String user, String name) {
    }

    private record Version(Key key, CardData card, long weight) {
    }

    private final long capacity;
    private final LinkedHashMap<Card, Version> entries = new LinkedHashMap<>(256, 0.75f, true);
    private long used;

    public CardCache(long capacityBytes) {
        this.capacity = capacityBytes;
    }

    public synchronized CardData get(Key key) {
        Version version = entries.get(new Card(key.user(), key.name()));
        return version != null && version.key().equals(key) ? version.card() : null;
    }

    public synchronized void put(Key key, CardData card) {
        long weight = card.weight();
        if (weight > capacity) {
            invalidate(key.user(), key.name());
            return;
        }
        Version old = entries.put(new Card(key.user(), key.name()), new Version(key, card, weight));
        if (old != null) {
            used -= old.weight();
        }
        used += weight;
        Iterator<Map.Entry<Card, Version>> eldest = entries.entrySet().iterator();
        while (used > capacity && eldest.hasNext()) {
            used -= eldest.next().getValue().weight();
            eldest.remove();
        }
    }

    /**
     * Drops the card of a file that was rewritten or deleted. Versions are checked by mtime and size, so this is
     * not needed for correctness; it frees the memory at once and guards against coarse mtimes.
     */
    public synchronized void invalidate(String user, String name) {
        Version old = entries.remove(new Card(user, name));
        if (old != null) {
            used -= old.weight();
        }
    }

    synchronized long usedBytes() {
        return used;
    }
}
