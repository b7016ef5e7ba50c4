package tankard.horde;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.List;

/**
 * {@code /api/horde/*} (st-api.md §20.5) while Tankard does not talk to AI Horde: the boot-time probes
 * answer "offline" and empty lists so the frontend starts cleanly, and the calls that would need Horde
 * answer 503 with a clear message.
 */
public final class HordeFeature implements Feature {
    private static final List<String> EMPTY_LISTS = List.of("text-models", "text-workers", "sd-samplers", "sd-models");
    private static final List<String> UNAVAILABLE = List.of("generate-text", "task-status", "cancel-task",
            "generate-image", "caption-image");
    private static final String MESSAGE = "AI Horde is not supported by this Tankard server yet";

    private final TankardConfig config;
    private final SecretStore secrets;

    public HordeFeature(TankardConfig config, SecretStore secrets) {
        this.config = config;
        this.secrets = secrets;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/horde/status").handler(Routes.inline(config, request ->
                Reply.json(JsJson.object().put("ok", false))));
        for (String route : EMPTY_LISTS) {
            router.post("/api/horde/" + route).handler(Routes.inline(config, request -> Reply.json(JsJson.array())));
        }
        router.post("/api/horde/user-info").handler(Routes.blocking(config, request -> {
            if (secrets.read(request.dirs(), SecretKeys.HORDE).isEmpty()) {
                return Reply.json(JsJson.object().put("anonymous", true));
            }
            throw new ApiError(503, MESSAGE);
        }));
        for (String route : UNAVAILABLE) {
            router.post("/api/horde/" + route).handler(Routes.inline(config, request -> {
                throw new ApiError(503, MESSAGE);
            }));
        }
    }
}
