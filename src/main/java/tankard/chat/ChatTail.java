package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import tankard.json.JsJson;

/**
 * A window of a chat (ChatWindow): its header line and lines of it as JSON, copied from the file as
 * {@code /api/chats/get} serves lines, not parsed, and the cursor a save of a new end checks.
 * {@link #header()} and {@link #messages()} parse them, on each call.
 *
 * @param headerJson   the header line as JSON, {@code null} when it does not parse
 * @param messagesJson the lines after the header as a JSON array
 * @param offsets      where the line of each of those messages starts in the file
 * @param more         whether lines come before the first of them (after the header)
 * @param cursor       where the first of those lines starts, and the size and mtime of the file read
 */
public record ChatTail(byte[] headerJson, byte[] messagesJson, long[] offsets, boolean more, ChatWindow.Cursor cursor) {
    public JsonNode header() {
        return JsJson.parse(headerJson);
    }

    public ArrayNode messages() {
        return (ArrayNode) JsJson.parse(messagesJson);
    }
}
