package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/** text-generation-webui (oobabooga): {@code data_visible} holds {@code [user, bot]} pairs; empty sides are skipped. */
final class OobaChat implements ChatConverter {
    @Override
    public boolean accepts(JsonNode json) {
        return json.path("data_visible").isArray();
    }

    @Override
    public List<byte[]> convert(JsonNode json, String userName, String characterName, LongSupplier clock) {
        List<ObjectNode> messages = new ArrayList<>();
        for (JsonNode pair : json.get("data_visible")) {
            add(messages, element(pair, 0), userName, true, clock);
            add(messages, element(pair, 1), characterName, false, clock);
        }
        return List.of(ImportedChat.jsonl(messages));
    }

    private static void add(List<ObjectNode> messages, JsonNode text, String name, boolean isUser, LongSupplier clock) {
        if (Js.truthy(text)) {
            ObjectNode message = ImportedChat.message(name, isUser, clock);
            message.set("mes", text);
            messages.add(message.set("extra", JsJson.object()));
        }
    }

    /** {@code pair[index]} in JavaScript. */
    private static JsonNode element(JsonNode pair, int index) {
        if (pair.isNull()) {
            throw new ChatImportException("A data_visible entry is null");
        }
        if (pair.isArray()) {
            return pair.get(index);
        }
        if (pair.isTextual()) {
            String text = pair.textValue();
            return index < text.length() ? TextNode.valueOf(text.substring(index, index + 1)) : null;
        }
        return pair.isObject() ? pair.get(String.valueOf(index)) : null;
    }
}
