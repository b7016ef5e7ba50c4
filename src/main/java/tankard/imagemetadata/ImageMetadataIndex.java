package tankard.imagemetadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;
import tankard.user.UserDirs;

import java.io.IOException;
import java.nio.file.Files;

/**
 * Reading {@code image-metadata.json} (st-data.md §4.7): per-image metadata keyed by paths relative to the
 * user folder, and the virtual background folders.
 */
public final class ImageMetadataIndex {
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
}
