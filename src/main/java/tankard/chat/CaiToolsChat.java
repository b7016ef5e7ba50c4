package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.StTime;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * CAI Tools export: one chat per entry of {@code histories.histories}, each a list of {@code msgs} with
 * {@code src.is_human} and {@code text}. ST 1.18.0's converter means exactly this but fails on any non-empty
 * list (it reads its result array while building it); here it works.
 */
final class CaiToolsChat implements ChatConverter {
    @Override
    public boolean accepts(JsonNode json) {
        return json.has("histories");
    }

    @Override
    public List<byte[]> convert(JsonNode json, String userName, String characterName, LongSupplier clock) {
        JsonNode histories = ImportedChat.member(json.get("histories"), "histories", "histories");
        if (Js.isUndefined(histories) || histories.isNull()) {
            return List.of();
        }
        List<byte[]> chats = new ArrayList<>();
        for (JsonNode history : ImportedChat.array(histories, "histories.histories")) {
            List<ObjectNode> messages = new ArrayList<>();
            for (JsonNode source : ImportedChat.array(ImportedChat.member(history, "msgs", "history"), "history's msgs")) {
                JsonNode isHuman = ImportedChat.member(ImportedChat.member(source, "src", "message"), "is_human", "message source");
                ObjectNode message = JsJson.object().put("name", Js.truthy(isHuman) ? userName : characterName);
                ImportedChat.putDefined(message, "is_user", isHuman).put("send_date", StTime.iso(clock.getAsLong()));
                ImportedChat.putDefined(message, "mes", source.get("text"));
                messages.add(message.set("extra", JsJson.object()));
            }
            chats.add(ImportedChat.jsonl(messages));
        }
        return chats;
    }
}
