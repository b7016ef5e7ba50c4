package tankard.backgrounds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.image.ImageFiles;
import tankard.image.MediaSniff;
import tankard.image.MediaUploads;
import tankard.imagemetadata.ImageMetadataIndex;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.thumbnail.ThumbnailType;
import tankard.thumbnail.Thumbnails;
import tankard.util.FileNames;
import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * The backgrounds of ST's src/endpoints/backgrounds.js: listings, upload, rename and delete of the blobs of
 * {@code backgrounds/}. Each change also invalidates the bg thumbnail (of this node: another node's cache sees the
 * change by the blob's time) and keeps {@code image-metadata.json} in step.
 */
public record BackgroundsFeature(TankardConfig config, BlobStore blobs, ImageMetadataIndex metadata) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundsFeature.class);
    private static final String FOLDER = "backgrounds";

    /** ST takes uploads of any size; an animated background converted from a video stays well below this. */
    static final long MAX_UPLOAD_BYTES = 64L << 20;

    @Override
    public void mount(Router router, Routes routes) {
        // The bodies are read only to refuse malformed JSON with 400, as ST's body parser does.
        router.post("/api/backgrounds/all").handler(routes.blocking(request -> {
            request.body();
            return Reply.json(all(request.user().handle()));
        }));
        router.post("/api/backgrounds/folders").handler(routes.blocking(request -> {
            request.body();
            return Reply.json(folders(request.user().handle()));
        }));
        router.post("/api/backgrounds/upload").handler(routes.blocking(request -> {
            FileUpload upload = request.upload();
            if (upload == null) {
                throw Refusal.badRequest("No background image uploaded");
            }
            return Reply.text(upload(request.user().handle(), upload));
        }));
        router.post("/api/backgrounds/delete").handler(routes.blocking(request -> {
            delete(request.user().handle(), request.body().get("bg"));
            return Reply.text("ok");
        }));
        router.post("/api/backgrounds/rename").handler(routes.blocking(request -> {
            rename(request.user().handle(), request.body().get("old_bg"), request.body().get("new_bg"));
            return Reply.text("ok");
        }));
    }

    /**
     * Stores the upload as {@code backgrounds/<sanitize(original name)>}, replacing a file of that name, and
     * answers that name. Unlike ST, only an image or video within the size limit is taken. Blocking.
     */
    private String upload(String user, FileUpload upload) throws IOException {
        String name = SafeNames.sanitizedName(FileNames.uploadName(upload.fileName()), "file name");
        Path source = MediaUploads.check(upload, MAX_UPLOAD_BYTES, EnumSet.allOf(MediaSniff.Kind.class));
        try (InputStream content = Files.newInputStream(source)) {
            blobs.write(user, path(name), content); // Vert.x's spooled temp file: no wait on the client
        }
        invalidateThumbnail(user, name);
        int[] bg = config.thumbnails().bg();
        metadata.getOrGenerate(user, List.of(path(name)), (long) bg[0] * bg[1]);
        return name;
    }

    /** ST's statuses: 400 for a name with a separator or a missing file, 403 for one that sanitizing changes. */
    private void delete(String user, JsonNode bg) {
        if (bg == null || !bg.isTextual() || Sanitize.hasForbiddenChars(bg.textValue())) {
            throw Refusal.badRequest("Invalid background name");
        }
        String name = bg.textValue();
        if (!Sanitize.isPlainFileName(name)) {
            throw Refusal.forbidden("Invalid background name");
        }
        if (!blobs.delete(user, path(name))) {
            throw Refusal.badRequest("Background not found");
        }
        invalidateThumbnail(user, name);
        metadata.remove(user, path(name));
    }

    /**
     * Renames a background (both names sanitized); 400 when the source is missing or the target exists. The
     * move cannot replace a file that appears meanwhile, where ST's copy would overwrite it.
     */
    private void rename(String user, JsonNode oldBg, JsonNode newBg) {
        String oldName = sanitizedName(oldBg);
        String newName = sanitizedName(newBg);
        boolean renamed;
        try {
            renamed = blobs.rename(user, path(oldName), path(newName));
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof FileAlreadyExistsException) {
                throw Refusal.badRequest("A background with the new name already exists");
            }
            throw e;
        }
        if (!renamed) {
            throw Refusal.badRequest("Background not found");
        }
        invalidateThumbnail(user, oldName);
        invalidateThumbnail(user, newName);
        metadata.rename(user, path(oldName), path(newName));
    }

    private static String sanitizedName(JsonNode name) {
        return SafeNames.sanitizedName(name != null && name.isTextual() ? name.textValue() : null, "background name");
    }

    /** The blob of a background (a plain file name). */
    private static String path(String name) {
        return FOLDER + "/" + name;
    }

    private void invalidateThumbnail(String user, String name) {
        Thumbnails.invalidate(config.dataRoot(), user, ThumbnailType.BG, name);
    }

    /**
     * {@code {images: [{filename, isAnimated}], config: {width, height}}}, config being the bg thumbnail size.
     * As in ST, the metadata of new or changed backgrounds is generated and saved on the way.
     */
    private ObjectNode all(String user) {
        int[] bg = config.thumbnails().bg();
        Map<String, JsonNode> found;
        List<String> names;
        try {
            names = ImageFiles.list(blobs, user, FOLDER);
            found = metadata.getOrGenerate(user, names.stream().map(BackgroundsFeature::path).toList(),
                    (long) bg[0] * bg[1]);
        } catch (UncheckedIOException e) {
            LOG.warn("Cannot list the backgrounds of {}", user, e);
            throw Refusal.failed("Failed to fetch backgrounds");
        }
        ObjectNode result = JsJson.object();
        ArrayNode images = result.putArray("images");
        for (String name : names) {
            JsonNode animated = found.getOrDefault(path(name), JsJson.object()).path("isAnimated");
            images.addObject().put("filename", name).put("isAnimated", animated.isBoolean() && animated.booleanValue());
        }
        result.putObject("config").put("width", bg[0]).put("height", bg[1]);
        return result;
    }

    /** {@code {folders, imageFolderMap}}: the virtual folders, and the folder ids of each image file name that has some. */
    private ObjectNode folders(String user) {
        ObjectNode index = metadata.read(user);
        ObjectNode result = JsJson.object();
        JsonNode folders = index.get("folders");
        result.set("folders", folders instanceof ArrayNode ? folders : JsJson.array());
        ObjectNode map = result.putObject("imageFolderMap");
        ImageMetadataIndex.images(index).properties().forEach(entry -> {
            JsonNode folderIds = entry.getValue().get("folderIds");
            if (folderIds instanceof ArrayNode ids && !ids.isEmpty()) {
                String key = entry.getKey();
                String name = key.substring(key.lastIndexOf('/') + 1);
                map.set(name.isEmpty() ? key : name, ids);
            }
        });
        return result;
    }
}
