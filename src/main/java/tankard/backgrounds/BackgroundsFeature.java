package tankard.backgrounds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.config.TankardConfig;
import tankard.http.ApiError;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.image.ImageFiles;
import tankard.imagemetadata.ImageMetadataIndex;
import tankard.json.JsJson;
import tankard.user.UserDirs;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/** The background listings of st-api.md §14: {@code /api/backgrounds/all} and {@code /api/backgrounds/folders}. */
public final class BackgroundsFeature implements Feature {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundsFeature.class);

    private final TankardConfig config;

    public BackgroundsFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mount(Router router) {
        // The bodies are read only to refuse malformed JSON with 400, as ST's body parser does.
        router.post("/api/backgrounds/all").handler(Routes.blocking(config, request -> {
            request.body();
            return Reply.json(all(request.dirs()));
        }));
        router.post("/api/backgrounds/folders").handler(Routes.blocking(config, request -> {
            request.body();
            return Reply.json(folders(request.dirs()));
        }));
    }

    /**
     * {@code {images: [{filename, isAnimated}], config: {width, height}}}, config being the bg thumbnail size.
     * As in ST, the metadata of new or changed backgrounds is generated and saved on the way.
     */
    private ObjectNode all(UserDirs dirs) {
        int[] bg = config.thumbnails().bg();
        Map<String, JsonNode> metadata;
        List<String> names;
        try {
            names = ImageFiles.list(dirs.backgrounds());
            metadata = ImageMetadataIndex.getOrGenerate(dirs,
                    names.stream().map(name -> "backgrounds/" + name).toList(), (long) bg[0] * bg[1]);
        } catch (UncheckedIOException e) {
            LOG.warn("Cannot list the backgrounds of {}", dirs.root(), e);
            throw new ApiError(500, "Failed to fetch backgrounds");
        }
        ObjectNode result = JsJson.object();
        ArrayNode images = result.putArray("images");
        for (String name : names) {
            JsonNode animated = metadata.getOrDefault("backgrounds/" + name, JsJson.object()).path("isAnimated");
            images.addObject().put("filename", name).put("isAnimated", animated.isBoolean() && animated.booleanValue());
        }
        result.putObject("config").put("width", bg[0]).put("height", bg[1]);
        return result;
    }

    /** {@code {folders, imageFolderMap}}: the virtual folders, and the folder ids of each image file name that has some. */
    private static ObjectNode folders(UserDirs dirs) {
        ObjectNode index = ImageMetadataIndex.read(dirs);
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
