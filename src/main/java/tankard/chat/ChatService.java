package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.character.CardFile;
import tankard.character.CardStore;
import tankard.config.TankardConfig;
import tankard.group.GroupStore;
import tankard.group.StoredGroup;
import tankard.http.ApiError;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.StripedLocks;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/** Reading, saving and listing chats (st-api.md §7.11, §8.1–§8.4, §8.10, §8.11). */
public final class ChatService {
    private static final Logger LOG = LoggerFactory.getLogger(ChatService.class);
    private static final byte[] EMPTY_OBJECT = "{}".getBytes(StandardCharsets.UTF_8);
    private static final byte[] EMPTY_ARRAY = "[]".getBytes(StandardCharsets.UTF_8);

    private final ChatStore store;
    private final CardStore cards;
    private final GroupStore groups;
    private final boolean checkIntegrity;
    private final ChatBackups backups;
    private final StripedLocks locks = new StripedLocks(64);

    public ChatService(TankardConfig.Backups config, ChatStore store, CardStore cards, GroupStore groups,
                       ScheduledExecutorService timer, LongSupplier clock) {
        this.store = store;
        this.cards = cards;
        this.groups = groups;
        this.checkIntegrity = config.checkIntegrity();
        this.backups = new ChatBackups(store, config, timer, clock);
    }

    // ---- reading

    /**
     * A character chat as the JSON answer of {@code /api/chats/get}: {@code {}} when the character's folder had
     * to be created or no chat is named, {@code []} for a missing chat, else the array of its lines.
     */
    public byte[] get(String user, String avatarUrl, String chatName) throws IOException {
        ChatFolder folder = characterFolder(avatarUrl);
        if (!store.exists(user, folder)) {
            store.create(user, folder);
            return EMPTY_OBJECT;
        }
        if (chatName == null) {
            return EMPTY_OBJECT;
        }
        return read(user, folder, chatFile(chatName));
    }

    public byte[] getGroup(String user, String id) throws IOException {
        return read(user, ChatFolder.groups(), chatFile(id));
    }

    private byte[] read(String user, ChatFolder folder, String file) throws IOException {
        Optional<InputStream> content = store.open(user, folder, file);
        if (content.isEmpty()) {
            return EMPTY_ARRAY;
        }
        try (InputStream in = content.get()) {
            return ChatLines.toArray(in.readAllBytes());
        }
    }

    // ---- saving

    /** Saves a character chat from the raw JSON request body (null: not a JSON request). */
    public void save(String user, byte[] json) throws IOException {
        ChatBody body = ChatBody.parse(json);
        JsonNode avatar = body.field("avatar_url");
        JsonNode chatName = body.field("file_name");
        if (Js.isUndefined(avatar) || avatar.isContainerNode() || Js.isUndefined(chatName)) {
            throw ApiError.badRequest("avatar_url and file_name are required");
        }
        ChatFolder folder = characterFolder(Js.string(avatar));
        write(user, folder, chatFile(Js.string(chatName)), body, folder.character());
    }

    public void saveGroup(String user, byte[] json) throws IOException {
        ChatBody body = ChatBody.parse(json);
        JsonNode id = body.field("id");
        if (!Js.truthy(id)) {
            throw ApiError.badRequest("Missing group chat id");
        }
        write(user, ChatFolder.groups(), chatFile(Js.string(id)), body, Js.string(id));
    }

    private void write(String user, ChatFolder folder, String file, ChatBody body, String backupName) throws IOException {
        if (body.chat() == null) {
            throw ApiError.badRequest("The request's body.chat is not an array.");
        }
        byte[] content = body.jsonl();
        JsonNode integrity = checkIntegrity && !Js.truthy(body.field("force")) ? integrity(body.chat()) : null;
        ReentrantLock lock = locks.lock(user + '\0' + folder + '\0' + file);
        try {
            if (Js.truthy(integrity) && !intact(user, folder, file, integrity)) {
                throw ApiError.badRequest("integrity");
            }
            store.write(user, folder, file, content);
        } finally {
            lock.unlock();
        }
        backups.saved(user, backupName, content);
    }

