package tankard.backend.common;

import io.vertx.core.MultiMap;

import java.util.Map;

/**
 * ST's OPENROUTER_HEADERS (src/constants.js): the fixed Referer and Title that OpenRouter (and the gateways ST
 * sends them to) attribute calls by.
 */
public final class AttributionHeaders {
    public static final Map<String, String> REFERER_AND_TITLE = Map.of(
            "HTTP-Referer", "https://sillytavern.app", "X-Title", "SillyTavern");

    private AttributionHeaders() {
    }

    /** Sets the Referer and Title on {@code headers}. */
    public static MultiMap addTo(MultiMap headers) {
        REFERER_AND_TITLE.forEach(headers::set);
        return headers;
    }
}
