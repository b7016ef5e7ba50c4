package tankard.group;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.chat.ChatFile;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.json.JsJson;
import tankard.util.StTime;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The group list of {@code /api/groups/all} (st-api.md §9). Blocking. */
public final class GroupService {
    private final GroupStore groups;
    private final ChatStore chats;

    public GroupService(GroupStore groups, ChatStore chats) {
        this.groups = groups;
        this.chats = chats;
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
