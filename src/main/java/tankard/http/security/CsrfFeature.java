package tankard.http.security;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * {@code GET /csrf-token}: one token per session, created on first request (csrf-sync, as ST: src/server-main.js sets
 * it up).
 */
public final class CsrfFeature implements Feature {
    private static final SecureRandom RANDOM = new SecureRandom();
    private final TankardConfig config;

    public CsrfFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mountPublic(Router router, Routes routes) {
        router.get("/csrf-token").handler(routes.inline(request -> {
            if (config.security().disableCsrf()) {
                return Reply.json(JsJson.object().put("token", "disabled"));
            }
            Session session = request.session();
            if (session.csrfToken() == null) {
                byte[] token = new byte[32];
                RANDOM.nextBytes(token);
                session.csrfToken(HexFormat.of().formatHex(token));
            }
            return Reply.json(JsJson.object().put("token", session.csrfToken()));
        }));
    }

    @Override
    public void mount(Router router, Routes routes) {
    }
}
