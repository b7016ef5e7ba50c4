package tankard.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.AtomicFiles;
import tankard.user.UserDirs;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A user's {@code secrets.json} (st-data.md §4.4): per key a list of {@code {id, value, label, active}} with
 * one active entry. Unknown keys and members are kept. A legacy flat file is migrated when first read, with
 * a backup copy. Read-modify-write operations are serialised. Blocking.
 */
public final class SecretStore {
    private static final Logger LOG = LoggerFactory.getLogger(SecretStore.class);
    public static final String MIGRATED = "_migrated";

    /** Every key the frontend knows, in ST's order; the state map always lists all of them. */
    public static final List<String> KNOWN_KEYS = List.of("api_key_horde", "api_key_mancer", "api_key_vllm",
            "api_key_aphrodite", "api_key_tabby", "api_key_openai", "api_key_novel", "api_key_claude", "deepl", "libre",
            "libre_url", "lingva_url", "api_key_openrouter", "api_key_ai21", "oneringtranslator_url", "deeplx_url",
            "api_key_makersuite", "api_key_vertexai", "api_key_serpapi", "api_key_togetherai", "api_key_mistralai",
            "api_key_custom", "api_key_ooba", "api_key_infermaticai", "api_key_dreamgen", "api_key_nomicai",
            "api_key_koboldcpp", "api_key_llamacpp", "api_key_cohere", "api_key_perplexity", "api_key_groq",
            "api_key_azure_tts", "api_key_featherless", "api_key_huggingface", "api_key_stability",
            "api_key_custom_openai_tts", "api_key_tavily", "api_key_chutes", "api_key_electronhub", "api_key_nanogpt",
            "api_key_bfl", "api_key_comfy_runpod", "api_key_falai", "api_key_generic", "api_key_deepseek",
            "api_key_serper", "api_key_aimlapi", "api_key_xai", "api_key_fireworks", "vertexai_service_account_json",
            "api_key_minimax", "minimax_group_id", "api_key_moonshot", "api_key_cometapi", "api_key_azure_openai",
            "api_key_zai", "api_key_siliconflow", "api_key_elevenlabs", "api_key_pollinations", "volcengine_app_id",
            "volcengine_access_key", "api_key_workers_ai");

    /** Keys whose values are not secret (service URLs): shown and readable even without key exposure. */
    public static final List<String> EXPORTABLE_KEYS = List.of("libre_url", "lingva_url", "oneringtranslator_url",
            "deeplx_url");

    private final boolean allowKeysExposure;

    public SecretStore(boolean allowKeysExposure) {
        this.allowKeysExposure = allowKeysExposure;
    }

    public boolean allowKeysExposure() {
        return allowKeysExposure;
    }

    /** Whether {@code key}'s values may be handed out in clear. */
    public boolean exposable(String key) {
        return allowKeysExposure || EXPORTABLE_KEYS.contains(key);
    }

    /** The active (or the given id's) value of a key; empty when there is none. For the backend proxies. */
    public synchronized String read(UserDirs dirs, String key, String id) {
        if (!Files.exists(dirs.secretsFile())) {
            return "";
        }
        for (JsonNode secret : entries(load(dirs), key)) {
            if (id != null ? id.equals(secret.path("id").asText(null)) : secret.path("active").asBoolean(false)) {
                return secret.path("value").asText("");
            }
        }
        return "";
    }

    public String read(UserDirs dirs, String key) {
        return read(dirs, key, null);
    }

    /** The state map: every known key with its masked entries, or null when it has none. */
    public synchronized ObjectNode state(UserDirs dirs) {
        ObjectNode secrets = load(dirs);
        ObjectNode state = JsJson.object();
        for (String key : KNOWN_KEYS) {
            List<JsonNode> entries = entries(secrets, key);
            if (entries.isEmpty()) {
                state.putNull(key);
                continue;
            }
            ArrayNode list = state.putArray(key);
            for (JsonNode secret : entries) {
                ObjectNode masked = list.addObject();
                copy(secret, masked, "id");
                if (secret.has("value")) {
                    masked.put("value", mask(secret.path("value").asText(""), key));
                }
                copy(secret, masked, "label");
                copy(secret, masked, "active");
            }
        }
        return state;
    }

    /** Adds a new active value for a key (the others become inactive); returns its id. */
    public synchronized String write(UserDirs dirs, String key, String value, JsonNode label) {
        ObjectNode secrets = load(dirs);
        ArrayNode list = secrets.get(key) instanceof ArrayNode existing ? existing : secrets.putArray(key);
        list.forEach(SecretStore::deactivate);
        String id = UUID.randomUUID().toString();
        ObjectNode secret = list.addObject().put("id", id).put("value", value);
        secret.set("label", label == null ? TextNode.valueOf("Unlabeled") : label);
        secret.put("active", true);
        save(dirs, secrets);
        return id;
    }

