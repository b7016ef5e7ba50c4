package tankard.outbound;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import tankard.core.Refusal;

import java.nio.file.Path;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Every call Tankard makes out, to AI backends as to content sites and model hubs, and the relay of backends'
 * streams to the browser. One way to send: every request and every redirect it leads to (node-fetch's rules,
 * {@link Redirects}) goes where the {@link OutboundPolicy} lets it (ST's request proxy and private-address filter),
 * the built-in providers' origins rebased by {@link ProviderOrigins}.
 * <ul>
 *   <li>Calls to backends carry no timeout (generations can run for minutes), keep their connection alive only
 *   with ST's {@code enableKeepAlive}, are cancelled when the browser they answer goes away, and pause while the
 *   browser's write queue is full.</li>
 *   <li>Downloads have connect and idle timeouts and a size limit, checked against Content-Length and again while
 *   the body arrives, so an oversized download is cut off instead of filling memory or the disk.</li>
 * </ul>
 */
public final class UpstreamClient {
    /** Concurrent connections per host: each running generation holds one. */
    private static final int CONNECTIONS_PER_HOST = 256;
    private static final long DOWNLOAD_CONNECT_TIMEOUT_MS = 30_000;
    /** How long a download's body may stall before it fails. */
    private static final long DOWNLOAD_IDLE_TIMEOUT_MS = 120_000;

    private final Vertx vertx;
    private final OutboundPolicy policy;
    private final HttpClient client;
    private final HttpClient downloadClient;
    private final ProviderOrigins providerOrigins;

    public UpstreamClient(Vertx vertx, OutboundPolicy policy, ProviderOrigins providerOrigins) {
        this.vertx = vertx;
        this.policy = policy;
        this.providerOrigins = providerOrigins;
        this.client = httpClient(vertx, policy.keepAlive());
        // Downloads always keep the connection alive, as ST's model downloads do (transformers.js fetches with
        // undici, not the enableKeepAlive agent). A download is paused while the disk catches up, and Vert.x drops
        // the body still queued behind a pause when the server closes the connection after its answer
        // (VertxConnection.handleClosed does not drain its pending messages): without Connection: close the
        // server does not close it.
        this.downloadClient = httpClient(vertx, true);
    }

    private static HttpClient httpClient(Vertx vertx, boolean keepAlive) {
        return vertx.httpClientBuilder()
                // an idle kept-alive connection is closed after Node's 5 s, before a backend would close it under us
                .with(new HttpClientOptions().setIdleTimeout(0).setKeepAlive(keepAlive).setKeepAliveTimeout(5))
                .with(new PoolOptions().setHttp1MaxSize(CONNECTIONS_PER_HOST))
                .build();
    }

    /** A complete answer, whatever its status. */
    public record Fetched(HttpClientResponse head, Buffer body) {
        public boolean ok() {
            return isOk(head);
        }

        public int status() {
            return head.statusCode();
        }

        public String contentType() {
            return head.getHeader(HttpHeaders.CONTENT_TYPE);
        }
    }

    /** A backend that could not be reached or called; its message is shown to the user. */
    public static final class UpstreamException extends RuntimeException {
        private final boolean invalidUrl;

        UpstreamException(String message) {
            this(message, false);
        }

        private UpstreamException(String message, boolean invalidUrl) {
            super(message, null, false, false);
            this.invalidUrl = invalidUrl;
        }

        /** Whether the URL itself is malformed: the caller's input is at fault, not the backend. */
        public boolean invalidUrl() {
            return invalidUrl;
        }
    }

    /** A download that could not be made: refused, unreachable (offline), too large, or an error status. */
    public static final class DownloadException extends RuntimeException {
        private final int status;
        private final boolean refused;
        private final boolean connectionLost;

        public DownloadException(String message) {
            this(message, 0, false, false);
        }

        private DownloadException(String message, int status, boolean refused, boolean connectionLost) {
            super(message, null, false, false);
            this.status = status;
            this.refused = refused;
            this.connectionLost = connectionLost;
        }

        /**
         * The refusal a route answers for a failed download: 400 for a URL the policy refused, 502 for a server
         * that could not be reached or broke off, otherwise 500 with the reason; {@code context} heads the message.
         */
        public static Refusal refusal(Throwable failure, String context) {
            if (failure instanceof Refusal refusal) {
                return refusal;
            }
            String message = context + failure.getMessage();
            if (failure instanceof DownloadException e && e.refused()) {
                return Refusal.badRequest(message);
            }
            return failure instanceof DownloadException e && e.connectionLost() ? Refusal.upstream(message)
                    : Refusal.failed(message);
        }

        /** The error status the server answered, 0 when the download failed otherwise. */
        public int status() {
            return status;
        }

        /** Whether the {@link OutboundPolicy} refused the URL (or a redirect's target) rather than the download failing. */
        public boolean refused() {
            return refused;
        }

        /**
         * Whether the connection failed or closed before the whole answer came (offline, reset, a pooled connection
         * closing as it was handed out), so that trying again may work.
         */
        public boolean connectionLost() {
            return connectionLost;
        }
    }

    /** Told how far a download into a file has come; {@code total} is -1 when the answer does not say. */
    @FunctionalInterface
    public interface Progress {
        void update(long done, long total);
    }

    /**
     * The terms of one call: the browser it answers (null: none) and what runs when that browser leaves early, and
     * whether it is a download, held to the download timeouts.
     */
    private record Terms(HttpServerResponse browser, Runnable onBrowserGone, boolean download) {
        static final Terms NONE = new Terms(null, () -> { }, false);
        static final Terms DOWNLOAD = new Terms(null, () -> { }, true);
    }

    // ---- calls to backends

    /**
     * Sends the call and yields the upstream response once its head has arrived, its body not yet read. If the
     * browser disconnects meanwhile or later, the upstream request is reset, which cancels the generation.
     */
    public Future<HttpClientResponse> send(UpstreamRequest call, HttpServerResponse browser) {
        return send(call, browser, () -> { });
    }

    /** As {@link #send(UpstreamRequest, HttpServerResponse)}, also running {@code onBrowserGone} if the browser
     * disconnects before its answer has ended (KoboldCpp's abort call). */
    public Future<HttpClientResponse> send(UpstreamRequest call, HttpServerResponse browser, Runnable onBrowserGone) {
        return exchange(call, new Terms(browser, onBrowserGone, false), 0);
    }

    /** Sends a call no browser waits for (KoboldCpp's abort); its answer is read and dropped. */
    public void fire(UpstreamRequest call) {
        exchange(call, Terms.NONE, 0).compose(HttpClientResponse::body);
    }

    /** Sends a call no browser waits for and reads its whole answer (Vertex AI's token, Tankard's own calls). */
    public Future<Fetched> fetch(UpstreamRequest call) {
        return fetch(call, null);
    }

    /** Sends the call and reads the whole answer (small bodies: model lists, props, non-streamed completions). */
    public Future<Fetched> fetch(UpstreamRequest call, HttpServerResponse browser) {
        return onEventLoop(() -> send(call, browser).compose(from -> from.body().map(body -> new Fetched(from, body))));
    }

    // ---- downloads

    /** A GET download, the whole body in memory (at most {@code maxBytes}). */
    public Future<Fetched> get(String url, MultiMap headers, long maxBytes) {
        return download(UpstreamRequest.get(url, headers), maxBytes);
    }

    /** Sends the call and reads the whole answer (at most {@code maxBytes}), whatever its status. */
    public Future<Fetched> download(UpstreamRequest call, long maxBytes) {
        return onEventLoop(() -> downloadHead(call, maxBytes).compose(response -> collect(response, call.url(), maxBytes)));
    }

    /**
     * Sends a call to a backend (no timeout: an image generation may take minutes) and reads the whole answer,
     * whatever its status, failing with a {@link DownloadException} past {@code maxBytes}.
     */
    public Future<Fetched> fetch(UpstreamRequest call, long maxBytes) {
        return fetch(call, maxBytes, Terms.NONE);
    }

    /**
     * As {@link #fetch(UpstreamRequest, long)} for a browser that waits on it: if the browser disconnects first, the
     * call is reset and {@code onBrowserGone} runs (an image server's interrupt call).
     */
    public Future<Fetched> fetch(UpstreamRequest call, long maxBytes, HttpServerResponse browser, Runnable onBrowserGone) {
        return fetch(call, maxBytes, new Terms(browser, onBrowserGone, false));
    }

    private Future<Fetched> fetch(UpstreamRequest call, long maxBytes, Terms terms) {
        return onEventLoop(() -> exchange(call, terms, 0).compose(response -> {
            response.pause();
            if (declaredLength(response) > maxBytes) {
                response.request().reset();
                return Future.failedFuture(oversized(call.url(), maxBytes));
            }
            return collect(response, call.url(), maxBytes);
        }));
    }

    /** The paused response's whole body, at most {@code maxBytes}. */
    private static Future<Fetched> collect(HttpClientResponse response, String url, long maxBytes) {
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
        response.endHandler(v -> done.tryComplete(new Fetched(response, received)));
        response.resume();
        return done.future();
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
        UpstreamRequest call = UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap());
        return onEventLoop(() -> vertx.fileSystem()
                .open(file.toString(), new OpenOptions().setCreateNew(true).setWrite(true))
                .compose(out -> downloadHead(call, maxBytes).compose(response -> {
                    if (!isOk(response)) {
                        response.resume();
                        return Future.failedFuture(new DownloadException("Unexpected response " + response.statusCode()
                                + " " + response.statusMessage() + " from " + url, response.statusCode(), false, false));
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
                        + total + " bytes", 0, false, true));
            } else {
                done.tryComplete();
            }
        });
        response.resume();
        return done.future();
    }

    /** The download's response head, its body held for the caller's handlers; a declared oversize fails here. */
    private Future<HttpClientResponse> downloadHead(UpstreamRequest call, long maxBytes) {
        return exchange(call, Terms.DOWNLOAD, 0)
                // held until the caller's handlers are in place: the body may arrive before they are
                .onSuccess(HttpClientResponse::pause)
                .recover(e -> Future.failedFuture(e instanceof OutboundPolicy.Refused || e instanceof UpstreamException
                        ? new DownloadException(e.getMessage(), 0, e instanceof OutboundPolicy.Refused, false)
                        : unreachable(call.url(), e)))
                .compose(response -> {
                    if (declaredLength(response) > maxBytes) {
                        response.request().reset();
                        return Future.failedFuture(oversized(call.url(), maxBytes));
                    }
                    return Future.succeededFuture(response);
                });
    }

    /** The Content-Length, -1 when absent or not a number. */
    private static long declaredLength(HttpClientResponse response) {
        String length = response.getHeader(HttpHeaders.CONTENT_LENGTH);
        return length != null && length.matches("\\d{1,18}") ? Long.parseLong(length) : -1;
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
                : new DownloadException("Could not download " + url + " (are you offline?): " + cause.getMessage(), 0,
                        false, true);
    }

    // ---- the exchange every call makes

    /** The call and the redirects it leads to ({@link Redirects}), each tied to the browser (when one waits). */
    private Future<HttpClientResponse> exchange(UpstreamRequest call, Terms terms, int redirects) {
        return open(call, terms).compose(request -> {
            HttpServerResponse browser = terms.browser();
            if (browser != null) {
                if (browser.closed()) {
                    request.reset();
                    return Future.failedFuture(new UpstreamException("Request was aborted by the client."));
                }
                browser.closeHandler(v -> {
                    request.reset();
                    if (!browser.ended()) {
                        terms.onBrowserGone().run();
                    }
                });
            }
            return write(request, call).compose(response -> {
                UpstreamRequest next;
                try {
                    next = Redirects.next(call, request.absoluteURI(), response, redirects);
                } catch (UpstreamException e) {
                    request.reset();
                    return Future.failedFuture(e);
                }
                if (next == null) {
                    return Future.succeededFuture(response);
                }
                request.reset(); // the redirect's own body is not read, as node-fetch drops it
                return exchange(next, terms, redirects + 1);
            });
        });
    }

    private Future<HttpClientRequest> open(UpstreamRequest call, Terms terms) {
        RequestOptions options;
        try {
            options = new RequestOptions().setMethod(call.method()).setAbsoluteURI(providerOrigins.rebase(call.url()))
                    .setHeaders(call.headers());
        } catch (RuntimeException e) {
            return Future.failedFuture(new UpstreamException("Invalid URL: " + call.url(), true));
        }
        if (terms.download()) {
            options.setConnectTimeout(DOWNLOAD_CONNECT_TIMEOUT_MS).setIdleTimeout(DOWNLOAD_IDLE_TIMEOUT_MS);
        }
        return policy.prepare(vertx, options).compose(terms.download() ? downloadClient::request : client::request);
    }

    private static Future<HttpClientResponse> write(HttpClientRequest request, UpstreamRequest call) {
        return call.body() == null ? request.send() : request.send(call.body());
    }

    /**
     * Makes the call from an event loop (the caller's, or any when called from another thread): a response's
     * handlers are then set in the turn its head arrives in, where a call made from a worker or a thread of its
     * own could set them after the body went by, and wait for ever.
     */
    private <T> Future<T> onEventLoop(Supplier<Future<T>> call) {
        if (Context.isOnEventLoopThread()) {
            return call.get();
        }
        Promise<T> result = Promise.promise();
        vertx.runOnContext(v -> call.get().onComplete(result));
        return result.future();
    }

    // ---- relays to the browser

    /**
     * ST's forwardFetchResponse: the upstream status (401 sent as 400 so the browser keeps its Basic-auth
     * credentials) and reason; an error body relayed whole; a success body relayed chunk by chunk as it
     * arrives, untouched. A stream cut upstream cuts the browser's stream too, so the frontend sees the failure.
     */
    public static void relay(HttpClientResponse from, HttpServerResponse to) {
        int status = from.statusCode() == 401 ? 400 : from.statusCode();
        to.setStatusCode(status).setStatusMessage(from.statusMessage());
        if (!isOk(from)) {
            from.body().onComplete(body -> to.end(body.succeeded() ? body.result() : Buffer.buffer()));
            return;
        }
        pipe(from, to, StreamConverter.NONE);
    }

    /**
     * Streams the upstream body through a converter as it arrives, with the same back-pressure and failure
     * handling as {@link #relay}; the status stays 200 whatever the upstream's (ST's Ollama stream).
     */
    public static void pipe(HttpClientResponse from, HttpServerResponse to, StreamConverter converter) {
        pipe(from, to, converter, Future::succeededFuture);
    }

    /**
     * As {@link #pipe(HttpClientResponse, HttpServerResponse, StreamConverter)}, running {@code beforeEnd} once the
     * upstream has ended well and ending the browser's stream when it is done (not when the stream fails).
     */
    public static void pipe(HttpClientResponse from, HttpServerResponse to, StreamConverter converter,
                            Supplier<Future<Void>> beforeEnd) {
        pipe(from, to, converter, beforeEnd, null);
    }

    /**
     * As {@link #pipe(HttpClientResponse, HttpServerResponse, StreamConverter, Supplier)}, with {@code onCut} run
     * instead of resetting the browser's stream when the upstream fails before its end (a backend that dies
     * mid-reply, or the upstream reset because the browser left): what came so far has been written, and
     * {@code onCut} ends the browser's stream itself.
     */
    public static void pipe(HttpClientResponse from, HttpServerResponse to, StreamConverter converter,
                            Supplier<Future<Void>> beforeEnd, Function<Throwable, Future<Void>> onCut) {
        // never compressed: the compressor holds small writes back until its buffer fills, so the browser would
        // see nothing of a reply until it was long under way (ST's compression skips these untyped bodies too)
        to.setChunked(true).putHeader(HttpHeaders.CONTENT_ENCODING, HttpHeaders.IDENTITY);
        new StreamRelay(from, to, converter, beforeEnd, onCut, Vertx.currentContext()).start();
    }

    /** How many backend streams this process is relaying to browsers now. */
    public static int openStreams() {
        return StreamRelay.open();
    }

    public static boolean isOk(HttpClientResponse response) {
        return response.statusCode() >= 200 && response.statusCode() < 300;
    }
}
