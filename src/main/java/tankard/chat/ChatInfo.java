package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.chat.format.ChatHeader;
import tankard.chat.format.ChatLines;
import tankard.chat.format.ChatMessage;
import tankard.chat.format.ChatTail;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.HumanBytes;
import tankard.util.StTime;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.util.Map;
import java.util.Optional;

/** ST's ChatInfo, the entry of every chat listing (src/endpoints/chats.js, getChatInfo). */
final class ChatInfo {
    private ChatInfo() {
    }

    /**
     * The info of one chat file; empty when the file vanished since it was listed. A corrupted file (its last
     * line is not JSON with a truthy {@code name}, {@code character_name} or {@code chat_metadata}) gives
     * {@code {}}, as in ST, and is left out of lists. An unreadable file is an IOException, never a result.
     *
     * @param extra members placed after {@code last_mes} ({@code avatar} / {@code group} in recent chats)
     */
    static Optional<ObjectNode> read(ChatStore store, String user, ChatFolder folder, ChatFile file,
                                     Map<String, JsonNode> extra, boolean withMetadata) throws IOException {
        return read(file, () -> store.channel(user, folder, file.name()), extra, withMetadata);
    }

    /** Opens a listed file for reading; empty when it vanished. */
    @FunctionalInterface
    interface Opener {
        Optional<SeekableByteChannel> open() throws IOException;
    }

    /** The info of any chat-format file (a chat, a chat backup), read through {@code opener}. */
    static Optional<ObjectNode> read(ChatFile file, Opener opener, Map<String, JsonNode> extra,
                                     boolean withMetadata) throws IOException {
        ObjectNode info = JsJson.object()
                .put("match", false)
                .put("file_id", file.id())
                .put("file_name", file.name())
                .put("file_size", HumanBytes.format(file.size()))
                .put("chat_items", 0)
                .put("mes", "[The chat is empty]");
        info.set("last_mes", DoubleNode.valueOf(file.modifiedMs()));
        extra.forEach(info::set);
        if (file.size() == 0) {
            return Optional.of(info);
        }
        Optional<SeekableByteChannel> channel = opener.open();
        if (channel.isEmpty()) {
            return Optional.empty();
        }
        ChatTail.Summary summary;
        try (SeekableByteChannel chat = channel.get()) {
            summary = ChatTail.read(chat, withMetadata);
        }
        JsonNode metadata = withMetadata && summary.first() != null
                ? ChatHeader.metadata(ChatLines.parse(summary.first())) : null;
        if (metadata != null) {
            info.set(ChatHeader.CHAT_METADATA, metadata);
        }
        JsonNode last = summary.last() == null ? null : ChatLines.parse(summary.last());
        if (!ChatMessage.isMessageOrHeader(last)) {
            return Optional.of(JsJson.object());
        }
        info.put("chat_items", summary.lines() - 1);
        info.set("mes", Js.or(last.get("mes"), TextNode.valueOf("[The message is empty]")));
        info.set("last_mes", Js.or(last.get("send_date"),
                TextNode.valueOf(StTime.iso(Math.round(file.modifiedMs())))));
        info.put("match", true);
        return Optional.of(info);
    }

    /** Whether the info is a real one, not the {@code {}} of a corrupted file. */
    static boolean isValid(ObjectNode info) {
        return info.has("file_name");
    }
}
