package tankard.http;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import tankard.core.Refusal;
import tankard.util.Threads;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;

/**
 * The threads that client-paced streams run on: a request body read as it arrives ({@link Routes#streamed}) and
 * a reply written as the client takes it ({@link Reply#stream}, {@link Reply#download}). Such a thread waits
 * while its client is slow, for as long as the streams' stall limits allow (120 s without a byte). On Vert.x's
 * shared worker pool, which every {@link Routes#blocking} route runs on, twenty slow clients would stop all of
 * those routes; here they wait apart.
 * <p>
 * At most {@value #THREADS} streams run at once, for the whole process: ten browsers' worth (a browser opens six
 * connections to a host), and a bound on what streams hold in memory (each buffers up to 8 MB of a request
 * or 4.5 MB of a reply). One more is refused at once with a 503 rather than queued behind slow clients,
 * which could hold it for minutes. Threads start as streams come and exit when idle.
 */
final class StreamThreads {
    static final int THREADS = 64;
    private static final ExecutorService POOL = Threads.unqueued("client-stream", THREADS);

    private StreamThreads() {
    }

    /**
     * Runs {@code work} on a stream thread; the future completes on {@code context}.
     *
     * @throws Refusal (503) at once, with nothing run, when all {@value #THREADS} threads are busy
     */
    static <T> Future<T> run(Context context, Callable<T> work) {
        Promise<T> outcome = Promise.promise();
        try {
            POOL.execute(() -> {
                Future<T> result = call(work);
                try {
                    context.runOnContext(v -> outcome.handle(result));
                } catch (RejectedExecutionException stopped) {
                    // the server has stopped: no one waits for the outcome
                }
            });
        } catch (RejectedExecutionException e) {
            throw Refusal.unavailable("All " + THREADS + " streams are busy with slow clients; try again later");
        }
        return outcome.future();
    }

    private static <T> Future<T> call(Callable<T> work) {
        try {
            return Future.succeededFuture(work.call());
        } catch (Throwable e) {
            return Future.failedFuture(e);
        }
    }
}
