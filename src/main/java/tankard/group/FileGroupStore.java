package tankard.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.json.JsJson;
import tankard.user.UserDirs;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Groups as ST stores them: one pretty JSON file per group in {@code <user>/groups/}. */
public final class FileGroupStore implements GroupStore {
    private static final Logger LOG = LoggerFactory.getLogger(FileGroupStore.class);

    private final Path dataRoot;

    public FileGroupStore(Path dataRoot) {
        this.dataRoot = dataRoot;
    }

    @Override
    public List<ObjectNode> list(String user) throws IOException {
        List<ObjectNode> groups = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(UserDirs.of(dataRoot, user).groups(), "*.json")) {
            for (Path file : files) {
                if (!Files.isRegularFile(file)) {
                    continue;
                }
                JsonNode group = JsJson.tryParse(Files.readAllBytes(file));
                if (group instanceof ObjectNode object) {
                    groups.add(object);
                } else {
                    LOG.warn("Skipping unreadable group file {}", file.getFileName());
                }
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return groups;
    }
}
