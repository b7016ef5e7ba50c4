package tankard.util;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Small pools for services' own background work, apart from Vert.x's worker pool. Daemon threads that
 * exit when idle, so a server (or a test) that stops leaves nothing running.
 */
public final class Threads {
    private static final long IDLE_SECONDS = 30;

    private Threads() {
    }

    /** At most {@code threads} tasks at once; the rest queue. */
    public static ExecutorService boundedPool(String name, int threads) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), daemon(name));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * At most {@code threads} tasks at once and {@code waiting} more queued; beyond that {@code execute}
     * throws {@link java.util.concurrent.RejectedExecutionException}, so callers can refuse work instead of piling it up.
     */
    public static ThreadPoolExecutor boundedQueue(String name, int threads, int waiting) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(waiting), daemon(name));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * At most {@code threads} tasks at once and none waiting: beyond that {@code execute} throws
     * {@link java.util.concurrent.RejectedExecutionException}. Threads start as tasks come.
     */
    public static ExecutorService unqueued(String name, int threads) {
        return new ThreadPoolExecutor(0, threads, IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), daemon(name));
    }

    public static ScheduledThreadPoolExecutor timer(String name) {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, daemon(name));
        timer.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
