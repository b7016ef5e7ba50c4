package tankard.search;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;

/** The request fields of the search routes, read as ST's routes read them, wrong types refused. */
final class Fields {
    private Fields() {
    }

    /** A text (or number, or boolean) field; null when absent or null. */
    static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isValueNode()) {
            throw Refusal.badRequest("Field '" + field + "' must be text");
        }
        return value.asText();
    }

    /** A text field that must be there and not empty (where ST would call out with "undefined"). */
    static String required(JsonNode body, String field) {
        String value = text(body, field);
        if (value == null || value.isEmpty()) {
            throw Refusal.badRequest("Missing required field '" + field + "'");
        }
        return value;
    }
}
