package tankard.http;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.ExecutionException;

/**
 * A blocking stream into a chunked HTTP response, for worker threads that produce a large body (archives):
 * data goes out in 64 KB chunks and each write waits until its chunk is handed to the socket, so memory
 * stays bounded however large the body is. A client that goes away surfaces as an {@link IOException}.
 */
public final class ResponseOutputStream extends OutputStream {
    private static final int CHUNK = 64 * 1024;

    private final HttpServerResponse response;
    private final byte[] buffer = new byte[CHUNK];
    private int used;
    private boolean closed;

    public ResponseOutputStream(HttpServerResponse response) {
        this.response = response;
        response.setChunked(true);
    }

    @Override
    public void write(int b) throws IOException {
        if (used == CHUNK) {
            flush();
        }
        buffer[used++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (used == CHUNK) {
                flush();
            }
            int n = Math.min(len, CHUNK - used);
            System.arraycopy(b, off, buffer, used, n);
            used += n;
            off += n;
            len -= n;
        }
    }

    @Override
    public void flush() throws IOException {
        if (used > 0) {
            Buffer chunk = Buffer.buffer(used).appendBytes(buffer, 0, used);
            used = 0;
            await(response.write(chunk));
        }
    }

    /** Sends what is left and ends the response. */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            flush();
            await(response.end());
        }
    }

    private static void await(Future<Void> future) throws IOException {
        try {
            future.toCompletionStage().toCompletableFuture().get();
        } catch (ExecutionException e) {
            throw new IOException("The client stopped reading: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while streaming the response", e);
        }
    }
}
