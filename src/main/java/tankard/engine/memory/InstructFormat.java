package tankard.engine.memory;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.engine.macro.Macros;
import tankard.json.Js;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The few pieces of ST's instruct formatting (public/scripts/instruct-mode.js) a summary request needs: a turn
 * without names, the story string wrapping and the quiet answer line. Reads {@code power_user.instruct} as
 * settings.json holds it (ST assigns the saved object over its defaults whole, so a missing field is unset).
 */
final class InstructFormat {
    private static final Pattern NAME = Pattern.compile("\\{\\{name}}", Pattern.CASE_INSENSITIVE);

    private final JsonNode instruct;
    private final JsonNode context;
    private final Macros macros;
    private final String name1;
    private final String name2;

    InstructFormat(JsonNode powerUser, Macros macros) {
        this.instruct = powerUser.path("instruct");
        this.context = powerUser.path("context");
        this.macros = macros;
        this.name1 = macros.env().name1();
        this.name2 = macros.env().name2();
    }

    boolean enabled() {
        return Js.truthy(instruct.get("enabled"));
    }

    boolean wrap() {
        return Js.truthy(instruct.get("wrap"));
    }

    private String separator() {
        return wrap() ? "\n" : "";
    }

    private String field(String name) {
        JsonNode value = instruct.get(name);
        return Js.truthy(value) ? Js.string(value) : "";
    }

    /** A sequence with the instruct macros: substituteParams with the names, then {@code {{name}}}. */
    private String sequence(String value, String name) {
        if (!Js.truthy(instruct.get("macro"))) {
            return value;
        }
        String substituted = macros.substitute(value, Macros.Options.names(name1, name2));
        return NAME.matcher(substituted).replaceAll(Matcher.quoteReplacement(name.isEmpty() ? "System" : name));
    }

    /**
     * ST: formatInstructModeChat for the user's turn (input sequence; the name shown when names_behavior is
     * "always") or a system turn (system sequence, or the user's when {@code system_same_as_user}; no name).
     */
    String turn(String name, String text, Role role) {
        boolean asUser = role == Role.USER || Js.truthy(instruct.get("system_same_as_user"));
        String prefix = sequence(asUser ? field("input_sequence") : field("system_sequence"), name);
        String suffix = sequence(asUser ? field("input_suffix") : field("system_suffix"), name);
        if (suffix.isEmpty() && wrap()) {
            suffix = "\n";
        }
        boolean showName = role == Role.USER && "always".equals(field("names_behavior")) && !name.isEmpty();
        String body = (showName ? name + ": " + text : text) + suffix;
        if (prefix.isEmpty()) {
            return body;
        }
        return body.isEmpty() ? prefix : prefix + separator() + body;
    }

    /** ST: formatInstructModeChat's suffix of the character's turn: what closes it. */
    String characterTurnEnd() {
        String suffix = sequence(field("output_suffix"), name2);
        return suffix.isEmpty() && wrap() ? "\n" : suffix;
    }

    /** ST: formatInstructModeStoryString: the story string prefix and suffix, unless the story string is in chat. */
    String storyString(String text) {
        if (text.isEmpty()) {
            return "";
        }
        JsonNode position = context.get("story_string_position");
        boolean applySequences = position == null || position.isNull() || !(position.isNumber() && position.asInt() == 1);
        String prefix = field("story_string_prefix");
        if (applySequences && !prefix.isEmpty()) {
            text = NAME.matcher(macros.substitute(prefix)).replaceAll("System") + separator() + text;
        }
        String suffix = field("story_string_suffix");
        if (applySequences && !suffix.isEmpty()) {
            text = text + macros.substitute(suffix);
        }
        return text;
    }

    boolean hasStoryStringSuffix() {
        return !field("story_string_suffix").isEmpty();
    }

    /**
     * ST: formatInstructModePrompt for a quiet (not quiet-to-loud) prompt without bias: the last system sequence,
     * else the output sequence, on its own line.
     */
    String quietAnswerLine(String name) {
        String line = field("last_system_sequence");
        if (line.isEmpty()) {
            line = field("output_sequence");
        }
        line = sequence(line, name);
        return (wrap() ? Js.trimEnd(line) : line) + separator();
    }

    enum Role { USER, SYSTEM }
}
