package tankard.outbound;

import io.vertx.core.MultiMap;
import tankard.config.TankardConfig.RequestOverride;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * ST's {@code requestOverrides}: the headers of the first entry whose {@code hosts} lists the backend URL's
 * host (with its port unless it is the scheme's default, as WHATWG's {@code URL.host}) override same-named ones.
 */
public final class RequestOverrides {
    private final List<RequestOverride> entries;

    public RequestOverrides(List<RequestOverride> entries) {
        this.entries = entries;
    }

    public void apply(MultiMap headers, String server) {
        String host = host(server);
        if (host == null || host.isEmpty()) {
            return;
        }
        entries.stream().filter(entry -> entry.hosts().contains(host)).findFirst()
                .ifPresent(entry -> entry.headers().forEach(headers::set));
    }

    private static String host(String server) {
        if (server == null || server.isEmpty()) {
            return null;
        }
        try {
            URI uri = new URI(server);
            if (uri.getHost() == null) {
                return null;
            }
            int port = uri.getPort();
            boolean defaultPort = port == -1 || port == 80 && "http".equalsIgnoreCase(uri.getScheme())
                    || port == 443 && "https".equalsIgnoreCase(uri.getScheme());
            String host = uri.getHost().toLowerCase(Locale.ROOT);
            return defaultPort ? host : host + ":" + port;
        } catch (URISyntaxException e) {
            return null;
        }
    }
}
