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
import java.util.stream.LongStream;

/**
 * A chat in windows, for Tankard's own clients (a chat of 100,000 messages need not travel whole for a reply,
 * nor to show its last page first): lines of the file between two byte offsets, where each starts, and the
 * cursor that saving a new end from any of them checks.
 * <p>
 * The API, beside ST's (bodies name the chat as ST's: {@code avatar_url} + {@code file_name}, or a group
 * chat's {@code id}):
 * <ul>
 * <li>{@code POST /api/tankard/chats/tail} {@code {..., count, before?}} →
 * {@code {header, messages, offsets, more, cursor}}: the header line and the last {@code count} lines after it
 * (with {@code before}, a byte offset: the last {@code count} lines that end before it) as
 * {@code /api/chats/get} serves lines; {@code offsets}, where the line of each of {@code messages} starts; {@code more},
 * whether lines come before the first of them (the next page up is {@code before: cursor.offset}); and
 * {@code cursor = {offset, size, mtime}}: where the first of them starts in the file, and the file's size and mtime
 * (ms) now. {@code before} must be a line start after the header, or the size (the same as no {@code before}),
 * else {@code 400}. Lines ST's read drops (blank, not JSON, falsy) take a place in {@code count} but are not
 * served, so a page may hold fewer messages, even none while {@code more} is true.</li>
 * <li>{@code POST /api/tankard/chats/tail/save} {@code {..., cursor, messages}}: replaces every line from
 * {@code cursor.offset} on by {@code messages} (each stored as ST stores a chat element, one line each), only if
 * the file still has the cursor's size and mtime, else {@code 409}: re-read. {@code cursor.offset} may be any
 * line start a read answered (the window's, or one of its {@code offsets}: an edit, swipe or delete from that
 * message sends it and the window's messages after it) or the size (an append); any other offset is a
 * {@code 400}, nothing written. Answers {@code {ok, cursor}}, the cursor for the next save with
 * {@code cursor.offsets}: where the line of each sent message starts now. The header cannot be changed this way.</li>
 * <li>{@code POST /api/tankard/chats/metadata} {@code {..., chat_metadata}}: sets those keys of the header's
 * {@code chat_metadata} (a null removes the key), the messages kept byte for byte ({@link ChatService#saveMetadata});
 * a window read before it is stale after it (its cursor no longer matches).</li>
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

    /** A read's {@code before}: null for the end, else a byte offset (checked against the chat by {@link #lineStart}). */
    static Long before(JsonNode body) {
        JsonNode before = body.get("before");
        if (before == null || before.isNull()) {
            return null;
        }
        if (!before.isIntegralNumber() || !before.canConvertToLong() || before.longValue() < 0) {
            throw Refusal.badRequest("before must be a byte offset that a read answered");
        }
        return before.longValue();
    }

    /**
     * Checks that {@code at} (the request's {@code name}) is where a line after the header starts, or the size
     * (where an appended line would start), else 400; answers whether an LF comes just before it.
     */
    static boolean lineStart(SeekableByteChannel chat, long headerEnd, long at, String name) throws IOException {
        if (at < headerEnd || at > chat.size()) {
            throw Refusal.badRequest(name + " is not within the chat's messages");
        }
        boolean afterLineFeed = at > 0 && read(chat, at - 1, at)[0] == '\n';
        if (!afterLineFeed && at < chat.size()) {
            throw Refusal.badRequest(name + " is not the start of a line");
        }
        return afterLineFeed;
    }

    /** A saved end: the cursor for the next save, and where each saved message's line starts. */
    public record Saved(Cursor cursor, long[] offsets) {
        ObjectNode json() {
            ObjectNode json = cursor.json();
            ArrayNode lines = json.putArray("offsets");
            for (long offset : offsets) {
                lines.add(offset);
            }
            return json;
        }
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

    /** As {@link #array(byte[], ByteArrayOutputStream)}, with where each served line starts, counted from {@code from}. */
    static long[] array(byte[] lines, long from, ByteArrayOutputStream out) throws IOException {
        LongStream.Builder starts = LongStream.builder();
        ChatArray.write(new ByteArrayInputStream(lines), out, start -> starts.add(from + start));
        return starts.build().toArray();
    }
}
