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
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.store.DocumentStore.Outcome;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * A user's {@code secrets.json} (ST: src/endpoints/secrets.js, writeSecret, migrateFlatSecrets): per key a list of
 * {@code {id, value, label, active}} with one active entry. Unknown keys and members are kept. A legacy flat file is
 * migrated when first read, with a backup copy. Each change is one {@link DocumentStore#update} of the document, so
 * changes never lose one another, also between server nodes on one database. Users are account handles. Blocking.
 */
public final class SecretStore {
    private static final Logger LOG = LoggerFactory.getLogger(SecretStore.class);
    private static final String FILE = "secrets.json";
    private final DocumentStore documents;
    private final boolean allowKeysExposure;

    public SecretStore(DocumentStore documents, boolean allowKeysExposure) {
        this.documents = documents;
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
    public String read(String user, String key, String id) {
        JsonNode secret = target(entries(load(user), key), id);
        return secret == null || !Js.truthy(secret.get("value")) ? "" : Js.string(secret.get("value"));
    }

    /** The active value of a key ({@link SecretKeys}), or "" when it has none: what backends send upstream. */
    public String read(String user, String key) {
        return read(user, key, null);
    }

    /** The state map: every known key with its masked entries, or null when it has none. */
    public ObjectNode state(String user) {
        ObjectNode secrets = load(user);
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
    public String write(String user, String key, String value, JsonNode label) {
        String id = UUID.randomUUID().toString();
        change(user, true, secrets -> {
            ArrayNode list = secrets.get(key) instanceof ArrayNode existing ? existing : secrets.putArray(key);
            list.forEach(SecretStore::deactivate);
            ObjectNode secret = list.addObject().put("id", id).put("value", value);
            secret.set("label", label == null ? TextNode.valueOf("Unlabeled") : label);
            secret.put("active", true);
            return true;
        });
        return id;
    }

    /** Removes the entry with {@code id} (or the active one); the first left becomes active; an empty key goes. */
    public void delete(String user, String key, String id) {
        change(user, false, secrets -> {
            if (!(secrets.get(key) instanceof ArrayNode list)) {
                return false;
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
            return true;
        });
    }

    /** Makes the entry with {@code id} the active one; an unknown id changes nothing. */
    public void rotate(String user, String key, String id) {
        change(user, false, secrets -> {
            ObjectNode target = find(secrets, key, id);
            if (target == null) {
                return false;
            }
            secrets.get(key).forEach(SecretStore::deactivate);
            target.put("active", true);
            return true;
        });
    }

    public void rename(String user, String key, String id, String label) {
        change(user, false, secrets -> {
            ObjectNode target = find(secrets, key, id);
            if (target == null) {
                return false;
            }
            target.put("label", label);
            return true;
        });
    }

    /** Every key's active value in clear ({@code _migrated} and keys without an active entry left out). */
    public ObjectNode activeValues(String user) {
        ObjectNode out = JsJson.object();
        for (Map.Entry<String, JsonNode> field : load(user).properties()) {
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
    public boolean has(String user, String key) {
        return SecretKeys.ALL.contains(key) && !entries(load(user), key).isEmpty();
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
     * Reads the document, migrating the legacy flat format. A missing document reads as empty; unlike ST, a read
     * does not create it (the first write does), so opening someone's data root changes nothing.
     */
    private ObjectNode load(String user) {
        byte[] raw = documents.read(user, Folder.ROOT, FILE).orElse(null);
        if (raw == null) {
            return JsJson.object();
        }
        ObjectNode secrets = parse(raw);
        if (!isLegacy(secrets)) {
            return secrets;
        }
        // the copy first: an update's change may not write a second document
        documents.write(user, Folder.BACKUPS, "secrets_migration_" + System.currentTimeMillis() + ".json", raw);
        ObjectNode result = documents.update(user, Folder.ROOT, FILE, current -> {
            ObjectNode now = current.map(SecretStore::parse).orElseGet(JsJson::object);
            if (!isLegacy(now)) {
                return Outcome.keep(now); // another request migrated it meanwhile
            }
            ObjectNode migrated = migrate(now);
            return Outcome.store(JsJson.prettyBytes(migrated), migrated);
        });
        LOG.info("Migrated the flat secrets.json of {} (old file kept in backups/)", user);
        return result;
    }

    /**
     * One change of the document as one unit of work: the edit answers whether it changed anything to store. Without
     * {@code create}, a missing document stays missing.
     */
    private void change(String user, boolean create, Predicate<ObjectNode> edit) {
        load(user); // a legacy file is migrated, with its copy, before
        documents.update(user, Folder.ROOT, FILE, current -> {
            if (current.isEmpty() && !create) {
                return Outcome.keep(null);
            }
            ObjectNode secrets = current.map(SecretStore::parse).orElseGet(JsJson::object);
            return edit.test(secrets) ? Outcome.store(JsJson.prettyBytes(secrets), null) : Outcome.keep(null);
        });
    }

    private static ObjectNode parse(byte[] raw) {
        if (!(JsonFiles.tryParse(raw) instanceof ObjectNode secrets)) {
            throw new IllegalStateException("secrets.json is not a valid JSON object");
        }
        return secrets;
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

    private static ObjectNode migrate(ObjectNode flat) {
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
        return migrated;
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
