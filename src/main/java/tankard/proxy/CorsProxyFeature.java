package tankard.proxy;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.backend.common.Proxying;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.util.Set;

/**
 * {@code /proxy/<url>}, ST's CORS proxy for extensions that call other sites from the browser: the request, minus
 * the headers that belong to this server, sent to the URL through the outbound client (so the private-address
 * filter applies) and its answer relayed. Off unless {@code enableCorsProxy} (or {@code --corsProxy}); then a 404
 * that says so (ST: src/middleware/corsProxy.js; src/server-main.js).
 */
public record CorsProxyFeature(TankardConfig config, UpstreamClient upstream) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(CorsProxyFeature.class);
    static final String DISABLED = "CORS proxy is disabled. Enable it in config.yaml or use the --corsProxy flag.";
    /** What ST removes before it forwards a request. */
    private static final Set<String> DROPPED_HEADERS = Set.of("x-csrf-token", "host", "referer", "origin", "cookie",
            "x-forwarded-for", "x-forwarded-protocol", "x-forwarded-proto", "x-forwarded-host", "x-real-ip",
            "sec-fetch-mode", "sec-fetch-site", "sec-fetch-dest", "content-length", "transfer-encoding", "connection");
    private static final Set<HttpMethod> WITH_BODY = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH);

    @Override
    public void mount(Router router, Routes routes) {
        router.route("/proxy/*").handler(config.cors().proxy() ? routes.answering(this::forward) : CorsProxyFeature::disabled);
    }

    private static void disabled(RoutingContext ctx) {
        LOG.info(DISABLED);
        ctx.response().setStatusCode(404).putHeader("Content-Type", "text/html; charset=utf-8").end(DISABLED);
    }

    private void forward(Request request) {
        RoutingContext ctx = request.ctx();
        // the raw path after /proxy/, decoded as Express decodes a parameter (the router's normalized path would
        // have made "http://" "http:/"); Express leaves the query out too
        String url = java.net.URLDecoder.decode(ctx.request().path().substring("/proxy/".length()).replace("+", "%2B"),
                java.nio.charset.StandardCharsets.UTF_8); // well encoded: the router checked it (HttpVerticle)
        String self = (ctx.request().isSSL() ? "https" : "http") + "://" + ctx.request().getHeader("Host");
        if (url.startsWith(self)) {
            throw Refusal.badRequest("Circular requests are not allowed");
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        ctx.request().headers().forEach((name, value) -> {
            if (!DROPPED_HEADERS.contains(name.toLowerCase())) {
                headers.add(name, value);
            }
        });
        HttpMethod method = ctx.request().method();
        Buffer body = null;
        if (WITH_BODY.contains(method)) { // JSON.stringify(req.body): what the JSON parser read, else {}
            body = Buffer.buffer(JsJson.compact(request.body()));
            if (!headers.contains("Content-Type")) {
                headers.set("Content-Type", "text/plain;charset=UTF-8"); // node-fetch's for a string body
            }
        }
        HttpServerResponse response = ctx.response();
        upstream.send(new UpstreamRequest(method, url, headers, body), response)
                .onSuccess(from -> UpstreamClient.relay(from, response))
                .onFailure(e -> Proxying.answer(response, r -> r.setStatusCode(502) // ST: a bare 500
                        .putHeader("Content-Type", "text/plain; charset=utf-8").end(String.valueOf(e.getMessage()))));
    }
}
