package tankard.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.chat.ChatFile;
import tankard.chat.ChatFiles;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.StripedLocks;
import tankard.util.Sanitize;
import tankard.util.StTime;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Groups (ST: src/endpoints/groups.js): the list with ST's computed fields, create, edit and delete. Blocking. */
public final class GroupService {
    private final GroupStore groups;
    /** A user's creations one at a time, so two in one millisecond get different ids; other users go on. */
    private final StripedLocks creating = new StripedLocks(16);
    private final ChatStore chats;
    private final ChatFiles chatFiles;

    public GroupService(GroupStore groups, ChatStore chats, ChatFiles chatFiles) {
        this.groups = groups;
        this.chats = chats;
        this.chatFiles = chatFiles;
    }

    /**
     * Each readable group plus {@code date_added}/{@code create_date} (when it was stored) and the total size
     * and newest mtime of its existing chats.
     */
    public ArrayNode all(String user) throws IOException {
        List<ChatFile> groupChats = chats.list(user, ChatFolder.groups());
        ArrayNode out = JsJson.array();
        for (StoredGroup stored : groups.list(user)) {
            ObjectNode group = stored.json();
            group.put("date_added", stored.createdMs());
            group.put("create_date", StTime.iso((long) stored.createdMs())); // new Date(ms) truncates the fraction
            Set<String> ids = chatIds(group.get("chats"));
            long size = 0;
            double lastChat = 0;
            for (ChatFile chat : groupChats) {
                if (ids.contains(chat.id())) {
                    size += chat.size();
                    lastChat = Math.max(lastChat, chat.modifiedMs());
                }
            }
            group.put("date_last_chat", lastChat);
            group.put("chat_size", size);
            out.add(group);
        }
        return out;
    }

    /**
     * A new group as ST's /create makes it: id from the clock, the known fields with their defaults (others
     * dropped), stored and returned. Unlike ST, a second group created in the same millisecond takes the next
     * free one instead of overwriting the first.
     */
    public ObjectNode create(String user, JsonNode body, long nowMs) throws IOException {
        try (StripedLocks.Held held = creating.lockAll(user)) {
            return createLocked(user, body, nowMs);
        }
    }

    private ObjectNode createLocked(String user, JsonNode body, long nowMs) throws IOException {
        long idMs = nowMs;
        while (groups.find(user, String.valueOf(idMs)).isPresent()) {
            idMs++;
        }
        String id = String.valueOf(idMs);
        ObjectNode group = JsJson.object().put("id", id);
        group.set("name", Js.coalesce(body.get("name"), JsJson.tree("New Group")));
        group.set("members", Js.coalesce(body.get("members"), JsJson.array()));
        copyIfPresent(body, "avatar_url", group);
        group.put("allow_self_responses", Js.truthy(body.get("allow_self_responses")));
        group.set("activation_strategy", Js.coalesce(body.get("activation_strategy"), JsJson.tree(0)));
        group.set("generation_mode", Js.coalesce(body.get("generation_mode"), JsJson.tree(0)));
        group.set("disabled_members", Js.coalesce(body.get("disabled_members"), JsJson.array()));
        copyIfPresent(body, "fav", group);
        group.set("chat_id", Js.coalesce(body.get("chat_id"), JsJson.tree(id)));
        group.set("chats", Js.coalesce(body.get("chats"), JsJson.array().add(id)));
        group.set("auto_mode_delay", Js.coalesce(body.get("auto_mode_delay"), JsJson.tree(5)));
        group.set("generation_mode_join_prefix", Js.coalesce(body.get("generation_mode_join_prefix"), JsJson.tree("")));
        group.set("generation_mode_join_suffix", Js.coalesce(body.get("generation_mode_join_suffix"), JsJson.tree("")));
        groups.save(user, id, group);
        return group;
    }

    /**
     * ST's /edit: the frontend's whole group object stored as sent (the computed listing fields included),
     * without the legacy metadata keys that now live in the chat files. Refuses a missing or unsafe id.
     */
    public void edit(String user, JsonNode body) throws IOException {
        String id = validId(body);
        ObjectNode group = ((ObjectNode) body).deepCopy();
        group.remove(List.of("chat_metadata", "past_metadata"));
        groups.save(user, id, group);
    }

    /**
     * ST's /delete: every chat listed in the group's {@code chats} (each {@code String(id)}, as ST builds the
     * name), then the group file; a group that does not exist is no error. Refuses a missing or unsafe id.
     */
    public void delete(String user, JsonNode body) throws IOException {
        String id = validId(body);
        Optional<ObjectNode> group = groups.find(user, id);
        JsonNode chatList = group.map(g -> g.get("chats")).orElse(null);
        if (chatList != null && chatList.isArray()) {
            for (JsonNode chat : chatList) {
                chatFiles.deleteGroupChat(user, Js.string(chat));
            }
        }
        groups.delete(user, id);
    }

    /** The body's id, when truthy and free of path characters (only an object has one). */
    private static String validId(JsonNode body) {
        JsonNode id = body.get("id");
        if (!Js.truthy(id) || Sanitize.hasForbiddenChars(Js.string(id))) {
            throw Refusal.badRequest("The group needs a valid id");
        }
        return Js.string(id);
    }

    private static void copyIfPresent(JsonNode from, String field, ObjectNode to) {
        if (from.has(field)) {
            to.set(field, from.get(field));
        }
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
}
