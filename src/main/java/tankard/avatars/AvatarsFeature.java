package tankard.avatars;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.image.ImageFiles;

/** Persona images (st-api.md §13): {@code POST /api/avatars/get} lists the files of {@code User Avatars/}. */
public final class AvatarsFeature implements Feature {
    private final TankardConfig config;

    public AvatarsFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/avatars/get").handler(Routes.blocking(config, request -> {
            request.body(); // malformed JSON is a 400, as with ST's body parser
            return Reply.json(ImageFiles.list(request.dirs().avatars()));
        }));
    }
}
