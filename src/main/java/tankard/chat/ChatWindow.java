package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.chat.format.ChatArray;
import tankard.core.Refusal;
import tankard.json.JsJson;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;

/**
 * The end of a chat, for Tankard's own clients (a chat of 100,000 messages need not travel whole for a
 * reply): the last lines of the file from a byte offset on, and the cursor that saving a new end checks.
 * <p>
 * The API, beside ST's (bodies name the chat as ST's: {@code avatar_url} + {@code file_name}, or a group
 * chat's {@code id}):
 * <ul>
 * <li>{@code POST /api/tankard/chats/tail} {@code {..., count}} → {@code {header, messages, cursor}}: the
 * header line, the last {@code count} lines after it as {@code /api/chats/get} serves lines, and
 * {@code cursor = {offset, size, mtime}}: where the first of them starts in the file, and the file's size and
 * mtime (ms).</li>
 * <li>{@code POST /api/tankard/chats/tail/save} {@code {..., cursor, messages}}: replaces every line from
 * {@code cursor.offset} on by {@code messages} (each stored as ST stores a chat element), only if the file
 * still has the cursor's size and mtime, else {@code 409}: re-read the tail. Answers {@code {ok, cursor}} for
 * the next save. The header cannot be changed this way (save the whole chat for that).</li>
 * </ul>
 * The save changes the file in place, O(change) (ChatStore#replaceTail; in FileChatStore an undo journal
 * makes it crash-safe and readers' views keep the chat as they opened it, so a get streaming the chat and a
 * pending backup read the old chat whole). The cursor's mtime is strictly later after each save, so a cursor
 * read before a save never matches again, however close the saves.
 */
public final class ChatWindow {
    private ChatWindow() {
    }

    /** What a client read: the window's start and the file it was read from. */
    public record Cursor(long offset, long size, double modifiedMs) {
        /** Whether the file is still the one read. */
        boolean isOf(ChatFile file) {
            return file.size() == size && file.modifiedMs() == modifiedMs;
        }

        ObjectNode json() {
            ObjectNode cursor = JsJson.object();
            cursor.put("offset", offset).put("size", size).put("mtime", modifiedMs);
            return cursor;
        }

        static Cursor of(JsonNode json) {
            if (json == null || !json.path("offset").isNumber() || !json.path("size").isNumber() || !json.path("mtime").isNumber()) {
                throw Refusal.badRequest("cursor {offset, size, mtime} is required");
            }
            return new Cursor(json.get("offset").longValue(), json.get("size").longValue(), json.get("mtime").doubleValue());
        }
    }

    /** A read's {@code count}: how many of the last lines it wants. */
    static int count(JsonNode body) {
        JsonNode count = body.path("count");
        if (!count.canConvertToInt() || count.intValue() < 0) {
            throw Refusal.badRequest("count must be a number of messages");
        }
        return count.intValue();
    }

    /** A save of a new end: the chat, the cursor it was read with and the lines that replace the window. */
    public record Save(ChatRef chat, Cursor cursor, ArrayNode messages) {
        static Save of(JsonNode body) {
            ChatRef chat = ChatRef.of(body);
            Cursor cursor = Cursor.of(body.get("cursor"));
            if (!(body.get("messages") instanceof ArrayNode messages)) {
                throw Refusal.badRequest("messages must be an array");
            }
            return new Save(chat, cursor, messages);
        }
    }

    /** The bytes from {@code from} to {@code to}. */
    static byte[] read(SeekableByteChannel chat, long from, long to) throws IOException {
        if (to - from > Integer.MAX_VALUE - 16) {
            throw Refusal.badRequest("The window is too large; ask for fewer messages");
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) (to - from));
        chat.position(from);
        while (bytes.hasRemaining() && chat.read(bytes) > 0) {
            // fill
        }
        return bytes.array();
    }

    /** The lines as {@code /api/chats/get} serves them (a JSON array), and what it found. */
    static ChatArray.Read array(byte[] lines, ByteArrayOutputStream out) throws IOException {
        return ChatArray.write(new ByteArrayInputStream(lines), out);
    }
}
