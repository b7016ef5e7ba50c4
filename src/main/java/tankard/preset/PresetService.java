package tankard.preset;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.content.DefaultContent;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.json.JsonSyntaxException;
import tankard.json.JsonFiles;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.util.FileNames;
import tankard.util.Sanitize;
import tankard.util.SafeNames;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Presets and templates: {@code <folder>/sanitize(name).json} per API id (ST: src/endpoints/presets.js,
 * getPresetSettingsByAPI), and the shipped defaults they can be restored from. Blocking.
 */
public final class PresetService {
    /** API id → the user folder of its presets. */
    private static final Map<String, Folder> FOLDERS = Map.of(
            "kobold", Folder.KOBOLD_SETTINGS,
            "koboldhorde", Folder.KOBOLD_SETTINGS,
            "novel", Folder.NOVEL_SETTINGS,
            "textgenerationwebui", Folder.TEXTGEN_SETTINGS,
            "openai", Folder.OPENAI_SETTINGS,
            "instruct", Folder.INSTRUCT,
            "context", Folder.CONTEXT,
            "sysprompt", Folder.SYSPROMPT,
            "reasoning", Folder.REASONING);

    private final DocumentStore documents;
    private final DefaultContent defaultContent;

    /** @param defaultContent the shipped content that "restore" reads defaults from */
    public PresetService(DocumentStore documents, DefaultContent defaultContent) {
        this.documents = documents;
        this.defaultContent = defaultContent;
    }

    /** Writes the preset pretty-printed; returns the sanitized name it is stored under. */
    public String save(String user, String apiId, String name, JsonNode preset) {
        String stored = storedName(name);
        documents.write(user, folder(apiId), documentName(stored), JsJson.prettyBytes(preset));
        return stored;
    }

    public void delete(String user, String apiId, String name) {
        if (!documents.delete(user, folder(apiId), documentName(storedName(name)))) {
            throw Refusal.notFound("Preset not found");
        }
    }

    /** The user's preset of that API id and name, as {@link #save} names it; empty when there is none. */
    public Optional<JsonNode> read(String user, String apiId, String name) {
        return documents.read(user, folder(apiId), documentName(storedName(name)))
                .map(JsonFiles::tryParse);
    }

    /**
     * The shipped default with that name for that API's folder, or null when there is none. As in ST, a
     * default that exists but cannot be read restores as {@code {}}, and an unreadable index means no defaults.
     */
    public JsonNode defaultPreset(String apiId, String name) {
        if (apiId == null || !FOLDERS.containsKey(apiId) || name == null) {
            return null;
        }
        String wanted = Sanitize.filename(name);
        List<DefaultContent.Item> items;
        try {
            items = defaultContent.items();
        } catch (UncheckedIOException | JsonSyntaxException e) {
            return null;
        }
        for (DefaultContent.Item item : items) {
            // ST matches by target folder (getUserTargetByType), so kobold and koboldhorde share their defaults.
            if (DefaultContent.documentFolder(item.type()) == FOLDERS.get(apiId)
                    && FileNames.base(item.baseName()).equals(wanted)) {
                Path source = item.source();
                JsonNode preset = source == null ? null : JsonFiles.tryRead(source);
                return preset != null ? preset : JsJson.object();
            }
        }
        return null;
    }

    private static String storedName(String name) {
        // ST: sanitize(name), refused when empty, then the extension: "Night/Shift: v2?" is "NightShift v2.json"
        String stored = Sanitize.filename(SafeNames.required(name, "preset name"));
        if (stored.isEmpty()) {
            throw Refusal.badRequest("Invalid preset name");
        }
        return stored;
    }

    private static Folder folder(String apiId) {
        Folder folder = apiId == null ? null : FOLDERS.get(apiId);
        if (folder == null) {
            throw Refusal.badRequest("Unknown preset API id: " + apiId);
        }
        return folder;
    }

    private static String documentName(String storedName) {
        return SafeNames.segment(storedName + ".json", "preset name");
    }
}
