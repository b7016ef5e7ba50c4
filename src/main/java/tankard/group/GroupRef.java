package tankard.group;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.util.Sanitize;

/**
 * The group a request names by its id (ST: src/endpoints/groups.js, /edit and /delete behind
 * getFileNameValidationFunction('id')).
 */
public record GroupRef(String id) {
    /** The body's id, when truthy and free of path characters (only an object has one); otherwise a 400. */
    public static GroupRef of(JsonNode body) {
        JsonNode id = body.get("id");
        if (!Js.truthy(id) || Sanitize.hasForbiddenChars(Js.string(id))) {
            throw Refusal.badRequest("The group needs a valid id");
        }
        return new GroupRef(Js.string(id));
    }
}
