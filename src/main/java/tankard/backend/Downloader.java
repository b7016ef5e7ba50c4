package tankard.backend;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;

import java.nio.file.Path;

/**
 * Downloads of files from URLs users give or from content sites (assets, character cards, lorebooks): every
 * request and redirect through the {@link OutboundPolicy}, the built-in sites' origins rebased by
 * {@link ProviderOrigins}, and a size limit checked against Content-Length and again while the body arrives,
 * so an oversized download is cut off instead of filling memory or the disk.
 */
public final class Downloader {
    private final Vertx vertx;
    private final OutboundPolicy policy;
    private final ProviderOrigins origins;
    private final HttpClient client;

    public Downloader(Vertx vertx, OutboundPolicy policy, ProviderOrigins origins) {
        this.vertx = vertx;
        this.policy = policy;
        this.origins = origins;
        this.client = vertx.httpClientBuilder()
                .with(new HttpClientOptions().setConnectTimeout(30_000).setIdleTimeout(120))
                .withRedirectHandler(policy.redirectHandler(vertx))
                .build();
    }

    /** A whole answer, whatever its status. */
    public record Fetched(int status, String contentType, Buffer body) {
        public boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    /** A download that could not be made: refused, unreachable (offline), too large, or an error status. */
    public static final class DownloadException extends RuntimeException {
        private final int status;

        public DownloadException(String message) {
            this(message, 0);
        }

        private DownloadException(String message, int status) {
            super(message, null, false, false);
            this.status = status;
        }

        /** The error status the server answered, 0 when the download failed otherwise. */
        public int status() {
            return status;
        }
    }

    /** Told how far a download into a file has come; {@code total} is -1 when the answer does not say. */
    @FunctionalInterface
    public interface Progress {
        void update(long done, long total);
    }

    /** GET, the whole body in memory (at most {@code maxBytes}). */
    public Future<Fetched> get(String url, MultiMap headers, long maxBytes) {
        return fetch(HttpMethod.GET, url, headers, null, maxBytes);
    }

    /** Sends the request and reads the whole answer (at most {@code maxBytes}), whatever its status. */
    public Future<Fetched> fetch(HttpMethod method, String url, MultiMap headers, Buffer body, long maxBytes) {
        return Proxying.onEventLoop(vertx, () -> send(method, url, headers, body, maxBytes).compose(response -> {
            Promise<Fetched> done = Promise.promise();
            Buffer received = Buffer.buffer();
            response.handler(chunk -> {
                if (received.length() + chunk.length() > maxBytes) {
                    tooLarge(response, url, maxBytes, done);
                } else {
                    received.appendBuffer(chunk);
                }
            });
            response.exceptionHandler(e -> done.tryFail(unreachable(url, e)));
            response.endHandler(v -> done.tryComplete(new Fetched(response.statusCode(),
                    response.getHeader(HttpHeaders.CONTENT_TYPE), received)));
            response.resume();
            return done.future();
        }));
    }

    /**
     * GET into a new file (at most {@code maxBytes}), streamed; fails on an error status. The caller removes the
     * file when this fails; on success the file is on disk (flushed), ready to be renamed into place.
     */
    public Future<Void> toFile(String url, Path file, long maxBytes) {
        return toFile(url, file, maxBytes, (done, total) -> { });
    }

    /**
     * {@link #toFile(String, Path, long)}, telling {@code progress} as the body arrives. The file is opened before
     * the request goes: a paused answer still reports its connection closing, and nothing may lie between its
     * head and the handlers that would hear it.
     */
    public Future<Void> toFile(String url, Path file, long maxBytes, Progress progress) {
        MultiMap noHeaders = MultiMap.caseInsensitiveMultiMap();
        return Proxying.onEventLoop(vertx, () -> vertx.fileSystem()
                .open(file.toString(), new OpenOptions().setCreateNew(true).setWrite(true))
                .compose(out -> send(HttpMethod.GET, url, noHeaders, null, maxBytes).compose(response -> {
                    if (response.statusCode() < 200 || response.statusCode() >= 300) {
                        response.resume();
                        return Future.failedFuture(new DownloadException("Unexpected response " + response.statusCode()
                                + " " + response.statusMessage() + " from " + url, response.statusCode()));
                    }
                    return copy(response, out, url, maxBytes, progress).compose(v -> out.flush()); // on disk before it is moved
                }).eventually(() -> out.close())));
    }

    private Future<Void> copy(HttpClientResponse response, AsyncFile out, String url, long maxBytes,
                              Progress progress) {
        Promise<Void> done = Promise.promise();
        long total = declaredLength(response);
        long[] count = {0};
        progress.update(0, total);
        response.handler(chunk -> {
            count[0] += chunk.length();
            if (count[0] > maxBytes) {
                tooLarge(response, url, maxBytes, done);
                return;
            }
            out.write(chunk);
            progress.update(count[0], total);
            if (out.writeQueueFull()) {
                response.pause();
                out.drainHandler(v -> response.resume());
            }
        });
        out.exceptionHandler(done::tryFail);
        response.exceptionHandler(e -> done.tryFail(unreachable(url, e)));
        response.endHandler(v -> {
            if (total >= 0 && count[0] != total) {
                done.tryFail(new DownloadException("The download from " + url + " ended after " + count[0] + " of "
                        + total + " bytes"));
            } else {
                done.tryComplete();
            }
        });
        response.resume();
        return done.future();
    }

    /** The Content-Length, -1 when absent or not a number. */
    private static long declaredLength(HttpClientResponse response) {
        String length = response.getHeader(HttpHeaders.CONTENT_LENGTH);
        return length != null && length.matches("\\d{1,18}") ? Long.parseLong(length) : -1;
    }

    /** The response head, once the request has gone where the policy lets it; a declared oversize fails here. */
    private Future<HttpClientResponse> send(HttpMethod method, String url, MultiMap headers, Buffer body, long maxBytes) {
        RequestOptions options;
        try {
            options = new RequestOptions().setMethod(method).setAbsoluteURI(origins.rebase(url))
                    .setHeaders(headers).setFollowRedirects(true);
        } catch (RuntimeException e) {
            return Future.failedFuture(new DownloadException("Invalid URL: " + url));
        }
        return policy.prepare(vertx, options)
                .recover(e -> Future.failedFuture(new DownloadException(e.getMessage())))
                .compose(prepared -> client.request(prepared)
                        .compose(request -> body == null ? request.send() : request.send(body))
                        // held until the caller's handlers are in place: the body may arrive before they are
                        .onSuccess(HttpClientResponse::pause)
                        .recover(e -> Future.failedFuture(unreachable(url, e))))
                .compose(response -> {
                    if (declaredLength(response) > maxBytes) {
                        response.request().reset();
                        return Future.failedFuture(oversized(url, maxBytes));
                    }
                    return Future.succeededFuture(response);
                });
    }

    private static <T> void tooLarge(HttpClientResponse response, String url, long maxBytes, Promise<T> done) {
        response.handler(null);
        done.tryFail(oversized(url, maxBytes)); // first: the reset fails the response too
        response.request().reset();
    }

    private static DownloadException oversized(String url, long maxBytes) {
        return new DownloadException("The download from " + url + " is larger than the limit of " + maxBytes + " bytes");
    }

    private static DownloadException unreachable(String url, Throwable cause) {
        return cause instanceof DownloadException e ? e
                : new DownloadException("Could not download " + url + " (are you offline?): " + cause.getMessage());
    }
}
