package tankard.group;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;

/**
 * {@code /api/groups/all}, {@code create}, {@code edit} and {@code delete} (st-api.md §9): every group with the
 * dates and sizes ST computes; new and edited groups stored as ST stores them; a deleted group takes its chats.
 */
public final class GroupFeature implements Feature {
    private final TankardConfig config;
    private final GroupService groups;

    public GroupFeature(TankardConfig config, GroupService groups) {
        this.config = config;
        this.groups = groups;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/groups/all").handler(Routes.blocking(config, request ->
                Reply.json(groups.all(request.user().handle()))));
        router.post("/api/groups/create").handler(Routes.blocking(config, request ->
                Reply.json(groups.create(request.user().handle(), request.body(), System.currentTimeMillis()))));
        router.post("/api/groups/edit").handler(Routes.blocking(config, request -> {
            groups.edit(request.user().handle(), request.body());
            return Reply.json(JsJson.object().put("ok", true));
        }));
        router.post("/api/groups/delete").handler(Routes.blocking(config, request -> {
            groups.delete(request.user().handle(), request.body());
            return Reply.json(JsJson.object().put("ok", true));
        }));
    }
}
