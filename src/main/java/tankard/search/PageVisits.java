package tankard.search;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.util.IpAddress;

import java.net.URI;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * ST's {@code /visit} (src/endpoints/search.js): a web page fetched as Chrome would ask for it, for the Data Bank's
 * web scraper and the web search extension. The URL must be http(s) on its default port with a host name, not an
 * address, as ST requires; the {@link tankard.outbound.OutboundPolicy} then checks where the name (and every
 * redirect) leads, and the page may be at most {@link Upstream#MAX_BYTES}.
 */
public final class PageVisits {
    /**
     * Host names that are addresses all the same: the shorthand IPv4 forms (hex, octal, one to four parts, a
     * trailing dot) that ST's URL parser turns into dotted addresses before it refuses them.
     */
    private static final Pattern NUMERIC_HOST = Pattern.compile(
            "(?i)(0x[0-9a-f]*|[0-9]+)(\\.(0x[0-9a-f]*|[0-9]+))*\\.?");

    private final Upstream upstream;

    public PageVisits(UpstreamClient upstream) {
        this.upstream = new Upstream(upstream);
    }

    /**
     * ST's visitHeaders, but for what Tankard's client does itself or cannot honour: no Accept-Encoding (the
     * answer is not decompressed), no Connection or TE.
     */
    static MultiMap browserHeaders() {
        return MultiMap.caseInsensitiveMultiMap()
                .set("Accept", "text/html")
                .set("User-Agent", YouTubeTranscripts.USER_AGENT)
                .set("Accept-Language", "en-US,en;q=0.5")
                .set("Cache-Control", "no-cache")
                .set("Pragma", "no-cache")
                .set("DNT", "1")
                .set("Sec-Fetch-Dest", "document")
                .set("Sec-Fetch-Mode", "navigate")
                .set("Sec-Fetch-Site", "none")
                .set("Sec-Fetch-User", "?1");
    }

    /**
     * The page: with {@code html} (the default) only an HTML page, as text; without, whatever it is, with its
     * content type. An error status or another type is a bare 500, as in ST.
     */
    public CompletionStage<SearchAnswer> visit(JsonNode body) {
        String url = Fields.text(body, "url");
        if (url == null || url.isEmpty()) {
            throw Refusal.badRequest("No url provided for /visit");
        }
        JsonNode htmlField = body.get("html");
        boolean html = htmlField == null || htmlField.isNull() || Js.truthy(htmlField);
        URI page = checked(url);
        return upstream.fetch(UpstreamRequest.get(page.toString(), browserHeaders())).map(answer -> {
            if (!answer.ok()) {
                return SearchAnswer.status(500);
            }
            String type = answer.contentType();
            if (html) {
                return type != null && type.contains("text/html")
                        ? SearchAnswer.text(200, answer.body().toString()) : SearchAnswer.status(500);
            }
            return SearchAnswer.bytes(type != null ? type : "application/octet-stream", answer.body().getBytes());
        }).toCompletionStage();
    }

    /** ST's checks of the URL, and a local host name refused too. */
    static URI checked(String url) {
        URI uri = SearchService.webUrl(url, "url");
        if (uri.getPort() != -1) {
            throw Refusal.badRequest("Invalid url for /visit: only the default port is allowed: " + url);
        }
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (IpAddress.parse(bare) != null || NUMERIC_HOST.matcher(bare).matches()) {
            throw Refusal.badRequest("Invalid url for /visit: an IP address is not allowed: " + url);
        }
        if (bare.equals("localhost") || bare.endsWith(".localhost")) {
            throw Refusal.badRequest("Invalid url for /visit: a local host name is not allowed: " + url);
        }
        return uri;
    }
}
