package tankard.http;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.security.Session;
import tankard.json.JsJson;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * {@code GET /csrf-token}: one token per session, created on first request (csrf-sync, as ST: src/server-main.js sets
 * it up).
 */
public record CsrfFeature(TankardConfig config) implements Feature {
    private static final SecureRandom RANDOM = new SecureRandom();

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
