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
 * KoboldAI Lite save: {@code prompt} (when set) and {@code actions} are the messages; one containing the input
 * marker is the user's. Names come from the save's own settings, not from the request, as in ST.
 */
final class KoboldLiteChat implements ChatConverter {
    private static final String INPUT = "{{[INPUT]}}";
    private static final String OUTPUT = "{{[OUTPUT]}}";

    @Override
    public boolean accepts(JsonNode json) {
        return json.has("savedsettings");
    }

    @Override
    public List<byte[]> convert(JsonNode json, String requestUser, String requestCharacter, LongSupplier clock) {
        JsonNode settings = json.get("savedsettings");
        String userName = Js.string(ImportedChat.member(settings, "chatname", "savedsettings"));
        String opponent = Js.string(settings.get("chatopponent"));
        int separator = opponent.indexOf("||$||");
        String characterName = separator < 0 ? opponent : opponent.substring(0, separator);

        List<ObjectNode> messages = new ArrayList<>();
        for (JsonNode action : ImportedChat.array(json.get("actions"), "actions")) {
            messages.add(message(action, userName, characterName, clock));
        }
        if (Js.truthy(json.get("prompt"))) { // converted last, put first: its send date is the latest, as in ST
            messages.add(0, message(json.get("prompt"), userName, characterName, clock));
        }
        return List.of(ImportedChat.jsonl(messages));
    }

    private static ObjectNode message(JsonNode text, String userName, String characterName, LongSupplier clock) {
        if (!text.isTextual()) {
            throw new ChatImportException("A Kobold Lite message is not text");
        }
        boolean isUser = text.textValue().contains(INPUT);
        String mes = Js.trim(text.textValue().replace(INPUT, "").replace(OUTPUT, ""));
        return JsJson.object().put("name", isUser ? userName : characterName).put("is_user", isUser)
                .put("mes", mes).put("send_date", StTime.iso(clock.getAsLong())).set("extra", JsJson.object());
    }
}
