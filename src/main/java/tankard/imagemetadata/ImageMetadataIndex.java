package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
 * {@code image-metadata.json} (ST: src/endpoints/image-metadata.js, readMetadataIndex): per-image metadata keyed by
 * paths relative to the user folder, and the virtual background folders. Updates of one user's index are serialised.
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
        synchronized (lock(dirs)) {
            ObjectNode index = readForUpdate(dirs);
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

    /** A change to the index: true when it changed something and the index is to be saved. */
    @FunctionalInterface
    public interface Change {
        boolean apply(ObjectNode index);
    }

    /**
     * Reads, changes and (when the change says so) saves the index, serialised with the other updates of the
     * user. The change sees an index with an {@code images} object and a {@code folders} array. Blocking.
     */
    public static void update(UserDirs dirs, Change change) {
        synchronized (lock(dirs)) {
            ObjectNode index = readForUpdate(dirs);
            if (change.apply(index)) {
                AtomicFiles.write(dirs.imageMetadataFile(), JsJson.prettyBytes(index));
            }
        }
    }

    /** Drops the entry of a deleted image and clears folder thumbnails that showed it. Blocking. */
    public static void remove(UserDirs dirs, String relativePath) {
        update(dirs, index -> {
            if (images(index).remove(relativePath) == null) {
                return false;
            }
            replaceFolderThumbnail(index, fileName(relativePath), "");
            return true;
        });
    }

    /** Moves the entry of a renamed image, and folder thumbnails that showed it; nothing when it has none. Blocking. */
    public static void rename(UserDirs dirs, String oldPath, String newPath) {
        update(dirs, index -> {
            JsonNode entry = images(index).remove(oldPath);
            if (entry == null) {
                return false;
            }
            images(index).set(newPath, entry);
            replaceFolderThumbnail(index, fileName(oldPath), fileName(newPath));
            return true;
        });
    }

    /** Points the folders whose thumbnail is {@code oldName} at {@code newName} ("" for none). */
    private static void replaceFolderThumbnail(ObjectNode index, String oldName, String newName) {
        for (JsonNode folder : index.get("folders")) {
            if (folder instanceof ObjectNode object && oldName.equals(object.path("thumbnailFile").textValue())) {
                object.put("thumbnailFile", newName);
            }
        }
    }

    private static String fileName(String relativePath) {
        return relativePath.substring(relativePath.lastIndexOf('/') + 1);
    }

    private static Object lock(UserDirs dirs) {
        return LOCKS.computeIfAbsent(dirs.imageMetadataFile().toAbsolutePath(), key -> new Object());
    }

    /** The index with the members updates rely on (ST would fail on a file without them). */
    private static ObjectNode readForUpdate(UserDirs dirs) {
        ObjectNode index = read(dirs);
        if (!(index.get("images") instanceof ObjectNode)) {
            index.putObject("images");
        }
        if (!(index.get("folders") instanceof ArrayNode)) {
            index.putArray("folders");
        }
        return index;
    }
}
