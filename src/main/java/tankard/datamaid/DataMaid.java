package tankard.datamaid;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.character.CardStore;
import tankard.chat.ChatFiles;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.group.GroupStore;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.TicketStore;
import tankard.util.Hashes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * ST's Data Maid (src/endpoints/data-maid.js): a report of loose files names each by the SHA-256 of where it is
 * and comes with a token; only the files of the caller's newest report can then be viewed or deleted, by that
 * hash, and only inside the user's folder. The report (its token and where each file is) is a ticket of the
 * user's, one at a time, so that any node serves the views and deletes that follow it; it lapses a day after it
 * was made (ST's lives until the server stops) or when finalized. Blocking.
 */
public final class DataMaid {
    /** The ticket kind of a user's report. */
    private static final String TICKET = "data-maid-report";
    private static final long LIFETIME_MS = 24L * 60 * 60 * 1000;

    /** A live report: the ticket as stored, and where each of its files is by hash. */
    private record Report(String ticket, ObjectNode files) {
    }

    private final ChatStore chats;
    private final GroupStore groups;
    private final ChatFiles chatFiles;
    private final DocumentStore documents;
    private final CardStore cards;
    private final BlobStore blobs;
    private final TicketStore tickets;
    private final Path dataRoot;
    private final SecureRandom random = new SecureRandom();

    /**
     * @param chatFiles how a loose chat is deleted, after any save under way
     * @param dataRoot  where the users' thumbnails are, on this node
     */
    public DataMaid(ChatStore chats, ChatFiles chatFiles, GroupStore groups, DocumentStore documents, CardStore cards,
                    BlobStore blobs, TicketStore tickets, Path dataRoot) {
        this.groups = groups;
        this.cards = cards;
        this.chats = chats;
        this.chatFiles = chatFiles;
        this.documents = documents;
        this.blobs = blobs;
        this.tickets = tickets;
        this.dataRoot = dataRoot;
    }

    /** {@code {report, token}}; the token replaces the user's older ones. */
    public ObjectNode report(String handle) {
        Map<String, List<Loose>> found = new DataMaidScan(handle, chats, chatFiles, groups, documents, cards, blobs,
                dataRoot).scan();
        ObjectNode report = JsJson.object();
        ObjectNode files = JsJson.object();
        found.forEach((category, loose) -> {
            boolean withParent = category.equals("images") || category.equals("chats");
            ArrayNode records = report.putArray(category);
            for (Loose file : loose) {
                String hash = Hashes.sha256Hex(file.key());
                if (!files.has(hash)) {
                    files.set(hash, file.reference());
                }
                records.add(record(file, hash, withParent));
            }
        });
        String token = HexFormat.of().formatHex(bytes(32));
        ObjectNode ticket = JsJson.object().put("token", token).set("files", files);
        tickets.put(handle, TICKET, JsJson.compact(ticket), LIFETIME_MS);
        return JsJson.object().<ObjectNode>set("report", report).put("token", token);
    }

    /** Forgets the token. */
    public void finalize(JsonNode token, String handle) {
        tickets.remove(handle, TICKET, live(token(token), handle).ticket());
    }

    /** The reported file with that hash, open for viewing. */
    Loose.View view(String token, String hash, String handle) throws IOException {
        if (token == null || token.isEmpty() || hash == null || hash.isEmpty()) {
            throw Refusal.badRequest("Missing token or hash");
        }
        Optional<Loose> file = resolve(handle, live(token, handle).files().get(hash));
        Optional<Loose.View> view = file.isEmpty() ? Optional.empty() : file.get().view();
        return view.orElseThrow(() -> Refusal.notFound("File not found"));
    }

    /** Deletes the reported files with those hashes; unknown hashes and files gone since are skipped. */
    public void delete(JsonNode token, JsonNode hashes, String handle) {
        if (!hashes.isArray() || hashes.isEmpty()) {
            throw Refusal.badRequest("Missing hashes");
        }
        Report report = live(token(token), handle);
        for (JsonNode hash : hashes) {
            try {
                Optional<Loose> file = resolve(handle, hash.isTextual() ? report.files().get(hash.textValue()) : null);
                if (file.isPresent()) {
                    file.get().delete();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot delete the file of " + hash, e);
            }
        }
    }

    /** A token from a JSON body: 400 when missing. */
    private static String token(JsonNode token) {
        if (token == null || !Js.truthy(token)) {
            throw Refusal.badRequest("Missing token");
        }
        return token.isTextual() ? token.textValue() : "";
    }

    /** The user's report if the token is its token; else 403. */
    private Report live(String token, String handle) {
        Optional<String> ticket = tickets.find(handle, TICKET);
        JsonNode stored = ticket.map(text -> JsJson.tryParse(text.getBytes(StandardCharsets.UTF_8))).orElse(null);
        if (stored == null || !MessageDigest.isEqual(stored.path("token").asText().getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8)) || !(stored.get("files") instanceof ObjectNode files)) {
            throw Refusal.forbidden("Invalid token");
        }
        return new Report(ticket.get(), files);
    }

    /** The loose file a report's reference points to ({@link Loose#reference}), as it is now; empty when gone. */
    private Optional<Loose> resolve(String handle, JsonNode reference) throws IOException {
        if (reference == null) {
            return Optional.empty();
        }
        String name = reference.path("name").asText();
        switch (reference.path("kind").asText()) {
            case "blob" -> {
                return blobs.stat(handle, reference.path("path").asText())
                        .map(entry -> new Loose.Blob(blobs, handle, entry));
            }
            case "chat" -> {
                ChatFolder folder = new ChatFolder(reference.path("group").asBoolean(),
                        reference.path("character").asText());
                return chats.find(handle, folder, name)
                        .map(file -> new Loose.Chat(chats, chatFiles, handle, folder, file));
            }
            case "backup" -> {
                return chats.findBackup(handle, name).map(file -> new Loose.Backup(chats, handle, file));
            }
            case "document" -> {
                DocumentStore.Folder folder = DocumentStore.Folder.valueOf(reference.path("folder").asText());
                return documents.list(handle, folder).stream().filter(entry -> entry.name().equals(name)).findFirst()
                        .map(entry -> new Loose.Document(documents, handle, folder, entry));
            }
            case "thumbnail" -> {
                Path root = dataRoot.resolve(handle).toAbsolutePath().normalize();
                return Optional.of(new Loose.NodeFile(root.resolve(reference.path("path").asText()).normalize(), root));
            }
            default -> {
                return Optional.empty();
            }
        }
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
