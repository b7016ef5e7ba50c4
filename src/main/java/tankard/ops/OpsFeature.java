package tankard.ops;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.http.security.ClientIp;
import tankard.http.security.SecurityChain;
import tankard.user.User;
import tankard.util.IpAddress;
import tankard.util.IpPattern;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What a load balancer and a monitor ask of a node (docs/operations.md): {@code /health/live} and
 * {@code /health/ready}, answered before the security chain, since a balancer has no login and may not be in the
 * whitelist (they say nothing but the node's state); the graceful stop's gate; and, when enabled, {@code /metrics}
 * for the addresses of {@code tankard.metrics.whitelist} (before the chain too) or an admin's session.
 */
public final class OpsFeature implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(OpsFeature.class);
    /** How long the readiness check waits for the stores before it answers 503. */
    private static final long READY_TIMEOUT_MS = 3_000;

    private final GracefulStop stop;
    private final Supplier<Future<Void>> storesAnswer;
    /** Null when the metrics are off. */
    private final Metrics metrics;
    private final List<IpPattern> metricsWhitelist;
    private final ClientIp clientIp;
    /** Whether the last readiness check passed: a change is logged, not every failed check. */
    private volatile boolean wasReady = true;

    /**
     * @param storesAnswer whether the stores can serve now (the data root, the database)
     * @param metrics      the node's metrics, or null when {@code tankard.metrics.enabled} is off
     */
    public OpsFeature(TankardConfig config, GracefulStop stop, Supplier<Future<Void>> storesAnswer, Metrics metrics) {
        this.stop = stop;
        this.storesAnswer = storesAnswer;
        this.metrics = metrics;
        this.metricsWhitelist = IpPattern.parseAll(config.operations().metricsWhitelist(), "tankard.metrics.whitelist");
        this.clientIp = new ClientIp(config.security());
    }

    @Override
    public void mountFirst(Router router, Routes routes) {
        router.route("/health/live").method(HttpMethod.GET).method(HttpMethod.HEAD)
                .handler(ctx -> state(ctx, 200, "live"));
        router.route("/health/ready").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(this::ready);
        router.route().handler(stop);
        if (metrics != null) {
            Handler<RoutingContext> scrape = scrape(routes);
            router.get("/metrics").handler(ctx -> {
                if (whitelisted(ctx.request())) {
                    scrape.handle(ctx);
                } else {
                    ctx.next(); // through the security chain to the admin's route
                }
            });
        }
    }

    @Override
    public void mountPublic(Router router, Routes routes) {
        if (metrics == null) {
            return;
        }
        Handler<RoutingContext> scrape = scrape(routes);
        router.get("/metrics").handler(ctx -> {
            User user = SecurityChain.user(ctx);
            if (user != null && user.admin()) {
                scrape.handle(ctx);
            } else {
                ctx.fail(Refusal.forbidden("The metrics are for the addresses of tankard.metrics.whitelist and admins"));
            }
        });
    }

    @Override
    public void mount(Router router, Routes routes) {
    }

    private Handler<RoutingContext> scrape(Routes routes) {
        return routes.blocking(request -> new Reply.Body(200, Metrics.CONTENT_TYPE,
                metrics.scrape().getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Ready while the node is not stopping and its stores answer. The schema is not looked at: a node listens only
     * once it has migrated the database (PgDatabase.open).
     */
    private void ready(RoutingContext ctx) {
        if (stop.stopping()) {
            state(ctx, 503, "stopping");
            return;
        }
        storesAnswer.get().timeout(READY_TIMEOUT_MS, TimeUnit.MILLISECONDS).onComplete(answer -> {
            boolean ready = answer.succeeded();
            if (ready != wasReady) {
                wasReady = ready;
                if (ready) {
                    LOG.info("Ready again: the stores answer");
                } else {
                    LOG.warn("Not ready: the stores do not answer ({})", answer.cause().toString());
                }
            }
            state(ctx, ready ? 200 : 503, ready ? "ready" : "unavailable");
        });
    }

    private static void state(RoutingContext ctx, int status, String state) {
        ctx.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json; charset=utf-8")
                .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
                .end("{\"status\":\"" + state + "\"}");
    }

    /**
     * Whether the caller's address is in the metrics' whitelist, and so is the one a proxy reports for it (a
     * request through a proxy on this machine comes from loopback, whoever sent it).
     */
    private boolean whitelisted(HttpServerRequest request) {
        String forwarded = clientIp.forwarded(request);
        IpAddress forwardedIp = forwarded == null ? null : IpAddress.parse(forwarded);
        return IpPattern.anyMatches(metricsWhitelist, ClientIp.socket(request))
                && (forwarded == null || IpPattern.anyMatches(metricsWhitelist, forwardedIp == null ? null : forwardedIp.unmapped()));
    }
}
