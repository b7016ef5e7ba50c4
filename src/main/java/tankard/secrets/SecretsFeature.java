package tankard.secrets;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/** {@code /api/secrets/*} (st-api.md §6). */
public final class SecretsFeature implements Feature {
    private final TankardConfig config;
    private final SecretStore secrets;

    public SecretsFeature(TankardConfig config, SecretStore secrets) {
        this.config = config;
        this.secrets = secrets;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/secrets/read").handler(Routes.blocking(config, request ->
                Reply.json(secrets.state(request.dirs()))));
        router.post("/api/secrets/write").handler(Routes.blocking(config, request -> {
            String key = request.text("key");
            var value = request.body().get("value");
            if (key == null || key.isEmpty() || value == null || !value.isTextual()) {
                throw ApiError.badRequest("Invalid key or value");
            }
            String id = secrets.write(request.dirs(), key, value.textValue(), request.body().get("label"));
            return Reply.json(JsJson.object().put("id", id));
        }));
        router.post("/api/secrets/delete").handler(Routes.blocking(config, request -> {
            secrets.delete(request.dirs(), request.requireText("key"), request.text("id"));
            return Reply.noContent();
        }));
        router.post("/api/secrets/rotate").handler(Routes.blocking(config, request -> {
            secrets.rotate(request.dirs(), request.requireText("key"), request.requireText("id"));
            return Reply.noContent();
        }));
        router.post("/api/secrets/rename").handler(Routes.blocking(config, request -> {
            secrets.rename(request.dirs(), request.requireText("key"), request.requireText("id"),
                    request.requireText("label"));
            return Reply.noContent();
        }));
        router.post("/api/secrets/find").handler(Routes.blocking(config, request -> {
            String key = request.text("key");
            if (key == null || key.isEmpty()) {
                throw ApiError.badRequest("Key is required");
            }
            if (!secrets.exposable(key)) {
                throw ApiError.forbidden("Secrets cannot be read unless allowKeysExposure is true in config.yaml");
            }
            if (!secrets.has(request.dirs(), key)) {
                throw ApiError.notFound("No secret for " + key);
            }
            return Reply.json(JsJson.object().put("value", secrets.read(request.dirs(), key, request.text("id"))));
        }));
        router.post("/api/secrets/view").handler(Routes.blocking(config, request -> {
            if (!secrets.allowKeysExposure()) {
                throw ApiError.forbidden("Secrets cannot be viewed unless allowKeysExposure is true in config.yaml");
            }
            return Reply.json(secrets.activeValues(request.dirs()));
        }));
        router.post("/api/secrets/settings").handler(Routes.inline(config, request ->
                Reply.json(JsJson.object().put("allowKeysExposure", secrets.allowKeysExposure()))));
    }
}
