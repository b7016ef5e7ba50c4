package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JavaScript object literal being built: a key keeps the place it first got even while its value is undefined
 * (Java null), so a later spread or assignment fills it there, as in {@code { a, b: undefined, ...params }}.
 * Undefined values are left out of the JSON.
 */
final class JsObject {
    private final Map<String, JsonNode> slots = new LinkedHashMap<>();

    /** The keys in this order, each with the body's value (undefined where the body has none). */
    static JsObject copy(ObjectNode from, String... keys) {
        JsObject out = new JsObject();
        for (String key : keys) {
            out.put(key, from.get(key));
        }
        return out;
    }

    JsObject put(String key, JsonNode value) {
        slots.put(key, value);
        return this;
    }

    /** {@code ...params}: every key of the object, assigned in its order. */
    JsObject spread(ObjectNode params) {
        params.properties().forEach(entry -> slots.put(entry.getKey(), entry.getValue()));
        return this;
    }

    ObjectNode toJson() {
        ObjectNode out = JsJson.object();
        slots.forEach((key, value) -> {
            if (value != null) {
                out.set(key, value);
            }
        });
        return out;
    }
}
