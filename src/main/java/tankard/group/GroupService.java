package tankard.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.chat.ChatFile;
import tankard.chat.ChatFiles;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.store.StripedLocks;
import tankard.util.StTime;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Groups (ST: src/endpoints/groups.js): the list with ST's computed fields, create, edit and delete. Blocking. */
public final class GroupService {
    private final GroupStore groups;
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
     * A new group as ST's /create makes it: id from the clock, stored and returned. Unlike ST, a second group
     * created in the same millisecond (on any node) takes the next free one instead of overwriting the first: each
     * id is tried with the store's atomic create.
     */
    public ObjectNode create(String user, NewGroup draft, long nowMs) throws IOException {
        for (long idMs = nowMs; ; idMs++) {
            ObjectNode group = draft.json(String.valueOf(idMs));
            if (groups.create(user, String.valueOf(idMs), group)) {
                return group;
            }
        }
    }

    /** ST's /edit: the group stored as sent. */
    public void edit(String user, GroupEdit edit) throws IOException {
        groups.save(user, edit.ref().id(), edit.group());
    }

    /**
     * ST's /delete: every chat listed in the group's {@code chats} (each {@code String(id)}, as ST builds the
     * name), then the group file; a group that does not exist is no error.
     */
    public void delete(String user, GroupRef ref) throws IOException {
        Optional<ObjectNode> group = groups.find(user, ref.id());
        JsonNode chatList = group.map(g -> g.get("chats")).orElse(null);
        if (chatList != null && chatList.isArray()) {
            for (JsonNode chat : chatList) {
                chatFiles.deleteGroupChat(user, Js.string(chat));
            }
        }
        groups.delete(user, ref.id());
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
