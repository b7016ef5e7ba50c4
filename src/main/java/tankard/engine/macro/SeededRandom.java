package tankard.engine.macro;

import tankard.util.StringHash;
/**
 * The deterministic randomness {{pick}} uses: ST's string hash (public/scripts/utils.js getStringHash, cyrb53) and
 * the seedrandom library's ARC4 generator seeded with a string.
 */
final class SeededRandom {
    private static final int WIDTH = 256;
    private static final int MASK = WIDTH - 1;
    private static final double START_DENOMINATOR = Math.pow(WIDTH, 6);
    private static final double SIGNIFICANCE = Math.pow(2, 52);
    private static final double OVERFLOW = SIGNIFICANCE * 2;

    private final int[] state = new int[WIDTH];
    private int i;
    private int j;

    /** seedrandom(seed): the key is the seed's characters mixed as seedrandom's mixkey does. */
    SeededRandom(String seed) {
        int[] key = new int[WIDTH];
        boolean[] set = new boolean[WIDTH];
        int length = 0;
        int smear = 0;
        for (int at = 0; at < seed.length(); at++) {
            int slot = MASK & at;
            smear ^= set[slot] ? key[slot] * 19 : 0;
            key[slot] = MASK & (smear + seed.charAt(at));
            set[slot] = true;
            length = Math.max(length, slot + 1);
        }
        if (length == 0) {
            key[0] = 0;
            length = 1;
        }
        for (int k = 0; k < WIDTH; k++) {
            state[k] = k;
        }
        int mixer = 0;
        for (int k = 0; k < WIDTH; k++) {
            int swap = state[k];
            mixer = MASK & (mixer + key[k % length] + swap);
            state[k] = state[mixer];
            state[mixer] = swap;
        }
        next(WIDTH);
    }

    private double next(int count) {
        double result = 0;
        for (int n = 0; n < count; n++) {
            i = MASK & (i + 1);
            int swap = state[i];
            j = MASK & (j + swap);
            state[i] = state[j];
            state[j] = swap;
            result = result * WIDTH + state[MASK & (state[i] + state[j])];
        }
        return result;
    }

    /** The next double in [0, 1). */
    double nextDouble() {
        double numerator = next(6);
        double denominator = START_DENOMINATOR;
        double extra = 0;
        while (numerator < SIGNIFICANCE) {
            numerator = (numerator + extra) * WIDTH;
            denominator *= WIDTH;
            extra = next(1);
        }
        while (numerator >= OVERFLOW) {
            numerator /= 2;
            denominator /= 2;
            extra = (long) extra >>> 1;
        }
        return (numerator + extra) / denominator;
    }
}
