package tankard.http;

import io.vertx.ext.web.Router;

/** One feature's HTTP surface. Routes mounted by {@link #mount} sit behind the authentication gate. */
public interface Feature {
    /** Routes reachable without a signed-in user (login page API, CSRF token). */
    default void mountPublic(Router router) {
    }

    void mount(Router router);
}
