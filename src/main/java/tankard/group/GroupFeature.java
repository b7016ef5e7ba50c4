package tankard.group;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/**
 * {@code /api/groups/all}, {@code create}, {@code edit} and {@code delete} (ST: src/endpoints/groups.js): every group
 * with the dates and sizes ST computes; new and edited groups stored as ST stores them; a deleted group takes its
 * chats.
 */
public record GroupFeature(GroupService groups) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/groups/all").handler(routes.blocking(request ->
                Reply.json(groups.all(request.user().handle()))));
        router.post("/api/groups/create").handler(routes.blocking(request -> Reply.json(
                groups.create(request.user().handle(), NewGroup.of(request.body()), System.currentTimeMillis()))));
        router.post("/api/groups/edit").handler(routes.blocking(request -> {
            groups.edit(request.user().handle(), GroupEdit.of(request.body()));
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post("/api/groups/delete").handler(routes.blocking(request -> {
            groups.delete(request.user().handle(), GroupRef.of(request.body()));
            return Reply.json(JsJson.object().put("ok", true));
        }));
    }
}
