package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.prompt.Action;
import tankard.json.Js;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ST's cleanUpMessage (public/script.js) on a reply before it is saved: the prompt bias put back in front, a stop
 * string the reply ends halfway into cut, whitespace before line ends dropped, the names trimmed as the user's
 * name display settings say, instruct sequences that leaked cut. Regex scripts and the Markdown fixer are out of
 * scope (docs/engine.md).
 */
final class ReplyCleaner {
    private ReplyCleaner() {
    }

    /** @param userBias {@code power_user.user_prompt_bias} with its macros substituted */
    static String clean(String text, Action action, ObjectNode powerUser, String name1, String name2,
                        List<String> stoppingStrings, boolean instruct, String userBias) {
        if (text == null || text.isEmpty()) {
            return "";
        }
        boolean impersonate = action == Action.IMPERSONATE;
        boolean continuing = action == Action.CONTINUE;
        if (!impersonate && !continuing && Js.truthy(powerUser.get("user_prompt_bias"))) {
            text = userBias + text;
        }
        for (String stop : stoppingStrings) {
            for (int j = stop.length(); j > 0 && !stop.isEmpty(); j--) {
                if (text.length() >= j && text.substring(text.length() - j).equals(stop.substring(0, j))) {
                    text = text.substring(0, text.length() - j);
                    break;
                }
            }
        }
        if (Js.truthy(powerUser.get("collapse_newlines"))) {
            text = text.replaceAll("\n+", "\n");
        }
        text = Pattern.compile("[^\\S\\r\\n]+$", Pattern.MULTILINE).matcher(text).replaceAll("");
        String wrongName = impersonate ? (Js.truthy(powerUser.get("allow_name2_display")) ? "" : name2)
                : (Js.truthy(powerUser.get("allow_name1_display")) ? "" : name1);
        if (!wrongName.isEmpty()) {
            if (text.startsWith(wrongName + ":")) {
                text = "";
            }
            int at = text.indexOf("\n" + wrongName + ":");
            if (at >= 0) {
                text = text.substring(0, at);
            }
        }
        text = cutAt(text, "<|endoftext|>");
        JsonNode instructSettings = powerUser.path("instruct");
        if (instruct) {
            text = cutAt(text, field(instructSettings, "stop_sequence"));
            if (!Js.trim(field(instructSettings, "input_sequence")).isEmpty()) {
                text = cutAt(text, field(instructSettings, "input_sequence"));
            }
            if (Js.truthy(instructSettings.get("sequences_as_stop_strings"))) {
                List<String> sequences = impersonate ? List.of(field(instructSettings, "input_sequence"))
                        : List.of(field(instructSettings, "output_sequence"), field(instructSettings, "last_output_sequence"));
                for (String sequence : sequences) {
                    for (String line : sequence.split("\n")) {
                        if (!Js.trim(line).isEmpty()) {
                            text = text.replace(line, "");
                        }
                    }
                }
            }
        }
        if (!Js.truthy(powerUser.get("allow_name2_display"))) {
            text = Pattern.compile("(^|\n)" + Pattern.quote(name2) + ":\\s*").matcher(text).replaceAll("$1");
        }
        String trimmedName = impersonate ? (Js.truthy(powerUser.get("allow_name1_display")) ? "" : name1)
                : (Js.truthy(powerUser.get("allow_name2_display")) ? "" : name2);
        if (!trimmedName.isEmpty() && text.startsWith(trimmedName + ":")) {
            text = Js.trimStart(text.replaceFirst(Pattern.quote(trimmedName + ":"), Matcher.quoteReplacement("")));
        }
        if (impersonate || Js.truthy(powerUser.get("trim_spaces"))) {
            text = Js.trim(text);
        }
        return text;
    }

    private static String cutAt(String text, String marker) {
        if (marker.isEmpty()) {
            return text;
        }
        int at = text.indexOf(marker);
        return at < 0 ? text : text.substring(0, at);
    }

    private static String field(JsonNode settings, String name) {
        JsonNode value = settings.get(name);
        return value != null && value.isTextual() ? value.textValue() : "";
    }
}
