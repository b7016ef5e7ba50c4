package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.store.FileTimes;
import tankard.user.UserDirs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code image-metadata.json} (st-data.md §4.7): per-image metadata keyed by paths relative to the user
 * folder, and the virtual background folders. Updates of one user's index are serialised.
 */
public final class ImageMetadataIndex {
    private static final Logger LOG = LoggerFactory.getLogger(ImageMetadataIndex.class);
    private static final Map<Path, Object> LOCKS = new ConcurrentHashMap<>();

    private ImageMetadataIndex() {
    }

    /**
     * The index as stored, or ST's empty index {@code {version:1, images:{}, folders:[]}} when the file is
     * missing, unreadable or not a JSON object. Never creates the file. Blocking.
     */
    public static ObjectNode read(UserDirs dirs) {
        JsonNode index = null;
        try {
            index = JsJson.tryParse(Files.readAllBytes(dirs.imageMetadataFile()));
        } catch (IOException missingOrUnreadable) {
            // ST reads any failure as the empty index
        }
        if (index instanceof ObjectNode object) {
            return object;
        }
        ObjectNode empty = JsJson.object();
        empty.put("version", 1);
        empty.putObject("images");
        empty.putArray("folders");
        return empty;
    }

    /** The {@code images} map of an index (empty when absent or malformed). */
    public static ObjectNode images(ObjectNode index) {
        return index.get("images") instanceof ObjectNode images ? images : JsJson.object();
    }

    /**
     * The metadata of each image (paths relative to the user folder, with {@code /}), generated where it is
     * missing or its {@code mtime} differs from the file's, keeping the image's folders; the index is saved
     * when anything was generated. Files that are missing or whose size cannot be read are left out. Blocking.
     */
    public static Map<String, JsonNode> getOrGenerate(UserDirs dirs, List<String> relativePaths, long thumbnailResolution) {
        synchronized (LOCKS.computeIfAbsent(dirs.imageMetadataFile().toAbsolutePath(), key -> new Object())) {
            ObjectNode index = read(dirs);
            if (!(index.get("images") instanceof ObjectNode)) {
                index.putObject("images");
            }
            ObjectNode images = (ObjectNode) index.get("images");
            Map<String, JsonNode> results = new LinkedHashMap<>();
            boolean modified = false;
            for (String relative : relativePaths) {
                Path file = dirs.root().resolve(relative);
                ObjectNode metadata;
                double mtime;
                try {
                    mtime = FileTimes.modifiedMs(Files.readAttributes(file, BasicFileAttributes.class));
                    JsonNode cached = images.get(relative);
                    if (cached != null && cached.path("mtime").isNumber() && cached.get("mtime").doubleValue() == mtime) {
                        results.put(relative, cached);
                        continue;
                    }
                    metadata = ImageMetadata.generate(file, thumbnailResolution);
                    if (metadata == null) {
                        continue;
                    }
                    metadata.put("mtime", mtime);
                    if (cached != null && cached.hasNonNull("folderIds")) {
                        metadata.set("folderIds", cached.get("folderIds"));
                    }
                } catch (IOException e) {
                    LOG.debug("No metadata for {}: {}", relative, e.toString());
                    continue;
                }
                images.set(relative, metadata);
                results.put(relative, metadata);
                modified = true;
            }
            if (modified) {
                AtomicFiles.write(dirs.imageMetadataFile(), JsJson.prettyBytes(index));
            }
            return results;
        }
    }
}
