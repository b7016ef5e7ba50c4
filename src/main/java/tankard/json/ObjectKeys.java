package tankard.json;

import java.util.Arrays;

/**
 * The keys of the objects a one-pass reader is in, innermost last, as hashes of their text: what it hands to a parse
 * instead, a key met twice in one object (JavaScript keeps the last value at the first place) and an integer-like
 * key (JavaScript moves it first).
 */
final class ObjectKeys {
    private int[] hashes = new int[64];
    private int count;

    /** Where the object that starts now begins its keys. */
    int open() {
        return count;
    }

    /** Forgets the keys of the object that {@link #open} answered {@code opened} for. */
    void close(int opened) {
        count = opened;
    }

    /**
     * Adds the key whose escaped text (as {@code JSON.stringify} writes it) is {@code text[from, to)} to the object
     * opened at {@code opened}; false when it is integer-like or its hash is there already (a duplicate, or a
     * collision: the parser decides).
     */
    boolean add(byte[] text, int from, int to, int opened) {
        if (to > from && text[from] >= '0' && text[from] <= '9' && digitsOnly(text, from, to)) {
            return false;
        }
        int hash = 1;
        for (int k = from; k < to; k++) {
            hash = 31 * hash + text[k];
        }
        for (int k = opened; k < count; k++) {
            if (hashes[k] == hash) {
                return false;
            }
        }
        if (count == hashes.length) {
            hashes = Arrays.copyOf(hashes, count * 2);
        }
        hashes[count++] = hash;
        return true;
    }

    private static boolean digitsOnly(byte[] text, int from, int to) {
        for (int k = from; k < to; k++) {
            if (text[k] < '0' || text[k] > '9') {
                return false;
            }
        }
        return true;
    }
}
