package tankard.backend;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import tankard.http.Reply;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/** Plumbing shared by the routes that call a backend and answer once it has: worker hops, ST's error answers. */
final class Proxying {
    private Proxying() {
    }

    /** Runs blocking or heavy work (secrets from disk, JSON of any size) off the event loop. */
    /**
     * Makes the call from an event loop (the caller's, or any when called from another thread): a response's
     * handlers are then set in the turn its head arrives in, where a call made from a worker or a thread of its
     * own could set them after the body went by, and wait for ever.
     */
    static <T> Future<T> onEventLoop(Vertx vertx, Supplier<Future<T>> call) {
        if (Context.isOnEventLoopThread()) {
            return call.get();
        }
        Promise<T> result = Promise.promise();
        vertx.runOnContext(v -> call.get().onComplete(result));
        return result.future();
    }

    static <T> Future<T> worker(RoutingContext ctx, Callable<T> work) {
        return ctx.vertx().executeBlocking(work, false);
    }

    /** A failure that is answered with a reply of its own (ST's {@code sendStatus(400)} and the like). */
    static final class Answered extends RuntimeException {
        private final transient Reply reply;

        Answered(Reply reply) {
            super(null, null, false, false);
            this.reply = reply;
        }
    }

    /** Answers a failed call: its own reply if it has one, else the route's fallback; nothing once too late. */
    static void fail(HttpServerResponse response, Throwable failure, Reply fallback) {
        if (response.closed() || response.ended()) {
            return;
        }
        if (response.headWritten()) {
            response.end();
            return;
        }
        (failure instanceof Answered answered ? answered.reply : fallback).writeTo(response);
    }

    /** ST's trimV1: one trailing slash, then one trailing {@code /v1}, removed. */
    static String trimV1(String url) {
        return trimTrailingSlash(url).replaceFirst("/v1$", "");
    }

    static String trimTrailingSlash(String url) {
        return url.replaceFirst("/$", "");
    }

    /** JavaScript's encodeURIComponent. */
    static String encodeUriComponent(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20").replace("%21", "!")
                .replace("%27", "'").replace("%28", "(").replace("%29", ")").replace("%7E", "~");
    }
}
