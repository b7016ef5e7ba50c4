package tankard.http.security;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import tankard.config.TankardConfig;
import tankard.util.IpAddress;

/**
 * Who is asking: the socket address, and the address a reverse proxy reports in its headers (ST:
 * src/express-common.js, getRealOrForwardedIp).
 */
public final class ClientIp {
    private final TankardConfig.Security config;

    public ClientIp(TankardConfig.Security config) {
        this.config = config;
    }

    /** The socket address with IPv4-mapped IPv6 shown as IPv4, or null when unknown. */
    public static IpAddress socket(HttpServerRequest request) {
        SocketAddress remote = request.remoteAddress();
        String host = remote == null ? null : remote.hostAddress();
        if (host == null) {
            return null;
        }
        int zone = host.indexOf('%');
        IpAddress ip = IpAddress.parse(zone >= 0 ? host.substring(0, zone) : host);
        return ip == null ? null : ip.unmapped();
    }

    /** The socket address as ST prints it ({@code unknown} when there is none). */
    public static String socketText(HttpServerRequest request) {
        IpAddress ip = socket(request);
        return ip == null ? "unknown" : ip.toString();
    }

    /**
     * The first of X-Real-IP, CF-Connecting-IP and X-Forwarded-For (its first element) that is present and
     * enabled by {@code forwardedHeaders.*}, as sent; null when none is.
     */
    public String forwarded(HttpServerRequest request) {
        String realIp = request.getHeader("X-Real-IP");
        if (realIp != null && !realIp.isEmpty() && config.forwardedXRealIp()) {
            return realIp;
        }
        String cloudflare = request.getHeader("CF-Connecting-IP");
        if (cloudflare != null && !cloudflare.isEmpty() && config.forwardedCfConnectingIp()) {
            return cloudflare;
        }
        String forwardedFor = request.getHeader("X-Forwarded-For");
        if (forwardedFor != null && !forwardedFor.isEmpty() && config.forwardedXForwardedFor()) {
            return forwardedFor.split(",", -1)[0].trim();
        }
        return null;
    }

    /** The key failed attempts are counted under: the socket address, plus the reported one if preferred. */
    public String rateLimitKey(HttpServerRequest request) {
        String socket = socketText(request);
        String forwarded = config.preferRealIpHeader() ? forwarded(request) : null;
        return forwarded == null || forwarded.isEmpty() ? socket : socket + " (forwarded: " + forwarded + ")";
    }
}
