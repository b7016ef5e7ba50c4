package tankard.store;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One writer per file: a fixed set of locks picked by key hash, so read-check-write sequences on the same
 * file (the chat integrity check, for one) do not interleave. Unrelated keys may share a stripe; that only
 * costs a little waiting. The locks of one JVM: what the stores keep on files, which one node uses.
 */
public final class StripedLocks implements Locks {
    private final ReentrantLock[] stripes;

    public StripedLocks(int count) {
        stripes = new ReentrantLock[count];
        for (int i = 0; i < count; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    public ReentrantLock lock(String key) {
        ReentrantLock lock = stripes[stripe(key)];
        lock.lock();
        return lock;
    }

    /** Locks the stripes of all the keys in stripe order, so callers locking overlapping keys never deadlock. */
    @Override
    public Held lockAll(String... keys) {
        int[] held = Arrays.stream(keys).mapToInt(this::stripe).distinct().sorted().toArray();
        for (int stripe : held) {
            stripes[stripe].lock();
        }
        return () -> {
            for (int i = held.length - 1; i >= 0; i--) {
                stripes[held[i]].unlock();
            }
        };
    }

    private int stripe(String key) {
        return Math.floorMod(key.hashCode(), stripes.length);
    }
}
