package tankard.chat.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

/** The lines of a chat after its header: one message each, {@code {name, is_user, send_date, mes, …}}. */
public final class ChatMessage {
    private ChatMessage() {
    }

    /**
     * {@code {"name":name,"is_user":isUser}}, how the messages ST's importers make start (src/endpoints/chats.js,
     * importOobaChat and the others; src/byaf.js, ByafParser.getChatFromScenario).
     */
    public static ObjectNode of(String name, boolean isUser) {
        return JsJson.object().put("name", name).put("is_user", isUser);
    }

    /**
     * Whether a chat's last line is a message or a header by ST's test, a value with a truthy {@code name},
     * {@code character_name} or {@code chat_metadata}; else ST lists the chat as corrupted (src/endpoints/chats.js,
     * getChatInfo).
     */
    public static boolean isMessageOrHeader(JsonNode line) {
        return line != null && (Js.truthy(line.get("name")) || Js.truthy(line.get(ChatHeader.CHARACTER_NAME))
                || Js.truthy(line.get(ChatHeader.CHAT_METADATA)));
    }
}
