package tankard.recent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.character.CardFile;
import tankard.character.CardStore;
import tankard.chat.ChatFile;
import tankard.chat.ChatFolder;
import tankard.chat.ChatService;
import tankard.chat.ChatStore;
import tankard.group.GroupStore;
import tankard.group.StoredGroup;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.Sanitize;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The welcome screen's recent chats (src/endpoints/chats.js, the /recent route): every character chat, every
 * existing chat of every group and the loose chats in {@code chats/}, pinned first, then newest first, at most
 * {@code max} + pinned. Chats are the chat package's; which cards and groups own them is asked here, so that
 * chats know neither. Blocking.
 */
public final class RecentChats {
    private final ChatStore store;
    private final ChatService chats;
    private final CardStore cards;
    private final GroupStore groups;

    public RecentChats(ChatStore store, ChatService chats, CardStore cards, GroupStore groups) {
        this.store = store;
        this.chats = chats;
        this.cards = cards;
        this.groups = groups;
    }

    /** One chat file in the collection: where it is and whose it is ({@code undefined}: missing). */
    private record Recent(ChatFolder folder, ChatFile file, JsonNode avatar, JsonNode group) {
        Map<String, JsonNode> owner() {
            if (Js.truthy(group)) {
                return Map.of("group", group);
            }
            return Js.isUndefined(avatar) ? Map.of() : Map.of("avatar", avatar);
        }
    }

    /**
     * What a request asks: the {@code pinned} chats ({@code {file_name, avatar | group}}, none unless an array),
     * how many chats at the most ({@code max}, plus the pinned ones) and whether with their {@code metadata}.
     */
    public record Query(List<JsonNode> pinned, long limit, boolean withMetadata) {
        public static Query of(JsonNode body) {
            JsonNode pinnedNode = body.get("pinned");
            List<JsonNode> pinned = new ArrayList<>();
            if (pinnedNode != null && pinnedNode.isArray()) {
                pinnedNode.forEach(pinned::add);
            }
            return new Query(pinned, RecentChats.limit(body.get("max"), pinned.size()), Js.truthy(body.get("metadata")));
        }
    }

    /** The ChatInfos of the query's chats. */
    public ArrayNode list(String user, Query query) throws IOException {
        List<JsonNode> pinned = query.pinned();
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
        ArrayNode list = JsJson.array();
        for (Recent chat : slice(all, query.limit())) {
            chats.info(user, chat.folder(), chat.file(), chat.owner(), query.withMetadata()).ifPresent(list::add);
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
}
