package tankard.backend.common;

import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamClient.Fetched;
import tankard.outbound.UpstreamRequest;

import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Plumbing shared by the routes that call a backend and answer once it has: worker hops, answers that may come
 * too late, and generations. An answer is what writes it to the browser's response (a route's {@code Reply::writeTo}).
 */
public final class Proxying {
    private Proxying() {
    }

    /** Runs blocking or heavy work (secrets from disk, JSON of any size) off the event loop. */
    public static <T> Future<T> worker(RoutingContext ctx, Callable<T> work) {
        return ctx.vertx().executeBlocking(work, false);
    }

    /**
     * Writes an answer that comes after calls out, unless it comes too late: nothing once the browser has gone or
     * been answered, and the response just ended once its head has gone out.
     */
    public static void answer(HttpServerResponse response, Consumer<HttpServerResponse> answer) {
        if (response.closed() || response.ended()) {
            return;
        }
        if (response.headWritten()) {
            response.end();
            return;
        }
        answer.accept(response);
    }

    /**
     * One generation as ST's routes make it, tied to the browser: a stream relayed as it arrives, a whole answer
     * turned into the route's answer on a worker; a call that fails is answered with {@code failed}.
     */
    public static void generate(UpstreamClient upstream, RoutingContext ctx, UpstreamRequest call, boolean stream,
                                Runnable onBrowserGone, Function<Fetched, Consumer<HttpServerResponse>> whole,
                                Function<Throwable, Consumer<HttpServerResponse>> failed) {
        HttpServerResponse response = ctx.response();
        upstream.send(call, response, onBrowserGone).compose(from -> {
            if (stream) {
                UpstreamClient.relay(from, response);
                return Future.<Void>succeededFuture();
            }
            return from.body().compose(body -> worker(ctx, () -> whole.apply(new Fetched(from, body))))
                    .onSuccess(answer -> answer.accept(response)).<Void>mapEmpty();
        }).onFailure(e -> answer(response, failed.apply(e)));
    }
}
