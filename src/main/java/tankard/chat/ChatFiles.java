package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.StripedLocks;
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
 * /group/import routes): rename, delete, a group chat's info, delete and import. Bodies are the request JSON;
 * answers are ST's, with a missing chat told apart from an unreadable one.
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

    /** Renames a character's or (with {@code is_group}) a group's chat; both names are sanitized, as in ST. */
    public Renamed rename(String user, JsonNode body) throws IOException {
        JsonNode original = body.get("original_file");
        JsonNode renamed = body.get("renamed_file");
        if (!Js.truthy(original) || !Js.truthy(renamed)) {
            throw Refusal.badRequest("original_file and renamed_file are required");
        }
        ChatFolder folder = Js.truthy(body.get("is_group")) ? ChatFolder.groups() : characterFolder(body);
        String from = fileName(original);
        String to = fileName(renamed);
        boolean moved;
        try (StripedLocks.Held lock = locks.lock(user, folder, from, to)) {
            moved = store.rename(user, folder, from, to);
        }
        if (!moved) {
            return new Renamed(false, JsJson.object().put("error", true));
        }
        return new Renamed(true, JsJson.object().put("ok", true).put("sanitizedFileName", FileNames.base(to)));
    }

    /** Deletes a character's chat; {@code chatfile} gets ".jsonl" when it has no extension. False: no such chat. */
    public boolean delete(String user, JsonNode body) throws IOException {
        JsonNode chatFile = body.get("chatfile");
        if (chatFile == null || !chatFile.isTextual()) {
            throw Refusal.badRequest("Missing chatfile");
        }
        String name = chatFile.textValue();
        ChatFolder folder = characterFolder(body);
        return delete(user, folder, fileName(FileNames.ext(name).isEmpty() ? name + ".jsonl" : name));
    }

    /** A group chat's ChatInfo ({@code {}} when corrupted, as in ST); 404 when there is no such chat. */
    public ObjectNode groupInfo(String user, JsonNode body) {
        String name = groupChatFile(body);
        try {
            Optional<ChatFile> file = store.find(user, ChatFolder.groups(), name);
            Optional<ObjectNode> info = file.isEmpty() ? Optional.empty()
                    : ChatInfo.read(store, user, ChatFolder.groups(), file.get(), Map.of(), false);
            return info.orElseThrow(() -> Refusal.notFound("No group chat " + name));
        } catch (IOException e) {
            throw ChatErrors.unreadable(ChatFolder.groups(), name, e);
        }
    }

    /** Deletes a group chat; false when there is none. */
    public boolean groupDelete(String user, JsonNode body) throws IOException {
        return delete(user, ChatFolder.groups(), groupChatFile(body));
    }

    /** Deletes the group chat of an id taken from a group's {@code chats}, if it exists and its name is safe. */
    public void deleteGroupChat(String user, String id) throws IOException {
        String file = Sanitize.filename(id + ".jsonl");
        if (Sanitize.isSafeSegment(file)) {
            delete(user, ChatFolder.groups(), file);
        }
    }

    /** Deletes a chat after any save of it under way; false when there is none. */
    public boolean delete(String user, ChatFolder folder, String file) throws IOException {
        try (StripedLocks.Held lock = locks.lock(user, folder, file)) {
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

    /** The folder of {@code avatar_url}'s character (validated like ST's middleware, then contained). */
    static ChatFolder characterFolder(JsonNode body) {
        JsonNode avatar = body.get("avatar_url");
        if (Js.isUndefined(avatar) || avatar.isNull() || avatar.isContainerNode()) {
            throw Refusal.badRequest("Missing avatar_url");
        }
        return ChatService.characterFolder(Js.string(avatar));
    }

    /** A chat file name from a request, sanitized as ST does; one that sanitizes to nothing is refused. */
    static String fileName(JsonNode name) {
        if (!name.isTextual()) {
            throw Refusal.badRequest("Chat file names must be text");
        }
        return fileName(name.textValue());
    }

    private static String fileName(String name) {
        String file = Sanitize.filename(name);
        if (!Sanitize.isSafeSegment(file)) {
            throw Refusal.badRequest("Invalid chat file name");
        }
        return file;
    }

    /** {@code sanitize(id + ".jsonl")} of the body's truthy {@code id}. */
    private static String groupChatFile(JsonNode body) {
        JsonNode id = body.get("id");
        if (!Js.truthy(id)) {
            throw Refusal.badRequest("Missing group chat id");
        }
        return ChatService.chatFile(Js.string(id));
    }
}
