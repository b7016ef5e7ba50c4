package tankard.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.ext.web.Router;
import tankard.config.TankardConfig;
import tankard.http.Feature;
import tankard.http.Reply;
import tankard.http.Routes;
import tankard.json.JsJson;
import tankard.json.JsonFiles;
import tankard.user.UserDirs;
import tankard.util.FileNames;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** {@code POST /api/groups/all} (st-api.md §9): every group with the dates and sizes ST computes. */
public final class GroupFeature implements Feature {
    /** JavaScript's {@code Date.prototype.toISOString()}. */
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private final TankardConfig config;

    public GroupFeature(TankardConfig config) {
        this.config = config;
    }

    @Override
    public void mount(Router router) {
        router.post("/api/groups/all").handler(Routes.blocking(config, request -> Reply.json(all(request.dirs()))));
    }

    /**
     * Each parsable group file plus {@code date_added}/{@code create_date} (file birth time) and the total
     * size and newest mtime of its chat files. Blocking.
     */
    static ArrayNode all(UserDirs dirs) {
        List<String> chats = FileNames.list(dirs.groupChats()).stream()
                .filter(name -> FileNames.ext(name).equals(".jsonl"))
                .toList();
        ArrayNode out = JsJson.array();
        for (String file : FileNames.list(dirs.groups())) {
            Path path = dirs.groups().resolve(file);
            if (!FileNames.ext(file).equals(".json") || !Files.isRegularFile(path)
                    || !(JsonFiles.tryRead(path) instanceof ObjectNode group)) {
                continue;
            }
            FileTime born = attributes(path).creationTime();
            group.put("date_added", millis(born));
            group.put("create_date", ISO.format(born.toInstant()));
            Set<String> ids = chatIds(group.get("chats"));
            long size = 0;
            double lastChat = 0;
            for (String chat : chats) {
                if (ids.contains(FileNames.base(chat))) {
                    BasicFileAttributes chatAttributes = attributes(dirs.groupChats().resolve(chat));
                    size += chatAttributes.size();
                    lastChat = Math.max(lastChat, millis(chatAttributes.lastModifiedTime()));
                }
            }
            group.put("date_last_chat", lastChat);
            group.put("chat_size", size);
            out.add(group);
        }
        return out;
    }

    /** The string members of {@code chats} (ST compares with {@code ===}, so numbers never match). */
    private static Set<String> chatIds(JsonNode chats) {
        Set<String> ids = new HashSet<>();
        if (chats != null && chats.isArray()) {
            chats.forEach(id -> {
                if (id.isTextual()) {
                    ids.add(id.textValue());
                }
            });
        }
        return ids;
    }

    /** Epoch milliseconds with the sub-millisecond fraction Node reports ({@code birthtimeMs}, {@code mtimeMs}). */
    private static double millis(FileTime time) {
        Instant instant = time.toInstant();
        return instant.getEpochSecond() * 1000.0 + instant.getNano() / 1e6;
    }

    private static BasicFileAttributes attributes(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file.getFileName(), e);
        }
    }
}
