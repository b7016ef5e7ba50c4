package tankard.vector;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

/**
 * {@code /api/vector/*}, the server side of ST's Vector Storage extension (ST: src/endpoints/vectors.js). Routes
 * that embed wait for their vectors without holding a thread; the others work on a worker.
 */
public record VectorFeature(VectorService vectors) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/vector/insert").handler(routes.later(request ->
                vectors.insert(request.user().handle(), request.body()).thenApply(done -> Reply.ok())));
        router.post("/api/vector/query").handler(routes.later(request ->
                vectors.query(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/vector/query-multi").handler(routes.later(request ->
                vectors.queryMulti(request.user().handle(), request.body()).thenApply(Reply::json)));
        router.post("/api/vector/list").handler(routes.blocking(request ->
                Reply.json(vectors.list(request.user().handle(), request.body()))));
        router.post("/api/vector/delete").handler(routes.blocking(request -> {
            vectors.delete(request.user().handle(), request.body());
            return Reply.ok();
        }));
        router.post("/api/vector/purge").handler(routes.blocking(request -> {
            vectors.purge(request.user().handle(), request.body());
            return Reply.ok();
        }));
        router.post("/api/vector/purge-all").handler(routes.blocking(request -> {
            vectors.purgeAll(request.user().handle());
            return Reply.ok();
        }));
    }
}
