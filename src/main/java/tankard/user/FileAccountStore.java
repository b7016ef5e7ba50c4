package tankard.user;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.util.Hashes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * ST's node-persist account store (ST: src/users.js, initUserStorage): one file per key named by the SHA-256 of the
 * key, holding {@code {"key":…,"value":…}}. Loaded once and kept in memory; every change is written through.
 */
public final class FileAccountStore implements AccountStore {
    private static final String USER_PREFIX = "user:";
    private static final String AVATAR_PREFIX = "avatar:";

    private final Path dir;
    private final Map<String, JsonNode> values = new ConcurrentHashMap<>();

    public FileAccountStore(Path storageDir) {
        this.dir = storageDir;
        load();
    }

    private void load() {
        try {
            Files.createDirectories(dir);
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(Files::isRegularFile).forEach(file -> {
                    JsonNode entry = readEntry(file);
                    if (entry != null && entry.path("key").isTextual() && entry.has("value")) {
                        values.put(entry.get("key").textValue(), entry.get("value"));
                    }
                });
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the account store " + dir, e);
        }
    }

    private static JsonNode readEntry(Path file) {
        try {
            return JsJson.tryParse(Files.readAllBytes(file));
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public List<User> users() {
        return values.entrySet().stream()
                .filter(e -> e.getKey().startsWith(USER_PREFIX))
                .map(e -> AccountRecords.fromJson(e.getValue()))
                .filter(AccountRecords::named)
                .sorted(Comparator.comparingLong(User::created))
                .toList();
    }

    @Override
    public Optional<User> find(String handle) {
        return Optional.ofNullable(values.get(USER_PREFIX + handle)).map(AccountRecords::fromJson);
    }

    @Override
    public Future<Optional<User>> lookup(String handle) {
        return Future.succeededFuture(find(handle));
    }

    @Override
    public synchronized void save(User user) {
        put(USER_PREFIX + user.handle(), AccountRecords.toJson(user));
    }

    @Override
    public synchronized boolean create(User user) {
        if (values.containsKey(USER_PREFIX + user.handle())) {
            return false;
        }
        save(user);
        return true;
    }

    @Override
    public synchronized Optional<User> update(String handle, UnaryOperator<User> change) {
        Optional<User> changed = find(handle).map(change);
        changed.ifPresent(this::save);
        return changed;
    }

    @Override
    public List<ObjectNode> records() {
        return values.entrySet().stream()
                .filter(e -> e.getKey().startsWith(USER_PREFIX) && e.getValue() instanceof ObjectNode)
                .sorted(Map.Entry.comparingByKey())
                .map(e -> ((ObjectNode) e.getValue()).deepCopy())
                .toList();
    }

    @Override
    public synchronized void putRecord(ObjectNode record) {
        put(USER_PREFIX + AccountRecords.fromJson(record).handle(), record.deepCopy());
    }

    @Override
    public synchronized void delete(String handle) {
        remove(USER_PREFIX + handle);
        remove(AVATAR_PREFIX + handle);
    }

    @Override
    public Optional<String> avatar(String handle) {
        JsonNode value = values.get(AVATAR_PREFIX + handle);
        return value != null && value.isTextual() && !value.textValue().isEmpty() ? Optional.of(value.textValue()) : Optional.empty();
    }

    @Override
    public synchronized void saveAvatar(String handle, String dataUrl) {
        if (dataUrl == null || dataUrl.isEmpty()) {
            remove(AVATAR_PREFIX + handle);
        } else {
            put(AVATAR_PREFIX + handle, JsJson.MAPPER.getNodeFactory().textNode(dataUrl));
        }
    }

    private void put(String key, JsonNode value) {
        ObjectNode entry = JsJson.object();
        entry.put("key", key);
        entry.set("value", value);
        AtomicFiles.write(fileOf(key), JsJson.compactBytes(entry));
        values.put(key, value);
    }

    private void remove(String key) {
        try {
            Files.deleteIfExists(fileOf(key));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot delete " + key, e);
        }
        values.remove(key);
    }

    private Path fileOf(String key) {
        return dir.resolve(Hashes.sha256Hex(key));
    }
}
