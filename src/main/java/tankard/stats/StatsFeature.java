package tankard.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.AtomicFiles;

/**
 * {@code /api/stats/get|update} (st-api.md §18.1). The frontend keeps the statistics and posts the whole
 * object after each message; Tankard writes it straight to {@code stats.json} (compact) instead of ST's
 * in-memory copy flushed every 5 minutes, so nothing is lost on a crash.
 */
public final class StatsFeature implements Feature {
    private final TankardConfig config;

    public StatsFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/stats/get").handler(Routes.blocking(config, request -> {
            JsonNode stats = JsonFiles.tryRead(request.dirs().statsFile());
            return Reply.json(stats instanceof ObjectNode ? stats : JsJson.object());
        }));
        router.post("/api/stats/update").handler(Routes.blocking(config, request -> {
            if (!(request.body() instanceof ObjectNode stats)) {
                throw ApiError.badRequest("The statistics must be a JSON object");
            }
            stats.put("timestamp", System.currentTimeMillis());
            AtomicFiles.write(request.dirs().statsFile(), JsJson.compact(stats));
            return Reply.ok();
        }));
    }
}
