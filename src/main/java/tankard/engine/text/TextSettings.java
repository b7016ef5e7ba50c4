package tankard.engine.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.Iterator;
import java.util.Map;

/**
 * The power-user settings a text completion prompt reads, as ST's frontend holds them once settings.json is
 * loaded: {@code power_user}'s defaults under the saved values (a saved {@code instruct}, {@code context} or
 * {@code sysprompt} replaces the default object whole, as {@code Object.assign} does), then the load-time
 * migrations.
 */
final class TextSettings {
    /** ST's {@code tokenizers.BEST_MATCH}. */
    static final int BEST_MATCH = 99;

    final ObjectNode powerUser;
    final ObjectNode instruct;
    final ObjectNode context;
    final ObjectNode sysprompt;
    final ObjectNode textgen;

    private TextSettings(ObjectNode powerUser, ObjectNode instruct, ObjectNode context, ObjectNode sysprompt,
                         ObjectNode textgen) {
        this.powerUser = powerUser;
        this.instruct = instruct;
        this.context = context;
        this.sysprompt = sysprompt;
        this.textgen = textgen;
    }

    static TextSettings of(ObjectNode settings) {
        JsonNode saved = settings.path("power_user");
        ObjectNode powerUser = saved.isObject() ? ((ObjectNode) saved).deepCopy() : JsJson.object();
        ObjectNode instruct = savedOr(powerUser, "instruct", defaultInstruct());
        ObjectNode context = savedOr(powerUser, "context", defaultContext());
        ObjectNode sysprompt = savedOr(powerUser, "sysprompt", defaultSysprompt());
        migrateSystemPrompt(instruct, sysprompt);
        migrateInstruct(instruct);
        loadContext(context);
        return new TextSettings(powerUser, instruct, context, sysprompt, TextGenSettings.of(settings));
    }

    private static ObjectNode savedOr(ObjectNode powerUser, String key, ObjectNode defaults) {
        JsonNode saved = powerUser.get(key);
        return saved != null && saved.isObject() ? (ObjectNode) saved : defaults;
    }

    // ST: public/scripts/power-user.js, power_user.instruct
    private static ObjectNode defaultInstruct() {
        return JsJson.object().put("enabled", false).put("preset", "Alpaca")
                .put("input_sequence", "### Instruction:").put("input_suffix", "")
                .put("output_sequence", "### Response:").put("output_suffix", "")
                .put("system_sequence", "").put("system_suffix", "").put("last_system_sequence", "")
                .put("first_input_sequence", "").put("first_output_sequence", "").put("last_input_sequence", "")
                .put("last_output_sequence", "").put("story_string_prefix", "").put("story_string_suffix", "")
                .put("stop_sequence", "").put("wrap", true).put("macro", true).put("names_behavior", "force")
                .put("activation_regex", "").put("bind_to_context", false).put("user_alignment_message", "")
                .put("system_same_as_user", false).put("separator_sequence", "")
                .put("sequences_as_stop_strings", true);
    }

    // ST: public/scripts/power-user.js, power_user.context and defaultStoryString
    private static ObjectNode defaultContext() {
        return JsJson.object().put("preset", "Default")
                .put("story_string", "{{#if system}}{{system}}\n{{/if}}{{#if description}}{{description}}\n{{/if}}"
                        + "{{#if personality}}{{char}}'s personality: {{personality}}\n{{/if}}"
                        + "{{#if scenario}}Scenario: {{scenario}}\n{{/if}}{{#if persona}}{{persona}}\n{{/if}}")
                .put("chat_start", "***").put("example_separator", "***").put("use_stop_strings", true)
                .put("names_as_stop_strings", true).put("story_string_position", 0).put("story_string_role", 0)
                .put("story_string_depth", 1);
    }

    // ST: public/scripts/power-user.js, power_user.sysprompt
    private static ObjectNode defaultSysprompt() {
        return JsJson.object().put("enabled", true).put("name", "Neutral - Chat")
                .put("content", "Write {{char}}'s next reply in a fictional chat between {{char}} and {{user}}.")
                .put("post_history", "");
    }

    // ST: public/scripts/sysprompt.js, migrateSystemPromptFromInstructMode
    private static void migrateSystemPrompt(ObjectNode instruct, ObjectNode sysprompt) {
        if (instruct.has("system_prompt")) {
            String prompt = Js.string(instruct.remove("system_prompt"));
            sysprompt.set("enabled", instruct.has("enabled") ? instruct.get("enabled") : null);
            sysprompt.put("content", prompt);
            sysprompt.put("post_history", "");
        }
    }

