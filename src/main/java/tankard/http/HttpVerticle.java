package tankard.http;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import tankard.Tankard;
import tankard.config.TankardConfig;

/** The ST-shaped HTTP surface on one event loop. Router order follows st-api.md §1.3. */
public final class HttpVerticle extends VerticleBase {
    private static final long BODY_LIMIT = 500L * 1024 * 1024;
    /** A multipart text field (a card's description, a chat in a form) may be as large as ST's multer allows. */
    private static final int FORM_FIELD_LIMIT = 500 * 1024 * 1024;

    private final Tankard tankard;
    private final int port;

    public HttpVerticle(Tankard tankard, int port) {
        this.tankard = tankard;
        this.port = port;
    }

    @Override
    public Future<?> start() {
        TankardConfig config = tankard.config();
        HttpServerOptions options = new HttpServerOptions()
                .setPort(port)
                .setHost(config.listen() ? config.listenAddressIpv4() : "127.0.0.1")
                .setCompressionSupported(true)
                .setDecompressionSupported(true)
                .setMaxFormAttributeSize(FORM_FIELD_LIMIT);
        if (config.ssl().enabled()) {
            options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                    .setCertPath(config.ssl().certPath().toString())
                    .setKeyPath(config.ssl().keyPath().toString()));
        }
        return vertx.createHttpServer(options)
                .requestHandler(router(config))
                .listen()
                .onSuccess((HttpServer server) -> {
                    if (tankard.port() == 0) {
                        tankard.bound(server.actualPort());
                    }
                });
    }

    private Router router(TankardConfig config) {
        Router router = Router.router(vertx);
        router.route().failureHandler(new FailureHandler());
        tankard.security().installBeforePublic(router);
        router.route().handler(BodyHandler.create(config.dataRoot().resolve("_uploads").toString())
                .setBodyLimit(BODY_LIMIT)
                .setDeleteUploadedFilesOnEnd(true));
        router.route().handler(new UploadGuard());
        for (Feature feature : tankard.features()) {
            feature.mountPublic(router);
        }
        tankard.frontend().mountPublic(router);
        tankard.security().installGate(router);
        for (Feature feature : tankard.features()) {
            feature.mount(router);
        }
        tankard.frontend().mount(router);
        return router;
    }
}
