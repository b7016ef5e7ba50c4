package tankard.preset;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.content.DefaultContent;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.json.JsonSyntaxException;
import tankard.json.JsonFiles;
import tankard.store.AtomicFiles;
import tankard.user.UserDirs;
import tankard.util.FileNames;
import tankard.util.Sanitize;
import tankard.util.SafeNames;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Presets and templates: {@code <folder>/sanitize(name).json} per API id (ST: src/endpoints/presets.js,
 * getPresetSettingsByAPI), and the shipped defaults they can be restored from. Blocking.
 */
public final class PresetService {
    /** API id → the user folder of its presets. */
    private static final Map<String, Function<UserDirs, Path>> FOLDERS = Map.of(
            "kobold", UserDirs::koboldSettings,
            "koboldhorde", UserDirs::koboldSettings,
            "novel", UserDirs::novelSettings,
            "textgenerationwebui", UserDirs::textGenSettings,
            "openai", UserDirs::openAiSettings,
            "instruct", UserDirs::instruct,
            "context", UserDirs::context,
            "sysprompt", UserDirs::sysprompt,
            "reasoning", UserDirs::reasoning);

    /**
     * Default-content type → API id whose folder it is seeded into (ST: src/endpoints/content-manager.js,
     * getUserTargetByType).
     */
    private static final Map<String, String> DEFAULT_TYPES = Map.of(
            "kobold_preset", "kobold",
            "novel_preset", "novel",
            "textgen_preset", "textgenerationwebui",
            "openai_preset", "openai",
            "instruct", "instruct",
            "context", "context",
            "sysprompt", "sysprompt",
            "reasoning", "reasoning");

    private final DefaultContent defaultContent;

    /** @param defaultContent the shipped content that "restore" reads defaults from */
    public PresetService(DefaultContent defaultContent) {
        this.defaultContent = defaultContent;
    }

    /** Writes the preset pretty-printed; returns the sanitized name it is stored under. */
    public String save(UserDirs dirs, String apiId, String name, JsonNode preset) {
        String stored = storedName(name);
        Path file = file(dirs, apiId, stored);
        AtomicFiles.write(file, JsJson.pretty(preset));
        return stored;
    }

    public void delete(UserDirs dirs, String apiId, String name) {
        Path file = file(dirs, apiId, storedName(name));
        try {
            if (!Files.deleteIfExists(file)) {
                throw Refusal.notFound("Preset not found");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete the preset", e);
        }
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
            String itemApi = DEFAULT_TYPES.get(item.type());
            // ST matches by target folder, so kobold and koboldhorde share their defaults.
            if (itemApi != null && folderName(itemApi).equals(folderName(apiId))
                    && FileNames.base(lastSegment(item.filename())).equals(wanted)) {
                Path source = item.source();
                JsonNode preset = source == null ? null : JsonFiles.tryRead(source);
                return preset != null ? preset : JsJson.object();
            }
        }
        return null;
    }

    /** {@code path.parse(filename).base}: the last segment, trailing slashes ignored. */
    private static String lastSegment(String filename) {
        String trimmed = filename.replaceAll("/+$", "");
        return trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }

    private static Path folderName(String apiId) {
        return FOLDERS.get(apiId).apply(new UserDirs(Path.of("")));
    }

    /** Where a preset of that API id and name is stored, as {@link #save} names it. */
    public static Path storedFile(UserDirs dirs, String apiId, String name) {
        return file(dirs, apiId, storedName(name));
    }

    private static String storedName(String name) {
        // ST: sanitize(name), refused when empty, then the extension: "Night/Shift: v2?" is "NightShift v2.json"
        String stored = Sanitize.filename(SafeNames.required(name, "preset name"));
        if (stored.isEmpty()) {
            throw Refusal.badRequest("Invalid preset name");
        }
        return stored;
    }

    private static Path file(UserDirs dirs, String apiId, String storedName) {
        Function<UserDirs, Path> folder = apiId == null ? null : FOLDERS.get(apiId);
        if (folder == null) {
            throw Refusal.badRequest("Unknown preset API id: " + apiId);
        }
        return SafeNames.fileIn(folder.apply(dirs), storedName + ".json", "preset name");
    }
}
