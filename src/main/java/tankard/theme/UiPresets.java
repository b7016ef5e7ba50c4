package tankard.theme;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.util.SafeNames;

/**
 * Named UI documents stored as {@code <folder>/sanitize(name + ".json")}, the posted object pretty-printed:
 * themes, Moving UI presets and Quick Reply sets (ST: src/endpoints/themes.js, moving-ui.js, quick-replies.js). They
 * are listed by {@code /api/settings/get}. Blocking.
 */
public final class UiPresets {
    private final DocumentStore documents;

    public UiPresets(DocumentStore documents) {
        this.documents = documents;
    }

    public void save(String user, Folder folder, String name, JsonNode document) {
        documents.write(user, folder, documentName(name), JsJson.prettyBytes(document));
    }

    /** Deletes the document; false when there was none. */
    public boolean delete(String user, Folder folder, String name) {
        return documents.delete(user, folder, documentName(name));
    }

    /** The body's {@code name} cleaned as ST cleans it: {@code ../a} is {@code ..a.json}; 400 when none is left. */
    private static String documentName(String name) {
        return SafeNames.sanitizedName(SafeNames.required(name, "name") + ".json", "name");
    }
}
