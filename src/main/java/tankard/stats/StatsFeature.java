package tankard.stats;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

/** {@code /api/stats/get|update|recreate} (src/endpoints/stats.js); see {@link StatsService}. */
public record StatsFeature(StatsService stats) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/stats/get").handler(routes.blocking(request -> Reply.json(stats.get(request.user().handle()))));
        router.post("/api/stats/recreate").handler(routes.blocking(request -> {
            stats.recreate(request.user().handle());
            return Reply.ok();
        }));
        router.post("/api/stats/update").handler(routes.blocking(request -> {
            if (!(request.body() instanceof ObjectNode body)) {
                throw Refusal.badRequest("The statistics must be a JSON object");
            }
            stats.update(request.user().handle(), body);
            return Reply.ok();
        }));
    }
}
