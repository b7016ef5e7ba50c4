package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * ST's deep merge of card updates, its unset sentinel and its card validator (ST: src/endpoints/characters.js,
 * mergeCharacterUpdate, processUnsetSentinels; src/validator/TavernCardValidator.js).
 */
final class CardMerge {
    static final String UNSET = "__@@UNSET@@__";
    private static final String[] V1_FIELDS = {"name", "description", "personality", "scenario", "first_mes", "mes_example"};
    private static final String[] V2_FIELDS = {"name", "description", "personality", "scenario", "first_mes",
            "mes_example", "creator_notes", "system_prompt", "post_history_instructions", "alternate_greetings", "tags",
            "creator", "character_version", "extensions"};

    private CardMerge() {
    }

    /**
     * ST's deepMerge: a copy of {@code target} where objects of {@code source} merge recursively and anything
     * else replaces. A non-object target becomes what {@code Object.assign({}, target)} makes of it.
     */
    static JsonNode deepMerge(JsonNode target, JsonNode source) {
        ObjectNode output = assignCopy(target);
        if (!isObject(target) || !isObject(source)) {
            return output;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = source.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode value = field.getValue();
            if (isObject(value) && target.has(field.getKey())) {
                output.set(field.getKey(), deepMerge(target.get(field.getKey()), value));
            } else {
                output.set(field.getKey(), value.deepCopy());
            }
        }
        return output;
    }

    /** {@code Object.assign({}, value)}: objects are copied, strings spread into indexed characters. */
    private static ObjectNode assignCopy(JsonNode value) {
        if (value instanceof ObjectNode object) {
            return object.deepCopy();
        }
        ObjectNode copy = JsJson.object();
        if (value != null && value.isTextual()) {
            String text = value.textValue();
            for (int i = 0; i < text.length(); i++) {
                copy.put(Integer.toString(i), String.valueOf(text.charAt(i)));
            }
        }
        return copy;
    }

    /** Deletes from {@code target} every key whose value in {@code source} is the unset sentinel. */
    static void unsetSentinels(JsonNode target, JsonNode source) {
        if (!(target instanceof ObjectNode object) || !source.isObject()) {
            return;
        }
        List<String> keys = new ArrayList<>();
        source.fieldNames().forEachRemaining(keys::add);
        for (String key : keys) {
            JsonNode value = source.get(key);
            if (value.isTextual() && value.textValue().equals(UNSET)) {
                object.remove(key);
            } else if (isObject(value) && isObject(object.get(key))) {
                unsetSentinels(object.get(key), value);
            }
        }
    }

    /**
     * ST's validator: null when the card passes as V1, V2 or V3; otherwise the error ST reports, which is the
     * one of the last rule that failed (so usually {@code spec}).
     */
    static String validate(JsonNode card) {
        if (missing(card, V1_FIELDS) == null) {
            return null;
        }
        if (validateV2(card) == null) {
            return null;
        }
        return validateV3(card);
    }

    private static String validateV2(JsonNode card) {
        if (!Js.strictEquals(card.get("spec"), TextNode.valueOf("chara_card_v2"))) {
            return "spec";
        }
        if (!Js.strictEquals(card.get("spec_version"), TextNode.valueOf("2.0"))) {
            return "spec_version";
        }
        JsonNode data = card.get("data");
        if (!Js.truthy(data)) {
            return "No tavern card data found";
        }
        String missing = missing(data, V2_FIELDS);
        if (missing != null) {
            return "data." + missing;
        }
        if (!data.get("alternate_greetings").isArray() || !data.get("tags").isArray()
                || !isObjectOrNull(data.get("extensions"))) {
            return "data.extensions"; // ST fails here without naming a field; this is the closest
        }
        JsonNode book = data.get("character_book");
        if (!Js.truthy(book)) {
            return null;
        }
        for (String field : new String[]{"extensions", "entries"}) {
            if (!book.has(field)) {
                return "data.character_book." + field;
            }
        }
        return book.get("entries").isArray() && isObjectOrNull(book.get("extensions")) ? null : "data.character_book";
    }

    private static String validateV3(JsonNode card) {
        if (!Js.strictEquals(card.get("spec"), TextNode.valueOf("chara_card_v3"))) {
            return "spec";
        }
        // NaN compares false both ways, so a non-numeric version passes as in ST
        JsonNode version = Js.number(card.get("spec_version"));
        if (version != null && (version.decimalValue().compareTo(BigDecimal.valueOf(3)) < 0
                || version.decimalValue().compareTo(BigDecimal.valueOf(4)) >= 0)) {
            return "spec_version";
        }
        JsonNode data = card.get("data");
        return Js.truthy(data) && (data.isObject() || data.isArray()) ? null : "No tavern card data found";
    }

    private static String missing(JsonNode object, String[] fields) {
        for (String field : fields) {
            if (!object.has(field)) {
                return field;
            }
        }
        return null;
    }

    /** {@code typeof x === 'object'}: objects, arrays and null. */
    private static boolean isObjectOrNull(JsonNode node) {
        return node != null && (node.isObject() || node.isArray() || node.isNull());
    }

    private static boolean isObject(JsonNode node) {
        return node != null && node.isObject();
    }
}
