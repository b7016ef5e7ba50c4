package tankard.group;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;

/** {@code POST /api/groups/all} (st-api.md §9): every group with the dates and sizes ST computes. */
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
    }
}
