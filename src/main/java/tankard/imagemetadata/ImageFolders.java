package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.util.Sanitize;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The virtual background folders of {@code image-metadata.json}, changed as ST changes them (ST:
 * src/endpoints/image-metadata.js, createFolder …).
 */
final class ImageFolders {
    private ImageFolders() {
    }

    static ObjectNode create(ImageMetadataIndex metadata, String user, String name) {
        ObjectNode[] created = new ObjectNode[1];
        metadata.update(user, index -> {
            created[0] = folders(index).addObject()
                    .put("id", UUID.randomUUID().toString()).put("name", name).put("thumbnailFile", "");
            return true;
        });
        return created[0];
    }

    /** Sets name and thumbnail file where given (null: unchanged); 404 for an unknown folder. */
    static ObjectNode update(ImageMetadataIndex metadata, String user, String id, String name, String thumbnailFile) {
        ObjectNode[] updated = new ObjectNode[1];
        metadata.update(user, index -> {
            ObjectNode folder = find(index, id);
            if (name != null) {
                folder.put("name", name);
            }
            if (thumbnailFile != null) {
                folder.put("thumbnailFile", thumbnailFile);
            }
            updated[0] = folder;
            return true;
        });
        return updated[0];
    }

    /** The thumbnail file of each folder id; unknown ids are skipped. */
    static void setThumbnails(ImageMetadataIndex metadata, String user, Map<String, String> thumbnails) {
        metadata.update(user, index -> {
            thumbnails.forEach((id, file) -> {
                ObjectNode folder = lookup(index, id);
                if (folder != null) {
                    folder.put("thumbnailFile", file);
                }
            });
            return true;
        });
    }

    /** Removes the folder and its id from every image; 404 for an unknown folder. */
    static void delete(ImageMetadataIndex metadata, String user, String id) {
        metadata.update(user, index -> {
            ArrayNode folders = folders(index);
            folders.remove(indexOf(folders, find(index, id)));
            ImageMetadataIndex.images(index).forEach(image -> removeId(image, id));
            return true;
        });
    }

    /**
     * Adds the folder id to the images (existing files only; a stub entry for images without metadata yet).
     * Every path must stay under {@code backgrounds/}: one that does not fails the whole request (400, where
     * ST answers 500) before anything changes.
     */
    static void assign(ImageMetadataIndex metadata, String user, String id, List<String> paths) {
        List<String> normalized = new ArrayList<>();
        for (String path : paths) {
            String clean = normalizePosix(path);
            // one image straight inside backgrounds/ (a NUL or a folder of its own is not one)
            if (!clean.startsWith("backgrounds/") || !Sanitize.isPlainFileName(clean.substring("backgrounds/".length()))) {
                throw Refusal.badRequest("Invalid background path: '" + path + "'");
            }
            // only existing files, looked at before the update, which must not wait on the store
            if (metadata.isFile(user, clean)) {
                normalized.add(clean);
            }
        }
        metadata.update(user, index -> {
            find(index, id);
            ObjectNode images = ImageMetadataIndex.images(index);
            for (String path : normalized) {
                if (!(images.get(path) instanceof ObjectNode)) {
                    images.putObject(path).putArray("folderIds");
                }
                ObjectNode image = (ObjectNode) images.get(path);
                if (!(image.get("folderIds") instanceof ArrayNode)) {
                    image.putArray("folderIds");
                }
                ArrayNode ids = (ArrayNode) image.get("folderIds");
                if (indexOfText(ids, id) < 0) {
                    ids.add(id);
                }
            }
            return true;
        });
    }

    static void unassign(ImageMetadataIndex metadata, String user, String id, List<String> paths) {
        metadata.update(user, index -> {
            ObjectNode images = ImageMetadataIndex.images(index);
            for (String path : paths) {
                JsonNode image = images.get(path);
                if (image != null) {
                    removeId(image, id);
                }
            }
            return true;
        });
    }

    static ArrayNode folders(ObjectNode index) {
        return (ArrayNode) index.get("folders");
    }

    private static ObjectNode find(ObjectNode index, String id) {
        ObjectNode folder = lookup(index, id);
        if (folder == null) {
            throw Refusal.notFound("Folder '" + id + "' not found.");
        }
        return folder;
    }

    /** The folder with the id, or null. */
    private static ObjectNode lookup(ObjectNode index, String id) {
        for (JsonNode folder : folders(index)) {
            if (folder instanceof ObjectNode object && id.equals(object.path("id").textValue())) {
                return object;
            }
        }
        return null;
    }

    /** Removes the first occurrence of the id (ST's indexOf and splice). */
    private static void removeId(JsonNode image, String id) {
        if (image.get("folderIds") instanceof ArrayNode ids) {
            int at = indexOfText(ids, id);
            if (at >= 0) {
                ids.remove(at);
            }
        }
    }

    private static int indexOfText(ArrayNode array, String text) {
        for (int i = 0; i < array.size(); i++) {
            if (text.equals(array.get(i).textValue())) {
                return i;
            }
        }
        return -1;
    }

    private static int indexOf(ArrayNode array, JsonNode node) {
        for (int i = 0; i < array.size(); i++) {
            if (array.get(i) == node) {
                return i;
            }
        }
        return -1;
    }

    /** Node's {@code path.posix.normalize}: empty and {@code .} segments dropped, {@code ..} resolved where it can be. */
    static String normalizePosix(String path) {
        if (path.isEmpty()) {
            return ".";
        }
        boolean absolute = path.startsWith("/");
        List<String> segments = new ArrayList<>();
        for (String segment : path.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..") && !segments.isEmpty() && !segments.get(segments.size() - 1).equals("..")) {
                segments.remove(segments.size() - 1);
            } else if (!(segment.equals("..") && absolute)) {
                segments.add(segment);
            }
        }
        String joined = String.join("/", segments);
        if (path.endsWith("/") && !joined.isEmpty()) {
            joined += "/";
        }
        return absolute ? "/" + joined : joined.isEmpty() ? "." : joined;
    }
}
