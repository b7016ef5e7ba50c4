package tankard.http;

import io.netty.buffer.Unpooled;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.internal.buffer.BufferInternal;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An HTTP response body as a blocking stream for a stream thread ({@link StreamThreads}): bytes go out in chunks,
 * and the writer waits while too many of its bytes are not yet taken by the socket, so a slow client holds back
 * the producer instead of piling the body up in memory. The streams under way share one budget of bytes in
 * flight: one stream alone gets a deep queue (a chat of 25 MB goes out fast), a hundred at once get shallow ones,
 * so that many clients reading large lists do not fill the heap. The chunks start small and double, so a small
 * body takes little memory, and their arrays are used again once sent ({@link Chunks}). {@link #close()} ends the
 * response.
 * <p>
 * Bytes in flight are counted here, from each write's completion, rather than read from
 * {@code writeQueueFull()}: written from a thread other than the event loop, Vert.x queues up to 16 writes
 * before it reports the queue full, whatever their size (VertxConnection's message queue), and 64 streams of
 * 512 KB chunks then held hundreds of MB.
 */
final class ResponseStream extends OutputStream {
    /** Large, so that a big body costs few hand-overs between the worker and the event loop (each costs a
     * thread wake-up, which on a busy machine is most of the time a chat of 25 MB takes). */
    private static final int CHUNK = Chunks.LARGEST;
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
    private byte[] chunk;
    private int filled;
    /** Bytes written and not yet taken by the socket; guarded by {@code this}. */
    private long inFlight;
    private volatile boolean closed;
    private boolean counted = true;

    ResponseStream(HttpServerResponse response) {
        this.response = response;
        UNDER_WAY.incrementAndGet();
        chunk = Chunks.take(Chunks.SMALLEST);
        response.closeHandler(v -> {
            closed = true;
            synchronized (this) {
                notifyAll();
            }
        });
    }

    @Override
    public void write(int b) throws IOException {
        if (filled == chunk.length) {
            send();
        }
        chunk[filled++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        while (length > 0) {
            if (filled == chunk.length) {
                send();
            }
            int n = Math.min(length, chunk.length - filled);
            System.arraycopy(bytes, offset, chunk, filled, n);
            filled += n;
            offset += n;
            length -= n;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            byte[] last = chunk;
            response.end(wrap(last, filled)).onComplete(sent -> Chunks.give(last));
        } finally {
            if (counted) {
                counted = false;
                UNDER_WAY.decrementAndGet();
            }
        }
    }

    private void send() throws IOException {
        // This stream's share of the budget, as of now: streams that started together share it from the first send.
        int queue = Math.max(MIN_QUEUE_BYTES, Math.min(MAX_QUEUE_BYTES, BUDGET_BYTES / UNDER_WAY.get()));
        awaitRoom(queue - filled);
        byte[] sent = chunk;
        int length = filled;
        synchronized (this) {
            inFlight += length;
        }
        response.write(wrap(sent, length)).onComplete(done -> {
            Chunks.give(sent); // copied out to the socket by now
            synchronized (this) {
                inFlight -= length;
                notifyAll();
            }
        });
        chunk = Chunks.take(Math.min(2 * sent.length, Math.min(CHUNK, Integer.highestOneBit(queue / 2))));
        filled = 0;
    }

    /** Waits until at most {@code room} bytes are in flight, or fails when the client is gone or stalled. */
    private synchronized void awaitRoom(long room) throws IOException {
        long deadline = System.nanoTime() + STALL_TIMEOUT_MS * 1_000_000;
        while (!closed && inFlight > room) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                throw new IOException("The client stopped reading");
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while streaming", e);
            }
        }
        if (closed) {
            throw new IOException("The client went away");
        }
    }

    /** The array as a buffer, not copied: the event loop copies it into the socket's direct memory. */
    private static BufferInternal wrap(byte[] bytes, int length) {
        return BufferInternal.buffer(Unpooled.wrappedBuffer(bytes, 0, length));
    }
}