    // ST: public/scripts/instruct-mode.js, migrateInstructModeSettings
    private static void migrateInstruct(ObjectNode instruct) {
        if (instruct.has("separator_sequence")) {
            JsonNode separator = instruct.remove("separator_sequence");
            instruct.set("output_suffix", Js.truthy(separator) ? separator : JsJson.tree(""));
        }
        if (instruct.has("names")) {
            String behavior = Js.truthy(instruct.get("names")) ? "always"
                    : Js.truthy(instruct.get("names_force_groups")) ? "force" : "none";
            instruct.put("names_behavior", behavior);
            instruct.remove("names");
            instruct.remove("names_force_groups");
        }
        ObjectNode defaults = JsJson.object().put("input_suffix", "").put("system_sequence", "")
                .put("system_suffix", "").put("user_alignment_message", "").put("last_system_sequence", "")
                .put("first_input_sequence", "").put("last_input_sequence", "").put("skip_examples", false)
                .put("system_same_as_user", false).put("names_behavior", "force")
                .put("sequences_as_stop_strings", true).put("story_string_prefix", "")
                .put("story_string_suffix", "");
        for (Iterator<Map.Entry<String, JsonNode>> it = defaults.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (!instruct.has(entry.getKey())) {
                instruct.set(entry.getKey(), entry.getValue());
            }
        }
        instruct.remove("system_sequence_prefix");
        instruct.remove("system_sequence_suffix");
    }

    // ST: public/scripts/power-user.js, loadContextSettings (autoFixStoryString, the controls' defaults and the
    // position select read back as a number)
    private static void loadContext(ObjectNode context) {
        if (!context.has("story_string_position")) {
            String storyString = Js.truthy(context.get("story_string")) ? Js.string(context.get("story_string")) : "";
            storyString = autoFixField(storyString, "anchorBefore", true);
            storyString = autoFixField(storyString, "anchorAfter", false);
            context.put("story_string", storyString);
        }
        putIfUndefined(context, "use_stop_strings", false);
        putIfUndefined(context, "names_as_stop_strings", true);
        putIfUndefined(context, "story_string_position", 0);
        putIfUndefined(context, "story_string_depth", 1);
        putIfUndefined(context, "story_string_role", 0);
        // a select answers one of its options' values, or null (Number(null) is 0)
        String position = Js.string(context.get("story_string_position"));
        context.put("story_string_position", position.equals("1") ? 1 : 0);
    }

    private static void putIfUndefined(ObjectNode node, String key, Object value) {
        if (!node.has(key)) {
            node.set(key, JsJson.tree(value));
        }
    }

    private static String autoFixField(String storyString, String field, boolean atStart) {
        if (storyString.contains("{{" + field + "}}")) {
            return storyString;
        }
        String template = "{{#if " + field + "}}{{" + field + "}}\n{{/if}}";
        if (atStart) {
            int first = storyString.contains("{{") ? storyString.indexOf("{{") : 0;
            return storyString.substring(0, first) + template + storyString.substring(first);
        }
        int lastCurly = storyString.contains("}}") ? storyString.lastIndexOf("}}") + 2 : storyString.length();
        int lastTrim = storyString.contains("{{trim}}") ? storyString.lastIndexOf("{{trim}}") : storyString.length();
        int end = Math.min(lastTrim, lastCurly);
        return storyString.substring(0, end) + template + storyString.substring(end);
    }

    boolean instructEnabled() {
        return Js.truthy(instruct.get("enabled"));
    }

    /** A power-user flag, with ST's default where settings.json has none. */
    boolean flag(String key, boolean fallback) {
        JsonNode value = powerUser.get(key);
        return value == null ? fallback : Js.truthy(value);
    }

    /** A power-user value, or null where settings.json has none (ST's default is the caller's). */
    JsonNode value(String key) {
        return powerUser.get(key);
    }

    int tokenizer() {
        JsonNode value = Js.number(powerUser.get("tokenizer"));
        return value == null ? BEST_MATCH : value.intValue();
    }

    int tokenPadding() {
        JsonNode value = Js.number(powerUser.get("token_padding"));
        return value == null ? 64 : value.intValue();
    }

    /** {@code power_user[key]} as a string, {@code ""} when unset. */
    String text(String key, String fallback) {
        JsonNode value = powerUser.get(key);
        return value == null || value.isNull() ? fallback : Js.string(value);
    }

    String instructText(String key) {
        return Js.truthy(instruct.get(key)) ? Js.string(instruct.get(key)) : "";
    }

    boolean instructFlag(String key) {
        return Js.truthy(instruct.get(key));
    }

    String contextText(String key) {
        return Js.truthy(context.get(key)) ? Js.string(context.get(key)) : "";
    }

    boolean contextFlag(String key) {
        return Js.truthy(context.get(key));
    }

    int contextNumber(String key, int fallback) {
        JsonNode value = Js.number(context.get(key));
        return value == null ? fallback : value.intValue();
    }
}
