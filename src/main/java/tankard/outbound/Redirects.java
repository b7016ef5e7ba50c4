package tankard.outbound;

import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * node-fetch's redirect rules, which ST's calls follow: up to 20 redirects; 303, and 301 or 302 after a POST, are
 * followed with a GET without body; 307 and 308 (and 301 or 302 after another method) send the same request
 * again, body included; the credentials are dropped on the way to another site. Each hop is a new call, so it
 * goes where the {@link OutboundPolicy} lets it like the first.
 */
final class Redirects {
    private static final int MAX = 20;
    private static final Set<Integer> STATUSES = Set.of(301, 302, 303, 307, 308);
    private static final List<String> CREDENTIALS = List.of("authorization", "www-authenticate", "cookie", "cookie2");

    private Redirects() {
    }

    /**
     * The call a response to {@code call} (sent to {@code requested}) redirects to, or null when it is not a
     * redirect (or has no Location: it is answered as it is).
     *
     * @param followed the redirects followed before this response
     * @throws UpstreamClient.UpstreamException with node-fetch's message for a bad target or too many redirects
     */
    static UpstreamRequest next(UpstreamRequest call, String requested, HttpClientResponse response, int followed) {
        String location = response.getHeader(HttpHeaders.LOCATION);
        if (!STATUSES.contains(response.statusCode()) || location == null) {
            return null;
        }
        URI from = URI.create(requested);
        URI to;
        try {
            to = from.resolve(new URI(location));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new UpstreamClient.UpstreamException("uri requested responds with an invalid redirect URL: " + location);
        }
        if (followed >= MAX) {
            throw new UpstreamClient.UpstreamException("maximum redirect reached at: " + requested);
        }
        String scheme = to.getScheme() == null ? "" : to.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new UpstreamClient.UpstreamException("node-fetch cannot load " + to + ". URL scheme \"" + scheme
                    + "\" is not supported.");
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().addAll(call.headers());
        if (!sameSiteOrSubdomain(from, to)) {
            CREDENTIALS.forEach(headers::remove);
        }
        int status = response.statusCode();
        if (status == 303 || (status == 301 || status == 302) && call.method() == HttpMethod.POST) {
            headers.remove(HttpHeaders.CONTENT_LENGTH);
            return new UpstreamRequest(HttpMethod.GET, to.toString(), headers, null);
        }
        return new UpstreamRequest(call.method(), to.toString(), headers, call.body());
    }

    /** node-fetch's isDomainOrSubdomain and isSameProtocol: the same scheme, to the same host or one under it. */
    private static boolean sameSiteOrSubdomain(URI from, URI to) {
        String origin = host(from);
        String target = host(to);
        return from.getScheme().equalsIgnoreCase(to.getScheme())
                && (target.equals(origin) || target.endsWith("." + origin));
    }

    private static String host(URI uri) {
        return uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    }
}
