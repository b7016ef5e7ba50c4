package tankard.extension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.WorkerExecutor;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.outbound.OutboundPolicy;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.store.Locks;
import tankard.store.StripedLocks;
import tankard.user.UserDirs;
import tankard.util.FileNames;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@code /api/extensions/*} (ST: src/endpoints/extensions.js): discovery of built-in, per-user and global third-party
 * extensions, and their management with git ({@link GitExtensions}): install from an http(s) URL, update,
 * version, branches, switch, move between the user's and the global folder, delete. Global extensions are
 * changed by admins only. Everything answers 404 when extensions are disabled in config.yaml.
 * <p>
 * Extension folders are each node's own; what was done to them through any node is recorded
 * ({@link ExtensionRecords}), and a discovery (what ST's frontend asks first, before it loads any extension's files)
 * brings this node's folders of the user and the global ones to the recorded checkouts and deletes those removed.
 */
public final class ExtensionFeature implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(ExtensionFeature.class);

    private final TankardConfig config;
    private final Path builtIn;
    private final Path global;
    private final GitExtensions git;
    private final ExtensionRecords records;
    /** Where the calls to git remotes wait, rather than on the shared workers. */
    private final WorkerExecutor gitThreads;
    /** One git operation at a time per extension folder. */
    private final StripedLocks locks = new StripedLocks(64);

    public ExtensionFeature(TankardConfig config, ExtensionRecords records, OutboundPolicy policy,
                            WorkerExecutor gitThreads) {
        this.records = records;
        this.config = config;
        this.builtIn = config.frontendDir().resolve("scripts").resolve("extensions");
        this.global = builtIn.resolve("third-party");
        this.git = new GitExtensions(new FilteredGitConnections(policy), global);
        this.gitThreads = gitThreads;
    }

    @Override
    public void mount(Router router, Routes routes) {
        router.route("/api/extensions/*").handler(ctx -> {
            if (config.extensionsEnabled()) {
                ctx.next();
            } else {
                // ST's sendStatus(404) (src/endpoints/extensions.js, extensionsEnabledFeatureGuard)
                Reply.status(404).writeTo(ctx.response());
            }
        });
        router.get("/api/extensions/discover").handler(routes.blocking(gitThreads, request -> {
            String user = request.user().handle();
            catchUp(ExtensionRecords.GLOBAL, global);
            catchUp(user, userExtensions(request));
            return Reply.json(discover(userExtensions(request)));
        }));
        router.post("/api/extensions/install").handler(routes.blocking(gitThreads, this::install));
        router.post("/api/extensions/update").handler(routes.blocking(gitThreads, request -> {
            Path folder = existing(request, "update");
            ObjectNode answer = locked(folder, git::update);
            record(request, folder);
            return Reply.json(answer);
        }));
        router.post("/api/extensions/version").handler(routes.blocking(gitThreads, request ->
                Reply.json(locked(existing(request, null), git::version))));
        router.post("/api/extensions/branches").handler(routes.blocking(gitThreads, request ->
                Reply.json(locked(existing(request, "list branches of"), git::branches))));
        router.post("/api/extensions/switch").handler(routes.blocking(gitThreads, this::switchBranch));
        router.post("/api/extensions/move").handler(routes.blocking(this::move));
        router.post("/api/extensions/delete").handler(routes.blocking(this::delete));
    }

    /** Built-in folders, then the user's, then global ones that no user folder shadows. Blocking. */
    ArrayNode discover(Path userExtensions) {
        ArrayNode out = JsJson.array();
        for (String name : folders(builtIn)) {
            if (!name.equals("third-party")) {
                out.addObject().put("type", "system").put("name", name);
            }
        }
        List<String> local = folders(userExtensions);
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

    private Reply install(Request request) {
        JsonNode body = request.body();
        boolean toGlobal = Js.truthy(body.get("global"));
        if (toGlobal && !request.user().admin()) {
            throw Refusal.forbidden("Forbidden: No permission to install global extensions.");
        }
        URI url = httpUrl(body.get("url"));
        String branch = body.path("branch").isTextual() ? body.get("branch").textValue() : null;
        String path = url.getPath() == null ? "" : url.getPath();
        // ST's path.basename(pathname, '.git'): the last segment, trailing slashes ignored
        String last = path.replaceAll("/+$", "");
        last = last.substring(last.lastIndexOf('/') + 1);
        if (last.endsWith(".git") && last.length() > 4) {
            last = last.substring(0, last.length() - 4);
        }
        String name = Sanitize.filename(last);
        if (name.isEmpty()) {
            throw Refusal.badRequest("Could not determine the extension name from the URL. "
                    + "Please provide a valid git repository URL.");
        }
        Path base = toGlobal ? global : userExtensions(request);
        Path target = base.resolve(name);
        try (Locks.Held held = locks.lockAll(target.toString())) {
            if (Files.exists(target)) {
                throw Refusal.conflict("Directory already exists at " + git.shown(target));
            }
            createFolders(base);
            ObjectNode answer = git.install(url.toString(), branch, target);
            record(request, target);
            return Reply.json(answer.put("extensionPath", git.shown(target)).put("folderName", name));
        }
    }

    /** ST's isValidUrl and protocol check: an absolute http(s) URL, nothing else (no file:, ssh: or local paths). */
    private static URI httpUrl(JsonNode value) {
        URI url = null;
        if (value != null && value.isTextual()) {
            try {
                url = new URI(value.textValue().trim());
            } catch (URISyntaxException e) {
                url = null;
            }
        }
        if (url == null || !url.isAbsolute()) {
            throw Refusal.badRequest("Bad Request: A valid URL is required in the request body.");
        }
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || url.getHost() == null) {
            throw Refusal.badRequest("Bad Request: Only HTTP and HTTPS protocols are supported for the Extension URL.");
        }
        return url;
    }

    private Reply switchBranch(Request request) {
        Path folder = existing(request, "switch branches of");
        JsonNode branch = request.body().get("branch");
        if (!Js.truthy(branch)) {
            throw Refusal.badRequest("Bad Request: A valid extensionName and branch are required in the request body.");
        }
        locked(folder, dir -> {
            git.switchBranch(dir, branch.isTextual() ? branch.textValue() : JsJson.stringifyAsJs(branch));
            return null;
        });
        record(request, folder);
        return Reply.noContent();
    }

    /** Moves an extension between the user's folder and the global one (admins only). */
    private Reply move(Request request) {
        String name = extensionName(request.body());
        JsonNode source = request.body().get("source");
        JsonNode destination = request.body().get("destination");
        if (!Js.truthy(source) || !Js.truthy(destination)) {
            throw Refusal.badRequest("Bad Request: A valid extensionName, source, and destination are required in the request body.");
        }
        if (!request.user().admin()) {
            throw Refusal.forbidden("Forbidden: No permission to move extensions.");
        }
        Path from = scope(source, request).resolve(name);
        Path to = scope(destination, request).resolve(name);
        try (Locks.Held held = locks.lockAll(from.toString(), to.toString())) {
            if (!Files.isDirectory(from)) {
                throw Refusal.notFound("Source directory does not exist.");
            }
            if (Files.exists(to)) {
                throw Refusal.conflict("Destination directory already exists.");
            }
            createFolders(to.getParent());
            moveFolder(from, to);
            records.removed(scopeOf(from.getParent(), request), name);
            record(request, to);
            LOG.info("Extension has been moved from {} to {}", from, to);
        }
        return Reply.noContent();
    }

    private Path scope(JsonNode value, Request request) {
        return value.isTextual() && value.textValue().equals("global") ? global : userExtensions(request);
    }

    /** The scope of the records of an extensions folder (the global one, or the user's). */
    private String scopeOf(Path extensionsFolder, Request request) {
        return extensionsFolder.equals(global) ? ExtensionRecords.GLOBAL : request.user().handle();
    }

    /** Records the extension folder's checkout for the other nodes; a folder that is not one is not recorded. */
    private void record(Request request, Path folder) {
        ExtensionRecords.Checkout checkout = git.checkout(folder);
        if (checkout != null) {
            records.installed(scopeOf(folder.getParent(), request), folder.getFileName().toString(), checkout);
        }
    }

    /**
     * Brings this node's extensions folder of the scope to what the records say: a recorded checkout this node lacks
     * or has at another commit is cloned or moved there, a removed one deleted. A failure (the remote down) is
     * logged and leaves the folder as it was: the node serves what it has.
     */
    private void catchUp(String scope, Path base) {
        for (ExtensionRecords.Extension recorded : records.extensions(scope)) {
            if (!Sanitize.filename(recorded.name()).equals(recorded.name())) {
                continue; // never a name an install made
            }
            Path folder = base.resolve(recorded.name());
            try (Locks.Held held = locks.lockAll(folder.toString())) {
                if (recorded.removed()) {
                    if (Files.isDirectory(folder)) {
                        AtomicFiles.deleteTree(folder);
                        LOG.info("Extension removed through another node has been deleted at {}", folder);
                    }
                } else if (!recorded.checkout().equals(git.checkout(folder))) {
                    createFolders(base);
                    git.bringTo(folder, recorded.checkout());
                    LOG.info("Extension at {} brought to commit {} as recorded", folder, recorded.checkout().commit());
                }
            } catch (Refusal | UncheckedIOException e) {
                LOG.warn("Cannot bring the extension at {} to its recorded state", folder, e);
            }
        }
    }

    /** The user's own extensions: code, kept on the node in every storage (docs/operations.md). */
    private Path userExtensions(Request request) {
        return UserDirs.of(config.dataRoot(), request.user().handle()).extensions();
    }

    /**
     * A rename where both folders share a file system; otherwise a copy into a staging folder renamed into
     * place, and only then the source removed, so a failure midway leaves the extension where it was.
     */
    private static void moveFolder(Path from, Path to) {
        try {
            Files.move(from, to);
            return;
        } catch (FileAlreadyExistsException e) {
            throw Refusal.conflict("Destination directory already exists.");
        } catch (IOException e) {
            // another file system: copy below
        }
        Path staging = to.resolveSibling(GitExtensions.STAGING_PREFIX + UUID.randomUUID());
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path path : walk.toList()) {
                Files.copy(path, staging.resolve(from.relativize(path).toString()), StandardCopyOption.COPY_ATTRIBUTES);
            }
            Files.move(staging, to);
        } catch (IOException e) {
            AtomicFiles.deleteTree(staging);
            throw new UncheckedIOException("Cannot move " + from, e);
        }
        AtomicFiles.deleteTree(from);
    }

    private Reply delete(Request request) {
        Path folder = existing(request, "delete");
        locked(folder, dir -> {
            AtomicFiles.deleteTree(dir);
            return null;
        });
        records.removed(scopeOf(folder.getParent(), request), folder.getFileName().toString());
        LOG.info("Extension has been deleted at {}", folder);
        return Reply.text("Extension has been deleted at " + git.shown(folder));
    }

    /**
     * The folder of the extension named in the body, in the user's or (with {@code global}) the global folder:
     * 400 for a missing or unusable name, 403 when a non-admin would {@code verb} a global one (null: anyone
     * may), 404 when there is no such folder.
     */
    private Path existing(Request request, String verb) {
        String name = extensionName(request.body());
        boolean inGlobal = Js.truthy(request.body().get("global"));
        if (inGlobal && verb != null && !request.user().admin()) {
            throw Refusal.forbidden("Forbidden: No permission to " + verb + " global extensions.");
        }
        Path folder = (inGlobal ? global : userExtensions(request)).resolve(name);
        if (!Files.isDirectory(folder)) {
            throw Refusal.notFound("Directory does not exist at " + git.shown(folder));
        }
        return folder;
    }

    /** ST's {@code sanitize(extensionName)}: the frontend sends {@code "/name"}, which becomes {@code "name"}. */
    private static String extensionName(JsonNode body) {
        JsonNode value = body.get("extensionName");
        String name = value != null && value.isTextual() ? Sanitize.filename(value.textValue()) : "";
        if (name.isEmpty()) {
            throw Refusal.badRequest("Bad Request: A valid extensionName is required in the request body.");
        }
        return name;
    }

    private <T> T locked(Path folder, Function<Path, T> action) {
        try (Locks.Held held = locks.lockAll(folder.toString())) {
            return action.apply(folder);
        }
    }

    /** ST makes both third-party folders on demand. */
    private static void createFolders(Path folder) {
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + folder, e);
        }
    }

    /** Sub-folders, without the staging folders of installs under way. */
    private static List<String> folders(Path dir) {
        return FileNames.list(dir).stream()
                .filter(name -> !name.startsWith(GitExtensions.STAGING_PREFIX) && Files.isDirectory(dir.resolve(name)))
                .toList();
    }
}
