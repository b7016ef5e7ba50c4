package tankard.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.backend.common.SecretReader;
import tankard.backend.common.Urls;
import tankard.backend.text.TextCompletionBackends;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The web search providers of ST's src/endpoints/search.js: SerpApi, SearXNG, Tavily, KoboldCpp, Serper and
 * Z.AI, with the user's keys. Reads secrets, so each call starts on a worker; the answers come later.
 */
public final class SearchService {
    private static final String SERPAPI = "https://serpapi.com/search.json";
    private static final String TAVILY = "https://api.tavily.com/search";
    private static final String SERPER = "https://google.serper.dev";
    private static final String ZAI = "https://api.z.ai/api/paas/v4/web_search";
    /** The stylesheet a SearXNG page links, which ST fetches as a browser would before searching. */
    private static final Pattern SEARXNG_CLIENT_CSS = Pattern.compile("href=\"(/client.+\\.css)\"");

    private final SecretStore secrets;
    private final Upstream upstream;
    private final TextCompletionBackends textBackends;

    public SearchService(SecretStore secrets, UpstreamClient upstream, TextCompletionBackends textBackends) {
        this.secrets = secrets;
        this.upstream = new Upstream(upstream);
        this.textBackends = textBackends;
    }

    /** The user's key; none is a 400, as in ST. */
    private String key(String user, String secret, String service) {
        String key = secrets.read(user, secret);
        if (key.isEmpty()) {
            throw Refusal.badRequest("No " + service + " key found");
        }
        return key;
    }

    private static MultiMap jsonHeaders() {
        return MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json");
    }

    /** ST's {@code /serpapi}: Google results from SerpApi. */
    public CompletionStage<SearchAnswer> serpApi(String user, JsonNode body) {
        String key = key(user, SecretKeys.SERPAPI, "SerpApi");
        String query = Fields.required(body, "query");
        String url = SERPAPI + "?q=" + Urls.encodeUriComponent(query) + "&api_key=" + Urls.encodeUriComponent(key);
        return upstream.relayJson("SerpApi", UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap()));
    }

    /** ST's {@code /tavily}, with ST's fixed search settings. */
    public CompletionStage<SearchAnswer> tavily(String user, JsonNode body) {
        String key = key(user, SecretKeys.TAVILY, "Tavily");
        ObjectNode search = JsJson.object().put("query", Fields.required(body, "query")).put("api_key", key)
                .put("search_depth", "basic").put("topic", "general").put("include_answer", true)
                .put("include_raw_content", false).put("include_images", Js.truthy(body.get("include_images")))
                .put("include_image_descriptions", false);
        search.putArray("include_domains");
        search.put("max_results", 10);
        return upstream.relayJson("Tavily", UpstreamRequest.post(TAVILY, jsonHeaders(), search));
    }

    /** ST's {@code /serper}: web or image results. */
    public CompletionStage<SearchAnswer> serper(String user, JsonNode body) {
        String key = key(user, SecretKeys.SERPER, "Serper");
        String query = Fields.required(body, "query");
        String url = SERPER + (Js.truthy(body.get("images")) ? "/images" : "/search");
        return upstream.relayJson("Serper", UpstreamRequest.post(url, jsonHeaders().set("X-API-KEY", key),
                JsJson.object().put("q", query)));
    }

    /** ST's {@code /zai}: Z.AI's web search with its one engine. */
    public CompletionStage<SearchAnswer> zai(String user, JsonNode body) {
        String key = key(user, SecretKeys.ZAI, "Z.AI");
        String query = Fields.required(body, "query");
        return upstream.relayJson("Z.AI", UpstreamRequest.post(ZAI, jsonHeaders().set("Authorization", "Bearer " + key),
                JsJson.object().put("search_engine", "search-prime").put("search_query", query)));
    }

    /**
     * ST's {@code /koboldcpp}: the web search of the user's KoboldCpp, with its key and the configured header
     * overrides of its host. The body goes as node-fetch sends a string: as text/plain.
     */
    public CompletionStage<SearchAnswer> koboldCpp(String user, JsonNode body) {
        String base = Urls.trimV1(webUrl(Fields.required(body, "url"), "url").toString());
        String query = Fields.required(body, "query");
        ObjectNode backendBody = body.isObject() ? (ObjectNode) body : JsJson.object();
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Content-Type", "text/plain;charset=UTF-8")
                .addAll(textBackends.open(backendBody, SecretReader.of(secrets, user), Js.string(body.get("api_type")),
                        base).auth());
        Buffer search = Buffer.buffer(JsJson.compactBytes(JsJson.object().put("q", query)));
        return upstream.relayJson("KoboldCpp",
                new UpstreamRequest(HttpMethod.POST, base + "/api/extra/websearch", headers, search));
    }

    /**
     * ST's {@code /searxng}: the instance's main page (and the stylesheet it links) fetched as a browser would,
     * then its {@code /search} page, answered as it came. An error status is a bare 500, as in ST.
     */
    public CompletionStage<SearchAnswer> searxng(JsonNode body) {
        URI base = webUrl(Fields.required(body, "baseUrl"), "baseUrl");
        String query = Fields.required(body, "query");
        String preferences = Fields.text(body, "preferences");
        String categories = Fields.text(body, "categories");
        StringBuilder search = new StringBuilder("q=").append(formEncode(query));
        if (preferences != null && !preferences.isEmpty()) {
            search.append("&preferences=").append(formEncode(preferences));
        }
        if (categories != null && !categories.isEmpty()) {
            search.append("&categories=").append(formEncode(categories));
        }
        // new URL('/search', baseUrl) in ST: the instance's root, whatever path baseUrl has
        String searchUrl = base.resolve("/search") + "?" + search;
        return upstream.fetch(UpstreamRequest.get(base.toString(), PageVisits.browserHeaders()))
                .compose(main -> {
                    if (!main.ok()) {
                        return Future.succeededFuture(SearchAnswer.status(500));
                    }
                    Matcher css = SEARXNG_CLIENT_CSS.matcher(main.body().toString());
                    Future<?> styles = css.find()
                            ? upstream.fetch(UpstreamRequest.get(base.resolve(css.group(1)).toString(),
                                    PageVisits.browserHeaders())).otherwiseEmpty()
                            : Future.succeededFuture();
                    return styles.compose(v -> upstream.fetch(UpstreamRequest.get(searchUrl, PageVisits.browserHeaders())))
                            .map(result -> result.ok() ? SearchAnswer.text(200, result.body().toString())
                                    : SearchAnswer.status(500));
                }).toCompletionStage();
    }

    /** A user-given http(s) URL with a host; anything else is a 400 (ST answers 500 when its URL parser throws). */
    static URI webUrl(String text, String field) {
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw Refusal.badRequest("Field '" + field + "' is not a valid URL: " + text);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw Refusal.badRequest("Field '" + field + "' must be an http or https URL: " + text);
        }
        return uri;
    }

    /** URLSearchParams' encoding, which is the form encoding URLEncoder writes: spaces as '+'. */
    private static String formEncode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
