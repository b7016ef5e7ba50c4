package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;


/**
 * The in-memory normalization ST applies to every card it reads (ST: src/endpoints/characters.js, getCharaCardV2): V1
 * cards are converted to the V2 shape as an editor save would build them, V2/V3 cards get their top-level mirrors
 * refreshed from {@code data}. Works on a copy; key order follows ST (assigning an existing key keeps its place).
 */
final class CardNormalizer {
    /** The top-level members refreshed from {@code data}, and the path of each in {@code data}. */
    static final String[][] MIRRORS = {
            {"name", "name"}, {"description", "description"}, {"personality", "personality"},
            {"scenario", "scenario"}, {"first_mes", "first_mes"}, {"mes_example", "mes_example"},
            {"talkativeness", "extensions.talkativeness"}, {"fav", "extensions.fav"}, {"tags", "tags"}};

    private CardNormalizer() {
    }

    /**
     * @param card          the card as stored (not changed)
     * @param humanizedNow  the current humanized time, for the default {@code chat} name
     */
    static ObjectNode normalize(ObjectNode card, String humanizedNow) {
        return card.has("spec") ? readFromV2(card.deepCopy(), humanizedNow) : convertV1(card, humanizedNow);
    }

    private static ObjectNode readFromV2(ObjectNode card, String humanizedNow) {
        if (!card.has("data")) {
            return card; // used as is, as ST does (it only warns)
        }
        card.remove("json_data");
        JsonNode data = card.get("data");
        for (String[] mirror : MIRRORS) {
            JsonNode value = Js.get(data, mirror[1]);
            if (value != null) {
                card.set(mirror[0], value);
            } else if (mirror[1].startsWith("extensions.")) {
                card.remove(mirror[0]); // ST assigns undefined after the default, so the member disappears
            }
        }
        defaultChat(card, humanizedNow);
        return card;
    }

    /** V1 members that ST's V1 conversion feeds to the editor's form handling, and the form field each fills. */
    private static final String[][] V1_FORM_FIELDS = {
            {"name", "ch_name"}, {"description", "description"}, {"personality", "personality"},
            {"scenario", "scenario"}, {"first_mes", "first_mes"}, {"mes_example", "mes_example"},
            {"creatorcomment", "creator_notes"}, {"creator", "creator"}, {"tags", "tags"},
            {"talkativeness", "talkativeness"}, {"fav", "fav"}, {"depth_prompt_prompt", "depth_prompt_prompt"},
            {"depth_prompt_depth", "depth_prompt_depth"}, {"depth_prompt_role", "depth_prompt_role"}};

    /** ST's V1 conversion: the editor's form handling fed with the card's own fields. */
    private static ObjectNode convertV1(ObjectNode v1, String humanizedNow) {
        ObjectNode form = JsJson.object();
        for (String[] field : V1_FORM_FIELDS) {
            JsonNode value = v1.get(field[0]);
            if (value != null) {
                form.set(field[1], value);
            }
        }
        ObjectNode card = CardForm.apply(v1.deepCopy(), form, humanizedNow, null);
        card.set("chat", Js.coalesce(v1.get("chat"), card.get("chat")));
        return card;
    }

    private static void defaultChat(ObjectNode card, String humanizedNow) {
        JsonNode chat = card.get("chat");
        if (chat == null || chat.isNull()) {
            card.put("chat", Js.string(card.get("name")) + " - " + humanizedNow);
        }
    }

    /** {@code tags}: a string is split on commas (trimmed, empties dropped); other truthy values are kept. */
    static JsonNode tags(JsonNode tags) {
        if (tags != null && tags.isTextual()) {
            ArrayNode list = JsJson.array();
            for (String tag : tags.textValue().split(",", -1)) {
                if (!tag.strip().isEmpty()) {
                    list.add(tag.strip());
                }
            }
            return list;
        }
        return Js.or(tags, JsJson.array());
    }

    /** {@code value == "true"} in JavaScript: the string, or anything that converts to it (not the boolean). */
    static boolean isStringTrue(JsonNode value) {
        return value != null && (value.isTextual() || value.isArray()) && Js.string(value).equals("true");
    }

    /**
     * lodash {@code _.set}: creates or replaces objects along a dotted path. An undefined (null) value leaves
     * the member out, as JSON.stringify would.
     */
    /** ST's unsetPrivateFields: {@code fav} false at top level and in {@code data.extensions}, {@code chat} removed. */
    static void unsetPrivateFields(ObjectNode card) {
        set(card, "fav", BooleanNode.FALSE);
        set(card, "data.extensions.fav", BooleanNode.FALSE);
        card.remove("chat");
    }

    static void set(ObjectNode root, String path, JsonNode value) {
        String[] keys = path.split("\\.");
        ObjectNode node = root;
        for (int i = 0; i < keys.length - 1; i++) {
            JsonNode child = node.get(keys[i]);
            if (!(child instanceof ObjectNode)) {
                child = JsJson.object();
                node.set(keys[i], child);
            }
            node = (ObjectNode) child;
        }
        if (value == null) {
            node.remove(keys[keys.length - 1]);
        } else {
            node.set(keys[keys.length - 1], value);
        }
    }
}
