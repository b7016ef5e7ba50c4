package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.json.JsJson;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.store.DocumentStore.Outcome;
import tankard.store.FileTimes;
import tankard.thumbnail.NodeImages;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code image-metadata.json} (ST: src/endpoints/image-metadata.js, readMetadataIndex): per-image metadata keyed by
 * paths relative to the user folder, and the virtual background folders: a document of the user's folder. Each change
 * is one {@link DocumentStore#update}, so none is lost to another, also from another server node.
 */
public final class ImageMetadataIndex {
    private static final Logger LOG = LoggerFactory.getLogger(ImageMetadataIndex.class);
    static final String FILE = "image-metadata.json";

    private final DocumentStore documents;
    private final NodeImages images;

    /** @param images where the images are read: the index itself is a document, the images are blobs and cards */
    public ImageMetadataIndex(DocumentStore documents, NodeImages images) {
        this.documents = documents;
        this.images = images;
    }

    /**
     * The index as stored, or ST's empty index {@code {version:1, images:{}, folders:[]}} when the document is
     * missing, unreadable or not a JSON object. Never creates it. Blocking.
     */
    public ObjectNode read(String user) {
        Optional<byte[]> stored;
        try {
            stored = documents.read(user, Folder.ROOT, FILE);
        } catch (UncheckedIOException unreadable) {
            stored = Optional.empty(); // ST reads any failure as the empty index
        }
        return parsed(stored);
    }

    private static ObjectNode parsed(Optional<byte[]> stored) {
        JsonNode index = stored.map(JsJson::tryParse).orElse(null);
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
     * missing or its {@code mtime} differs from the file's, keeping the image's folders; the generated entries are
     * saved. Files that are missing or whose size cannot be read are left out. Blocking: the images are read before
     * the index is updated, so the update itself never waits on them.
     */
    public Map<String, JsonNode> getOrGenerate(String user, List<String> relativePaths, long thumbnailResolution) {
        ObjectNode known = images(read(user));
        Map<String, JsonNode> results = new LinkedHashMap<>();
        Map<String, ObjectNode> generated = new LinkedHashMap<>();
        for (String relative : relativePaths) {
            try {
                Path file = images.file(user, storePath(relative));
                BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                double mtime = FileTimes.modifiedMs(attributes);
                JsonNode cached = known.get(relative);
                if (cached != null && cached.path("mtime").isNumber() && cached.get("mtime").doubleValue() == mtime) {
                    results.put(relative, cached);
                    continue;
                }
                ObjectNode metadata = ImageMetadata.generate(Files.readAllBytes(file), images.addedMs(attributes),
                        thumbnailResolution);
                if (metadata == null) {
                    continue;
                }
                metadata.put("mtime", mtime);
                generated.put(relative, metadata);
                results.put(relative, metadata);
            } catch (IOException | IllegalArgumentException e) {
                LOG.debug("No metadata for {}: {}", relative, e.toString());
            }
        }
        if (!generated.isEmpty()) {
            update(user, index -> {
                ObjectNode current = images(index);
                generated.forEach((relative, metadata) -> {
                    JsonNode stored = current.get(relative);
                    if (stored != null && stored.hasNonNull("folderIds")) {
                        metadata.set("folderIds", stored.get("folderIds"));
                    }
                    current.set(relative, metadata);
                });
                return true;
            });
        }
        return results;
    }

    /** Whether there is a file or folder at the path (relative to the user folder, inside it), as ST's existsSync. */
    public boolean exists(String user, String relative) {
        try {
            return images.exists(user, storePath(relative));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot look at " + relative, e);
        }
    }

    /** Whether the path (relative to the user folder, inside it) is an image file of the user's. */
    boolean isFile(String user, String relative) {
        try {
            return images.isFile(user, storePath(relative));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot look at " + relative, e);
        }
    }

    /** A path inside the user folder as the stores name it: Node's posix normalize, no trailing /, "" for the folder. */
    private static String storePath(String relative) {
        String normalized = ImageFolders.normalizePosix(relative);
        if (normalized.equals(".")) {
            return "";
        }
        return normalized.endsWith("/") ? normalized.substring(0, normalized.length() - 1) : normalized;
    }

    /** A change to the index: true when it changed something and the index is to be saved. It must not block. */
    @FunctionalInterface
    public interface Change {
        boolean apply(ObjectNode index);
    }

    /**
     * Reads, changes and (when the change says so) saves the index as one unit of work. The change sees an index
     * with an {@code images} object and a {@code folders} array. Blocking.
     */
    public void update(String user, Change change) {
        documents.update(user, Folder.ROOT, FILE, current -> {
            ObjectNode index = withMembers(parsed(current));
            return change.apply(index) ? Outcome.store(JsJson.prettyBytes(index), null) : Outcome.keep(null);
        });
    }

    /** Drops the entry of a deleted image and clears folder thumbnails that showed it. Blocking. */
    public void remove(String user, String relativePath) {
        update(user, index -> {
            if (images(index).remove(relativePath) == null) {
                return false;
            }
            replaceFolderThumbnail(index, fileName(relativePath), "");
            return true;
        });
    }

    /** Moves the entry of a renamed image, and folder thumbnails that showed it; nothing when it has none. Blocking. */
    public void rename(String user, String oldPath, String newPath) {
        update(user, index -> {
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

    /** The index with the members updates rely on (ST would fail on a file without them). */
    private static ObjectNode withMembers(ObjectNode index) {
        if (!(index.get("images") instanceof ObjectNode)) {
            index.putObject("images");
        }
        if (!(index.get("folders") instanceof ArrayNode)) {
            index.putArray("folders");
        }
        return index;
    }
}
