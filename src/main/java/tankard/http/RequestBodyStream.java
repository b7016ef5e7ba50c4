package tankard.http;

import tankard.core.Refusal;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A request body as a blocking stream for a stream thread ({@link StreamThreads}), for bodies too large to
 * buffer (chat saves up to the body limit). The event loop queues the chunks as they arrive and pauses the
 * connection while more than {@link #HIGH_WATER} bytes wait, so a slow disk holds back the client instead of
 * filling the heap. The request must have been paused since it arrived (see HttpVerticle). Gzip bodies arrive
 * inflated.
 */
final class RequestBodyStream extends InputStream {
    private static final int HIGH_WATER = 8 << 20;
    private static final int LOW_WATER = 2 << 20;
    private static final long STALL_TIMEOUT_MS = 120_000;
    private static final Buffer END = Buffer.buffer();

    private final HttpServerRequest request;
    private final Context context;
    private final long limit;
    private final LinkedBlockingQueue<Object> chunks = new LinkedBlockingQueue<>();
    private final AtomicLong queued = new AtomicLong();
    /** Written on the event loop only; read by the worker to know whether a resume may be due. */
    private volatile boolean paused;
    private long received;
    private Buffer current;
    private int position;
    private boolean ended;

    /** Call on the request's event loop. */
    RequestBodyStream(HttpServerRequest request, Context context, long limit) {
        this.request = request;
        this.context = context;
        this.limit = limit;
        request.handler(chunk -> {
            chunks.add(chunk);
            if (queued.addAndGet(chunk.length()) > HIGH_WATER && !paused) {
                paused = true;
                request.pause();
            }
        });
        request.endHandler(v -> chunks.add(END));
        request.exceptionHandler(e -> chunks.add(e));
        request.resume();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (current == null || position == current.length()) {
            if (ended) {
                return -1;
            }
            next();
        }
        int n = Math.min(length, current.length() - position);
        current.getBytes(position, position + n, into, offset);
        position += n;
        return n;
    }

    private void next() throws IOException {
        Object chunk;
        try {
            chunk = chunks.poll(STALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while reading the request", e);
        }
        if (chunk == null) {
            throw new IOException("The client stopped sending");
        }
        if (chunk instanceof Throwable failure) {
            throw new IOException("The request failed: " + failure, failure);
        }
        current = (Buffer) chunk;
        position = 0;
        if (current == END) {
            ended = true;
            return;
        }
        received += current.length();
        if (received > limit) {
            throw Refusal.tooLarge("Payload Too Large");
        }
        if (queued.addAndGet(-current.length()) < LOW_WATER && paused) {
            context.runOnContext(v -> resumeIfDrained());
        }
    }

    /**
     * On the event loop, which alone flips {@link #paused}: had the worker resumed the request itself, a pause
     * in between (more chunks arriving) would be undone while {@code paused} stayed true, and the connection
     * would never be paused again.
     */
    private void resumeIfDrained() {
        if (paused && queued.get() < LOW_WATER) {
            paused = false;
            request.resume();
        }
    }

    /** Lets the rest of an unread body go by, so the connection can carry the reply and the next request. */
    void discardRest() {
        context.runOnContext(v -> {
            if (!request.isEnded()) { // an ended request takes no handler
                request.handler(chunk -> {
                });
                request.resume();
            }
        });
        chunks.clear();
    }
}
