package tankard.userfiles;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.Sanitize;

/**
 * {@code POST /api/files/sanitize-filename}: the file name ST would derive from a name, which the frontend asks
 * for before it creates or imports a lorebook, theme or preset (to warn about overwriting).
 */
public final class SanitizeFileNameFeature implements Feature {
    private final TankardConfig config;

    public SanitizeFileNameFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/files/sanitize-filename").handler(Routes.blocking(config, request -> {
            String fileName = Js.string(request.body().get("fileName")); // String(x), as ST: a missing one is "undefined"
            if (fileName.isEmpty()) {
                throw ApiError.badRequest("No fileName specified");
            }
            return Reply.json(JsJson.object().put("fileName", Sanitize.filename(fileName)));
        }));
    }
}
