package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;

import java.util.ArrayList;
import java.util.List;

/**
 * The world info settings as ST's frontend holds them after loading settings.json (ST: public/scripts/world-info.js,
 * setWorldInfoSettings, reading {@code world_info_settings} or, in old files, the top level). Numbers are
 * JavaScript's {@code Number(x)}, NaN included.
 *
 * @param globalSelect the globally selected books ({@code world_info.globalSelect}; ST's selected_world_info)
 * @param charLore     {@code world_info.charLore}: the characters' extra books, or null
 */
record WorldInfoSettings(double depth, double minActivations, double minActivationsDepthMax, double budget,
                         boolean includeNames, boolean recursive, boolean caseSensitive, boolean matchWholeWords,
                         boolean useGroupScoring, double characterStrategy, double budgetCap,
                         double maxRecursionSteps, List<String> globalSelect, JsonNode charLore) {

    static WorldInfoSettings read(ObjectNode settingsJson) {
        JsonNode nested = settingsJson.get("world_info_settings");
        JsonNode s = nested != null && nested.isObject() ? nested : settingsJson;
        double budget = number(s, "world_info_budget", 25);
        JsonNode worldInfo = s.get("world_info");
        List<String> globalSelect = new ArrayList<>();
        JsonNode charLore = null;
        if (worldInfo != null && worldInfo.isTextual()) {
            globalSelect.add(worldInfo.textValue());
        } else if (worldInfo != null && worldInfo.isArray()) {
            addNames(worldInfo, globalSelect);
        } else if (worldInfo != null && worldInfo.isObject()) {
            addNames(worldInfo.path("globalSelect"), globalSelect);
            charLore = worldInfo.get("charLore");
        }
        return new WorldInfoSettings(
                number(s, "world_info_depth", 2),
                number(s, "world_info_min_activations", 0),
                number(s, "world_info_min_activations_depth_max", 0),
                budget > 100 ? 25 : budget,
                bool(s, "world_info_include_names", true),
                bool(s, "world_info_recursive", false),
                bool(s, "world_info_case_sensitive", false),
                bool(s, "world_info_match_whole_words", false),
                bool(s, "world_info_use_group_scoring", false),
                number(s, "world_info_character_strategy", 1),
                number(s, "world_info_budget_cap", 0),
                number(s, "world_info_max_recursion_steps", 0),
                globalSelect, charLore);
    }

    private static void addNames(JsonNode names, List<String> into) {
        for (JsonNode name : names) {
            if (name.isTextual()) {
                into.add(name.textValue());
            }
        }
    }

    private static double number(JsonNode settings, String field, double fallback) {
        JsonNode value = settings.get(field);
        return value == null ? fallback : jsNumber(value);
    }

    private static boolean bool(JsonNode settings, String field, boolean fallback) {
        JsonNode value = settings.get(field);
        return value == null ? fallback : Js.truthy(value);
    }

    /** JavaScript's {@code Number(x)} as a double; NaN for undefined and for what does not read as a number. */
    static double jsNumber(JsonNode value) {
        JsonNode number = Js.number(value);
        return number == null ? Double.NaN : number.doubleValue();
    }
}
