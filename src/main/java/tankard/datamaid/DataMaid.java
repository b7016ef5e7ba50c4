package tankard.datamaid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.FileTimes;
import tankard.user.UserDirs;
import tankard.util.Hashes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ST's Data Maid (src/endpoints/data-maid.js, DataMaidService): a report of loose files names each by the SHA-256 of
 * its path and comes with a token; only the files of the caller's newest report can then be viewed or deleted, by
 * that hash, and only inside the user's folder. Tokens live in memory, one per user, until finalized. Blocking.
 */
public final class DataMaid {
    private record Report(String handle, Path root, Map<String, Path> byHash) {
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Report> tokens = new ConcurrentHashMap<>();

    /** {@code {report, token}}; the token replaces the user's older ones. */
    public ObjectNode report(UserDirs dirs, String handle) {
        Map<String, List<Path>> found = new DataMaidScan(dirs, handle).scan();
        ObjectNode report = JsJson.object();
        Map<String, Path> byHash = new LinkedHashMap<>();
        found.forEach((category, paths) -> {
            boolean withParent = category.equals("images") || category.equals("chats");
            ArrayNode records = report.putArray(category);
            for (Path path : paths) {
                String hash = Hashes.sha256Hex(path.toString());
                byHash.putIfAbsent(hash, path);
                records.add(record(path, hash, withParent));
            }
        });
        String token = HexFormat.of().formatHex(bytes(32));
        synchronized (tokens) {
            tokens.values().removeIf(older -> older.handle().equals(handle));
            tokens.put(token, new Report(handle, dirs.root().toAbsolutePath().normalize(), byHash));
        }
        return JsJson.object().<ObjectNode>set("report", report).put("token", token);
    }

    /** Forgets the token. */
    public void finalize(JsonNode token, String handle) {
        tokens.remove(token(token, handle));
    }

    /** The reported file with that hash, for viewing. */
    public Path reported(String token, String hash, String handle) {
        if (token == null || token.isEmpty() || hash == null || hash.isEmpty()) {
            throw Refusal.badRequest("Missing token or hash");
        }
        Report report = live(token, handle);
        Path file = report.byHash().get(hash);
        if (file == null || !isInside(report, file) || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw Refusal.notFound("File not found");
        }
        return file;
    }

    /** Deletes the reported files with those hashes; unknown hashes and files gone since are skipped. */
    public void delete(JsonNode token, JsonNode hashes, String handle) {
        if (!hashes.isArray() || hashes.isEmpty()) {
            throw Refusal.badRequest("Missing hashes");
        }
        Report report = live(token(token, handle), handle);
        for (JsonNode hash : hashes) {
            Path file = hash.isTextual() ? report.byHash().get(hash.textValue()) : null;
            if (file != null && isInside(report, file) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot delete " + file.getFileName(), e);
                }
            }
        }
    }

    /** A token from a JSON body: 400 when missing, 403 unless it is a live token of this user. */
    private String token(JsonNode token, String handle) {
        if (token == null || !Js.truthy(token)) {
            throw Refusal.badRequest("Missing token");
        }
        String text = token.isTextual() ? token.textValue() : "";
        live(text, handle);
        return text;
    }

    private Report live(String token, String handle) {
        Report report = tokens.get(token);
        if (report == null || !report.handle().equals(handle)) {
            throw Refusal.forbidden("Invalid token");
        }
        return report;
    }

    private static boolean isInside(Report report, Path file) {
        return file.startsWith(report.root()) && !file.equals(report.root());
    }

    /** {@code {name, hash, parent?, size?, mtime?}}; size and time are left out for a file gone since. */
    private static ObjectNode record(Path path, String hash, boolean withParent) {
        ObjectNode record = JsJson.object()
                .put("name", path.getFileName().toString())
                .put("hash", hash);
        if (withParent) {
            record.put("parent", path.getParent().getFileName().toString());
        }
        try {
            FileTimes.Stat stat = FileTimes.stat(path);
            record.put("size", stat.size()).put("mtime", stat.modifiedMs());
        } catch (IOException e) {
            // gone between the scan and the report
        }
        return record;
    }

    private byte[] bytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }
}
