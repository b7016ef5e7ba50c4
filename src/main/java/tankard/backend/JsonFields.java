package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;

/** Building upstream bodies as ST's object literals do: a field whose value is undefined is left out. */
final class JsonFields {
    private JsonFields() {
    }

    /** Copies each named field that {@code from} has (JSON null included), in the order named. */
    static ObjectNode copy(JsonNode from, ObjectNode to, String... fields) {
        for (String field : fields) {
            JsonNode value = from.get(field);
            if (value != null) {
                to.set(field, value);
            }
        }
        return to;
    }

    /** Copies the field, if {@code from} has it, under another name. */
    static void copyAs(JsonNode from, String field, ObjectNode to, String as) {
        JsonNode value = from.get(field);
        if (value != null) {
            to.set(as, value);
        }
    }

    /** JavaScript's Number(x): NaN for undefined and for what does not convert (so {@code >= 0} is false). */
    static double number(JsonNode value) {
        JsonNode number = Js.number(value);
        return number == null ? Double.NaN : number.asDouble();
    }
}
