package tankard.http.security;

import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import tankard.config.TankardConfig;

/**
 * The CORS headers of ST's {@code cors.*} settings, with the semantics of the Express cors middleware it
 * uses: a list of origins echoes an allowed request Origin, a single origin is sent as is, and every
 * OPTIONS request is answered here as a preflight with 204.
 */
public final class CorsFilter implements Handler<RoutingContext> {
    private final TankardConfig.Cors config;

    public CorsFilter(TankardConfig.Cors config) {
        this.config = config;
    }

    @Override
    public void handle(RoutingContext ctx) {
        MultiMap headers = ctx.response().headers();
        String origin = ctx.request().getHeader("Origin");
        if (config.fixedOrigin() != null) {
            headers.set("Access-Control-Allow-Origin", config.fixedOrigin());
            if (!config.fixedOrigin().equals("*")) {
                headers.add("Vary", "Origin");
            }
        } else {
            if (origin != null && config.origin().contains(origin)) {
                headers.set("Access-Control-Allow-Origin", origin);
            }
            headers.add("Vary", "Origin");
        }
        if (config.credentials()) {
            headers.set("Access-Control-Allow-Credentials", "true");
        }
        if (!config.exposedHeaders().isEmpty()) {
            headers.set("Access-Control-Expose-Headers", String.join(",", config.exposedHeaders()));
        }
        if (ctx.request().method() != HttpMethod.OPTIONS) {
            ctx.next();
            return;
        }
        if (!config.methods().isEmpty()) {
            headers.set("Access-Control-Allow-Methods", String.join(",", config.methods()));
        }
        if (config.allowedHeaders().isEmpty()) {
            String requested = ctx.request().getHeader("Access-Control-Request-Headers");
            if (requested != null && !requested.isEmpty()) {
                headers.set("Access-Control-Allow-Headers", requested);
            }
            headers.add("Vary", "Access-Control-Request-Headers");
        } else {
            headers.set("Access-Control-Allow-Headers", String.join(",", config.allowedHeaders()));
        }
        if (config.maxAge() != null) {
            headers.set("Access-Control-Max-Age", String.valueOf(config.maxAge()));
        }
        ctx.response().setStatusCode(204).putHeader("Content-Length", "0").end();
    }
}
