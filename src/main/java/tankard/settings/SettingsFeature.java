package tankard.settings;

import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.util.SafeNames;

/** {@code /api/settings/*} (ST: src/endpoints/settings.js). */
public record SettingsFeature(SettingsService settings) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/settings/get").handler(routes.blocking(request ->
                Reply.json(settings.load(request.user().handle()))));
        router.post("/api/settings/save").handler(routes.blocking(request -> {
            byte[] json = request.ctx().body().buffer() == null ? new byte[0] : request.ctx().body().buffer().getBytes();
            if (json.length == 0 || !request.body().isObject()) {
                throw Refusal.badRequest("The settings must be a JSON object");
            }
            settings.save(request.user().handle(), json);
            return Reply.json(JsJson.object().put("result", "ok"));
        }));
        router.post("/api/settings/get-snapshots").handler(routes.blocking(request ->
                Reply.json(settings.snapshots(request.user().handle()))));
        router.post("/api/settings/load-snapshot").handler(routes.blocking(request ->
                Reply.text(settings.readSnapshot(request.user().handle(), snapshotName(request)))));
        router.post("/api/settings/make-snapshot").handler(routes.blocking(request -> {
            settings.backups().backup(request.user().handle(), false);
            return Reply.noContent();
        }));
        router.post("/api/settings/restore-snapshot").handler(routes.blocking(request -> {
            settings.restoreSnapshot(request.user().handle(), snapshotName(request));
            return Reply.noContent();
        }));
    }

    /** ST's forbidden-character check first, then (in the service) the user's prefix; missing is invalid too. */
    private static String snapshotName(Request request) {
        String name = request.text("name");
        return name == null || name.isEmpty() ? null : SafeNames.noSeparators(name, "snapshot name");
    }
}
