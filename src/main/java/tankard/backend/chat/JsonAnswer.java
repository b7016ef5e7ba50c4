package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

/** What ST's chat-completion routes answer the browser: a status and a JSON body ({@code res.status(n).send(json)}). */
public record JsonAnswer(int status, JsonNode body) {
    public static JsonAnswer ok(JsonNode body) {
        return new JsonAnswer(200, body);
    }

    /** ST's {@code res.status(n).send({error: true})}. */
    public static JsonAnswer errorTrue(int status) {
        return new JsonAnswer(status, errorTrue());
    }

    /** ST's {@code {error: true}}. */
    public static ObjectNode errorTrue() {
        return JsJson.object().put("error", true);
    }

    /** ST's {@code {error: {message}}}. */
    public static ObjectNode errorMessage(String message) {
        ObjectNode error = JsJson.object();
        error.set("error", JsJson.object().put("message", message));
        return error;
    }
}
