package tankard.http;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;

import java.lang.management.ManagementFactory;

/**
 * Gives memory back once the server has been quiet for a while. The Serial collector of bin/jvm.options shrinks
 * the heap only after a full collection, which a lightly used server may not run for hours, so what a busy spell
 * grew would stay committed. After {@code idleMs} without a request: the arrays kept for streamed replies are
 * let go and, under that collector, full collections run until the heap is back to its initial size (a few tens of
 * ms each on a quiet server; measured with bench/load.sh, see bench/README.md). Once per quiet spell.
 * <p>
 * Under any other collector no collection is asked for: G1 and ZGC give memory back on their own
 * (G1PeriodicGCInterval, ZUncommit), and there a full collection stops every thread on every core, which in a JVM
 * shared with other work (the tests' servers) stalls the rest of the machine for as long.
 */
public final class IdleTrim implements Handler<RoutingContext> {
    /** Quiet this long, the memory is trimmed. */
    private static final long IDLE_MS = 15_000;

    private final long idleMs;
    private final Runnable trim;
    private volatile long lastRequestMs = System.currentTimeMillis();
    private volatile boolean trimmed;

    /**
     * Serial gives back at each full collection a growing share of what the old generation has spare: none at the
     * first after it grew, then 10 %, 40 %, all (TenuredGeneration::compute_new_size).
     */
    private static final int COLLECTIONS = 4;

    /** Trims with full collections under the Serial collector. */
    public IdleTrim() {
        this(IDLE_MS, trim(serialCollector()));
    }

    static Runnable trim(boolean collect) {
        return () -> {
            Chunks.clear();
            if (collect) {
                for (int i = 0; i < COLLECTIONS; i++) {
                    System.gc(); // the point: no other call makes the Serial collector give memory back
                }
            }
        };
    }

    /** Whether this JVM runs the Serial collector, whose old generation's bean is "MarkSweepCompact". */
    static boolean serialCollector() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .anyMatch(collector -> collector.getName().equals("MarkSweepCompact"));
    }

    IdleTrim(long idleMs, Runnable trim) {
        this.idleMs = idleMs;
        this.trim = trim;
    }

    /** Checks every third of the quiet time, and trims on a worker. */
    public void start(Vertx vertx) {
        vertx.setPeriodic(Math.max(1, idleMs / 3), id -> {
            if (!trimmed && System.currentTimeMillis() - lastRequestMs >= idleMs) {
                trimmed = true;
                vertx.executeBlocking(() -> {
                    trim.run();
                    return null;
                }, false);
            }
        });
    }

    @Override
    public void handle(RoutingContext ctx) {
        lastRequestMs = System.currentTimeMillis();
        if (trimmed) {
            trimmed = false;
        }
        ctx.next();
    }
}
