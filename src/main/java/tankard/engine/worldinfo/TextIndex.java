package tankard.engine.worldinfo;

import java.util.Arrays;

/**
 * Where each three-character sequence of a text is: a lorebook's thousand keys are looked for in one scan's text,
 * and a key is then found by checking the few places where its rarest sequence is, not by reading the whole text
 * again for each key. Answers what {@link String#indexOf(String, int)} answers.
 */
final class TextIndex {
    private static final int SEQUENCE = 3;
    private static final int BUCKETS = 1 << 11;

    private final String text;
    /** The places of the sequences in bucket {@code b} are {@code places[starts[b]]} to {@code places[starts[b + 1]]}, ascending. */
    private final int[] starts = new int[BUCKETS + 1];
    private final int[] places;

    TextIndex(String text) {
        this.text = text;
        int count = Math.max(0, text.length() - SEQUENCE + 1);
        int[] buckets = new int[count];
        for (int at = 0; at < count; at++) {
            buckets[at] = bucket(text, at);
            starts[buckets[at] + 1]++;
        }
        for (int b = 0; b < BUCKETS; b++) {
            starts[b + 1] += starts[b];
        }
        places = new int[count];
        int[] next = Arrays.copyOf(starts, BUCKETS);
        for (int at = 0; at < count; at++) {
            places[next[buckets[at]]++] = at;
        }
    }

    String text() {
        return text;
    }

    /** {@code text.indexOf(key, from)}. */
    int indexOf(String key, int from) {
        if (key.length() < SEQUENCE) {
            return text.indexOf(key, from);
        }
        int rarest = 0;
        int fewest = Integer.MAX_VALUE;
        for (int k = 0; k + SEQUENCE <= key.length() && fewest > 0; k++) {
            int b = bucket(key, k);
            if (starts[b + 1] - starts[b] < fewest) {
                fewest = starts[b + 1] - starts[b];
                rarest = k;
            }
        }
        int b = bucket(key, rarest);
        for (int q = starts[b]; q < starts[b + 1]; q++) { // ascending: the first found is the first in the text
            int at = places[q] - rarest;
            if (at >= from && text.startsWith(key, at)) {
                return at;
            }
        }
        return -1;
    }

    private static int bucket(String s, int at) {
        int h = (s.charAt(at) * 31 + s.charAt(at + 1)) * 31 + s.charAt(at + 2);
        return (h ^ h >>> 11) & (BUCKETS - 1);
    }
}
