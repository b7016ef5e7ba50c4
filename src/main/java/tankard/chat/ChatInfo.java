package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.HumanBytes;
import tankard.util.StTime;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/** ST's ChatInfo, the entry of every chat listing (st-api.md §8.1). */
final class ChatInfo {
    private ChatInfo() {
    }

    /**
     * The info of one chat file, or null when the file is corrupted (its last line is not JSON with a truthy
     * {@code name}, {@code character_name} or {@code chat_metadata}) and must be left out of lists.
     *
     * @param extra members placed after {@code last_mes} ({@code avatar} / {@code group} in recent chats)
     */
    static ObjectNode read(ChatFile file, InputStream content, Map<String, JsonNode> extra, boolean withMetadata)
            throws IOException {
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
            return info;
        }
        ChatLines.Summary summary = ChatLines.scan(content, withMetadata);
        if (withMetadata && summary.first() != null) {
            JsonNode header = ChatLines.parse(summary.first());
            JsonNode metadata = header == null ? null : header.get("chat_metadata");
            if (metadata != null && metadata.isContainerNode()) {
                info.set("chat_metadata", metadata);
            }
        }
        JsonNode last = summary.last() == null ? null : ChatLines.parse(summary.last());
        if (last == null || !(Js.truthy(last.get("name")) || Js.truthy(last.get("character_name"))
                || Js.truthy(last.get("chat_metadata")))) {
            return null;
        }
        info.put("chat_items", summary.lines() - 1);
        info.set("mes", Js.or(last.get("mes"), TextNode.valueOf("[The message is empty]")));
        info.set("last_mes", Js.or(last.get("send_date"),
                TextNode.valueOf(StTime.iso(Math.round(file.modifiedMs())))));
        info.put("match", true);
        return info;
    }
}
