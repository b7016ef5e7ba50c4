package tankard.http.security;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import tankard.config.TankardConfig;
import tankard.util.IpAddress;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code hostWhitelist}: the Host header must name an allowed host (ST: src/middleware/hostWhitelist.js), a guard
 * against DNS rebinding. IP literals, {@code localhost} and {@code *.localhost} are always allowed.
 */
public final class HostWhitelist implements Handler<RoutingContext> {
    private static final Pattern FILE_OR_EXTENSION = Pattern.compile("^(?:file|.+-extension):", Pattern.CASE_INSENSITIVE);
    private static final String FALLBACK_PAGE = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Forbidden</title>"
            + "</head><body><h1>Forbidden</h1><p>This host name is not allowed. Add it to <code>hostWhitelist.hosts</code> "
            + "in config.yaml.</p></body></html>";

    private final List<String> hosts;
    private final ErrorPages pages;

    public HostWhitelist(TankardConfig.Security config, Path dataRoot) {
        this.hosts = config.hostWhitelist();
        this.pages = new ErrorPages(dataRoot);
    }

    @Override
    public void handle(RoutingContext ctx) {
        String host = ctx.request().getHeader("Host");
        if (host == null || allows(host)) {
            ctx.next();
            return;
        }
        pages.read(ctx, "host-not-allowed.html", FALLBACK_PAGE).onComplete(page ->
                ErrorPages.send(ctx, 403, page.succeeded() ? page.result() : FALLBACK_PAGE));
    }

    /** Whether a Host header value is allowed by the configured host list. */
    public boolean allows(String hostHeader) {
        if (FILE_OR_EXTENSION.matcher(hostHeader).find()) {
            return true;
        }
        String host = hostHeader.trim();
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            IpAddress ip = end < 0 ? null : IpAddress.parse(host.substring(1, end));
            return ip != null && !ip.isV4();
        }
        int colon = host.indexOf(':');
        String name = colon < 0 ? host : host.substring(0, colon);
        IpAddress ip = IpAddress.parse(name);
        if (ip != null && ip.isV4()) {
            return true;
        }
        if (name.equals("localhost") || name.endsWith(".localhost")) {
            return true;
        }
        for (String allowed : hosts) {
            if (allowed.equals(name)
                    || allowed.startsWith(".") && (allowed.substring(1).equals(name) || name.endsWith(allowed))) {
                return true;
            }
        }
        return false;
    }
}
