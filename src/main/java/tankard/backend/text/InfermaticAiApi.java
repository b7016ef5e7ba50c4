package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.Set;

/** InfermaticAI may answer chat-shaped choices; ST maps them to completion choices ({@code text}). */
final class InfermaticAiApi extends TextCompletionApi {
    InfermaticAiApi(Set<String> fields) {
        super("infermaticai", AuthHeaders.BEARER, "/v1/models", "/v1/completions", fields);
    }

    @Override
    JsonNode completion(JsonNode answer) {
        if (!answer.isObject()) {
            return answer;
        }
        ArrayNode choices = JsJson.array();
        for (JsonNode choice : answer.path("choices")) {
            ObjectNode mapped = JsJson.object();
            setIfPresent(mapped, "text", Js.or(choice.path("message").get("content"), choice.get("text")));
            setIfPresent(mapped, "logprobs", choice.get("logprobs"));
            setIfPresent(mapped, "index", choice.get("index"));
            choices.add(mapped);
        }
        return ((ObjectNode) answer).set("choices", choices);
    }

    private static void setIfPresent(ObjectNode object, String field, JsonNode value) {
        if (value != null) {
            object.set(field, value);
        }
    }
}
