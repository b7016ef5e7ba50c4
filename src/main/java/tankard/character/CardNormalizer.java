package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.math.BigDecimal;

/**
 * The in-memory normalization ST applies to every card it reads (st-data.md §3.6): V1 cards are converted to
 * the V2 shape as an editor save would build them, V2/V3 cards get their top-level mirrors refreshed from
 * {@code data}. Works on a copy; key order follows ST (assigning an existing key keeps its place).
 */
final class CardNormalizer {
    private static final TextNode EMPTY = TextNode.valueOf("");
    private static final JsonNode DEFAULT_TALKATIVENESS = DecimalNode.valueOf(new BigDecimal("0.5"));
    private static final String[][] MIRRORS = {
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

    /** ST's V1 conversion: the editor's form handling fed with the card's own fields. */
    private static ObjectNode convertV1(ObjectNode v1, String humanizedNow) {
        ObjectNode card = v1.deepCopy();
        card.remove("json_data");
        JsonNode name = v1.get("name");
        JsonNode tags = tags(v1.get("tags"));
        JsonNode talkativeness = Js.or(v1.get("talkativeness"), DEFAULT_TALKATIVENESS);
        BooleanNode fav = BooleanNode.valueOf(isStringTrue(v1.get("fav")));

        set(card, "name", name);
        set(card, "description", Js.or(v1.get("description"), EMPTY));
        set(card, "personality", Js.or(v1.get("personality"), EMPTY));
        set(card, "scenario", Js.or(v1.get("scenario"), EMPTY));
        set(card, "first_mes", Js.or(v1.get("first_mes"), EMPTY));
        set(card, "mes_example", Js.or(v1.get("mes_example"), EMPTY));
        set(card, "creatorcomment", Js.or(v1.get("creatorcomment"), EMPTY));
        set(card, "avatar", TextNode.valueOf("none"));
        set(card, "chat", TextNode.valueOf(Js.string(name) + " - " + humanizedNow));
        set(card, "talkativeness", talkativeness);
        set(card, "fav", fav);
        set(card, "tags", tags);
        set(card, "spec", TextNode.valueOf("chara_card_v2"));
        set(card, "spec_version", TextNode.valueOf("2.0"));
        set(card, "data.name", name);
        set(card, "data.description", Js.or(v1.get("description"), EMPTY));
        set(card, "data.personality", Js.or(v1.get("personality"), EMPTY));
        set(card, "data.scenario", Js.or(v1.get("scenario"), EMPTY));
        set(card, "data.first_mes", Js.or(v1.get("first_mes"), EMPTY));
        set(card, "data.mes_example", Js.or(v1.get("mes_example"), EMPTY));
        set(card, "data.creator_notes", Js.or(v1.get("creatorcomment"), EMPTY));
        set(card, "data.system_prompt", EMPTY);
        set(card, "data.post_history_instructions", EMPTY);
        set(card, "data.tags", tags.deepCopy());
        set(card, "data.creator", Js.or(v1.get("creator"), EMPTY));
        set(card, "data.character_version", EMPTY);
        set(card, "data.alternate_greetings", JsJson.array());
        set(card, "data.extensions.talkativeness", talkativeness);
        set(card, "data.extensions.fav", fav);
        set(card, "data.extensions.world", EMPTY);
        JsonNode depth = Js.number(v1.get("depth_prompt_depth"));
        set(card, "data.extensions.depth_prompt.prompt", Js.coalesce(v1.get("depth_prompt_prompt"), EMPTY));
        set(card, "data.extensions.depth_prompt.depth", depth == null ? IntNode.valueOf(4) : depth);
        set(card, "data.extensions.depth_prompt.role", Js.coalesce(v1.get("depth_prompt_role"), TextNode.valueOf("system")));
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
