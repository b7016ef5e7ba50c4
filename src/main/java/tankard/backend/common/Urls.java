package tankard.backend.common;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** The URL helpers of ST's backend routes. */
public final class Urls {
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
}