    /** {@code chat[0].chat_metadata.integrity} of the request, or null. */
    private static JsonNode integrity(List<ByteBuffer> chat) {
        if (chat.isEmpty() || chat.get(0).get(0) != '{') {
            return null;
        }
        return Js.get(JsJson.parse(ChatBody.bytes(chat.get(0))), "chat_metadata.integrity");
    }

    /** The overwrite protection (st-data.md §2.10): the stored first line's token, if any, must match. */
    private boolean intact(String user, ChatFolder folder, String file, JsonNode integrity) throws IOException {
        Optional<InputStream> content = store.open(user, folder, file);
        if (content.isEmpty()) {
            return true;
        }
        JsonNode stored;
        try (InputStream in = content.get()) {
            stored = Js.get(ChatLines.parse(ChatLines.firstLine(in)), "chat_metadata.integrity");
        }
        return !Js.truthy(stored) || Js.strictEquals(stored, integrity);
    }

    // ---- listing

    /**
     * A character's chats for {@code /api/characters/chats}: {@code {"error": true}} when its folder is missing
     * or cannot be listed (ST's convention), names only when {@code simple}, else ChatInfo objects. A chat
     * that cannot be read fails the request (500) rather than vanish from the list.
     */
    public JsonNode characterChats(String user, String avatarUrl, boolean simple, boolean withMetadata) {
        ChatFolder folder = characterFolder(avatarUrl);
        try {
            if (!store.exists(user, folder)) {
                return JsJson.object().put("error", true);
            }
            ArrayNode list = JsJson.array();
            for (ChatFile file : store.list(user, folder)) {
                if (simple) {
                    list.addObject().put("file_name", file.name()).put("file_id", file.id());
                } else {
                    info(user, folder, file, Map.of(), withMetadata).ifPresent(list::add);
                }
            }
            return list;
        } catch (IOException e) {
            LOG.error("Could not list the chats of {}", avatarUrl, e);
            return JsJson.object().put("error", true);
        }
    }

    /** One chat file in the recent-chats collection: where it is and whose it is ({@code undefined}: missing). */
    private record Recent(ChatFolder folder, ChatFile file, JsonNode avatar, JsonNode group) {
        Map<String, JsonNode> owner() {
            if (Js.truthy(group)) {
                return Map.of("group", group);
            }
            return Js.isUndefined(avatar) ? Map.of() : Map.of("avatar", avatar);
        }
    }

    /**
     * The welcome screen's recent chats: every character chat, every existing chat of every group and the
     * loose chats in {@code chats/}, pinned first, then newest first, at most {@code max} + pinned.
     */
    public ArrayNode recent(String user, JsonNode body) throws IOException {
        JsonNode pinnedNode = body.get("pinned");
        List<JsonNode> pinned = new ArrayList<>();
        if (pinnedNode != null && pinnedNode.isArray()) {
            pinnedNode.forEach(pinned::add);
        }
        List<Recent> all = new ArrayList<>();
        for (CardFile card : cards.list(user)) {
            String name = ChatFolder.nameOf(card.name());
            if (name.isEmpty() || Sanitize.isSafeSegment(name)) {
                ChatFolder folder = ChatFolder.character(name);
                for (ChatFile file : store.list(user, folder)) {
                    all.add(new Recent(folder, file, TextNode.valueOf(card.name()), MissingNode.getInstance()));
                }
            }
        }
        for (StoredGroup stored : groups.list(user)) {
            ObjectNode group = stored.json();
            JsonNode chats = group.get("chats");
            if (chats == null || !chats.isArray()) {
                continue;
            }
            for (JsonNode chat : chats) {
                String name = Js.string(chat) + ".jsonl";
                if (Sanitize.isSafeSegment(name)) {
                    store.find(user, ChatFolder.groups(), name).ifPresent(file ->
                            all.add(new Recent(ChatFolder.groups(), file, MissingNode.getInstance(), group.path("id"))));
                }
            }
        }
        ChatFolder root = ChatFolder.character("");
        for (ChatFile file : store.list(user, root)) {
            all.add(new Recent(root, file, MissingNode.getInstance(), MissingNode.getInstance()));
        }

        all.sort(Comparator.comparing((Recent r) -> !isPinned(r, pinned))
                .thenComparing(Comparator.comparingDouble((Recent r) -> r.file().modifiedMs()).reversed()));
        boolean withMetadata = Js.truthy(body.get("metadata"));
        ArrayNode list = JsJson.array();
        for (Recent chat : slice(all, limit(body.get("max"), pinned.size()))) {
            info(user, chat.folder(), chat.file(), chat.owner(), withMetadata).ifPresent(list::add);
        }
        return list;
    }

