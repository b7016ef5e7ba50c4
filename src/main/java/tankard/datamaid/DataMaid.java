package tankard.datamaid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.character.CardStore;
import tankard.chat.ChatFiles;
import tankard.chat.ChatStore;
import tankard.group.GroupStore;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.util.Hashes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ST's Data Maid (src/endpoints/data-maid.js): a report of loose files names each by the SHA-256 of where it is
 * and comes with a token; only the files of the caller's newest report can then be viewed or deleted, by that
 * hash, and only inside the user's folder. Tokens live in memory, one per user, until finalized. Blocking.
 */
public final class DataMaid {
    private record Report(String handle, Map<String, Loose> byHash) {
    }

    private final ChatStore chats;
    private final GroupStore groups;
    private final ChatFiles chatFiles;
    private final DocumentStore documents;
    private final CardStore cards;
    private final BlobStore blobs;
    private final Path dataRoot;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Report> tokens = new ConcurrentHashMap<>();

    /**
     * @param chatFiles how a loose chat is deleted, after any save under way
     * @param dataRoot  where the users' thumbnails are, on this node
     */
    public DataMaid(ChatStore chats, ChatFiles chatFiles, GroupStore groups, DocumentStore documents, CardStore cards,
                    BlobStore blobs, Path dataRoot) {
        this.groups = groups;
        this.cards = cards;
        this.chats = chats;
        this.chatFiles = chatFiles;
        this.documents = documents;
        this.blobs = blobs;
        this.dataRoot = dataRoot;
    }

    /** {@code {report, token}}; the token replaces the user's older ones. */
    public ObjectNode report(String handle) {
        Map<String, List<Loose>> found = new DataMaidScan(handle, chats, chatFiles, groups, documents, cards, blobs,
                dataRoot).scan();
        ObjectNode report = JsJson.object();
        Map<String, Loose> byHash = new LinkedHashMap<>();
        found.forEach((category, files) -> {
            boolean withParent = category.equals("images") || category.equals("chats");
            ArrayNode records = report.putArray(category);
            for (Loose file : files) {
                String hash = Hashes.sha256Hex(file.key());
                byHash.putIfAbsent(hash, file);
                records.add(record(file, hash, withParent));
            }
        });
        String token = HexFormat.of().formatHex(bytes(32));
        synchronized (tokens) {
            tokens.values().removeIf(older -> older.handle().equals(handle));
            tokens.put(token, new Report(handle, byHash));
        }
        return JsJson.object().<ObjectNode>set("report", report).put("token", token);
    }

    /** Forgets the token. */
    public void finalize(JsonNode token, String handle) {
        tokens.remove(token(token, handle));
    }

    /** The reported file with that hash, open for viewing. */
    Loose.View view(String token, String hash, String handle) throws IOException {
        if (token == null || token.isEmpty() || hash == null || hash.isEmpty()) {
            throw Refusal.badRequest("Missing token or hash");
        }
        Loose file = live(token, handle).byHash().get(hash);
        Optional<Loose.View> view = file == null ? Optional.empty() : file.view();
        return view.orElseThrow(() -> Refusal.notFound("File not found"));
    }

    /** Deletes the reported files with those hashes; unknown hashes and files gone since are skipped. */
    public void delete(JsonNode token, JsonNode hashes, String handle) {
        if (!hashes.isArray() || hashes.isEmpty()) {
            throw Refusal.badRequest("Missing hashes");
        }
        Report report = live(token(token, handle), handle);
        for (JsonNode hash : hashes) {
            Loose file = hash.isTextual() ? report.byHash().get(hash.textValue()) : null;
            if (file != null) {
                try {
                    file.delete();
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot delete " + file.name(), e);
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

    /**
     * {@code {name, hash, parent?, size?, mtime?}}; size and time are left out for a file gone since
     * (src/endpoints/data-maid.js, DataMaidService#sanitizeRecord).
     */
    private static ObjectNode record(Loose file, String hash, boolean withParent) {
        ObjectNode record = JsJson.object()
                .put("name", file.name())
                .put("hash", hash);
        if (withParent) {
            record.put("parent", file.parent());
        }
        file.stat().ifPresent(stat -> record.put("size", stat.size()).put("mtime", stat.modifiedMs()));
        return record;
    }

    private byte[] bytes(int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }
}
