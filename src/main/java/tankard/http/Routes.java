package tankard.http;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import tankard.config.TankardConfig;

import java.io.InputStream;

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
            ctx.vertx().executeBlocking(() -> action.handle(request), false)
                    .onSuccess(reply -> {
                        if (!ctx.response().ended()) {
                            reply.writeTo(ctx.response());
                        }
                    })
                    .onFailure(ctx::fail);
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
     * {@link Feature#streamedBodyPaths()}): the action reads it as it arrives, with backpressure.
     */
    public Handler<RoutingContext> streamed(StreamedAction action) {
        return ctx -> {
            Request request = new Request(ctx, config);
            if ("100-continue".equalsIgnoreCase(ctx.request().getHeader("Expect"))) {
                ctx.response().writeContinue(); // what the BodyHandler does for buffered routes; curl waits for it
            }
            RequestBodyStream body = new RequestBodyStream(ctx.request(), ctx.vertx().getOrCreateContext(), Request.BODY_LIMIT);
            boolean json = Request.isJson(ctx.request().getHeader("Content-Type"));
            ctx.vertx().executeBlocking(() -> {
                        try {
                            return action.handle(request, json ? body : null);
                        } finally {
                            body.discardRest();
                        }
                    }, false)
                    .onSuccess(reply -> {
                        if (!ctx.response().ended()) {
                            reply.writeTo(ctx.response());
                        }
                    })
                    .onFailure(ctx::fail);
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
