package tankard.http;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.LoggerFactory;
import tankard.core.Refusal;
import tankard.http.files.FileSender;
import tankard.http.files.FileSender.Outcome;
import tankard.http.files.SendPlan;
import tankard.store.BlobStore;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.util.Optional;

/**
 * Sends a blob of a user's {@link BlobStore} as {@link FileSender} sends a file ({@link SendPlan}: ETag, 304/412,
 * ranges, HEAD), on a stream thread ({@link StreamThreads}): the store is read as the client takes the bytes, so a
 * slow client holds a stream thread, never a shared worker, and the blob is never held whole.
 */
public final class BlobSender {
    /** Answers to send again when the blob is replaced between deciding the answer and reading its bytes. */
    private static final int ATTEMPTS = 3;

    private BlobSender() {
    }

    /**
     * Sends the blob at {@code path}; {@link Outcome#MISSING} (nothing written) when there is none. A failure of
     * the store before the first byte fails the future (a 503 when the database is away).
     */
    public static Future<Outcome> send(RoutingContext ctx, BlobStore blobs, String user, String path,
                                       boolean firefoxRule) {
        try {
            return StreamThreads.run(ctx.vertx().getOrCreateContext(),
                    () -> sendBlocking(ctx.request(), ctx.response(), blobs, user, path, firefoxRule));
        } catch (Refusal busy) {
            return Future.failedFuture(busy);
        }
    }

    private static Outcome sendBlocking(HttpServerRequest request, HttpServerResponse response, BlobStore blobs,
                                        String user, String path, boolean firefoxRule) throws IOException {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            // Most requests are for the whole blob: open it from the start and decide on the entry it comes with.
            Optional<BlobStore.Opened> opened;
            try {
                opened = blobs.open(user, path, 0);
            } catch (UncheckedIOException refused) {
                if (refused.getCause() instanceof FileSystemException name
                        && "File name too long".equals(name.getReason())) {
                    return Outcome.MISSING; // names no file, which Express's send answers 404
                }
                throw refused;
            }
            if (opened.isEmpty()) {
                return Outcome.MISSING;
            }
            BlobStore.Entry entry = opened.get().entry();
            SendPlan plan = SendPlan.of(request, entry.name(), entry.size(), (long) entry.modifiedMs(), firefoxRule);
            if (plan.offset() > 0) {
                opened.get().close();
                opened = blobs.open(user, path, plan.offset());
                if (opened.isEmpty()) {
                    return Outcome.MISSING;
                }
            }
            try (BlobStore.Opened blob = opened.get()) {
                if (!blob.entry().equals(entry)) {
                    continue;
                }
                if (!plan.answerWithoutBytes(response)) {
                    plan.writeHead(response);
                    stream(blob.content(), plan.length(), response);
                }
                return Outcome.SENT;
            }
        }
        throw Refusal.conflict("The file changed while it was being sent; try again");
    }

    /** Writes the bytes; once the head is out a failure can only cut the connection. */
    private static void stream(InputStream content, long length, HttpServerResponse response) {
        try (ResponseStream out = new ResponseStream(response)) {
            copy(content, out, length);
        } catch (IOException e) {
            LoggerFactory.getLogger(BlobSender.class).warn("Sending a file failed: {}", e.toString());
            response.reset();
        }
    }

    private static void copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        for (long left = length; left > 0; ) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            if (n < 0) {
                throw new IOException("The file ended " + left + " bytes early");
            }
            out.write(buffer, 0, n);
            left -= n;
        }
    }
}
