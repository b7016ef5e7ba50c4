package tankard.chat.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

/**
 * The first line of a chat: the chat's {@code chat_metadata}, with {@code user_name} and {@code character_name}
 * (ST's frontend saves {@code {chat_metadata, user_name: 'unused', character_name: 'unused'}}: public/script.js,
 * saveChat).
 */
public final class ChatHeader {
    public static final String USER_NAME = "user_name";
    public static final String CHARACTER_NAME = "character_name";
    public static final String CHAT_METADATA = "chat_metadata";

    private ChatHeader() {
    }

    /**
     * {@code {"chat_metadata":{},"user_name":"unused","character_name":"unused"}}, the header of every chat ST's
     * converters make (src/endpoints/chats.js, importOobaChat and the other import functions).
     */
    public static ObjectNode converted() {
        ObjectNode header = JsJson.object();
        header.putObject(CHAT_METADATA);
        return header.put(USER_NAME, "unused").put(CHARACTER_NAME, "unused");
    }

    /**
     * {@code {"user_name":"unused","character_name":"unused","chat_metadata":metadata}}, the header of a chat made
     * from a Backyard AI scenario (src/byaf.js, ByafParser.getChatFromScenario).
     */
    public static ObjectNode of(ObjectNode metadata) {
        ObjectNode header = JsJson.object().put(USER_NAME, "unused").put(CHARACTER_NAME, "unused");
        header.set(CHAT_METADATA, metadata);
        return header;
    }

    /**
     * Whether an uploaded first line is a chat header: an object with {@code user_name}, {@code name} or
     * {@code chat_metadata} (src/endpoints/chats.js, the /import route for jsonl).
     */
    public static boolean isHeader(JsonNode line) {
        return line != null && line.isObject() && (line.has(USER_NAME) || line.has("name") || line.has(CHAT_METADATA));
    }

    /** The header's {@code chat_metadata} when it is an object or an array ({@code _.isObjectLike}), else null. */
    public static JsonNode metadata(JsonNode header) {
        JsonNode metadata = header == null ? null : header.get(CHAT_METADATA);
        return metadata != null && metadata.isContainerNode() ? metadata : null;
    }

    /** {@code chat_metadata.integrity}, the token that guards a chat against another tab's saves; null when none. */
    public static JsonNode integrity(JsonNode header) {
        return Js.get(header, CHAT_METADATA + ".integrity");
    }
}
