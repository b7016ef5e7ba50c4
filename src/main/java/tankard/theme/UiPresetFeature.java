package tankard.theme;

import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.store.DocumentStore.Folder;

/** {@code /api/themes|moving-ui|quick-replies/*} (ST: src/endpoints/themes.js, moving-ui.js, quick-replies.js). */
public record UiPresetFeature(UiPresets presets) implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/themes/save").handler(routes.blocking(request -> save(request, Folder.THEMES)));
        router.post("/api/themes/delete").handler(routes.blocking(request -> {
            if (!presets.delete(request.user().handle(), Folder.THEMES, name(request))) {
                throw Refusal.notFound("Theme not found");
            }
            return Reply.ok();
        }));
        router.post("/api/moving-ui/save").handler(routes.blocking(request -> save(request, Folder.MOVING_UI)));
        router.post("/api/quick-replies/save").handler(routes.blocking(request -> save(request, Folder.QUICK_REPLIES)));
        router.post("/api/quick-replies/delete").handler(routes.blocking(request -> {
            presets.delete(request.user().handle(), Folder.QUICK_REPLIES, name(request));
            return Reply.ok();
        }));
    }

    private Reply save(Request request, Folder folder) {
        presets.save(request.user().handle(), folder, name(request), request.body());
        return Reply.ok();
    }

    /** The body's {@code name}; 400 when the body is not an object. */
    private static String name(Request request) {
        if (!request.body().isObject()) {
            throw Refusal.badRequest("The body must be a JSON object");
        }
        return request.text("name");
    }
}
