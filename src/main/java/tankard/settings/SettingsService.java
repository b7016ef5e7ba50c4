package tankard.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.AtomicFiles;
import tankard.store.FileTimes;
import tankard.user.UserDirs;
import tankard.util.FileNames;
import tankard.util.JsLocale;
import tankard.util.SafeNames;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The user's settings document, the lists the frontend loads with it, and settings snapshots (ST:
 * src/endpoints/settings.js).
 */
public final class SettingsService {
    private final TankardConfig config;
    private final SettingsBackups backups;

    public SettingsService(TankardConfig config, SettingsBackups backups) {
        this.config = config;
        this.backups = backups;
    }

    public SettingsBackups backups() {
        return backups;
    }

    /** The {@code /api/settings/get} payload: settings.json as text plus every preset list. Blocking. */
    public ObjectNode load(UserDirs dirs) {
        String settings = JsonFiles.readText(dirs.settingsFile());
        if (settings == null) {
            throw Refusal.failed("settings.json could not be read");
        }
        ObjectNode out = JsJson.object();
        out.put("settings", settings);
        rawPresets(out, dirs.koboldSettings(), "koboldai_settings", "koboldai_setting_names");
        out.set("world_names", worldNames(dirs.worlds()));
        rawPresets(out, dirs.novelSettings(), "novelai_settings", "novelai_setting_names");
        rawPresets(out, dirs.openAiSettings(), "openai_settings", "openai_setting_names");
        rawPresets(out, dirs.textGenSettings(), "textgenerationwebui_presets", "textgenerationwebui_preset_names");
        out.set("themes", parsedFiles(dirs.themes()));
        out.set("movingUIPresets", parsedFiles(dirs.movingUi()));
        out.set("quickReplyPresets", parsedFiles(dirs.quickReplies()));
        out.set("instruct", parsedFiles(dirs.instruct()));
        out.set("context", parsedFiles(dirs.context()));
        out.set("sysprompt", parsedFiles(dirs.sysprompt()));
        out.set("reasoning", parsedFiles(dirs.reasoning()));
        out.put("enable_extensions", config.extensionsEnabled());
        out.put("enable_extensions_auto_update", config.extensionsAutoUpdate());
        out.put("enable_accounts", config.security().enableUserAccounts());
        TankardConfig.Performance performance = config.performance();
        out.set("request_compression", JsJson.object()
                .put("enabled", performance.requestCompression())
                .put("minPayloadSize", performance.minPayloadSize())
                .put("maxPayloadSize", performance.maxPayloadSize())
                .put("timeout", performance.compressionTimeoutMs()));
        return out;
    }

    /**
     * Stores the posted settings pretty-printed, keeping every number as the browser wrote it, then lets the
     * throttled snapshot run. {@code json} must be one JSON object. Blocking.
     */
    public void save(UserDirs dirs, String handle, byte[] json) {
        AtomicFiles.write(dirs.settingsFile(), JsJson.relayout(json, true));
        backups.afterSave(dirs, handle);
    }

    /** {@code [{date, name, size}]} of the user's snapshots. */
    public ArrayNode snapshots(UserDirs dirs, String handle) {
        ArrayNode out = JsJson.array();
        for (Path file : SettingsBackups.snapshots(dirs, handle)) {
            try {
                FileTimes.Stat stat = FileTimes.stat(file);
                out.addObject()
                        .put("date", stat.changedMs())
                        .put("name", file.getFileName().toString())
                        .put("size", stat.size());
            } catch (NoSuchFileException gone) {
                // pruned by a save meanwhile: no longer a snapshot
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + file.getFileName(), e);
            }
        }
        return out;
    }

    /** The text of one snapshot. */
    public String readSnapshot(UserDirs dirs, String handle, String name) {
        String text = JsonFiles.readText(snapshot(dirs, handle, name));
        if (text == null) {
            throw Refusal.notFound("Snapshot not found");
        }
        return text;
    }

    /** Replaces settings.json with a snapshot. */
    public void restoreSnapshot(UserDirs dirs, String handle, String name) {
        Path file = snapshot(dirs, handle, name);
        try {
            AtomicFiles.write(dirs.settingsFile(), Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            throw Refusal.notFound("Snapshot not found");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the snapshot", e);
        }
    }

    private static Path snapshot(UserDirs dirs, String handle, String name) {
        if (name == null || !name.startsWith(SettingsBackups.prefix(handle))) {
            throw Refusal.badRequest("Invalid snapshot name");
        }
        return SafeNames.fileIn(dirs.backups(), name, "snapshot name");
    }

    /**
     * A preset folder as raw texts and names: {@code .json} files by locale order, files that are not valid
     * JSON left out of both lists so they stay aligned.
     */
    private static void rawPresets(ObjectNode out, Path dir, String textsKey, String namesKey) {
        ArrayNode texts = out.putArray(textsKey);
        ArrayNode names = out.putArray(namesKey);
        List<String> files = new ArrayList<>(FileNames.list(dir));
        files.sort(JsLocale.comparator());
        for (String file : files) {
            if (!FileNames.ext(file).equals(".json") || !Files.isRegularFile(dir.resolve(file))) {
                continue;
            }
            String text = JsonFiles.readText(dir.resolve(file));
            if (JsonFiles.tryParse(text) == null) {
                continue;
            }
            texts.add(text);
            names.add(FileNames.base(file));
        }
    }

    /** Parsed {@code .json} files of a folder in code-unit order; unparsable ones skipped. */
    private static ArrayNode parsedFiles(Path dir) {
        ArrayNode out = JsJson.array();
        List<String> files = new ArrayList<>(FileNames.list(dir));
        files.sort(String::compareTo);
        for (String file : files) {
            if (FileNames.ext(file).equals(".json") && Files.isRegularFile(dir.resolve(file))) {
                JsonNode parsed = JsonFiles.tryRead(dir.resolve(file));
                if (parsed != null) {
                    out.add(parsed);
                }
            }
        }
        return out;
    }

    /** Lorebook names: entries ending in {@code .json} in any case, without it, in locale order. */
    private static ArrayNode worldNames(Path dir) {
        ArrayNode out = JsJson.array();
        FileNames.list(dir).stream()
                .filter(name -> FileNames.ext(name).equalsIgnoreCase(".json"))
                .sorted(JsLocale.comparator())
                .forEach(name -> out.add(FileNames.base(name)));
        return out;
    }
}
