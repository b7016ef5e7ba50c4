package tankard.http.security;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Failed-attempt counting per key (client IP) in fixed windows, as ST's in-memory limiter does: the window
 * starts with the first counted attempt; more than {@code points} attempts inside it are refused.
 * A limit of 0 or less means no limit. Thread-safe; shared by all event loops.
 */
public final class RateLimiter {
    private record Window(int consumed, long endsAt) {
    }

    private final int points;
    private final long windowMillis;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();

    public RateLimiter(int points, long windowSeconds) {
        this.points = points > 0 ? points : Integer.MAX_VALUE;
        this.windowMillis = windowSeconds * 1000;
    }

    /** Counts one attempt; returns 0 when it is allowed, else the seconds until the window ends (Retry-After). */
    public long consume(String key) {
        long now = System.currentTimeMillis();
        if (windows.size() > 10_000) {
            windows.values().removeIf(w -> w.endsAt() <= now);
        }
        Window window = windows.compute(key, (k, w) -> w == null || w.endsAt() <= now
                ? new Window(1, now + windowMillis)
                : new Window(w.consumed() == Integer.MAX_VALUE ? w.consumed() : w.consumed() + 1, w.endsAt()));
        return window.consumed() > points ? retryAfter(window, now) : 0;
    }

    /** Without counting: 0 when the key is under its limit, else the seconds until the window ends. */
    public long blockedFor(String key) {
        long now = System.currentTimeMillis();
        Window window = windows.get(key);
        return window != null && window.endsAt() > now && window.consumed() > points ? retryAfter(window, now) : 0;
    }

    /** Forgets the key's attempts (after a success). */
    public void reset(String key) {
        windows.remove(key);
    }

    private static long retryAfter(Window window, long now) {
        return Math.max(1, (window.endsAt() - now + 999) / 1000);
    }
}
