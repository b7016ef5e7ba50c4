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
import tankard.store.BlobStore;
import tankard.util.AssetNames;
import tankard.util.FileNames;
import tankard.util.MimeTypes;
import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * {@code /api/assets/*} (ST: src/endpoints/assets.js): the user's asset folders (music, ambient sounds, Live2D and
 * VRM models) listed, downloaded from the hosts of {@code whitelistImportDomains} through the {@link UpstreamClient}, and
 * deleted; and a character's own assets listed. Assets are blobs: {@code assets/<category>/<name>}, and a character's
 * {@code characters/<name>/<category>/...}.
 */
public record AssetsFeature(TankardConfig config, UpstreamClient downloader, BlobStore blobs) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(AssetsFeature.class);
    static final List<String> CATEGORIES = List.of("bgm", "ambient", "blip", "live2d", "vrm", "character", "temp");
    /** The largest asset downloaded; models can be big, so as large as an upload may be. */
    static final long DOWNLOAD_LIMIT = Request.BODY_LIMIT;
    /** The folder of the assets, from the user's folder. */
    private static final String FOLDER = "assets";
    /** Where a download is spooled before it is stored (the data root's folder of uploads, emptied at start). */
    private static final String SPOOL = "_uploads";

    @Override
    public void mount(Router router, Routes routes) {
        router.post("/api/assets/get").handler(routes.blocking(request -> Reply.json(list(request.user().handle()))));
        router.post("/api/assets/download").handler(routes.answering(this::download));
        router.post("/api/assets/delete").handler(routes.blocking(this::delete));
        router.post("/api/assets/character").handler(routes.blocking(this::character));
    }

    /** One entry per category folder but temp; nothing when the assets folder does not exist (as ST). Blocking. */
    private ObjectNode list(String user) {
        ObjectNode out = JsJson.object();
        if (!hasAssetsFolder(user)) {
            return out;
        }
        clearCategoryPaths(user);
        // ST makes every category folder first, so each is listed
        Set<String> folders = new TreeSet<>(FileNames.BYTE_ORDER);
        folders.addAll(CATEGORIES);
        folders.addAll(blobs.folders(user, FOLDER));
        for (String folder : folders) {
            if (folder.equals("temp")) {
                continue;
            }
            String dir = FOLDER + "/" + folder;
            if (folder.equals("live2d")) {
                ArrayNode models = out.putArray(folder);
                // ST tests the whole server path for "model"; the path inside the user's folder is what is meant
                blobs.walk(user, dir).stream().map(file -> "/" + file.path())
                        .filter(path -> path.contains("model") && path.endsWith(".json")).forEach(models::add);
            } else if (folder.equals("vrm")) {
                ObjectNode vrm = out.putObject(folder);
                for (String kind : List.of("model", "animation")) {
                    ArrayNode found = vrm.putArray(kind);
                    blobs.walk(user, dir + "/" + kind).stream().map(file -> "/" + file.path())
                            .filter(path -> !path.endsWith(".placeholder")).forEach(found::add);
                }
            } else {
                ArrayNode found = out.putArray(folder);
                entries(user, dir).stream().filter(name -> !name.equals(".placeholder"))
                        .forEach(name -> found.add(dir + "/" + name));
            }
        }
        return out;
    }

    /**
     * Whether the user has an assets folder: on files, whether it is there; on PostgreSQL, which keeps no empty
     * folders, always, as ST makes it with the user.
     */
    private boolean hasAssetsFolder(String user) {
        return config.storage().kind() != TankardConfig.Storage.Kind.FILES || blobs.folders(user, "").contains(FOLDER);
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
        // a name the blob store can write, refused before the download
        String fileName = SafeNames.requireFits(validFileName(body.get("filename")), "filename");
        String user = request.user().handle();
        Path temp = config.dataRoot().resolve(SPOOL).resolve("asset-" + UUID.randomUUID() + ".part");
        var vertx = request.ctx().vertx();
        vertx.executeBlocking(() -> {
            clearCategoryPaths(user);
            if (isFolder(user, category, fileName)) { // refused before the download, not after it
                throw Refusal.badRequest("Not an asset file: " + category + "/" + fileName);
            }
            return null;
        }, false).compose(v -> downloader.toFile(url.toString(), temp, DOWNLOAD_LIMIT)
                .recover(e -> Future.failedFuture(e instanceof UpstreamClient.DownloadException
                        ? Refusal.failed("Asset download failed: " + e.getMessage()) : e)))
                .compose(v -> vertx.executeBlocking(() -> finish(user, category, fileName, temp), false))
                .onComplete(done -> {
                    if (done.failed()) {
                        AtomicFiles.deleteQuietly(temp);
                        request.ctx().fail(done.cause());
                    } else {
                        done.result().writeTo(request.ctx().response());
                    }
                });
    }

    /**
     * A character asset is handed back, not kept; any other is stored in its category, replacing one there. The
     * download is all here by now, so the store's write waits on no remote server.
     */
    private Reply finish(String user, String category, String fileName, Path temp) throws IOException {
        if (category.equals("character")) {
            String type = MimeTypes.forFileName(fileName);
            return Reply.stream(type == null ? MimeTypes.OCTET_STREAM : type, Files.size(temp), out -> {
                try {
                    Files.copy(temp, out);
                } finally {
                    AtomicFiles.deleteQuietly(temp);
                }
            });
        }
        String target = FOLDER + "/" + category + "/" + fileName;
        try (InputStream content = Files.newInputStream(temp)) {
            blobs.write(user, target, content);
        } finally {
            AtomicFiles.deleteQuietly(temp);
        }
        LOG.info("Asset downloaded to {}", target);
        return Reply.ok();
    }

    private Reply delete(Request request) {
        String category = category(request.body().get("category"));
        String fileName = validFileName(request.body().get("filename"));
        String user = request.user().handle();
        if (isFolder(user, category, fileName)) { // ST's unlink fails on a folder (a 500 there)
            throw Refusal.badRequest("Not an asset file: " + category + "/" + fileName);
        }
        if (!blobs.delete(user, FOLDER + "/" + category + "/" + fileName)) {
            throw Refusal.badRequest("Asset not found.");
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
        if (name.isEmpty()) {
            return Reply.json(out);
        }
        String user = request.user().handle();
        String folder = "characters/" + name + "/" + category;
        if (category.equals("live2d")) {
            for (String model : blobs.folders(user, folder)) {
                entries(user, folder + "/" + model).stream()
                        .filter(file -> file.contains("model") && file.endsWith(".json"))
                        .forEach(file -> out.add(folder + "/" + model + "/" + file));
            }
        } else {
            entries(user, folder).stream().filter(entry -> !entry.equals(".placeholder"))
                    .forEach(entry -> out.add("/" + folder + "/" + entry));
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

    /** ST makes every category folder on each call, replacing a file that stands where one should be. Blocking. */
    private void clearCategoryPaths(String user) {
        for (BlobStore.Entry file : blobs.list(user, FOLDER)) {
            if (CATEGORIES.contains(file.name())) {
                blobs.delete(user, file.path());
            }
        }
    }

    /** Whether there is a folder where the asset would be. Blocking. */
    private boolean isFolder(String user, String category, String fileName) {
        return blobs.folders(user, FOLDER + "/" + category).contains(fileName);
    }

    /** The names of a folder's blobs and subfolders, in Node's readdir order (as {@code readdirSync} gives both). */
    private Set<String> entries(String user, String folder) {
        Set<String> names = new TreeSet<>(FileNames.BYTE_ORDER);
        blobs.list(user, folder).forEach(file -> names.add(file.name()));
        names.addAll(blobs.folders(user, folder));
        return names;
    }
}
