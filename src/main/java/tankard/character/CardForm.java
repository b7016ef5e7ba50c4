package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.Sanitize;

import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The card JSON an editor save builds from its form fields (ST: src/endpoints/characters.js,
 * charaFormatData). Starts from the posted {@code json_data} so that unknown members survive.
 */
final class CardForm {
    private static final Logger LOG = LoggerFactory.getLogger(CardForm.class);
    private static final TextNode EMPTY = TextNode.valueOf("");
    private static final JsonNode HALF = DecimalNode.valueOf(new BigDecimal("0.5"));

    private CardForm() {
    }

    /**
     * @param form        the request fields (multipart fields as strings, repeated ones as arrays, or a JSON body)
     * @param humanizedNow the current humanized time, for the default {@code chat}
     * @param worlds      the user's lorebooks by document name ({@code worlds/}), for an embedded lorebook
     */
    static ObjectNode build(JsonNode form, String humanizedNow, Function<String, Optional<byte[]>> worlds) {
        JsonNode posted = form.get("json_data");
        JsonNode previous = posted != null && posted.isTextual()
                ? JsJson.tryParse(posted.textValue().getBytes(StandardCharsets.UTF_8)) : null;
        return apply(previous instanceof ObjectNode object ? object : JsJson.object(), form, humanizedNow, worlds);
    }

    /**
     * Sets the card members an editor form defines onto {@code card} (changed and returned), keeping the
     * others where they are. ST's V1 conversion runs the same function on a card's own fields.
     *
     * @param worlds the user's lorebooks by document name for an embedded lorebook, or null for none
     */
    static ObjectNode apply(ObjectNode card, JsonNode form, String humanizedNow,
                            Function<String, Optional<byte[]>> worlds) {
        card.remove("json_data");
        JsonNode name = form.get("ch_name");
        JsonNode tags = CardNormalizer.tags(form.get("tags"));
        JsonNode talkativeness = Js.or(form.get("talkativeness"), HALF);
        BooleanNode fav = BooleanNode.valueOf(CardNormalizer.isStringTrue(form.get("fav")));

        set(card, "name", name);
        set(card, "description", text(form, "description"));
        set(card, "personality", text(form, "personality"));
        set(card, "scenario", text(form, "scenario"));
        set(card, "first_mes", text(form, "first_mes"));
        set(card, "mes_example", text(form, "mes_example"));
        set(card, "creatorcomment", text(form, "creator_notes"));
        set(card, "avatar", TextNode.valueOf("none"));
        set(card, "chat", TextNode.valueOf(Js.string(name) + " - " + humanizedNow));
        set(card, "talkativeness", talkativeness);
        set(card, "fav", fav);
        set(card, "tags", tags);
        set(card, "spec", TextNode.valueOf("chara_card_v2"));
        set(card, "spec_version", TextNode.valueOf("2.0"));
        set(card, "data.name", name);
        set(card, "data.description", text(form, "description"));
        set(card, "data.personality", text(form, "personality"));
        set(card, "data.scenario", text(form, "scenario"));
        set(card, "data.first_mes", text(form, "first_mes"));
        set(card, "data.mes_example", text(form, "mes_example"));
        set(card, "data.creator_notes", text(form, "creator_notes"));
        set(card, "data.system_prompt", text(form, "system_prompt"));
        set(card, "data.post_history_instructions", text(form, "post_history_instructions"));
        set(card, "data.tags", tags.deepCopy());
        set(card, "data.creator", text(form, "creator"));
        set(card, "data.character_version", text(form, "character_version"));
        set(card, "data.alternate_greetings", alternateGreetings(form.get("alternate_greetings")));
        set(card, "data.extensions.talkativeness", talkativeness);
        set(card, "data.extensions.fav", fav);
        set(card, "data.extensions.world", text(form, "world"));
        JsonNode depth = Js.number(form.get("depth_prompt_depth"));
        set(card, "data.extensions.depth_prompt.prompt", Js.coalesce(form.get("depth_prompt_prompt"), EMPTY));
        set(card, "data.extensions.depth_prompt.depth", depth == null ? IntNode.valueOf(4) : depth);
        set(card, "data.extensions.depth_prompt.role", Js.coalesce(form.get("depth_prompt_role"), TextNode.valueOf("system")));

        JsonNode world = form.get("world");
        if (worlds != null && Js.truthy(world)) {
            JsonNode book = characterBook(worlds, Js.string(world));
            if (book != null) {
                set(card, "data.character_book", book);
            }
        }
        JsonNode extensions = form.get("extensions");
        if (Js.truthy(extensions)) {
            JsonNode parsed = extensions.isTextual()
                    ? JsJson.tryParse(extensions.textValue().getBytes(StandardCharsets.UTF_8)) : null;
            if (parsed != null) {
                set(card, "data.extensions", CardMerge.deepMerge(card.path("data").get("extensions"), parsed));
            } else {
                LOG.warn("Ignoring extensions that are not JSON text");
            }
        }
        return card;
    }

    private static JsonNode text(JsonNode form, String field) {
        return Js.or(form.get(field), EMPTY);
    }

    private static void set(ObjectNode card, String path, JsonNode value) {
        CardNormalizer.set(card, path, value);
    }

    private static JsonNode alternateGreetings(JsonNode value) {
        if (value != null && value.isArray()) {
            return value;
        }
        ArrayNode list = JsJson.array();
        if (value != null && value.isTextual()) {
            list.add(value);
        }
        return list;
    }

