package tankard.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import tankard.core.Refusal;
import tankard.config.TankardConfig;
import tankard.http.security.SecurityChain;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The ST-shaped HTTP surface on one event loop. Router order follows ST's src/server-main.js, after what answers
 * before the security chain (health checks, the graceful stop's gate: {@link Feature#mountFirst}).
 */
public final class HttpVerticle extends VerticleBase {
    /** A multipart text field (a card's description, a chat in a form) may be as large as ST's multer allows. */
    private static final int FORM_FIELD_LIMIT = 500 * 1024 * 1024;

    /**
     * What an event loop serves: the security chain, the features in mount order, and the frontend last; every
     * request is seen by {@code idle} first.
     */
    public record Surface(TankardConfig config, SecurityChain security, List<Feature> features, Feature frontend,
                          IdleTrim idle) {
    }

    private final Surface surface;
    private final int port;
    private volatile int actualPort;

    public HttpVerticle(Surface surface, int port) {
        this.surface = surface;
        this.port = port;
    }

    @Override
    public Future<?> start() {
        HttpServerOptions options = listenOptions(surface.config(), port).setMaxFormAttributeSize(FORM_FIELD_LIMIT);
        return vertx.createHttpServer(options)
                .requestHandler(router(surface.config()))
                .listen()
                .onSuccess((HttpServer server) -> actualPort = server.actualPort());
    }

    /** The port this instance listens on, once started (the one chosen when {@code port} was 0). */
    public int actualPort() {
        return actualPort;
    }

    /** Where and how Tankard listens (address, TLS, compression), for this port. */
    public static HttpServerOptions listenOptions(TankardConfig config, int port) {
        HttpServerOptions options = new HttpServerOptions()
                .setPort(port)
                .setHost(config.listen() ? config.listenAddressIpv4() : "127.0.0.1")
                .setCompressionSupported(true)
                .setDecompressionSupported(true);
        if (config.ssl().enabled()) {
            options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                    .setCertPath(config.ssl().certPath().toString())
                    .setKeyPath(config.ssl().keyPath().toString()));
        }
        return options;
    }

    private Router router(TankardConfig config) {
        Router router = Router.router(vertx);
        router.route().handler(surface.idle());
        router.route().failureHandler(new FailureHandler());
        router.route().handler(HttpVerticle::refuseBadlyEncodedPaths);
        Routes routes = new Routes(config);
        for (Feature feature : surface.features()) {
            feature.mountFirst(router, routes);
        }
        surface.security().installBeforePublic(router);
        BodyHandler bodies = BodyHandler.create(config.dataRoot().resolve("_uploads").toString())
                .setBodyLimit(Request.BODY_LIMIT)
                .setDeleteUploadedFilesOnEnd(true);
        Set<String> streamed = new HashSet<>();
        surface.features().forEach(feature -> streamed.addAll(feature.streamedBodyPaths()));
        router.route().handler(ctx -> {
            if (streamed.contains(ctx.normalizedPath())) {
                ctx.request().pause(); // until the route reads it; data arriving meanwhile must not be lost
                // a request refused before its route (CSRF, auth) lets its unread body go by with the reply
                ctx.addEndHandler(ended -> ctx.request().resume());
                ctx.next();
            } else {
                bodies.handle(ctx);
            }
        });
        router.route().handler(new UploadGuard());
        for (Feature feature : surface.features()) {
            feature.mountPublic(router, routes);
        }
        surface.frontend().mountPublic(router, routes);
        surface.security().installGate(router);
        for (Feature feature : surface.features()) {
            feature.mount(router, routes);
        }
        surface.frontend().mount(router, routes);
        return router;
    }

    /** A path with a broken %-escape matches no route; said before any route tries (else a 500). */
    private static void refuseBadlyEncodedPaths(RoutingContext ctx) {
        try {
            ctx.normalizedPath();
        } catch (IllegalArgumentException e) {
            ctx.fail(Refusal.badRequest("The URL's path is not well encoded: " + e.getMessage()));
            return;
        }
        ctx.next();
    }
}
