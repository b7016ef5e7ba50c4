package tankard.outbound;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One upstream body relayed to the browser as it arrives. An upstream sends each SSE event as an HTTP chunk of its
 * own, and one read of its socket brings many: the pieces a read brought are gathered and written to the browser
 * as one, once the event loop has handled that read (as Node corks a response until its next tick). That is one
 * write, flush and system call per read rather than per event, and nothing waits for data that has not arrived.
 * The stream's first piece is written as soon as it arrives, so the first byte never waits for the rest.
 * The upstream is paused while the browser's write queue is full; a failed upstream resets the browser's stream,
 * unless the relay was given its own way to end a cut stream.
 */
final class StreamRelay {
    /** Gathered pieces go out at this size without waiting for the rest of the read: a bound on what a stream holds. */
    private static final int MAX_GATHERED = 64 * 1024;
    /** The relays of this process under way: the metrics' streams open. */
    private static final AtomicInteger OPEN = new AtomicInteger();

    private final HttpClientResponse from;
    private final HttpServerResponse to;
    private final StreamConverter converter;
    /** Runs once the upstream has ended well, before the browser's stream ends (the engine saves the reply). */
    private final Supplier<Future<Void>> beforeEnd;
    /** Runs when the upstream fails before its end, what it brought so far written (the engine saves a cut reply). */
    private final Function<Throwable, Future<Void>> onCut;
    /** The event loop both connections run on. */
    private final Context context;
    /** What this read brought so far, not yet written; null when nothing is waiting. */
    private Buffer pending;
    /** Whether {@link #pending} is a buffer of ours that more can be appended to. */
    private boolean gathering;
    /** Whether anything has been written yet. */
    private boolean started;
    /** Whether the upstream failed before its end. */
    private boolean cut;
    /** Whether the relay has ended, its upstream done or failed (a browser that leaves resets the upstream). */
    private boolean finished;

    StreamRelay(HttpClientResponse from, HttpServerResponse to, StreamConverter converter,
                Supplier<Future<Void>> beforeEnd, Function<Throwable, Future<Void>> onCut, Context context) {
        this.from = from;
        this.to = to;
        this.converter = converter;
        this.beforeEnd = beforeEnd;
        this.onCut = onCut;
        this.context = context;
    }

    static int open() {
        return OPEN.get();
    }

    void start() {
        OPEN.incrementAndGet();
        from.handler(this::gather);
        from.exceptionHandler(e -> {
            if (cut) { // a reset stream may report its failure more than once
                return;
            }
            cut = true;
            if (onCut == null) {
                pending = null;
                to.reset();
                finish();
                return;
            }
            write();
            onCut.apply(e).onComplete(done -> finish());
        });
        from.endHandler(v -> {
            if (pending != null) {
                to.write(pending);
                pending = null;
            }
            Buffer last = converter.end();
            beforeEnd.get().onComplete(done -> {
                to.end(last);
                finish();
            });
        });
    }

    private void finish() {
        if (!finished) {
            finished = true;
            OPEN.decrementAndGet();
        }
    }

    private void gather(Buffer chunk) {
        Buffer converted = converter.convert(chunk);
        if (converted.length() == 0) {
            return;
        }
        if (pending == null) {
            pending = converted;
            gathering = false;
            if (started) {
                context.runOnContext(v -> write());
            } else { // the first words go out at once: the rest of their read may be a while coming
                started = true;
                write();
            }
        } else {
            if (!gathering) {
                pending = Buffer.buffer(pending.length() * 4 + converted.length()).appendBuffer(pending);
                gathering = true;
            }
            pending.appendBuffer(converted);
            if (pending.length() >= MAX_GATHERED) {
                write();
            }
        }
    }

    private void write() {
        Buffer out = pending;
        pending = null;
        if (out == null || to.ended() || to.closed()) {
            return;
        }
        to.write(out);
        if (to.writeQueueFull()) {
            from.pause();
            to.drainHandler(v -> from.resume());
            // the queue may have drained before the handler was in place
            if (!to.writeQueueFull()) {
                from.resume();
            }
        }
    }
}
