package tankard.theme;

import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
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
 * themes, Moving UI presets and Quick Reply sets (st-api.md §12, st-data.md §4.6). They are listed by
 * {@code /api/settings/get}.
 */
public final class UiPresetFeature implements Feature {
    private final TankardConfig config;

    public UiPresetFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/themes/save").handler(Routes.blocking(config, request -> save(request, UserDirs::themes)));
        router.post("/api/themes/delete").handler(Routes.blocking(config, request -> {
            if (!Files.deleteIfExists(file(request, UserDirs::themes))) {
                throw ApiError.notFound("Theme not found");
            }
            return Reply.ok();
        }));
        router.post("/api/moving-ui/save").handler(Routes.blocking(config, request -> save(request, UserDirs::movingUi)));
        router.post("/api/quick-replies/save").handler(Routes.blocking(config, request ->
                save(request, UserDirs::quickReplies)));
        router.post("/api/quick-replies/delete").handler(Routes.blocking(config, request -> {
            Files.deleteIfExists(file(request, UserDirs::quickReplies));
            return Reply.ok();
        }));
    }

    private static Reply save(Request request, Function<UserDirs, Path> folder) {
        Path file = file(request, folder);
        AtomicFiles.write(file, JsJson.pretty(request.body()));
        return Reply.ok();
    }

    /** The document's file from the body's {@code name}; a name with path separators is refused. */
    private static Path file(Request request, Function<UserDirs, Path> folder) {
        if (!request.body().isObject()) {
            throw ApiError.badRequest("The body must be a JSON object");
        }
        String name = SafeNames.noSeparators(request.text("name"), "name");
        return SafeNames.sanitizedFile(folder.apply(request.dirs()), name + ".json", "name");
    }
}
