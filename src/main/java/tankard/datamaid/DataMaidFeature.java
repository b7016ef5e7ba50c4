package tankard.datamaid;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.util.MimeTypes;

import java.nio.file.Files;
import java.nio.file.Path;

/** {@code /api/data-maid/*} (st-api.md §18.4). */
public final class DataMaidFeature implements Feature {
    private final TankardConfig config;
    private final DataMaid maid;

    public DataMaidFeature(TankardConfig config, DataMaid maid) {
        this.config = config;
        this.maid = maid;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/data-maid/report").handler(Routes.blocking(config, request ->
                Reply.json(maid.report(request.dirs(), request.user().handle()))));
        router.post("/api/data-maid/finalize").handler(Routes.blocking(config, request -> {
            maid.finalize(request.body().get("token"), request.user().handle());
            return Reply.noContent();
        }));
        router.get("/api/data-maid/view").handler(Routes.blocking(config, request -> {
            Path file = maid.reported(request.query("token"), request.query("hash"), request.user().handle());
            String type = MimeTypes.forFileName(file.getFileName().toString());
            return Reply.stream(type != null ? type : "text/plain", Files.size(file), out -> Files.copy(file, out));
        }));
        router.post("/api/data-maid/delete").handler(Routes.blocking(config, request -> {
            maid.delete(request.body().get("token"), request.body().path("hashes"), request.user().handle());
            return Reply.noContent();
        }));
    }
}
