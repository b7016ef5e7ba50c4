package tankard.util;

/** ST's getStringHash (public/scripts/utils.js): a 53-bit hash of a string's UTF-16 code units, as the frontend
 * names vectorized messages. */
public final class StringHash {
    private StringHash() {
    }

    public static long of(String text) {
        int h1 = 0xdeadbeef;
        int h2 = 0x41c6ce57;
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            h1 = (h1 ^ ch) * (int) 2654435761L;
            h2 = (h2 ^ ch) * 1597334677;
        }
        h1 = (h1 ^ (h1 >>> 16)) * (int) 2246822507L ^ (h2 ^ (h2 >>> 13)) * (int) 3266489909L;
        h2 = (h2 ^ (h2 >>> 16)) * (int) 2246822507L ^ (h1 ^ (h1 >>> 13)) * (int) 3266489909L;
        return 4294967296L * (2097151 & h2) + Integer.toUnsignedLong(h1);
    }
}
