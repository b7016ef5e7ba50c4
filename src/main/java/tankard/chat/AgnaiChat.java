package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/** Agnaistic: a {@code messages} list; a message with a {@code userId} is the user's, {@code msg} is the text. */
final class AgnaiChat implements ChatConverter {
    @Override
    public boolean accepts(JsonNode json) {
        return json.path("messages").isArray();
    }

    @Override
    public List<byte[]> convert(JsonNode json, String userName, String characterName, LongSupplier clock) {
        List<ObjectNode> messages = new ArrayList<>();
        for (JsonNode source : json.get("messages")) {
            boolean isUser = Js.truthy(ImportedChat.member(source, "userId", "message in 'messages'"));
            ObjectNode message = ImportedChat.message(isUser ? userName : characterName, isUser, clock);
            ImportedChat.putDefined(message, "mes", source.get("msg"));
            messages.add(message.set("extra", JsJson.object()));
        }
        return List.of(ImportedChat.jsonl(messages));
    }
}
