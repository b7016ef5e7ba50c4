package tankard.http;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.WorkerExecutor;
import io.vertx.ext.web.RoutingContext;
import tankard.config.TankardConfig;
import tankard.core.Refusal;

import java.io.InputStream;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Adapters from plain request → reply functions to Vert.x handlers, bound once to the configuration that every
 * {@link Request} reads. Routes stay thin; logic lives in services.
 */
public final class Routes {
    private final TankardConfig config;

    public Routes(TankardConfig config) {
        this.config = config;
    }

    @FunctionalInterface
    public interface Action {
        Reply handle(Request request) throws Exception;
    }

    /** Runs the action on a worker thread (disk, PNG, models) and writes its reply; failures go to the error handler. */
    public Handler<RoutingContext> blocking(Action action) {
        return ctx -> {
            Request request = new Request(ctx, config);
            answer(ctx, ctx.vertx().executeBlocking(() -> action.handle(request), false));
        };
    }

    /**
     * Like {@link #blocking(Action)}, on {@code threads} rather than the shared workers: for work that waits on a
     * remote server (a git remote), so that a slow one takes none of the workers every other route needs.
     */
    public Handler<RoutingContext> blocking(WorkerExecutor threads, Action action) {
        return ctx -> {
            Request request = new Request(ctx, config);
            answer(ctx, threads.executeBlocking(() -> action.handle(request), false));
        };
    }

    /** Writes the reply unless the response is already over; failures go to the error handler. */
    private static void answer(RoutingContext ctx, Future<Reply> reply) {
        reply.onSuccess(done -> {
            if (!ctx.response().ended()) {
                done.writeTo(ctx.response());
            }
        }).onFailure(ctx::fail);
    }

    /** An action whose reply comes later, from work it has handed on. */
    @FunctionalInterface
    public interface LaterAction {
        CompletionStage<Reply> handle(Request request) throws Exception;
    }

    /**
     * Starts the action on a worker and writes its reply when it comes: waiting for a model or an upstream to answer
     * holds no thread.
     */
    public Handler<RoutingContext> later(LaterAction action) {
        return ctx -> {
            Request request = new Request(ctx, config);
            Context context = ctx.vertx().getOrCreateContext();
            answer(ctx, ctx.vertx().executeBlocking(() -> action.handle(request), false)
                    .compose(reply -> Future.fromCompletionStage(reply, context))
                    .recover(failure -> Future.failedFuture(failure instanceof CompletionException wrapped
                            && wrapped.getCause() != null ? wrapped.getCause() : failure)));
        };
    }

    /** An action that reads a large JSON body as a stream. */
    @FunctionalInterface
    public interface StreamedAction {
        /** {@code json}: the body, or null when it is not {@code application/json} (Express reads it as {}). */
        Reply handle(Request request, InputStream json) throws Exception;
    }

    /**
     * Like {@link #blocking}, for a route whose body is not buffered (its path is one of a feature's
     * {@link Feature#streamedBodyPaths()}): the action reads it as it arrives, with backpressure, on one of the
     * {@link StreamThreads}, so a slow client holds none of the workers that {@link #blocking} routes need. When
     * every stream thread is busy, the request is refused with 503 and its body let go by unread.
     */
    public Handler<RoutingContext> streamed(StreamedAction action) {
        return ctx -> {
            Request request = new Request(ctx, config);
            if ("100-continue".equalsIgnoreCase(ctx.request().getHeader("Expect"))) {
                ctx.response().writeContinue(); // what the BodyHandler does for buffered routes; curl waits for it
            }
            Context context = ctx.vertx().getOrCreateContext();
            RequestBodyStream body = new RequestBodyStream(ctx.request(), context, Request.BODY_LIMIT);
            boolean json = Request.isJson(ctx.request().getHeader("Content-Type"));
            try {
                answer(ctx, StreamThreads.run(context, () -> {
                    try {
                        return action.handle(request, json ? body : null);
                    } finally {
                        body.discardRest();
                    }
                }));
            } catch (Refusal busy) {
                body.discardRest();
                ctx.fail(busy);
            }
        };
    }

    /** Runs a quick action that does no I/O on the event loop. */
    public Handler<RoutingContext> inline(Action action) {
        return ctx -> {
            try {
                action.handle(new Request(ctx, config)).writeTo(ctx.response());
            } catch (Exception e) {
                ctx.fail(e);
            }
        };
    }

    @FunctionalInterface
    public interface Handling {
        void handle(Request request) throws Exception;
    }

    /** Hands the request to a handler that answers by itself, later (proxies relaying a backend's answer). */
    public Handler<RoutingContext> answering(Handling handling) {
        return ctx -> {
            try {
                handling.handle(new Request(ctx, config));
            } catch (Exception e) {
                ctx.fail(e);
            }
        };
    }
}
