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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A user's {@code secrets.json} (ST: src/endpoints/secrets.js, writeSecret, migrateFlatSecrets): per key a list of
 * {@code {id, value, label, active}} with one active entry. Unknown keys and members are kept. A legacy flat file is
 * migrated when first read, with a backup copy. Read-modify-write operations are serialised. Blocking.
 */
public final class SecretStore {
    private static final Logger LOG = LoggerFactory.getLogger(SecretStore.class);
    private final boolean allowKeysExposure;

    public SecretStore(boolean allowKeysExposure) {
        this.allowKeysExposure = allowKeysExposure;
    }

    public boolean allowKeysExposure() {
        return allowKeysExposure;
    }

    /** Whether {@code key}'s values may be handed out in clear. */
    public boolean exposable(String key) {
        return allowKeysExposure || SecretKeys.EXPORTABLE.contains(key);
    }

    /**
     * The value of the entry with {@code id} (the active one when {@code id} is null or empty) of a key, or ""
     * when there is none, as ST's readSecret. Blocking: call it from a worker thread.
     */
    public synchronized String read(UserDirs dirs, String key, String id) {
        if (!Files.exists(dirs.secretsFile())) {
            return "";
        }
        JsonNode secret = target(entries(load(dirs), key), id);
        return secret == null || !Js.truthy(secret.get("value")) ? "" : Js.string(secret.get("value"));
    }

    /** The active value of a key ({@link SecretKeys}), or "" when it has none: what backends send upstream. */
    public String read(UserDirs dirs, String key) {
        return read(dirs, key, null);
    }

    /** The state map: every known key with its masked entries, or null when it has none. */
    public synchronized ObjectNode state(UserDirs dirs) {
        ObjectNode secrets = load(dirs);
        ObjectNode state = JsJson.object();
        for (String key : SecretKeys.ALL) {
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
        List<JsonNode> entries = entries(secrets, key);
        int index = entries.indexOf(target(entries, id));
        if (index >= 0) {
            list.remove(index);
        }
        boolean anyActive = false;
        for (JsonNode secret : list) {
            anyActive |= isActive(secret);
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
            if (field.getKey().equals(SecretKeys.MIGRATED) || !field.getValue().isArray()) {
                continue;
            }
            for (JsonNode secret : field.getValue()) {
                if (isActive(secret)) {
                    out.set(field.getKey(), secret.path("value"));
                    break;
                }
            }
        }
        return out;
    }

    /** Whether the key has at least one entry (what ST's state map reports as non-null). */
    public synchronized boolean has(UserDirs dirs, String key) {
        return SecretKeys.ALL.contains(key) && !entries(load(dirs), key).isEmpty();
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
        byte[] raw = JsonFiles.readBytes(dirs.secretsFile());
        if (raw == null) {
            return JsJson.object();
        }
        if (!(JsonFiles.tryParse(new String(raw, StandardCharsets.UTF_8)) instanceof ObjectNode secrets)) {
            throw new IllegalStateException("secrets.json is not a valid JSON object");
        }
        return isLegacy(secrets) ? migrate(dirs, secrets, raw) : secrets;
    }

    private static boolean isLegacy(ObjectNode secrets) {
        if (secrets.isEmpty() || Js.truthy(secrets.get(SecretKeys.MIGRATED))) {
            return false;
        }
        for (JsonNode value : secrets) {
            if (value.isArray()) {
                return false;
            }
        }
        return true;
    }

    private static ObjectNode migrate(UserDirs dirs, ObjectNode flat, byte[] original) {
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
        migrated.putArray(SecretKeys.MIGRATED);
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

    /** ST's {@code find(s => id ? s.id === id : s.active)}. */
    private static JsonNode target(List<JsonNode> entries, String id) {
        for (JsonNode secret : entries) {
            if (id != null && !id.isEmpty() ? id.equals(secret.path("id").textValue()) : isActive(secret)) {
                return secret;
            }
        }
        return null;
    }

    private static boolean isActive(JsonNode secret) {
        return Js.truthy(secret.get("active"));
    }

    private static ObjectNode find(ObjectNode secrets, String key, String id) {
        for (JsonNode secret : entries(secrets, key)) {
            if (secret instanceof ObjectNode object && id.equals(secret.path("id").textValue())) {
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
