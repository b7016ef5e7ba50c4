package tankard.outbound;

import java.util.Map;

/**
 * Config's {@code tankard.providerOrigins}: origins of the built-in providers' fixed hosts mapped to others (a
 * gateway, or a test's mock; the target may add a path prefix). Every call to a fixed host is rebased here.
 */
public final class ProviderOrigins {
    private final Map<String, String> origins;

    public ProviderOrigins(Map<String, String> origins) {
        this.origins = Map.copyOf(origins);
    }

    /** The URL with a mapped origin replaced by its target; other URLs as they are. */
    public String rebase(String url) {
        for (Map.Entry<String, String> entry : origins.entrySet()) {
            String origin = entry.getKey();
            if (url.startsWith(origin) && (url.length() == origin.length()
                    || "/?#".indexOf(url.charAt(origin.length())) >= 0)) {
                return entry.getValue() + url.substring(origin.length());
            }
        }
        return url;
    }
}
