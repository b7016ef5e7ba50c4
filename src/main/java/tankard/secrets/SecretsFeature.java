package tankard.secrets;

import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;

/** {@code /api/secrets/*} (ST: src/endpoints/secrets.js). */
public record SecretsFeature(TankardConfig config, SecretStore secrets) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(SecretsFeature.class);

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/secrets/read").handler(routes.blocking(request -> {
            try {
                return Reply.json(secrets.state(request.user().handle()));
            } catch (IllegalStateException e) {
                // ST answers an unreadable file with an empty state; the file itself is left as it is.
                LOG.error("Cannot read the secrets of {}: {}", request.user().handle(), e.getMessage());
                return Reply.json(JsJson.object());
            }
        }));
        router.post("/api/secrets/write").handler(routes.blocking(request -> {
            String key = request.text("key");
            var value = request.body().get("value");
            if (key == null || key.isEmpty() || value == null || !value.isTextual()) {
                throw Refusal.badRequest("Invalid key or value");
            }
            String id = secrets.write(request.user().handle(), key, value.textValue(), request.body().get("label"));
            return Reply.json(JsJson.object().put("id", id));
        }));
        router.post("/api/secrets/delete").handler(routes.blocking(request -> {
            secrets.delete(request.user().handle(), required(request, "key", "Key and ID are required"), request.text("id"));
            return Reply.noContent();
        }));
        router.post("/api/secrets/rotate").handler(routes.blocking(request -> {
            String message = "Key and ID are required";
            secrets.rotate(request.user().handle(), required(request, "key", message), required(request, "id", message));
            return Reply.noContent();
        }));
        router.post("/api/secrets/rename").handler(routes.blocking(request -> {
            String message = "Key, ID, and label are required";
            secrets.rename(request.user().handle(), required(request, "key", message), required(request, "id", message),
                    required(request, "label", message));
            return Reply.noContent();
        }));
        router.post("/api/secrets/find").handler(routes.blocking(request -> {
            String key = required(request, "key", "Key is required");
            if (!secrets.exposable(key)) {
                throw Refusal.forbidden("Secrets cannot be read unless allowKeysExposure is true in config.yaml");
            }
            if (!secrets.has(request.user().handle(), key)) {
                throw Refusal.notFound("No secret for " + key);
            }
            return Reply.json(JsJson.object().put("value", secrets.read(request.user().handle(), key, request.text("id"))));
        }));
        router.post("/api/secrets/view").handler(routes.blocking(request -> {
            if (!secrets.allowKeysExposure()) {
                throw Refusal.forbidden("Secrets cannot be viewed unless allowKeysExposure is true in config.yaml");
            }
            return Reply.json(secrets.activeValues(request.user().handle()));
        }));
        router.post("/api/secrets/settings").handler(routes.inline(request ->
                Reply.json(JsJson.object().put("allowKeysExposure", secrets.allowKeysExposure()))));
    }

    /** A body member ST requires to be truthy; its message is ST's. */
    private static String required(Request request, String field, String message) {
        String value = request.text(field);
        if (value == null || value.isEmpty()) {
            throw Refusal.badRequest(message);
        }
        return value;
    }
}
