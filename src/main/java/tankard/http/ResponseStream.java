package tankard.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An HTTP response body as a blocking stream for a stream thread ({@link StreamThreads}): bytes go out in 512 KB
 * chunks, and the writer waits while the connection's write queue is full, so a slow client holds back the
 * producer instead of piling the body up in memory. {@link #close()} ends the response.
 */
final class ResponseStream extends OutputStream {
    /** Large, so that a big body costs few hand-overs between the worker and the event loop (each costs a
     * thread wake-up, which on a busy machine is most of the time a chat of 25 MB takes). */
    private static final int CHUNK = 512 * 1024;
    /** Bytes in flight before the writer waits: enough that the writer and the event loop rarely hand over. */
    private static final int QUEUE_BYTES = 4 << 20;
    private static final long STALL_TIMEOUT_MS = 120_000;

    private final HttpServerResponse response;
    private Buffer chunk = Buffer.buffer(CHUNK);
    private volatile boolean closed;

    ResponseStream(HttpServerResponse response) {
        this.response = response;
        response.setWriteQueueMaxSize(QUEUE_BYTES);
        response.closeHandler(v -> closed = true);
    }

    @Override
    public void write(int b) throws IOException {
        if (chunk.length() == CHUNK) {
            send();
        }
        chunk.appendByte((byte) b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        while (length > 0) {
            if (chunk.length() == CHUNK) {
                send();
            }
            int n = Math.min(length, CHUNK - chunk.length());
            chunk.appendBytes(bytes, offset, n);
            offset += n;
            length -= n;
        }
    }

    @Override
    public void close() throws IOException {
        if (chunk.length() > 0) {
            send();
        }
        response.end();
    }

    private void send() throws IOException {
        if (closed) {
            throw new IOException("The client went away");
        }
        response.write(chunk);
        chunk = Buffer.buffer(CHUNK); // the written one now belongs to the response
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
