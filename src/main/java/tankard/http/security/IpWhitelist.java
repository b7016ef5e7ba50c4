package tankard.http.security;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.util.IpAddress;
import tankard.util.IpPattern;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code whitelistMode}: only clients whose address matches a {@code whitelist} entry get in; with
 * {@code enableForwardedWhitelist} the address a proxy reports must match too (ST: src/middleware/whitelist.js).
 * Rejected requests get {@code _errors/forbidden-by-whitelist.html} with {@code {{ipDetails}}} filled in.
 */
public final class IpWhitelist implements Handler<RoutingContext> {
    private static final Logger LOG = LoggerFactory.getLogger(IpWhitelist.class);
    private static final Pattern IP_DETAILS = Pattern.compile("\\{\\{\\{?\\s*ipDetails\\s*}?}}");
    private static final String FALLBACK_PAGE = "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Forbidden</title>"
            + "</head><body><h1>Forbidden</h1><p>Connections from {{ipDetails}} are not allowed. Add this address to "
            + "<code>whitelist</code> in config.yaml, or turn <code>whitelistMode</code> off.</p></body></html>";

    private final List<IpPattern> whitelist;
    private final boolean checkForwarded;
    private final ClientIp clientIp;
    private final ErrorPages pages;

    public IpWhitelist(TankardConfig.Security config, Path dataRoot) {
        this.whitelist = IpPattern.parseAll(config.whitelist(), "whitelist");
        this.checkForwarded = config.enableForwardedWhitelist();
        this.clientIp = new ClientIp(config);
        this.pages = new ErrorPages(dataRoot);
    }

    @Override
    public void handle(RoutingContext ctx) {
        IpAddress socket = ClientIp.socket(ctx.request());
        String forwarded = checkForwarded ? clientIp.forwarded(ctx.request()) : null;
        IpAddress forwardedIp = forwarded == null ? null : IpAddress.parse(forwarded);
        boolean allowed = IpPattern.anyMatches(whitelist, socket)
                && (forwarded == null || IpPattern.anyMatches(whitelist, forwardedIp == null ? null : forwardedIp.unmapped()));
        if (allowed) {
            ctx.next();
            return;
        }
        String socketText = socket == null ? "unknown" : socket.toString();
        String ipDetails = forwarded == null ? socketText : socketText + " (forwarded from " + forwarded + ")";
        if (!"/favicon.ico".equals(ctx.request().path())) {
            LOG.warn("Blocked connection from {}; User Agent: {}. To allow it, add its IP address to the whitelist "
                    + "in config.yaml or turn whitelistMode off.", ipDetails, ctx.request().getHeader("User-Agent"));
        }
        pages.read(ctx, "forbidden-by-whitelist.html", FALLBACK_PAGE).onComplete(page -> {
            String template = page.succeeded() ? page.result() : FALLBACK_PAGE;
            String html = IP_DETAILS.matcher(template).replaceAll(Matcher.quoteReplacement(ErrorPages.escapeHtml(ipDetails)));
            ErrorPages.send(ctx, 403, html);
        });
    }
}
