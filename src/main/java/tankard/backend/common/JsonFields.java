package tankard.backend.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

/**
 * Reading the frontend's JSON bodies, and building upstream ones as ST's object literals do: a field whose value is
 * undefined is left out.
 */
public final class JsonFields {
    private JsonFields() {
    }

    /** The request body as an object to read fields of: itself, or {} when it is not an object. */
    public static ObjectNode object(JsonNode body) {
        return body.isObject() ? (ObjectNode) body : JsJson.object();
    }

    /** Copies each named field that {@code from} has (JSON null included), in the order named. */
    public static ObjectNode copy(JsonNode from, ObjectNode to, String... fields) {
        for (String field : fields) {
            JsonNode value = from.get(field);
            if (value != null) {
                to.set(field, value);
            }
        }
        return to;
    }

    /** Copies the field, if {@code from} has it, under another name. */
    public static void copyAs(JsonNode from, String field, ObjectNode to, String as) {
        JsonNode value = from.get(field);
        if (value != null) {
            to.set(as, value);
        }
    }

    /** JavaScript's Number(x): NaN for undefined and for what does not convert (so {@code >= 0} is false). */
    public static double number(JsonNode value) {
        JsonNode number = Js.number(value);
        return number == null ? Double.NaN : number.asDouble();
    }
}
