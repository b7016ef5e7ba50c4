package tankard.ops;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node's graceful stop (docs/operations.md). It sees every request but the health checks first, on every event
 * loop, and counts those under way, streams included, until their response ends or their connection closes. Once
 * {@link #drain} is called, a new request is refused with 503 and {@code Connection: close}, so that a proxy takes
 * it to another node, while those under way run to their end; a connection is closed after its response.
 */
public final class GracefulStop implements Handler<RoutingContext> {
    private static final Logger LOG = LoggerFactory.getLogger(GracefulStop.class);
    private static final String REFUSAL = "{\"error\":\"This server is stopping; try again in a moment\"}";

    private final AtomicInteger running = new AtomicInteger();
    /** Completes when no request is under way after the stop began, or when the grace time is over. */
    private final CompletableFuture<Void> quiet = new CompletableFuture<>();
    private volatile boolean stopping;

    @Override
    public void handle(RoutingContext ctx) {
        running.incrementAndGet(); // counted before stopping is read, so a drain never misses a request let in
        if (stopping) {
            finished();
            ctx.response().setStatusCode(503)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json; charset=utf-8")
                    .putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE)
                    .end(REFUSAL)
                    .onComplete(v -> ctx.request().connection().close());
            return;
        }
        ctx.addHeadersEndHandler(v -> {
            if (stopping) {
                ctx.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
            }
        });
        // called when the response has been written or its connection closed
        ctx.addEndHandler(ended -> {
            finished();
            if (stopping) {
                ctx.request().connection().close(); // Vert.x keeps it open whatever the response's header says
            }
        });
        ctx.next();
    }

    private void finished() {
        if (running.decrementAndGet() == 0 && stopping) {
            quiet.complete(null);
        }
    }

    /**
     * Refuses new requests from now on and answers when those under way have ended, or after {@code grace} (the
     * ones still running are then cut by the close that follows).
     */
    public Future<Void> drain(Vertx vertx, Duration grace) {
        stopping = true;
        if (running.get() == 0) {
            quiet.complete(null);
        }
        long timer = vertx.setTimer(Math.max(1, grace.toMillis()), id -> {
            int left = running.get();
            if (quiet.complete(null)) {
                LOG.warn("Stopping with {} requests still under way after the grace time of {} s", left,
                        grace.toSeconds());
            }
        });
        quiet.thenRun(() -> vertx.cancelTimer(timer));
        return Future.fromCompletionStage(quiet);
    }

    /** Whether the stop has begun: the node is no longer ready. */
    public boolean stopping() {
        return stopping;
    }

    /** The requests under way, streams included. */
    public int running() {
        return running.get();
    }
}
