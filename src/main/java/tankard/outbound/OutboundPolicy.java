package tankard.outbound;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.ProxyOptions;
import io.vertx.core.net.ProxyType;
import io.vertx.core.net.SocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.util.IpAddress;
import tankard.util.IpPattern;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.net.URL;
import java.net.URLDecoder;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Where an outgoing request to a URL a user controls may go, with ST's semantics (initRequestProxy in
 * src/request-proxy.js, PrivateRequestAgent in src/private-request-filter.js):
 * <ul>
 *   <li>{@code requestProxy}: requests go through the proxy unless their host matches the {@code bypass} list
 *   (matched as ST's proxy-from-env matches {@code no_proxy}).</li>
 *   <li>{@code privateAddressWhitelist} (off by default, as in ST): a request that does not go through the proxy
 *   is refused when its host is, or resolves to, a private address (loopback, 10/8, 172.16/12, 192.168/16,
 *   169.254/16, fc00::/7, fe80::/10) not matched by {@code allowedRanges} (loopback by default, so local model
 *   servers keep working), or when it cannot be resolved unless {@code allowUnresolvedHosts}.</li>
 * </ul>
 * Unlike ST, which checks only the first address a host name resolves to, every address is checked, and the
 * unspecified addresses (0.0.0.0, ::), which reach this machine, count as private; IPv4-mapped IPv6 addresses
 * are checked as the IPv4 address they are.
 * <p>
 * DNS rebinding: a name is resolved once, here; the request is then sent to the checked address
 * ({@link RequestOptions#setServer}) with the name kept for the Host header, TLS SNI and certificate check, so
 * a second, different DNS answer is never used. A redirect is a new call ({@link Redirects}), checked the
 * same way.
 */
public final class OutboundPolicy {
    private static final Logger LOG = LoggerFactory.getLogger(OutboundPolicy.class);
    private static final String LOG_HEADER = "[Private Request Filter] ";
    private static final List<IpPattern> PRIVATE_RANGES = Stream.of("127.0.0.0/8", "10.0.0.0/8", "172.16.0.0/12",
            "192.168.0.0/16", "169.254.0.0/16", "::1/128", "fc00::/7", "fe80::/10", "0.0.0.0", "::")
            .map(IpPattern::parse).toList();

    /** Name resolution, replaceable in tests. */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    private final boolean filter;
    private final List<IpPattern> allowedRanges;
    private final boolean allowUnresolvedHosts;
    private final boolean logBlocked;
    private final boolean logAllowed;
    private final boolean keepAlive;
    private final ProxyOptions proxy;
    private final List<String> bypass;
    private final Resolver resolver;

    public OutboundPolicy(TankardConfig config) {
        this(config.outbound(), InetAddress::getAllByName);
        if (!filter && config.listen()) {
            LOG.warn("listen is enabled but the private request filter is disabled. This may expose your server to "
                    + "SSRF attacks. To enable it, set privateAddressWhitelist.enabled to true in config.yaml.");
        }
        if (filter && proxy != null) {
            LOG.warn("The request proxy and the private request filter are both enabled: only requests that bypass "
                    + "the proxy are checked.");
        }
    }

    OutboundPolicy(TankardConfig.Outbound config, Resolver resolver) {
        this.filter = config.filterEnabled();
        this.keepAlive = config.keepAlive();
        this.allowedRanges = IpPattern.parseAll(config.allowedRanges(), "privateAddressWhitelist.allowedRanges");
        this.allowUnresolvedHosts = config.allowUnresolvedHosts();
        this.logBlocked = config.logBlocked();
        this.logAllowed = config.logAllowed();
        this.proxy = config.proxyEnabled() ? proxyOptions(config.proxyUrl()) : null;
        this.bypass = config.proxyBypass().stream()
                .flatMap(entry -> Stream.of(entry.toLowerCase(Locale.ROOT).split("[,\\s]")))
                .filter(entry -> !entry.isEmpty()).toList();
        this.resolver = resolver;
    }

    /** A request refused by the filter; its message is node-fetch's, as ST's routes show it. */
    public static final class Refused extends RuntimeException {
        Refused(String url, String reason) {
            super("request to " + url + " failed, reason: " + reason, null, false, false);
        }
    }

    /**
     * The request as it may be sent: through the proxy, or to a checked address; failed with {@link Refused}
     * when the filter refuses it. The options' host, port, TLS flag and URI must be set.
     */
    public Future<RequestOptions> prepare(Vertx vertx, RequestOptions options) {
        ProxyOptions via = proxyFor(options);
        if (via != null) {
            return Future.succeededFuture(options.setProxyOptions(via));
        }
        if (!filter) {
            return Future.succeededFuture(options);
        }
        String host = unbracketed(options.getHost());
        IpAddress literal = IpAddress.parse(host);
        if (literal != null) {
            return check(options, literal, host) ? Future.succeededFuture(options)
                    : Future.failedFuture(refused(options, literal));
        }
        return vertx.executeBlocking(() -> resolve(host), false).compose(addresses -> {
            try {
                checkResolved(options, host, addresses);
            } catch (Refused e) {
                return Future.failedFuture(e);
            }
            return Future.succeededFuture(addresses.length == 0 ? options : options.setServer(
                    SocketAddress.inetSocketAddress(new InetSocketAddress(addresses[0], options.getPort()))));
        });
    }

    /**
     * For clients that open their own connections (JGit): the proxy a request to the URL goes through, or
     * {@link Proxy#NO_PROXY} once the filter lets it go direct; {@link Refused} when refused. Blocking:
     * resolves the host. Such a client resolves the name again when it connects, so unlike {@link #prepare} this
     * does not pin the checked address (a DNS answer that changes in between is not caught).
     */
    public Proxy connectionFor(URL url) {
        RequestOptions options = new RequestOptions().setAbsoluteURI(url);
        ProxyOptions via = proxyFor(options);
        if (via != null) {
            return new Proxy(via.getType() == ProxyType.HTTP ? Proxy.Type.HTTP
                    : Proxy.Type.SOCKS, new InetSocketAddress(via.getHost(), via.getPort()));
        }
        if (!filter) {
            return Proxy.NO_PROXY;
        }
        String host = unbracketed(options.getHost());
        IpAddress literal = IpAddress.parse(host);
        if (literal == null) {
            checkResolved(options, host, resolve(host));
        } else if (!check(options, literal, host)) {
            throw refused(options, literal);
        }
        return Proxy.NO_PROXY;
    }

    /** Throws {@link Refused} unless every address the host resolved to is allowed (or none, when that is allowed). */
    private void checkResolved(RequestOptions options, String host, InetAddress[] addresses) {
        if (addresses.length == 0 && !allowUnresolvedHosts) {
            throw unresolved(options, host);
        }
        for (InetAddress address : addresses) {
            IpAddress ip = ipOf(address);
            if (!check(options, ip, ip.toString())) {
                throw refused(options, ip);
            }
        }
    }

    /** ST's {@code enableKeepAlive}: whether connections to backends are kept open for the next request. */
    public boolean keepAlive() {
        return keepAlive;
    }

    private InetAddress[] resolve(String host) {
        try {
            return resolver.resolve(host);
        } catch (UnknownHostException e) {
            return new InetAddress[0];
        }
    }

    /** Whether the address may be called: public, or private and allowed. */
    private boolean check(RequestOptions options, IpAddress ip, String shown) {
        IpAddress plain = ip.unmapped();
        if (PRIVATE_RANGES.stream().noneMatch(range -> range.matches(plain))) {
            return true;
        }
        if (IpPattern.anyMatches(allowedRanges, plain)) {
            if (logAllowed) {
                LOG.info(LOG_HEADER + "Allowed request to private IP address: {} ({})", shown, url(options));
            }
            return true;
        }
        return false;
    }

    private Refused refused(RequestOptions options, IpAddress ip) {
        String reason = "Blocked request to private IP address: " + ip;
        if (logBlocked) {
            LOG.error(LOG_HEADER + reason);
        }
        return new Refused(url(options), reason);
    }

    private static Refused unresolved(RequestOptions options, String host) {
        String reason = "Unable to resolve host: " + host
                + ". Set privateAddressWhitelist.allowUnresolvedHosts to true to bypass this check.";
        LOG.error(LOG_HEADER + reason);
        return new Refused(url(options), reason);
    }

    private static IpAddress ipOf(InetAddress address) {
        String text = address.getHostAddress();
        int scope = text.indexOf('%');
        return IpAddress.parse(scope < 0 ? text : text.substring(0, scope));
    }

    // ---- requestProxy

    /** The proxy for this request, or null: none configured, or the host is on the bypass list. */
    private ProxyOptions proxyFor(RequestOptions options) {
        if (proxy == null) {
            return null;
        }
        // proxy-from-env's no_proxy rules: "host" exact, ".domain" or "*.domain" a suffix, ":port" must match too
        String host = options.getHost().toLowerCase(Locale.ROOT);
        for (String entry : bypass) {
            if (entry.equals("*")) {
                return null;
            }
            String name = entry;
            int colon = entry.lastIndexOf(':');
            if (colon > 0 && entry.substring(colon + 1).matches("\\d+")) {
                if (Integer.parseInt(entry.substring(colon + 1)) != options.getPort()) {
                    continue;
                }
                name = entry.substring(0, colon);
            }
            boolean suffix = name.startsWith(".") || name.startsWith("*");
            String wanted = name.startsWith("*") ? name.substring(1) : name;
            if (suffix ? host.endsWith(wanted) : host.equals(wanted)) {
                return null;
            }
        }
        return proxy;
    }

    /** {@code requestProxy.url} (checked by the config loader) as Vert.x proxy options. */
    private static ProxyOptions proxyOptions(String url) {
        URI uri = URI.create(url);
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        ProxyType type = scheme.equals("http") ? ProxyType.HTTP
                : scheme.startsWith("socks4") ? ProxyType.SOCKS4 : ProxyType.SOCKS5;
        int port = uri.getPort() >= 0 ? uri.getPort() : type == ProxyType.HTTP ? 80 : 1080;
        ProxyOptions options = new ProxyOptions().setType(type).setHost(unbracketed(uri.getHost())).setPort(port);
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            options.setUsername(decode(colon < 0 ? userInfo : userInfo.substring(0, colon)));
            if (colon >= 0) {
                options.setPassword(decode(userInfo.substring(colon + 1)));
            }
        }
        return options;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** The request's URL as node's URL writes it (default port left out), for messages. */
    private static String url(RequestOptions options) {
        boolean defaultPort = options.getPort() == (options.isSsl() ? 443 : 80);
        return (options.isSsl() ? "https://" : "http://") + options.getHost().toLowerCase(Locale.ROOT)
                + (defaultPort ? "" : ":" + options.getPort()) + options.getURI();
    }
}
