package tankard.system;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/** Server identity and keep-alive: {@code GET /version}, {@code POST /api/ping} (ST: src/server-main.js). */
public final class SystemFeature implements Feature {
    /** The ST release whose API Tankard speaks; extensions compare it with their minimum_client_version. */
    public static final String ST_VERSION = "1.18.0";


    @Override
    public void mount(Router router, Routes routes) {
        router.get("/version").handler(routes.inline(request -> Reply.json(JsJson.object()
                .put("agent", "SillyTavern:" + ST_VERSION + ":Tankard")
                .put("pkgVersion", ST_VERSION)
                .putNull("gitRevision")
                .putNull("gitBranch")
                .putNull("commitDate")
                .put("isLatest", true))));
        router.post("/api/ping").handler(routes.inline(request -> {
            if (request.query("extend") != null) {
                request.session().touch();
            }
            return Reply.noContent();
        }));
    }
}
