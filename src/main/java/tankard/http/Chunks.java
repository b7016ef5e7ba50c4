package tankard.http;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The arrays streamed replies are cut into, used again once the event loop has copied them out to the socket's
 * direct memory, up to a byte budget (an array not given back is left to the collector). Under
 * {@code bench/load.sh} fresh chunks were most of what the collector cleared: 100 clients listing 500 cards
 * stream about 200 MB a second.
 */
final class Chunks {
    /** Sizes are powers of two from this up. */
    static final int SMALLEST = 16 * 1024;
    private static final int CLASSES = 6; // up to 512 KB
    static final int LARGEST = SMALLEST << (CLASSES - 1);
    private static final long KEPT_BYTES = 16 << 20;
    @SuppressWarnings("unchecked")
    private static final ConcurrentLinkedQueue<byte[]>[] FREE = new ConcurrentLinkedQueue[CLASSES];
    private static final AtomicLong KEPT = new AtomicLong();

    static {
        for (int i = 0; i < CLASSES; i++) {
            FREE[i] = new ConcurrentLinkedQueue<>();
        }
    }

    private Chunks() {
    }

    /** An array of {@code size} bytes, a power of two from {@link #SMALLEST} to {@link #LARGEST}. */
    static byte[] take(int size) {
        byte[] free = FREE[sizeClass(size)].poll();
        if (free == null) {
            return new byte[size];
        }
        KEPT.addAndGet(-free.length);
        return free;
    }

    /** Gives back an array from {@link #take} that nothing reads any more. */
    static void give(byte[] chunk) {
        if (KEPT.addAndGet(chunk.length) <= KEPT_BYTES) {
            FREE[sizeClass(chunk.length)].offer(chunk);
        } else {
            KEPT.addAndGet(-chunk.length);
        }
    }

    /** Lets go of the arrays kept. */
    static void clear() {
        for (ConcurrentLinkedQueue<byte[]> free : FREE) {
            for (byte[] chunk = free.poll(); chunk != null; chunk = free.poll()) {
                KEPT.addAndGet(-chunk.length);
            }
        }
    }

    private static int sizeClass(int size) {
        int sizeClass = Integer.numberOfTrailingZeros(size / SMALLEST);
        if (size != SMALLEST << sizeClass || sizeClass >= CLASSES) {
            throw new IllegalArgumentException("Not a chunk size: " + size);
        }
        return sizeClass;
    }
}
