package tankard.stats;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.AtomicFiles;

/**
 * {@code /api/stats/get|update|recreate} (src/endpoints/stats.js). The frontend keeps the statistics and posts the
 * whole object after each message; Tankard writes it straight to {@code stats.json} (compact) instead of ST's
 * in-memory copy flushed every 5 minutes, so nothing is lost on a crash. Where ST rebuilds a missing or
 * unreadable file at start-up, Tankard answers a read with the rebuilt statistics but writes nothing (reading
 * never changes a data root); the frontend's next update stores them.
 */
public record StatsFeature(StatsRebuilder rebuilder) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/stats/get").handler(routes.blocking(request -> {
            JsonNode stats = JsonFiles.tryRead(request.dirs().statsFile());
            return Reply.json(stats instanceof ObjectNode ? stats
                    : rebuilder.rebuild(request.dirs(), request.user().handle(), System.currentTimeMillis()));
        }));
        router.post("/api/stats/recreate").handler(routes.blocking(request -> {
            ObjectNode stats = rebuilder.rebuild(request.dirs(), request.user().handle(), System.currentTimeMillis());
            AtomicFiles.write(request.dirs().statsFile(), JsJson.compact(stats));
            return Reply.ok();
        }));
        router.post("/api/stats/update").handler(routes.blocking(request -> {
            if (!(request.body() instanceof ObjectNode stats)) {
                throw Refusal.badRequest("The statistics must be a JSON object");
            }
            stats.put("timestamp", System.currentTimeMillis());
            AtomicFiles.write(request.dirs().statsFile(), JsJson.compact(stats));
            return Reply.ok();
        }));
    }
}
