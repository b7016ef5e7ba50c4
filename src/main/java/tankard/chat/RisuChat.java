package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.StTime;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * RisuAI chat export ({@code type: "risuChat"}): {@code data.message[]} with {@code role}, {@code data},
 * an optional speaker {@code name} and the epoch-ms {@code time}, which becomes the send date.
 */
final class RisuChat implements ChatConverter {
    /** The largest time a JavaScript Date holds; beyond it {@code toISOString} throws. */
    private static final BigDecimal MAX_TIME = new BigDecimal("8.64e15");

    @Override
    public boolean accepts(JsonNode json) {
        return "risuChat".equals(json.path("type").textValue());
    }

    @Override
    public List<byte[]> convert(JsonNode json, String userName, String characterName, LongSupplier clock) {
        JsonNode list = ImportedChat.member(json.get("data"), "message", "data");
        List<ObjectNode> messages = new ArrayList<>();
        for (JsonNode source : ImportedChat.array(list, "data.message")) {
            JsonNode role = ImportedChat.member(source, "role", "message in data.message");
            boolean isUser = role != null && "user".equals(role.textValue());
            ObjectNode message = JsJson.object();
            message.set("name", Js.coalesce(source.get("name"), TextNode.valueOf(isUser ? userName : characterName)));
            message.put("is_user", isUser).put("send_date", StTime.iso(time(source.get("time"), clock)));
            message.set("mes", Js.coalesce(source.get("data"), TextNode.valueOf("")));
            messages.add(message.set("extra", JsJson.object()));
        }
        return List.of(ImportedChat.jsonl(messages));
    }

    /** {@code new Date(Number(time ?? Date.now()))}: whole milliseconds, an invalid date fails the import. */
    private static long time(JsonNode time, LongSupplier clock) {
        if (Js.isUndefined(time) || time.isNull()) {
            return clock.getAsLong();
        }
        JsonNode number = Js.number(time);
        if (number == null || number.decimalValue().abs().compareTo(MAX_TIME) > 0) {
            throw new ChatImportException("A message time is not a valid date: " + Js.string(time));
        }
        return number.decimalValue().longValue();
    }
}
