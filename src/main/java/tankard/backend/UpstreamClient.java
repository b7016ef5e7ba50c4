package tankard.backend;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.RoutingContext;
import tankard.http.Reply;

import java.util.function.Function;

/**
 * Outgoing calls to AI backends, and the byte-for-byte relay of their streams to the browser (st-backends.md
 * §0.4–0.6): no timeout (generations can run for minutes), keep-alive only with ST's {@code enableKeepAlive}, the
 * upstream request cancelled when the browser goes away, and the upstream paused while the browser's write queue
 * is full.
 * Every request and redirect goes where the {@link OutboundPolicy} lets it (ST's proxy and private-address filter).
 */
public final class UpstreamClient {
    /** Concurrent connections per backend host: each running generation holds one. */
    private static final int CONNECTIONS_PER_HOST = 256;

    private final Vertx vertx;
    private final OutboundPolicy policy;
    private final HttpClient client;
    private final ProviderOrigins providerOrigins;

    public UpstreamClient(Vertx vertx, OutboundPolicy policy, ProviderOrigins providerOrigins) {
        this.vertx = vertx;
        this.policy = policy;
        this.providerOrigins = providerOrigins;
        this.client = vertx.httpClientBuilder()
                // an idle kept-alive connection is closed after Node's 5 s, before a backend would close it under us
                .with(new HttpClientOptions().setIdleTimeout(0).setKeepAlive(policy.keepAlive()).setKeepAliveTimeout(5))
                .with(new PoolOptions().setHttp1MaxSize(CONNECTIONS_PER_HOST))
                .build();
    }

    /**
     * Sends the call and yields the upstream response once its head has arrived, its body not yet read. If the
     * browser disconnects meanwhile or later, the upstream request is reset, which cancels the generation.
     */
    Future<HttpClientResponse> send(UpstreamRequest call, HttpServerResponse browser) {
        return send(call, browser, () -> { });
    }

    /** As {@link #send(UpstreamRequest, HttpServerResponse)}, also running {@code onBrowserGone} if the browser
     * disconnects before its answer has ended (KoboldCpp's abort call). */
    Future<HttpClientResponse> send(UpstreamRequest call, HttpServerResponse browser, Runnable onBrowserGone) {
        return call.ready().compose(ready -> exchange(ready, browser, onBrowserGone, 0));
    }

    /** Sends a call no browser waits for (KoboldCpp's abort); its answer is read and dropped. */
    void fire(UpstreamRequest call) {
        send(call, null, null).compose(HttpClientResponse::body);
    }

    /** The call and the redirects it leads to ({@link Redirects}), each tied to the browser (when one waits). */
    private Future<HttpClientResponse> exchange(UpstreamRequest call, HttpServerResponse browser,
                                                Runnable onBrowserGone, int redirects) {
        return open(call).compose(request -> {
            if (browser != null) {
                if (browser.closed()) {
                    request.reset();
                    return Future.failedFuture(new UpstreamException("Request was aborted by the client."));
                }
                browser.closeHandler(v -> {
                    request.reset();
                    if (!browser.ended()) {
                        onBrowserGone.run();
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
                return exchange(next, browser, onBrowserGone, redirects + 1);
            });
        });
    }

    private Future<HttpClientRequest> open(UpstreamRequest call) {
        RequestOptions options;
        try {
            options = new RequestOptions().setMethod(call.method()).setAbsoluteURI(providerOrigins.rebase(call.url()))
                    .setHeaders(call.headers());
        } catch (RuntimeException e) {
            return Future.failedFuture(new UpstreamException("Invalid URL: " + call.url()));
        }
        return policy.prepare(vertx, options).compose(client::request);
    }

    private static Future<HttpClientResponse> write(HttpClientRequest request, UpstreamRequest call) {
        return call.body() == null ? request.send() : request.send(call.body());
    }

    /** Sends a call no browser waits for and reads its whole answer (Vertex AI's token, Tankard's own calls). */
    Future<Fetched> fetch(UpstreamRequest call) {
        return fetch(call, null);
    }

    /** Sends the call and reads the whole answer (small bodies: model lists, props, non-streamed completions). */
    Future<Fetched> fetch(UpstreamRequest call, HttpServerResponse browser) {
        return Proxying.onEventLoop(vertx, () ->
                send(call, browser).compose(from -> from.body().map(body -> new Fetched(from, body))));
    }

    /**
     * One generation as ST's Kobold and NovelAI routes make it: a stream relayed as it arrives (§0.5), a whole
     * answer turned into the route's reply on a worker; a call that fails is answered with {@code fallback}.
     */
    void generate(RoutingContext ctx, UpstreamRequest call, boolean stream, Runnable onBrowserGone,
                  Function<Fetched, Reply> answer, Reply fallback) {
        HttpServerResponse response = ctx.response();
        send(call, response, onBrowserGone).compose(from -> {
            if (stream) {
                relay(from, response);
                return Future.succeededFuture();
            }
            return from.body().compose(body -> Proxying.worker(ctx, () -> answer.apply(new Fetched(from, body))))
                    .onSuccess(reply -> reply.writeTo(response)).<Void>mapEmpty();
        }).onFailure(e -> Proxying.fail(response, e, fallback));
    }

    /** A complete upstream answer. */
    record Fetched(HttpClientResponse head, Buffer body) {
        boolean ok() {
            return isOk(head);
        }
    }

    /**
     * ST's forwardFetchResponse: the upstream status (401 sent as 400 so the browser keeps its Basic-auth
     * credentials) and reason; an error body relayed whole; a success body relayed chunk by chunk as it
     * arrives, untouched. A stream cut upstream cuts the browser's stream too, so the frontend sees the failure.
     */
    static void relay(HttpClientResponse from, HttpServerResponse to) {
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
    static void pipe(HttpClientResponse from, HttpServerResponse to, StreamConverter converter) {
        // never compressed: the compressor holds small writes back until its buffer fills, so the browser would
        // see nothing of a reply until it was long under way (ST's compression skips these untyped bodies too)
        to.setChunked(true).putHeader(HttpHeaders.CONTENT_ENCODING, HttpHeaders.IDENTITY);
        new StreamRelay(from, to, converter, Vertx.currentContext()).start();
    }

    static boolean isOk(HttpClientResponse response) {
        return response.statusCode() >= 200 && response.statusCode() < 300;
    }

    /** A backend that could not be reached or called; its message is shown to the user. */
    static final class UpstreamException extends RuntimeException {
        UpstreamException(String message) {
            super(message, null, false, false);
        }
    }
}
