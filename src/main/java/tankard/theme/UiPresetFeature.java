package tankard.theme;

import io.vertx.ext.web.Router;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.user.UserDirs;
import tankard.util.SafeNames;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Named UI documents stored as {@code <folder>/sanitize(name + ".json")}, the posted object pretty-printed:
 * themes, Moving UI presets and Quick Reply sets (ST: src/endpoints/themes.js, moving-ui.js, quick-replies.js). They
 * are listed by {@code /api/settings/get}.
 */
public final class UiPresetFeature implements Feature {
    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/themes/save").handler(routes.blocking(request -> save(request, UserDirs::themes)));
        router.post("/api/themes/delete").handler(routes.blocking(request -> {
            if (!Files.deleteIfExists(file(request, UserDirs::themes))) {
                throw Refusal.notFound("Theme not found");
            }
            return Reply.ok();
        }));
        router.post("/api/moving-ui/save").handler(routes.blocking(request -> save(request, UserDirs::movingUi)));
        router.post("/api/quick-replies/save").handler(routes.blocking(request ->
                save(request, UserDirs::quickReplies)));
        router.post("/api/quick-replies/delete").handler(routes.blocking(request -> {
            Files.deleteIfExists(file(request, UserDirs::quickReplies));
            return Reply.ok();
        }));
    }

    private static Reply save(Request request, Function<UserDirs, Path> folder) {
        Path file = file(request, folder);
        AtomicFiles.write(file, JsJson.pretty(request.body()));
        return Reply.ok();
    }

    /** The document's file from the body's {@code name}, cleaned as ST cleans it: {@code ../a} is {@code ..a.json}. */
    private static Path file(Request request, Function<UserDirs, Path> folder) {
        if (!request.body().isObject()) {
            throw Refusal.badRequest("The body must be a JSON object");
        }
        String name = SafeNames.required(request.text("name"), "name");
        return SafeNames.sanitizedFile(folder.apply(request.dirs()), name + ".json", "name");
    }
}