    /** Removes the entry with {@code id} (or the active one); the first left becomes active; an empty key goes. */
    public synchronized void delete(UserDirs dirs, String key, String id) {
        if (!Files.exists(dirs.secretsFile())) {
            return;
        }
        ObjectNode secrets = load(dirs);
        if (!(secrets.get(key) instanceof ArrayNode list)) {
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            JsonNode secret = list.get(i);
            if (id != null ? id.equals(secret.path("id").asText(null)) : secret.path("active").asBoolean(false)) {
                list.remove(i);
                break;
            }
        }
        boolean anyActive = false;
        for (JsonNode secret : list) {
            anyActive |= secret.path("active").asBoolean(false);
        }
        if (!list.isEmpty() && !anyActive && list.get(0) instanceof ObjectNode first) {
            first.put("active", true);
        }
        if (list.isEmpty()) {
            secrets.remove(key);
        }
        save(dirs, secrets);
    }

    /** Makes the entry with {@code id} the active one; an unknown id changes nothing. */
    public synchronized void rotate(UserDirs dirs, String key, String id) {
        if (!Files.exists(dirs.secretsFile())) {
            return;
        }
        ObjectNode secrets = load(dirs);
        ObjectNode target = find(secrets, key, id);
        if (target == null) {
            return;
        }
        secrets.get(key).forEach(SecretStore::deactivate);
        target.put("active", true);
        save(dirs, secrets);
    }

    public synchronized void rename(UserDirs dirs, String key, String id, String label) {
        ObjectNode secrets = load(dirs);
        ObjectNode target = find(secrets, key, id);
        if (target == null) {
            return;
        }
        target.put("label", label);
        save(dirs, secrets);
    }

    /** Every key's active value in clear ({@code _migrated} and keys without an active entry left out). */
    public synchronized ObjectNode activeValues(UserDirs dirs) {
        ObjectNode out = JsJson.object();
        for (Map.Entry<String, JsonNode> field : load(dirs).properties()) {
            if (field.getKey().equals(MIGRATED) || !field.getValue().isArray()) {
                continue;
            }
            for (JsonNode secret : field.getValue()) {
                if (secret.path("active").asBoolean(false)) {
                    out.set(field.getKey(), secret.path("value"));
                    break;
                }
            }
        }
        return out;
    }

    /** Whether the key has at least one entry (what ST's state map reports as non-null). */
    public synchronized boolean has(UserDirs dirs, String key) {
        return KNOWN_KEYS.contains(key) && !entries(load(dirs), key).isEmpty();
    }

    String mask(String value, String key) {
        if (exposable(key)) {
            return value;
        }
        if (value.length() <= 10) {
            return "*".repeat(10);
        }
        return "*".repeat(7) + value.substring(value.length() - 3);
    }

    /**
     * Reads the file, migrating the legacy flat format. A missing file reads as empty; unlike ST, a read does
     * not create it (the first write does), so opening someone's data root changes nothing.
     */
    private ObjectNode load(UserDirs dirs) {
        String text = JsonFiles.readText(dirs.secretsFile());
        if (text == null) {
            return JsJson.object();
        }
        if (!(JsonFiles.tryParse(text) instanceof ObjectNode secrets)) {
            throw new IllegalStateException("secrets.json is not a valid JSON object");
        }
        return isLegacy(secrets) ? migrate(dirs, secrets, text) : secrets;
    }

    private static boolean isLegacy(ObjectNode secrets) {
        if (secrets.isEmpty() || Js.truthy(secrets.get(MIGRATED))) {
            return false;
        }
        for (JsonNode value : secrets) {
            if (value.isArray()) {
                return false;
            }
        }
        return true;
    }

    private static ObjectNode migrate(UserDirs dirs, ObjectNode flat, String original) {
        ObjectNode migrated = JsJson.object();
        for (Map.Entry<String, JsonNode> field : flat.properties()) {
            JsonNode value = field.getValue();
            if (value.isTextual() && !value.textValue().isBlank()) {
                migrated.putArray(field.getKey()).addObject()
                        .put("id", UUID.randomUUID().toString())
                        .put("value", value.textValue())
                        .put("label", field.getKey())
                        .put("active", true);
            }
        }
        migrated.putArray(MIGRATED);
        AtomicFiles.write(dirs.backups().resolve("secrets_migration_" + System.currentTimeMillis() + ".json"), original);
        save(dirs, migrated);
        LOG.info("Migrated the flat secrets.json of {} (old file kept in backups/)", dirs.root().getFileName());
        return migrated;
    }

    private static void save(UserDirs dirs, ObjectNode secrets) {
        AtomicFiles.write(dirs.secretsFile(), JsJson.pretty(secrets));
    }

    private static List<JsonNode> entries(ObjectNode secrets, String key) {
        List<JsonNode> out = new ArrayList<>();
        if (secrets.get(key) instanceof ArrayNode list) {
            list.forEach(out::add);
        }
        return out;
    }

    private static ObjectNode find(ObjectNode secrets, String key, String id) {
        for (JsonNode secret : entries(secrets, key)) {
            if (secret instanceof ObjectNode object && id.equals(secret.path("id").asText(null))) {
                return object;
            }
        }
        return null;
    }

    private static void deactivate(JsonNode secret) {
        if (secret instanceof ObjectNode object) {
            object.put("active", false);
        }
    }

    private static void copy(JsonNode from, ObjectNode to, String field) {
        if (from.has(field)) {
            to.set(field, from.get(field));
        }
    }
}
