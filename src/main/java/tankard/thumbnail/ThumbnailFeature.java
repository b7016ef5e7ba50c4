package tankard.thumbnail;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.http.files.FileSender;
import tankard.http.security.SecurityChain;
import tankard.user.User;
import tankard.user.UserDirs;
import tankard.util.Sanitize;

import java.util.List;

/** {@code GET /thumbnail?type=bg|avatar|persona&file=<name>[&animated=true]} (ST: src/endpoints/thumbnails.js). */
public final class ThumbnailFeature implements Feature {
    private final TankardConfig config;
    private final Thumbnails thumbnails;
    private final NodeImages images;

    public ThumbnailFeature(TankardConfig config, NodeImages images) {
        this.config = config;
        this.thumbnails = new Thumbnails(config.thumbnails());
        this.images = images;
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.route("/thumbnail").method(HttpMethod.GET).method(HttpMethod.HEAD).handler(this::thumbnail);
    }

    private void thumbnail(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        String typeName = single(request.params().getAll("type"));
        String file = single(request.params().getAll("file"));
        if (typeName == null || file == null || ThumbnailType.of(typeName) == null) {
            Reply.status(400).writeTo(ctx.response());
            return;
        }
        if (!Sanitize.filename(file).equals(file)) {
            Reply.status(403).writeTo(ctx.response());
            return;
        }
        if (file.isEmpty()) {
            Reply.status(404).writeTo(ctx.response());
            return;
        }
        ThumbnailType type = ThumbnailType.of(typeName);
        boolean animated = "true".equals(request.getParam("animated"));
        User user = SecurityChain.user(ctx);
        UserDirs dirs = UserDirs.of(config.dataRoot(), user.handle());
        ctx.vertx().executeBlocking(() -> thumbnails.fileFor(images.file(user.handle(), type.original(file)), dirs, type,
                        animated), false)
                .compose(path -> FileSender.send(ctx, path, true))
                .onSuccess(outcome -> {
                    if (outcome != FileSender.Outcome.SENT) {
                        Reply.status(404).writeTo(ctx.response());
                    }
                })
                .onFailure(ctx::fail);
    }

    /** A query parameter given exactly once (Express makes repeated ones an array, which ST refuses). */
    private static String single(List<String> values) {
        return values.size() == 1 ? values.get(0) : null;
    }
}