    private static boolean isPinned(Recent chat, List<JsonNode> pinned) {
        for (JsonNode pin : pinned) {
            if (Js.strictEquals(pin.path("file_name"), TextNode.valueOf(chat.file().name()))
                    && (Js.strictEquals(pin.path("avatar"), chat.avatar()) || Js.strictEquals(pin.path("group"), chat.group()))) {
                return true;
            }
        }
        return false;
    }

    /** ST's {@code parseInt(max ?? MAX_SAFE_INTEGER) + pinned}, where NaN keeps nothing. */
    private static long limit(JsonNode max, int pinned) {
        if (Js.isUndefined(max) || max.isNull()) {
            return Long.MAX_VALUE;
        }
        String text = Js.string(max).stripLeading();
        int end = text.startsWith("-") || text.startsWith("+") ? 1 : 0;
        int digits = end;
        while (end < text.length() && Character.isDigit(text.charAt(end)) && text.charAt(end) < 128) {
            end++;
        }
        if (end == digits) {
            return 0;
        }
        String number = text.substring(0, Math.min(end, digits + 18));
        return Long.parseLong(number) + pinned;
    }

    /** {@code Array.prototype.slice(0, end)}: a negative end counts from the back. */
    private static <T> List<T> slice(List<T> list, long end) {
        long to = end < 0 ? Math.max(0, list.size() + end) : Math.min(end, list.size());
        return list.subList(0, (int) to);
    }

    /** A chat's ChatInfo for a list; empty when it is corrupted or vanished (left out, as in ST). */
    private Optional<ObjectNode> info(String user, ChatFolder folder, ChatFile file, Map<String, JsonNode> owner,
                                      boolean withMetadata) {
        try {
            return ChatInfo.read(store, user, folder, file, owner, withMetadata).filter(ChatInfo::isValid);
        } catch (IOException e) {
            throw ChatErrors.unreadable(folder, file.name(), e);
        }
    }

    // ---- names from requests

    /** The chat folder named by a card file name; separators, NUL and ".." are refused (st-api.md §1.10). */
    static ChatFolder characterFolder(String avatarUrl) {
        if (avatarUrl == null) {
            throw ApiError.badRequest("Missing avatar_url");
        }
        String name = ChatFolder.nameOf(avatarUrl);
        if (Sanitize.hasForbiddenChars(avatarUrl) || !name.isEmpty() && !Sanitize.isSafeSegment(name)) {
            throw ApiError.badRequest("Invalid avatar_url");
        }
        return ChatFolder.character(name);
    }

    /** ST's chat file name: {@code sanitize(name + ".jsonl")}; a name that sanitizes to nothing is refused. */
    static String chatFile(String chatName) {
        String file = Sanitize.filename(chatName + ".jsonl");
        if (!Sanitize.isSafeSegment(file)) {
            throw ApiError.badRequest("Invalid chat file name");
        }
        return file;
    }
}
