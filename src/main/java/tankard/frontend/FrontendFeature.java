package tankard.frontend;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Routes;
import tankard.http.files.ConfinedPath;
import tankard.http.files.FileSender;
import tankard.http.security.SecurityChain;

import java.nio.file.Path;

/**
 * The web frontend: an ST {@code public/} folder or Tankard's own, its bundled {@code /lib.js}, the
 * global {@code /css/user.css} override, and the final 404 (ST: src/server-main.js, apply404Middleware;
 * src/middleware/userCss.js).
 */
public record FrontendFeature(TankardConfig config) implements Feature {
    @Override
    public void mountPublic(Router router, Routes routes) {
        router.get("/").handler(this::index);
        router.get("/callback/:source").handler(FrontendFeature::oauthCallback);
        router.get("/callback").handler(FrontendFeature::oauthCallback);
        if (config.frontendLib() != null) {
            Path lib = config.frontendLib();
            router.get("/lib.js").handler(ctx -> sendOrNext(ctx, lib));
        }
        // A user.css in the data root overrides the frontend's own.
        Path userCss = config.dataRoot().resolve("_css").resolve("user.css");
        router.get("/css/user.css").handler(ctx -> sendOrNext(ctx, userCss));
        router.route("/*").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(this::staticFile);
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.route().handler(ctx -> ctx.fail(Refusal.notFound("Not found: " + ctx.request().path())));
    }

    private void index(RoutingContext ctx) {
        if (config.security().enableUserAccounts()) {
            if (SecurityChain.user(ctx) == null) {
                String query = ctx.request().query();
                redirect(ctx, query == null ? "/login" : "/login?" + query);
                return;
            }
            tankard.http.security.SessionCookies.of(ctx).touch();
        }
        ctx.next();
    }

    /**
     * A file of the frontend folder (public, like express.static): directories get their index.html, hidden and
     * missing files and paths that leave the folder fall through to the later routes.
     */
    private void staticFile(RoutingContext ctx) {
        Path file;
        try {
            file = ConfinedPath.resolve(config.frontendDir(), ctx.pathParam("*"));
        } catch (Refusal refused) {
            ctx.next();
            return;
        }
        FileSender.send(ctx, file, false).onSuccess(outcome -> {
            switch (outcome) {
                case SENT -> { }
                case MISSING -> ctx.next();
                case DIRECTORY -> {
                    String path = ctx.request().path();
                    if (path.endsWith("/")) {
                        sendOrNext(ctx, file.resolve("index.html"));
                    } else {
                        // As express.static: relative links in the folder's index.html need the trailing slash.
                        String query = ctx.request().query();
                        redirect(ctx, 301, path + "/" + (query == null ? "" : "?" + query));
                    }
                }
            }
        }).onFailure(ctx::fail);
    }

    private static void sendOrNext(RoutingContext ctx, Path file) {
        FileSender.send(ctx, file, false).onSuccess(outcome -> {
            if (outcome != FileSender.Outcome.SENT) {
                ctx.next();
            }
        }).onFailure(ctx::fail);
    }

    /**
     * Where an OAuth provider (OpenRouter's "Authorize") sends the browser back: to the frontend, with the source and
     * the provider's query for it to read (ST: src/server-main.js, /callback/:source?).
     */
    private static void oauthCallback(RoutingContext ctx) {
        StringBuilder params = new StringBuilder();
        String source = ctx.pathParam("source");
        if (source != null && !source.isEmpty()) {
            params.append("source=").append(formEncode(source));
        }
        String query = ctx.request().query() == null ? null : ctx.request().query().split("\\?", -1)[0]; // as url.split('?')[1]
        if (query != null && !query.isEmpty()) {
            params.append(params.isEmpty() ? "" : "&").append("query=").append(formEncode(query));
        }
        redirect(ctx, 307, "/?" + params);
    }

    /** URLSearchParams' encoding (spaces as {@code +}), which URLEncoder's form encoding is. */
    private static String formEncode(String value) {
        return java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8);
    }

    static void redirect(RoutingContext ctx, String location) {
        redirect(ctx, 302, location);
    }

    private static void redirect(RoutingContext ctx, int status, String location) {
        ctx.response().setStatusCode(status).putHeader(HttpHeaders.LOCATION, location).end();
    }
}
