package tankard.extension;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.user.UserDirs;
import tankard.util.FileNames;
import tankard.util.Sanitize;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code /api/extensions/*} (st-api.md §17): discovery of built-in, per-user and global third-party
 * extensions, and their version. Managing extensions needs git, which Tankard does not drive yet, so those
 * routes answer 501. Everything answers 404 when extensions are disabled in config.yaml.
 */
public final class ExtensionFeature implements Feature {
    private static final List<String> GIT_ROUTES = List.of("install", "update", "branches", "switch", "move", "delete");

    private final TankardConfig config;
    private final Path builtIn;
    private final Path global;

    public ExtensionFeature(TankardConfig config) {
        this.config = config;
        this.builtIn = config.frontendDir().resolve("scripts").resolve("extensions");
        this.global = builtIn.resolve("third-party");
    }

    @Override
    public void mount(Router router) {
        router.route("/api/extensions/*").handler(ctx -> {
            if (config.extensionsEnabled()) {
                ctx.next();
            } else {
                ctx.fail(ApiError.notFound("Extensions are disabled in config.yaml"));
            }
        });
        router.get("/api/extensions/discover").handler(Routes.blocking(config, request ->
                Reply.json(discover(request.dirs()))));
        router.post("/api/extensions/version").handler(Routes.blocking(config, this::version));
        for (String route : GIT_ROUTES) {
            router.post("/api/extensions/" + route).handler(Routes.inline(config, request -> {
                throw new ApiError(501, "Managing extensions (" + route + ") is not supported by Tankard yet");
            }));
        }
    }

    /** Built-in folders, then the user's, then global ones that no user folder shadows. Blocking. */
    ArrayNode discover(UserDirs dirs) {
        ArrayNode out = JsJson.array();
        for (String name : folders(builtIn)) {
            if (!name.equals("third-party")) {
                out.addObject().put("type", "system").put("name", name);
            }
        }
        List<String> local = folders(dirs.extensions());
        for (String name : local) {
            out.addObject().put("type", "local").put("name", "third-party/" + name);
        }
        for (String name : folders(global)) {
            if (!local.contains(name)) {
                out.addObject().put("type", "global").put("name", "third-party/" + name);
            }
        }
        return out;
    }

    /**
     * The frontend asks at boot whether third-party extensions are up to date. Without git, every existing
     * extension is reported the way ST reports a folder that is not a git checkout: up to date, no branch.
     */
    private Reply version(Request request) {
        String name = request.body().get("extensionName") != null && request.body().get("extensionName").isTextual()
                ? Sanitize.filename(request.body().get("extensionName").textValue()) : "";
        if (name.isEmpty()) {
            throw ApiError.badRequest("A valid extensionName is required");
        }
        Path base = request.body().path("global").asBoolean(false) ? global : request.dirs().extensions();
        if (!Files.isDirectory(base.resolve(name))) {
            throw ApiError.notFound("Extension not found: " + name);
        }
        return Reply.json(JsJson.object()
                .put("currentBranchName", "")
                .put("currentCommitHash", "")
                .put("isUpToDate", true)
                .put("remoteUrl", ""));
    }

    private static List<String> folders(Path dir) {
        return FileNames.list(dir).stream().filter(name -> Files.isDirectory(dir.resolve(name))).toList();
    }
}
