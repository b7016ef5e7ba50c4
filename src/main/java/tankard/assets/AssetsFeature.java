package tankard.assets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.outbound.UpstreamClient;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.user.UserDirs;
import tankard.util.AssetNames;
import tankard.util.FileNames;
import tankard.util.MimeTypes;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * {@code /api/assets/*} (ST: src/endpoints/assets.js): the user's asset folders (music, ambient sounds, Live2D and
 * VRM models) listed, downloaded from the hosts of {@code whitelistImportDomains} through the {@link UpstreamClient}, and
 * deleted; and a character's own assets listed.
 */
public record AssetsFeature(TankardConfig config, UpstreamClient downloader) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(AssetsFeature.class);
    static final List<String> CATEGORIES = List.of("bgm", "ambient", "blip", "live2d", "vrm", "character", "temp");
    /** The largest asset downloaded; models can be big, so as large as an upload may be. */
    static final long DOWNLOAD_LIMIT = Request.BODY_LIMIT;

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/assets/get").handler(routes.blocking(request -> Reply.json(list(request.dirs()))));
        router.post("/api/assets/download").handler(routes.answering(this::download));
        router.post("/api/assets/delete").handler(routes.blocking(this::delete));
        router.post("/api/assets/character").handler(routes.blocking(this::character));
    }

    /** One entry per category folder but temp; nothing when the assets folder does not exist (as ST). Blocking. */
    ObjectNode list(UserDirs dirs) {
        Path root = dirs.assets();
        ObjectNode out = JsJson.object();
        if (!Files.isDirectory(root)) {
            return out;
        }
        ensureFolders(root);
        for (String folder : FileNames.list(root)) {
            Path dir = root.resolve(folder);
            if (folder.equals("temp") || !Files.isDirectory(dir)) {
                continue;
            }
            if (folder.equals("live2d")) {
                ArrayNode models = out.putArray(folder);
                // ST tests the whole server path for "model"; the path inside the user's folder is what is meant
                files(dir).stream().map(file -> clientPath(dirs, file))
                        .filter(path -> path.contains("model") && path.endsWith(".json")).forEach(models::add);
            } else if (folder.equals("vrm")) {
                ObjectNode vrm = out.putObject(folder);
                for (String kind : List.of("model", "animation")) {
                    ArrayNode found = vrm.putArray(kind);
                    files(dir.resolve(kind)).stream().filter(file -> !file.toString().endsWith(".placeholder"))
                            .map(file -> clientPath(dirs, file)).forEach(found::add);
                }
            } else {
                ArrayNode found = out.putArray(folder);
                FileNames.list(dir).stream().filter(name -> !name.equals(".placeholder"))
                        .forEach(name -> found.add("assets/" + folder + "/" + name));
            }
        }
        return out;
    }

    private void download(Request request) {
        JsonNode body = request.body();
        URI url = httpUrl(body.get("url"));
        String host = url.getHost().toLowerCase(Locale.ROOT); // as content import compares it
        if (!config.outbound().importDomains().contains(host)) {
            LOG.error("Received an import for \"{}\", but site is not whitelisted. This domain must be added to the "
                    + "config key \"whitelistImportDomains\" to allow import from this source.", host);
            throw Refusal.notFound("The host " + host + " is not in whitelistImportDomains");
        }
        String category = category(body.get("category"));
        String fileName = validFileName(body.get("filename"));
        Path root = request.dirs().assets();
        Path temp = root.resolve("temp").resolve(fileName + "." + UUID.randomUUID() + ".part");
        Path target = root.resolve(category).resolve(fileName);
        var vertx = request.ctx().vertx();
        vertx.executeBlocking(() -> {
            ensureFolders(root);
            if (Files.isDirectory(target)) { // refused before the download, not after it
                throw Refusal.badRequest("Not an asset file: " + category + "/" + fileName);
            }
            return null;
        }, false).compose(v -> downloader.toFile(url.toString(), temp, DOWNLOAD_LIMIT)
                .recover(e -> Future.failedFuture(e instanceof UpstreamClient.DownloadException
                        ? Refusal.failed("Asset download failed: " + e.getMessage()) : e)))
                .compose(v -> vertx.executeBlocking(() -> finish(category, temp, target), false))
                .onComplete(done -> {
                    if (done.failed()) {
                        AtomicFiles.deleteQuietly(temp);
                        request.ctx().fail(done.cause());
                    } else {
                        done.result().writeTo(request.ctx().response());
                    }
                });
    }

    /** A character asset is handed back, not kept; any other is moved into its category, replacing one there. */
    private static Reply finish(String category, Path temp, Path target) throws IOException {
        if (category.equals("character")) {
            String type = MimeTypes.forFileName(target.getFileName().toString());
            return Reply.stream(type == null ? MimeTypes.OCTET_STREAM : type, Files.size(temp), out -> {
                try {
                    Files.copy(temp, out);
                } finally {
                    AtomicFiles.deleteQuietly(temp);
                }
            });
        }
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        AtomicFiles.syncFolder(target.getParent());
        LOG.info("Asset downloaded to {}", target);
        return Reply.ok();
    }

    private Reply delete(Request request) {
        String category = category(request.body().get("category"));
        String fileName = validFileName(request.body().get("filename"));
        Path file = request.dirs().assets().resolve(category).resolve(fileName);
        if (Files.isDirectory(file)) { // ST's unlink fails on a folder (a 500 there)
            throw Refusal.badRequest("Not an asset file: " + category + "/" + fileName);
        }
        try {
            if (!Files.deleteIfExists(file)) {
                throw Refusal.badRequest("Asset not found.");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + file, e);
        }
        return Reply.ok();
    }

    /** A character's own assets of one category ({@code ?name=&category=}). */
    private Reply character(Request request) {
        String rawName = request.query("name");
        if (rawName == null) {
            throw Refusal.badRequest("A character name is required");
        }
        String name = Sanitize.filename(rawName);
        String category = category(JsJson.tree(request.query("category")));
        ArrayNode out = JsJson.array();
        Path folder = request.dirs().characters().resolve(name).resolve(category);
        if (name.isEmpty() || !Files.isDirectory(folder)) {
            return Reply.json(out);
        }
        for (String entry : FileNames.list(folder)) {
            if (category.equals("live2d")) {
                if (Files.isDirectory(folder.resolve(entry))) {
                    FileNames.list(folder.resolve(entry)).stream()
                            .filter(file -> file.contains("model") && file.endsWith(".json"))
                            .forEach(file -> out.add("characters/" + name + "/" + category + "/" + entry + "/" + file));
                }
            } else if (!entry.equals(".placeholder")) {
                out.add("/characters/" + name + "/" + category + "/" + entry);
            }
        }
        return Reply.json(out);
    }

    private static String category(JsonNode value) {
        if (value == null || !value.isTextual() || !CATEGORIES.contains(value.textValue())) {
            throw Refusal.badRequest("Unsupported asset category.");
        }
        return value.textValue();
    }

    /** ST's validateAssetFileName ({@link AssetNames}). */
    static String validFileName(JsonNode value) {
        String name = value != null && value.isTextual() ? value.textValue() : "";
        String problem = AssetNames.problem(name);
        if (problem != null) {
            throw Refusal.badRequest(problem);
        }
        return name;
    }

    /** An absolute http(s) URL with a host (ST takes any URL, and then fails to fetch other schemes). */
    public static URI httpUrl(JsonNode value) {
        try {
            URI url = new URI(value != null && value.isTextual() ? value.textValue().trim() : "");
            String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("http") || scheme.equals("https")) && url.getHost() != null) {
                return url;
            }
        } catch (java.net.URISyntaxException e) {
            // answered below
        }
        throw Refusal.badRequest("Must be a valid http(s) URL");
    }

    /** ST makes every category folder on each call, replacing a file that stands where one should be. */
    private static void ensureFolders(Path root) {
        try {
            for (String category : CATEGORIES) {
                Path dir = root.resolve(category);
                if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
                    Files.delete(dir);
                }
                Files.createDirectories(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the asset folders", e);
        }
    }

    private static List<Path> files(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return new ArrayList<>(walk.filter(Files::isRegularFile).sorted().toList());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
    }

    /** ST's clientRelativePath: the path under the user's folder, with a leading slash. */
    private static String clientPath(UserDirs dirs, Path file) {
        return "/" + dirs.root().relativize(file).toString().replace('\\', '/');
    }
}
