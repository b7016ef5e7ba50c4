package tankard.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.util.FileNames;
import tankard.util.JsLocale;
import tankard.util.Sanitize;
import tankard.util.SafeNames;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The lorebooks of a user's {@code worlds/} folder (ST: src/endpoints/worldinfo.js): one
 * {@code SANITIZE(name + ".json")} document per book, whose only required member is {@code entries}. Every method
 * blocks.
 */
public final class WorldInfoStore {
    static final String NOT_A_BOOK = "Is not a valid world info file";
    static final String NO_NAME = "World file must have a name";
    private static final String JSON = ".json";
    private static final String LOREBOOK_NAME = "lorebook name";

    private final DocumentStore documents;

    public WorldInfoStore(DocumentStore documents) {
        this.documents = documents;
    }

    /** The book's text as stored, or null when there is no such book. */
    public String read(String user, String name) {
        byte[] bytes = bytes(user, name);
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** The book's bytes as stored, or null when there is no such book. */
    public byte[] bytes(String user, String name) {
        return documents.read(user, Folder.WORLDS, bookName(name)).orElse(null);
    }

    /** Writes the book pretty-printed, as {@code JSON.stringify(data, null, 4)} does; creates or overwrites. */
    void save(String user, String name, JsonNode data) {
        if (!isBook(data)) {
            throw Refusal.badRequest(NOT_A_BOOK);
        }
        documents.write(user, Folder.WORLDS, bookName(name), JsJson.prettyBytes(data));
    }

    /** Deletes the book; 404 when there is none (ST throws, a 500). */
    void delete(String user, String name) {
        if (!documents.delete(user, Folder.WORLDS, bookName(name))) {
            throw Refusal.notFound("World info file " + Sanitize.filename(name + JSON) + " doesn't exist.");
        }
    }

    /**
     * Stores an uploaded book under the upload's file name with its extension replaced by {@code .json}, its
     * text kept as sent (not re-formatted); existing books are overwritten.
     *
     * @param uploadName the upload's original file name
     * @param content    the book's text: the file's, or the frontend's conversion of a foreign format
     * @return the book's name
     */
    String importBook(String user, String uploadName, String content) {
        String text = content.startsWith("\uFEFF") ? content.substring(1) : content; // ST would refuse it; no BOM on disk
        if (!isBook(JsJson.tryParse(text.getBytes(StandardCharsets.UTF_8)))) {
            throw Refusal.badRequest(NOT_A_BOOK);
        }
        String sanitized = Sanitize.filename(SafeNames.required(uploadName, "file name"));
        // ST writes a hidden ".json" for a name that sanitizes to nothing, and no book shows for it
        if (sanitized.isEmpty()) {
            throw Refusal.badRequest(NO_NAME);
        }
        String fileName = SafeNames.segment(FileNames.base(sanitized) + JSON, LOREBOOK_NAME);
        documents.write(user, Folder.WORLDS, fileName, text.getBytes(StandardCharsets.UTF_8));
        return FileNames.base(fileName);
    }

    /** {@code [{file_id, name, extensions}]} for the lorebooks, in locale order. */
    ArrayNode list(String user) {
        ArrayNode out = JsJson.array();
        List<String> files = documents.list(user, Folder.WORLDS).stream()
                .map(DocumentStore.Entry::name)
                .filter(name -> FileNames.ext(name).equalsIgnoreCase(JSON))
                .sorted(JsLocale.comparator())
                .toList();
        for (String file : files) {
            String id = FileNames.base(file);
            JsonNode book = documents.read(user, Folder.WORLDS, file).map(JsonFiles::tryParse).orElse(null);
            JsonNode name = book == null ? null : book.get("name");
            JsonNode extensions = book == null ? null : book.get("extensions");
            out.addObject()
                    .put("file_id", id)
                    .<ObjectNode>set("name", Js.truthy(name) ? name : TextNode.valueOf(id))
                    .set("extensions", extensions != null && extensions.isContainerNode() ? extensions : JsJson.object());
        }
        return out;
    }

    /** ST's test {@code 'entries' in data}: an object (not an array) with that member, whatever its value. */
    static boolean isBook(JsonNode data) {
        return data != null && data.isObject() && data.has("entries");
    }

    /**
     * {@code sanitize(name + ".json")}, as ST names it: {@code ../Outside Atlas} is {@code ..Outside Atlas.json}.
     * A name too long to keep its {@code .json} is refused: ST cuts it to 255 bytes, so the book drops out of the
     * list, and its atomic write fails (500) on the temp name.
     */
    private static String bookName(String name) {
        return SafeNames.sanitizedName(SafeNames.required(name, LOREBOOK_NAME) + JSON, LOREBOOK_NAME);
    }
}
