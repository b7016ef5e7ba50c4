package tankard.http;

import io.vertx.ext.web.Router;

import java.util.Set;

/** One feature's HTTP surface. Routes mounted by {@link #mount} sit behind the authentication gate. */
public interface Feature {
    /**
     * Routes and handlers before the security chain, for callers that have no login and may not be in the whitelist
     * (a load balancer's health checks): they must answer nothing private.
     */
    default void mountFirst(Router router, Routes routes) {
    }

    /** Routes reachable without a signed-in user (login page API, CSRF token). */
    default void mountPublic(Router router, Routes routes) {
    }

    /** Mounts the feature's routes, their handlers made by {@code routes}. */
    void mount(Router router, Routes routes);

    /** Paths whose request bodies are not buffered: their routes read them with {@link Routes#streamed}. */
    default Set<String> streamedBodyPaths() {
        return Set.of();
    }
}
