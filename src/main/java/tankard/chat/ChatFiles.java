package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.Locks;
import tankard.util.FileNames;
import tankard.util.Sanitize;
import tankard.util.StTime;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Whole-chat file operations (src/endpoints/chats.js, the /rename, /delete, /group/info, /group/delete and
 * /group/import routes): rename, delete, a group chat's info, delete and import. Requests come named
 * (ChatRef, Rename); answers are ST's, with a missing chat told apart from an unreadable one.
 */
public final class ChatFiles {
    /** How many later milliseconds an import tries when its humanized name is taken. */
    private static final int NAME_ATTEMPTS = 1000;

    private final ChatStore store;
    private final ChatLocks locks;
    private final LongSupplier clock;

    public ChatFiles(ChatStore store, ChatLocks locks, LongSupplier clock) {
        this.store = store;
        this.locks = locks;
        this.clock = clock;
    }

    /** What a rename answers: ST's {@code {"ok": true, sanitizedFileName}}, or {@code {"error": true}} with 400. */
    public record Renamed(boolean ok, ObjectNode body) {
    }

    /** What {@code /api/chats/rename} names: the folder and both file names, sanitized as in ST. */
    public record Rename(ChatFolder folder, String from, String to) {
        /** ST's checks: both names truthy, then the folder ({@code is_group}, else the card's), then the names. */
        public static Rename of(JsonNode body) {
            JsonNode original = body.get("original_file");
            JsonNode renamed = body.get("renamed_file");
            if (!Js.truthy(original) || !Js.truthy(renamed)) {
                throw Refusal.badRequest("original_file and renamed_file are required");
            }
            ChatFolder folder = Js.truthy(body.get("is_group")) ? ChatFolder.groups() : ChatRef.characterFolder(body);
            return new Rename(folder, ChatRef.fileName(original), ChatRef.fileName(renamed));
        }
    }

    /** Renames a character's or a group's chat. */
    public Renamed rename(String user, Rename rename) throws IOException {
        boolean moved;
        try (Locks.Held lock = locks.lock(user, rename.folder(), rename.from(), rename.to())) {
            moved = store.rename(user, rename.folder(), rename.from(), rename.to());
        }
        if (!moved) {
            return new Renamed(false, JsJson.object().put("error", true));
        }
        return new Renamed(true, JsJson.object().put("ok", true).put("sanitizedFileName", FileNames.base(rename.to())));
    }

    /** A group chat's ChatInfo ({@code {}} when corrupted, as in ST); 404 when there is no such chat. */
    public ObjectNode groupInfo(String user, ChatRef chat) {
        try {
            Optional<ChatFile> file = store.find(user, chat.folder(), chat.file());
            Optional<ObjectNode> info = file.isEmpty() ? Optional.empty()
                    : ChatInfo.read(store, user, chat.folder(), file.get(), Map.of(), false);
            return info.orElseThrow(() -> Refusal.notFound("No group chat " + chat.file()));
        } catch (IOException e) {
            throw ChatErrors.unreadable(chat.folder(), chat.file(), e);
        }
    }

    /** Deletes the group chat of an id taken from a group's {@code chats}, if it exists and its name is safe. */
    public void deleteGroupChat(String user, String id) throws IOException {
        String file = Sanitize.filename(id + ".jsonl");
        if (Sanitize.isSafeSegment(file)) {
            delete(user, ChatFolder.groups(), file);
        }
    }

    /** Deletes the chat a request names; false when there is none. */
    public boolean delete(String user, ChatRef chat) throws IOException {
        return delete(user, chat.folder(), chat.file());
    }

    /** Deletes a chat after any save of it under way; false when there is none. */
    public boolean delete(String user, ChatFolder folder, String file) throws IOException {
        try (Locks.Held lock = locks.lock(user, folder, file)) {
            return store.delete(user, folder, file);
        }
    }

    /** Stores an uploaded group chat byte for byte under a new humanized id, which it answers. */
    public String groupImport(String user, Path upload) throws IOException {
        long now = clock.getAsLong();
        for (int attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
            String id = StTime.humanized(now + attempt);
            try (InputStream content = Files.newInputStream(upload)) {
                if (store.create(user, ChatFolder.groups(), id + ".jsonl", content)) {
                    return id;
                }
            }
        }
        throw new IOException("No free group chat name near " + StTime.humanized(now));
    }
}
