package tankard.datamaid;

import io.vertx.ext.web.Router;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.util.MimeTypes;

/** {@code /api/data-maid/*} (src/endpoints/data-maid.js). */
public record DataMaidFeature(DataMaid maid) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/data-maid/report").handler(routes.blocking(request ->
                Reply.json(maid.report(request.user().handle()))));
        router.post("/api/data-maid/finalize").handler(routes.blocking(request -> {
            maid.finalize(request.body().get("token"), request.user().handle());
            return Reply.noContent();
        }));
        router.get("/api/data-maid/view").handler(routes.blocking(request -> {
            Loose.View file = maid.view(request.query("token"), request.query("hash"), request.user().handle());
            String type = MimeTypes.forFileName(file.name());
            return Reply.stream(type != null ? type : "text/plain", file.size(), file.content()::writeTo);
        }));
        router.post("/api/data-maid/delete").handler(routes.blocking(request -> {
            maid.delete(request.body().get("token"), request.body().path("hashes"), request.user().handle());
            return Reply.noContent();
        }));
    }
}
