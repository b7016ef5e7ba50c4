package tankard.backend.common;

import tankard.core.Refusal;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** The URL helpers of ST's backend routes. */
public final class Urls {
    /** A name that may stand as one path segment of a URL: nothing that could end it or climb out of it. */
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9._~-]{1,200}");

    private Urls() {
    }

    /** ST's trimV1: one trailing slash, then one trailing {@code /v1}, removed. */
    public static String trimV1(String url) {
        return trimTrailingSlash(url).replaceFirst("/v1$", "");
    }

    public static String trimTrailingSlash(String url) {
        return url.replaceFirst("/$", "");
    }

    /** JavaScript's encodeURIComponent. */
    public static String encodeUriComponent(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20").replace("%21", "!")
                .replace("%27", "'").replace("%28", "(").replace("%29", ")").replace("%7E", "~");
    }

    /**
     * A user's value (a voice id, a model, a region) that becomes one segment of a URL's path or host: letters,
     * digits and {@code . _ ~ -}, not {@code .} or {@code ..}; anything else is refused with a 400 naming the field.
     */
    public static String segment(String value, String field) {
        if (value == null || !SEGMENT.matcher(value).matches() || value.equals(".") || value.equals("..")) {
            throw Refusal.badRequest(field + " must be a name of letters, digits, '.', '_', '~' or '-'");
        }
        return value;
    }

    /** A user's base URL (a reverse proxy, a provider endpoint): an absolute http(s) URL, else a 400 naming it. */
    public static String httpUrl(String value, String field) {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme();
            if (("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme)) && uri.getHost() != null) {
                return value;
            }
        } catch (URISyntaxException e) {
            // told below
        }
        throw Refusal.badRequest(field + " must be an http(s) URL");
    }
}
