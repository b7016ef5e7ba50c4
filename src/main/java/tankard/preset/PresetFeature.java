package tankard.preset;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/** {@code /api/presets/*} (ST: src/endpoints/presets.js). */
public record PresetFeature(PresetService presets) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/presets/save").handler(routes.blocking(request -> {
            JsonNode preset = request.body().get("preset");
            if (preset == null || !preset.isContainerNode()) {
                throw Refusal.badRequest("Missing preset object");
            }
            String name = presets.save(request.user().handle(), request.text("apiId"), request.text("name"), preset);
            return Reply.json(JsJson.object().put("name", name));
        }));
        router.post("/api/presets/delete").handler(routes.blocking(request -> {
            presets.delete(request.user().handle(), request.text("apiId"), request.text("name"));
            return Reply.ok();
        }));
        router.post("/api/presets/restore").handler(routes.blocking(request -> {
            JsonNode preset = presets.defaultPreset(request.text("apiId"), request.text("name"));
            return Reply.json(JsJson.object()
                    .put("isDefault", preset != null)
                    .set("preset", preset != null ? preset : JsJson.object()));
        }));
    }
}
