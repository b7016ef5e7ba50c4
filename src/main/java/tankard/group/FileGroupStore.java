package tankard.group;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.store.AtomicFiles;
import tankard.store.FileTimes;
import tankard.user.UserDirs;
import tankard.util.FileNames;
import tankard.util.SafeNames;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Groups as ST stores them: one pretty JSON file per group in {@code <user>/groups/}, listed in readdir order. */
public final class FileGroupStore implements GroupStore {
    private final Path dataRoot;

    public FileGroupStore(Path dataRoot) {
        this.dataRoot = dataRoot;
    }

    @Override
    public List<StoredGroup> list(String user) throws IOException {
        Path folder = UserDirs.of(dataRoot, user).groups();
        List<StoredGroup> groups = new ArrayList<>();
        for (GroupFile file : files(user)) {
            if (JsonFiles.tryParse(new String(file.content(), StandardCharsets.UTF_8)) instanceof ObjectNode group) {
                BasicFileAttributes attributes = Files.readAttributes(folder.resolve(file.name()), BasicFileAttributes.class);
                groups.add(new StoredGroup(group, FileTimes.millis(attributes.creationTime())));
            }
        }
        return groups;
    }

    @Override
    public List<GroupFile> files(String user) throws IOException {
        Path folder = UserDirs.of(dataRoot, user).groups();
        List<GroupFile> files = new ArrayList<>();
        for (String name : FileNames.list(folder)) {
            Path file = folder.resolve(name);
            if (FileNames.ext(name).equals(".json") && Files.isRegularFile(file)) {
                files.add(new GroupFile(name, Files.readAllBytes(file)));
            }
        }
        return files;
    }

    @Override
    public void putFile(String user, GroupFile file) throws IOException {
        Path target = SafeNames.fileIn(UserDirs.of(dataRoot, user).groups(), file.name(), "group file");
        Files.createDirectories(target.getParent());
        AtomicFiles.write(target, file.content());
    }

    /** Pretty-printed with four spaces, as ST's JSON.stringify(group, null, 4); atomic. */
    @Override
    public void save(String user, String id, ObjectNode group) throws IOException {
        Path file = file(user, id);
        Files.createDirectories(file.getParent());
        AtomicFiles.write(file, JsJson.prettyBytes(group));
    }

    @Override
    public boolean create(String user, String id, ObjectNode group) throws IOException {
        Path file = file(user, id);
        Files.createDirectories(file.getParent());
        return AtomicFiles.create(file, AtomicFiles.bytes(ByteBuffer.wrap(JsJson.prettyBytes(group))));
    }

    @Override
    public Optional<ObjectNode> find(String user, String id) {
        Path file = file(user, id);
        return Files.isRegularFile(file) && JsonFiles.tryRead(file) instanceof ObjectNode group
                ? Optional.of(group) : Optional.empty();
    }

    @Override
    public void delete(String user, String id) throws IOException {
        Files.deleteIfExists(file(user, id));
    }

    @Override
    public void deleteAll(String user) throws IOException {
        Path folder = UserDirs.of(dataRoot, user).groups();
        for (GroupFile file : files(user)) {
            Files.deleteIfExists(folder.resolve(file.name()));
        }
    }

    /** ST's {@code groups/sanitize(id + ".json")}; 400 for an id such as {@code con}, which would name the folder. */
    private Path file(String user, String id) {
        return SafeNames.sanitizedFile(UserDirs.of(dataRoot, user).groups(), id + ".json", "group id");
    }
}
