package tankard.preset;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/** {@code /api/presets/*} (st-api.md §11). */
public final class PresetFeature implements Feature {
    private final TankardConfig config;
    private final PresetService presets;

    public PresetFeature(TankardConfig config, PresetService presets) {
        this.config = config;
        this.presets = presets;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/presets/save").handler(Routes.blocking(config, request -> {
            JsonNode preset = request.body().get("preset");
            if (preset == null || !preset.isContainerNode()) {
                throw ApiError.badRequest("Missing preset object");
            }
            String name = presets.save(request.dirs(), request.text("apiId"), request.text("name"), preset);
            return Reply.json(JsJson.object().put("name", name));
        }));
        router.post("/api/presets/delete").handler(Routes.blocking(config, request -> {
            presets.delete(request.dirs(), request.text("apiId"), request.text("name"));
            return Reply.ok();
        }));
        router.post("/api/presets/restore").handler(Routes.blocking(config, request -> {
            JsonNode preset = presets.defaultPreset(request.text("apiId"), request.text("name"));
            return Reply.json(JsJson.object()
                    .put("isDefault", preset != null)
                    .set("preset", preset != null ? preset : JsJson.object()));
        }));
    }
}
