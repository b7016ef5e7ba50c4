package tankard.search;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;

import java.nio.charset.StandardCharsets;

/**
 * What a search route answers, as ST's route sends it: a status, a content type and a body, or only a status
 * ({@code body} null: Express's {@code sendStatus}, its reason phrase as the body).
 */
public record SearchAnswer(int status, String contentType, byte[] body) {
    static SearchAnswer json(JsonNode json) {
        return new SearchAnswer(200, "application/json; charset=utf-8", JsJson.compactBytes(json));
    }

    /** Express's {@code send} of a string. */
    static SearchAnswer text(int status, String text) {
        return new SearchAnswer(status, "text/html; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    static SearchAnswer bytes(String contentType, byte[] body) {
        return new SearchAnswer(200, contentType, body);
    }

    static SearchAnswer status(int status) {
        return new SearchAnswer(status, null, null);
    }
}
