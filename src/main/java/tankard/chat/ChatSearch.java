package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.chat.format.ChatLines;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The "Manage chat files" list and filter, {@code /api/chats/search} (src/endpoints/chats.js, the /search route):
 * a chat matches when every query fragment occurs in its file name, or every fragment occurs in the {@code mes}
 * of some message.
 */
public final class ChatSearch {
    private static final int PREVIEW_LENGTH = 400;

    /** What a search by {@code group_id} needs of the groups. */
    @FunctionalInterface
    public interface Groups {
        /** The {@code chats} of the group whose {@code id} is {@code groupId}, in order; none for an unknown group. */
        List<JsonNode> chats(String user, JsonNode groupId) throws IOException;
    }

    private final ChatStore store;
    private final Groups groups;

    public ChatSearch(ChatStore store, Groups groups) {
        this.store = store;
        this.groups = groups;
    }

    /**
     * What a search names: the query's fragments (null: every chat matches), and the group ({@code group_id},
     * when truthy) or else the character ({@code avatar_url}) whose chats are searched.
     */
    public record Query(List<String> fragments, JsonNode groupId, ChatFolder character) {
        public static Query of(JsonNode body) {
            JsonNode query = body.get("query");
            if (Js.truthy(query) && !query.isTextual()) {
                throw Refusal.badRequest("query must be text");
            }
            List<String> fragments = Js.truthy(query) ? ChatSearch.fragments(query.textValue()) : null;
            JsonNode groupId = body.get("group_id");
            if (Js.truthy(groupId)) {
                return new Query(fragments, groupId, null);
            }
            JsonNode avatar = body.get("avatar_url");
            if (avatar == null || !avatar.isTextual()) {
                throw Refusal.badRequest("Missing avatar_url");
            }
            return new Query(fragments, null, ChatService.characterFolder(avatar.textValue()));
        }
    }

    /** The chats of the query's group, or else of its character, that match its fragments. */
    public ArrayNode search(String user, Query query) throws IOException {
        List<String> fragments = query.fragments();
        ChatFolder folder = query.groupId() != null ? ChatFolder.groups() : query.character();
        List<ChatFile> files = query.groupId() != null ? groupChats(user, query.groupId()) : store.list(user, folder);
        ArrayNode results = JsJson.array();
        for (ChatFile file : files) {
            try {
                Optional<ObjectNode> info = ChatInfo.read(store, user, folder, file, Map.of(), false);
                if (info.isEmpty() || !ChatInfo.isValid(info.get())) {
                    continue;
                }
                if (fragments == null || foundIn(List.of(file.id()), fragments)
                        || messagesMatch(user, folder, file, fragments)) {
                    results.add(result(info.get()));
                }
            } catch (IOException e) {
                throw ChatErrors.unreadable(folder, file.name(), e);
            }
        }
        return results;
    }

    /** ST's {@code query.trim().toLowerCase().split(/\s+/)} without empty fragments. */
    static List<String> fragments(String query) {
        List<String> fragments = new ArrayList<>();
        String lower = query.toLowerCase(Locale.ROOT);
        int start = 0;
        for (int i = 0; i <= lower.length(); i++) {
            if (i == lower.length() || Js.isWhitespace(lower.charAt(i))) {
                if (i > start) {
                    fragments.add(lower.substring(start, i));
                }
                start = i + 1;
            }
        }
        return fragments;
    }

    /** The chats listed in the group's {@code chats} that exist, in that order; none for an unknown group. */
    private List<ChatFile> groupChats(String user, JsonNode groupId) throws IOException {
        List<ChatFile> files = new ArrayList<>();
        for (JsonNode chat : groups.chats(user, groupId)) {
            String name = Js.string(chat) + ".jsonl";
            if (Sanitize.isSafeSegment(name)) {
                store.find(user, ChatFolder.groups(), name).ifPresent(files::add);
            }
        }
        return files;
    }

    /** Whether every fragment is found in the {@code mes} of some message (the header line is not searched). */
    private boolean messagesMatch(String user, ChatFolder folder, ChatFile file, List<String> fragments)
            throws IOException {
        Optional<InputStream> content = store.open(user, folder, file.name());
        if (content.isEmpty()) {
            return false;
        }
        List<String> missing = new ArrayList<>(fragments);
        boolean[] header = {true};
        try (InputStream in = content.get()) {
            ChatLines.readLines(in, (bytes, from, to) -> {
                if (header[0]) {
                    header[0] = false;
                    return true;
                }
                JsonNode message = ChatLines.parse(bytes, from, to);
                if (Js.truthy(message)) {
                    String text = Js.string(Js.or(message.get("mes"), TextNode.valueOf(""))).toLowerCase(Locale.ROOT);
                    missing.removeIf(text::contains);
                }
                return !missing.isEmpty();
            });
        }
        return missing.isEmpty();
    }

    private static boolean foundIn(List<String> texts, List<String> fragments) {
        return fragments.stream().allMatch(fragment -> texts.stream().anyMatch(text -> text.contains(fragment)));
    }

    private static ObjectNode result(ObjectNode info) {
        ObjectNode result = JsJson.object();
        result.set("file_name", info.get("file_id"));
        result.set("file_size", info.get("file_size"));
        result.set("message_count", info.get("chat_items"));
        result.set("last_mes", info.get("last_mes"));
        result.set("preview_message", preview(info.get("mes")));
        return result;
    }

    /** The last 400 characters of the last message, "..." in front when cut. */
    private static JsonNode preview(JsonNode mes) {
        if (!mes.isTextual() || mes.textValue().length() <= PREVIEW_LENGTH) {
            return mes;
        }
        String text = mes.textValue();
        return TextNode.valueOf("..." + text.substring(text.length() - PREVIEW_LENGTH));
    }
}
