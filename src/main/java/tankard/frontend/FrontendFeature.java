package tankard.frontend;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Request;

/**
 * The web frontend: an ST {@code public/} folder or Tankard's own, its bundled {@code /lib.js}, the
 * global {@code /css/user.css} override, and the final 404 (st-api.md §3.1, §3.2).
 */
public final class FrontendFeature implements Feature {
    private final TankardConfig config;

    public FrontendFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mountPublic(Router router) {
        router.get("/").handler(this::index);
        if (config.frontendLib() != null) {
            String lib = config.frontendLib().toString();
            router.get("/lib.js").handler(ctx -> ctx.response()
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/javascript; charset=utf-8")
                    .sendFile(lib));
        }
        router.get("/css/user.css").handler(ctx -> {
            String override = config.dataRoot().resolve("_css").resolve("user.css").toString();
            ctx.vertx().fileSystem().exists(override).onComplete(exists -> {
                if (exists.succeeded() && exists.result()) {
                    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/css; charset=utf-8").sendFile(override);
                } else {
                    ctx.next();
                }
            });
        });
        router.route().handler(StaticHandler.create(FileSystemAccess.ROOT, config.frontendDir().toString())
                .setCachingEnabled(false)
                .setDefaultContentEncoding("UTF-8"));
    }

    @Override
    public void mount(Router router) {
        router.route().handler(ctx -> ctx.fail(ApiError.notFound("Not found: " + ctx.request().path())));
    }

    private void index(RoutingContext ctx) {
        if (config.security().enableUserAccounts()) {
            if (ctx.get(Request.USER_KEY) == null) {
                String query = ctx.request().query();
                redirect(ctx, query == null ? "/login" : "/login?" + query);
                return;
            }
            tankard.http.security.SessionCookies.of(ctx).touch();
        }
        ctx.next();
    }

    static void redirect(RoutingContext ctx, String location) {
        ctx.response().setStatusCode(302).putHeader(HttpHeaders.LOCATION, location).end();
    }
}
