package tankard.store;

import java.util.concurrent.locks.ReentrantLock;

/**
 * One writer per file: a fixed set of locks picked by key hash, so read-check-write sequences on the same
 * file (the chat integrity check, for one) do not interleave. Unrelated keys may share a stripe; that only
 * costs a little waiting.
 */
public final class StripedLocks {
    private final ReentrantLock[] stripes;

    public StripedLocks(int count) {
        stripes = new ReentrantLock[count];
        for (int i = 0; i < count; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    public ReentrantLock lock(String key) {
        ReentrantLock lock = stripes[Math.floorMod(key.hashCode(), stripes.length)];
        lock.lock();
        return lock;
    }
}
