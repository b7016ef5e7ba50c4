package tankard.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.util.FileNames;
import tankard.util.JsLocale;
import tankard.util.SafeNames;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The user's settings document, the lists the frontend loads with it, and settings snapshots (ST:
 * src/endpoints/settings.js).
 */
public final class SettingsService {
    /** The settings document in the user's folder. */
    public static final String FILE = "settings.json";
    private final TankardConfig config;
    private final DocumentStore documents;
    private final SettingsBackups backups;

    public SettingsService(TankardConfig config, DocumentStore documents, SettingsBackups backups) {
        this.config = config;
        this.documents = documents;
        this.backups = backups;
    }

    public SettingsBackups backups() {
        return backups;
    }

    /** The {@code /api/settings/get} payload: settings.json as text plus every preset list. Blocking. */
    public ObjectNode load(String user) {
        String settings = documents.read(user, Folder.ROOT, FILE).map(SettingsService::text)
                .orElseThrow(() -> Refusal.failed("settings.json could not be read"));
        ObjectNode out = JsJson.object();
        out.put("settings", settings);
        rawPresets(out, user, Folder.KOBOLD_SETTINGS, "koboldai_settings", "koboldai_setting_names");
        out.set("world_names", worldNames(user));
        rawPresets(out, user, Folder.NOVEL_SETTINGS, "novelai_settings", "novelai_setting_names");
        rawPresets(out, user, Folder.OPENAI_SETTINGS, "openai_settings", "openai_setting_names");
        rawPresets(out, user, Folder.TEXTGEN_SETTINGS, "textgenerationwebui_presets", "textgenerationwebui_preset_names");
        out.set("themes", parsedFiles(user, Folder.THEMES));
        out.set("movingUIPresets", parsedFiles(user, Folder.MOVING_UI));
        out.set("quickReplyPresets", parsedFiles(user, Folder.QUICK_REPLIES));
        out.set("instruct", parsedFiles(user, Folder.INSTRUCT));
        out.set("context", parsedFiles(user, Folder.CONTEXT));
        out.set("sysprompt", parsedFiles(user, Folder.SYSPROMPT));
        out.set("reasoning", parsedFiles(user, Folder.REASONING));
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
    public void save(String user, byte[] json) {
        documents.write(user, Folder.ROOT, FILE, JsJson.relayout(json, true).getBytes(StandardCharsets.UTF_8));
        backups.afterSave(user);
    }

    /** {@code [{date, name, size}]} of the user's snapshots; {@code date} is ST's {@code ctimeMs}. */
    public ArrayNode snapshots(String user) {
        ArrayNode out = JsJson.array();
        for (DocumentStore.Entry snapshot : backups.snapshots(user)) {
            out.addObject()
                    .put("date", snapshot.changedMs())
                    .put("name", snapshot.name())
                    .put("size", snapshot.size());
        }
        return out;
    }

    /** The text of one snapshot. */
    public String readSnapshot(String user, String name) {
        return text(snapshot(user, name));
    }

    /** Replaces settings.json with a snapshot. */
    public void restoreSnapshot(String user, String name) {
        documents.write(user, Folder.ROOT, FILE, snapshot(user, name));
    }

    /** A snapshot's bytes: 400 for a name that is not one of the user's snapshots, 404 when there is none. */
    private byte[] snapshot(String user, String name) {
        if (name == null || !name.startsWith(SettingsBackups.prefix(user))) {
            throw Refusal.badRequest("Invalid snapshot name");
        }
        SafeNames.requireFits(name, "snapshot name");
        return documents.read(user, Folder.BACKUPS, name).orElseThrow(() -> Refusal.notFound("Snapshot not found"));
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * A preset folder as raw texts and names: {@code .json} files by locale order, files that are not valid
     * JSON left out of both lists so they stay aligned.
     */
    private void rawPresets(ObjectNode out, String user, Folder folder, String textsKey, String namesKey) {
        ArrayNode texts = out.putArray(textsKey);
        ArrayNode names = out.putArray(namesKey);
        eachJson(user, folder, JsLocale.comparator(), (name, text) -> {
            if (JsonFiles.tryParse(text) != null) {
                texts.add(text);
                names.add(FileNames.base(name));
            }
        });
    }

    /** Parsed {@code .json} files of a folder in code-unit order; unparsable ones skipped. */
    private ArrayNode parsedFiles(String user, Folder folder) {
        ArrayNode out = JsJson.array();
        eachJson(user, folder, String::compareTo, (name, text) -> {
            JsonNode parsed = JsonFiles.tryParse(text);
            if (parsed != null) {
                out.add(parsed);
            }
        });
        return out;
    }

    /** The text of each {@code .json} document of a folder in the given order; one deleted meanwhile is skipped. */
    private void eachJson(String user, Folder folder, Comparator<String> order, BiConsumer<String, String> each) {
        List<String> names = new ArrayList<>();
        for (DocumentStore.Entry entry : documents.list(user, folder)) {
            if (FileNames.ext(entry.name()).equals(".json")) {
                names.add(entry.name());
            }
        }
        names.sort(order);
        for (String name : names) {
            documents.read(user, folder, name).ifPresent(bytes -> each.accept(name, text(bytes)));
        }
    }

    /** Lorebook names: entries ending in {@code .json} in any case, without it, in locale order. */
    private ArrayNode worldNames(String user) {
        ArrayNode out = JsJson.array();
        documents.list(user, Folder.WORLDS).stream()
                .map(DocumentStore.Entry::name)
                .filter(name -> FileNames.ext(name).equalsIgnoreCase(".json"))
                .sorted(JsLocale.comparator())
                .forEach(name -> out.add(FileNames.base(name)));
        return out;
    }
}