    /** The linked lorebook converted to a character book; null when its document is missing or unreadable. */
    private static JsonNode characterBook(Function<String, Optional<byte[]>> worlds, String world) {
        String file = Sanitize.filename(world + ".json");
        if (!Sanitize.isSafeSegment(file)) {
            return null;
        }
        JsonNode json;
        try {
            Optional<byte[]> stored = worlds.apply(file);
            if (stored.isEmpty()) {
                return null;
            }
            json = JsJson.tryParse(stored.get());
        } catch (UncheckedIOException e) {
            json = null;
        }
        if (json == null) {
            LOG.warn("Failed to read world info file {}; no character book", file);
            return null;
        }
        JsonNode book = json.get("originalData");
        JsonNode entries = json.get("entries");
        if (Js.truthy(entries)) {
            book = convertWorld(world, entries);
        }
        return Js.truthy(book) ? book : null;
    }

    /** ST's world info → character book conversion (src/endpoints/characters.js, convertWorldInfoToCharacterBook). */
    static ObjectNode convertWorld(String name, JsonNode entries) {
        ArrayNode list = JsJson.array();
        for (JsonNode entry : inJsKeyOrder(entries)) {
            ObjectNode out = JsJson.object();
            copy(out, "id", entry.get("uid"));
            copy(out, "keys", entry.get("key"));
            copy(out, "secondary_keys", entry.get("keysecondary"));
            copy(out, "comment", entry.get("comment"));
            copy(out, "content", entry.get("content"));
            copy(out, "constant", entry.get("constant"));
            copy(out, "selective", entry.get("selective"));
            copy(out, "insertion_order", entry.get("order"));
            out.put("enabled", !Js.truthy(entry.get("disable")));
            JsonNode position = entry.get("position");
            // JavaScript's position == 0: null and undefined are not 0, "0", "" and false are
            JsonNode number = position == null || position.isNull() ? null : Js.number(position);
            boolean before = number != null && number.decimalValue().signum() == 0;
            out.put("position", before ? "before_char" : "after_char");
            out.put("use_regex", true);
            ObjectNode ext = entry.get("extensions") instanceof ObjectNode own ? own.deepCopy() : JsJson.object();
            copy(ext, "position", position);
            copy(ext, "exclude_recursion", entry.get("excludeRecursion"));
            copy(ext, "display_index", entry.get("displayIndex"));
            String[][] defaults = {
                    {"probability", "probability", "null"}, {"useProbability", "useProbability", "false"},
                    {"depth", "depth", "4"}, {"selectiveLogic", "selectiveLogic", "0"},
                    {"outlet_name", "outletName", "\"\""}, {"group", "group", "\"\""},
                    {"group_override", "groupOverride", "false"}, {"group_weight", "groupWeight", "null"},
                    {"prevent_recursion", "preventRecursion", "false"},
                    {"delay_until_recursion", "delayUntilRecursion", "false"}, {"scan_depth", "scanDepth", "null"},
                    {"match_whole_words", "matchWholeWords", "null"}, {"use_group_scoring", "useGroupScoring", "false"},
                    {"case_sensitive", "caseSensitive", "null"}, {"automation_id", "automationId", "\"\""},
                    {"role", "role", "0"}, {"vectorized", "vectorized", "false"}, {"sticky", "sticky", "null"},
                    {"cooldown", "cooldown", "null"}, {"delay", "delay", "null"},
                    {"match_persona_description", "matchPersonaDescription", "false"},
                    {"match_character_description", "matchCharacterDescription", "false"},
                    {"match_character_personality", "matchCharacterPersonality", "false"},
                    {"match_character_depth_prompt", "matchCharacterDepthPrompt", "false"},
                    {"match_scenario", "matchScenario", "false"}, {"match_creator_notes", "matchCreatorNotes", "false"},
                    {"triggers", "triggers", "[]"}, {"ignore_budget", "ignoreBudget", "false"}};
            for (String[] d : defaults) {
                ext.set(d[0], Js.coalesce(entry.get(d[1]), JsJson.parse(d[2])));
            }
            out.set("extensions", ext);
            list.add(out);
        }
        ObjectNode book = JsJson.object();
        book.set("entries", list);
        book.put("name", name);
        return book;
    }

    /** {@code for…in} order: integer-like keys ascending, then the others as stored. */
    private static List<JsonNode> inJsKeyOrder(JsonNode entries) {
        List<String> numeric = new ArrayList<>();
        List<String> others = new ArrayList<>();
        entries.fieldNames().forEachRemaining(key -> (key.matches("0|[1-9][0-9]{0,8}") ? numeric : others).add(key));
        numeric.sort((a, b) -> Long.compare(Long.parseLong(a), Long.parseLong(b)));
        List<JsonNode> ordered = new ArrayList<>();
        if (entries.isArray()) {
            entries.forEach(ordered::add);
            return ordered;
        }
        numeric.forEach(k -> ordered.add(entries.get(k)));
        others.forEach(k -> ordered.add(entries.get(k)));
        return ordered;
    }

    /** A member that JSON.stringify would write: undefined is left out. */
    private static void copy(ObjectNode out, String key, JsonNode value) {
        if (value != null) {
            out.set(key, value);
        } else {
            out.remove(key);
        }
    }
}
