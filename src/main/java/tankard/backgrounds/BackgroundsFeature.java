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
import tankard.store.AtomicFiles;
import tankard.thumbnail.ThumbnailType;
import tankard.thumbnail.Thumbnails;
import tankard.user.UserDirs;
import tankard.util.FileNames;
import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * The backgrounds of ST's src/endpoints/backgrounds.js: listings, upload, rename and delete. Each change also
 * invalidates the bg thumbnail and keeps {@code image-metadata.json} in step.
 */
public record BackgroundsFeature(TankardConfig config, ImageMetadataIndex metadata) implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundsFeature.class);

    /** ST takes uploads of any size; an animated background converted from a video stays well below this. */
    static final long MAX_UPLOAD_BYTES = 64L << 20;

    @Override
    public void mount(Router router, Routes routes) {
        // The bodies are read only to refuse malformed JSON with 400, as ST's body parser does.
        router.post("/api/backgrounds/all").handler(routes.blocking(request -> {
            request.body();
            return Reply.json(all(request.dirs()));
        }));
        router.post("/api/backgrounds/folders").handler(routes.blocking(request -> {
            request.body();
            return Reply.json(folders(request.dirs()));
        }));
        router.post("/api/backgrounds/upload").handler(routes.blocking(request -> {
            FileUpload upload = request.upload();
            if (upload == null) {
                throw Refusal.badRequest("No background image uploaded");
            }
            return Reply.text(upload(request.dirs(), upload));
        }));
        router.post("/api/backgrounds/delete").handler(routes.blocking(request -> {
            delete(request.dirs(), request.body().get("bg"));
            return Reply.text("ok");
        }));
        router.post("/api/backgrounds/rename").handler(routes.blocking(request -> {
            rename(request.dirs(), request.body().get("old_bg"), request.body().get("new_bg"));
            return Reply.text("ok");
        }));
    }

    /**
     * Stores the upload as {@code backgrounds/<sanitize(original name)>}, replacing a file of that name, and
     * answers that name. Unlike ST, only an image or video within the size limit is taken. Blocking.
     */
    private String upload(UserDirs dirs, FileUpload upload) throws IOException {
        Path target = SafeNames.sanitizedFile(dirs.backgrounds(), FileNames.uploadName(upload.fileName()), "file name");
        String name = target.getFileName().toString();
        Path source = MediaUploads.check(upload, MAX_UPLOAD_BYTES, EnumSet.allOf(MediaSniff.Kind.class));
        MediaUploads.copy(source, target);
        Thumbnails.invalidate(dirs, ThumbnailType.BG, name);
        int[] bg = config.thumbnails().bg();
        metadata.getOrGenerate(dirs, List.of("backgrounds/" + name), (long) bg[0] * bg[1]);
        return name;
    }

    /** ST's statuses: 400 for a name with a separator or a missing file, 403 for one that sanitizing changes. */
    private void delete(UserDirs dirs, JsonNode bg) throws IOException {
        if (bg == null || !bg.isTextual() || Sanitize.hasForbiddenChars(bg.textValue())) {
            throw Refusal.badRequest("Invalid background name");
        }
        String name = bg.textValue();
        if (!Sanitize.isPlainFileName(name)) {
            throw Refusal.forbidden("Invalid background name");
        }
        Path file = dirs.backgrounds().resolve(name);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw Refusal.badRequest("Background not found");
        }
        Files.delete(file);
        Thumbnails.invalidate(dirs, ThumbnailType.BG, name);
        metadata.remove(dirs.handle(), "backgrounds/" + name);
    }

    /**
     * Renames a background (both names sanitized); 400 when the source is missing or the target exists. The
     * move cannot replace a file that appears meanwhile, where ST's copy would overwrite it.
     */
    private void rename(UserDirs dirs, JsonNode oldBg, JsonNode newBg) throws IOException {
        Path source = sanitizedFile(dirs, oldBg);
        Path target = sanitizedFile(dirs, newBg);
        String oldName = source.getFileName().toString();
        String newName = target.getFileName().toString();
        if (!Files.isRegularFile(source, LinkOption.NOFOLLOW_LINKS)) {
            throw Refusal.badRequest("Background not found");
        }
        if (!AtomicFiles.moveNoReplace(source, target)) {
            throw Refusal.badRequest("A background with the new name already exists");
        }
        Thumbnails.invalidate(dirs, ThumbnailType.BG, oldName);
        Thumbnails.invalidate(dirs, ThumbnailType.BG, newName);
        metadata.rename(dirs.handle(), "backgrounds/" + oldName, "backgrounds/" + newName);
    }

    private static Path sanitizedFile(UserDirs dirs, JsonNode name) {
        return SafeNames.sanitizedFile(dirs.backgrounds(), name != null && name.isTextual() ? name.textValue() : null,
                "background name");
    }

    /**
     * {@code {images: [{filename, isAnimated}], config: {width, height}}}, config being the bg thumbnail size.
     * As in ST, the metadata of new or changed backgrounds is generated and saved on the way.
     */
    private ObjectNode all(UserDirs dirs) {
        int[] bg = config.thumbnails().bg();
        Map<String, JsonNode> found;
        List<String> names;
        try {
            names = ImageFiles.list(dirs.backgrounds());
            found = metadata.getOrGenerate(dirs,
                    names.stream().map(name -> "backgrounds/" + name).toList(), (long) bg[0] * bg[1]);
        } catch (UncheckedIOException e) {
            LOG.warn("Cannot list the backgrounds of {}", dirs.root(), e);
            throw Refusal.failed("Failed to fetch backgrounds");
        }
        ObjectNode result = JsJson.object();
        ArrayNode images = result.putArray("images");
        for (String name : names) {
            JsonNode animated = found.getOrDefault("backgrounds/" + name, JsJson.object()).path("isAnimated");
            images.addObject().put("filename", name).put("isAnimated", animated.isBoolean() && animated.booleanValue());
        }
        result.putObject("config").put("width", bg[0]).put("height", bg[1]);
        return result;
    }

    /** {@code {folders, imageFolderMap}}: the virtual folders, and the folder ids of each image file name that has some. */
    private ObjectNode folders(UserDirs dirs) {
        ObjectNode index = metadata.read(dirs.handle());
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
