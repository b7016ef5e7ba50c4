package tankard.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP response body as a blocking stream for a stream thread ({@link StreamThreads}): bytes go out in chunks,
 * and the writer waits while the connection's write queue is full, so a slow client holds back the producer instead
 * of piling the body up in memory. The streams under way share one budget of bytes in flight: one stream alone
 * gets a deep queue (a chat of 25 MB goes out fast), a hundred at once get shallow ones, so that many clients
 * reading large lists do not fill the heap. {@link #close()} ends the response.
 */
final class ResponseStream extends OutputStream {
    /** Large, so that a big body costs few hand-overs between the worker and the event loop (each costs a
     * thread wake-up, which on a busy machine is most of the time a chat of 25 MB takes). */
    private static final int CHUNK = 512 * 1024;
    /** One stream's bytes in flight before its writer waits, at most: enough that the writer and the event loop
     * rarely hand over. */
    private static final int MAX_QUEUE_BYTES = 4 << 20;
    /** ... and at least, however many streams share the budget. */
    private static final int MIN_QUEUE_BYTES = 256 * 1024;
    /** The bytes in flight the streams under way share. */
    private static final int BUDGET_BYTES = 32 << 20;
    private static final long STALL_TIMEOUT_MS = 120_000;
    private static final AtomicInteger UNDER_WAY = new AtomicInteger();

    private final HttpServerResponse response;
    private final int chunkBytes;
    private Buffer chunk;
    private volatile boolean closed;
    private boolean counted = true;

    ResponseStream(HttpServerResponse response) {
        this.response = response;
        int queue = Math.max(MIN_QUEUE_BYTES, Math.min(MAX_QUEUE_BYTES, BUDGET_BYTES / UNDER_WAY.incrementAndGet()));
        chunkBytes = Math.min(CHUNK, queue / 2);
        chunk = Buffer.buffer(chunkBytes);
        response.setWriteQueueMaxSize(queue);
        response.closeHandler(v -> closed = true);
    }

    @Override
    public void write(int b) throws IOException {
        if (chunk.length() == chunkBytes) {
            send();
        }
        chunk.appendByte((byte) b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        while (length > 0) {
            if (chunk.length() == chunkBytes) {
                send();
            }
            int n = Math.min(length, chunkBytes - chunk.length());
            chunk.appendBytes(bytes, offset, n);
            offset += n;
            length -= n;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            if (chunk.length() > 0) {
                send();
            }
            response.end();
        } finally {
            if (counted) {
                counted = false;
                UNDER_WAY.decrementAndGet();
            }
        }
    }

    private void send() throws IOException {
        if (closed) {
            throw new IOException("The client went away");
        }
        response.write(chunk);
        chunk = Buffer.buffer(chunkBytes); // the written one now belongs to the response
        if (response.writeQueueFull()) {
            CountDownLatch drained = new CountDownLatch(1);
            response.drainHandler(v -> drained.countDown());
            response.closeHandler(v -> {
                closed = true;
                drained.countDown();
            });
            // the queue may have drained before the handler was in place
            if (response.writeQueueFull()) {
                await(drained);
            }
        }
    }

    private static void await(CountDownLatch drained) throws IOException {
        try {
            if (!drained.await(STALL_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                throw new IOException("The client stopped reading");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while streaming", e);
        }
    }
}
