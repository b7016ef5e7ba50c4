package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsNumber;

/**
 * One embedding request: whose it is (the user's handle, for the secrets store) and the request body, which
 * carries the source's settings (ST: vectors.js, getSourceSettings).
 */
public record EmbeddingCall(String user, JsonNode body) {
    /** A body field as ST's {@code String(request.body.x)}: "undefined" when absent, "null" for null. */
    public String string(String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isMissingNode()) {
            return "undefined";
        }
        return JsNumber.string(value);
    }

    /** A body field as ST's {@code String(request.body.x || fallback)}. */
    public String string(String field, String fallback) {
        JsonNode value = body.get(field);
        return truthy(value) ? string(field) : fallback;
    }

    /** JavaScript truthiness of a JSON value; absent is falsy. */
    public static boolean truthy(JsonNode value) {
        if (value == null || value.isMissingNode() || value.isNull()) {
            return false;
        }
        if (value.isTextual()) {
            return !value.asText().isEmpty();
        }
        if (value.isBoolean()) {
            return value.asBoolean();
        }
        if (value.isNumber()) {
            double d = value.asDouble();
            return d != 0 && !Double.isNaN(d);
        }
        return true; // objects and arrays
    }
}
