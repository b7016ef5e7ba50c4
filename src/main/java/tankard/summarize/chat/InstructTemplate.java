package tankard.summarize.chat;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.Js;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An instruct template (a file of the user's {@code instruct/} folder) applied as ST's browser applies it to a
 * quiet raw generation (ST: public/script.js, createRawPrompt): the instruction as a system turn, the text as a user
 * turn, then the final line the model answers after; and the stop strings the template implies.
 */
final class InstructTemplate {
    private static final Pattern NAME = Pattern.compile("\\{\\{name}}", Pattern.CASE_INSENSITIVE);
    private static final Pattern USER = Pattern.compile("\\{\\{user}}", Pattern.CASE_INSENSITIVE);
    private static final Pattern CHAR = Pattern.compile("\\{\\{char}}", Pattern.CASE_INSENSITIVE);

    private final JsonNode template;
    private final String userName;
    private final String charName;

    /** @param userName, charName the chat's names, for {@code {{name}}}, {@code {{user}}} and {@code {{char}}} */
    InstructTemplate(JsonNode template, String userName, String charName) {
        this.template = template;
        this.userName = userName;
        this.charName = charName;
    }

    private String field(String name) {
        JsonNode value = template.get(name);
        return value != null && value.isTextual() ? value.textValue() : "";
    }

    private boolean flag(String name, boolean missing) {
        JsonNode value = template.get(name);
        return value == null || value.isNull() ? missing : Js.truthy(value);
    }

    private boolean wrap() {
        return flag("wrap", false);
    }

    /** The whole prompt: system turn, user turn, and the line the answer follows. */
    String prompt(String instruction, String text) {
        boolean systemAsUser = flag("system_same_as_user", false);
        String system = turn(field(systemAsUser ? "input_sequence" : "system_sequence"),
                instruction, field(systemAsUser ? "input_suffix" : "system_suffix"), "System");
        String user = turn(field("input_sequence"), text, field("input_suffix"), userName);
        return system + user + answerLine();
    }

    /** ST's formatInstructModeChat without names: {@code [prefix, text + suffix]} joined by the separator. */
    private String turn(String prefix, String text, String suffix, String name) {
        prefix = macros(prefix, name);
        suffix = macros(suffix, name);
        if (suffix.isEmpty() && wrap()) {
            suffix = "\n";
        }
        List<String> parts = new ArrayList<>();
        if (!prefix.isEmpty()) {
            parts.add(prefix);
        }
        if (!(text + suffix).isEmpty()) {
            parts.add(text + suffix);
        }
        return String.join(wrap() ? "\n" : "", parts);
    }

    /** ST's quiet prompt line: {@code last_system_sequence || output_sequence}, then the separator. */
    private String answerLine() {
        String sequence = field("last_system_sequence");
        if (sequence.isEmpty()) {
            sequence = field("output_sequence");
        }
        sequence = macros(sequence, "System");
        return wrap() ? sequence.stripTrailing() + "\n" : sequence;
    }

    private String macros(String sequence, String name) {
        if (!flag("macro", false)) {
            return sequence;
        }
        sequence = USER.matcher(sequence).replaceAll(Matcher.quoteReplacement(userName));
        sequence = CHAR.matcher(sequence).replaceAll(Matcher.quoteReplacement(charName));
        return NAME.matcher(sequence).replaceAll(Matcher.quoteReplacement(name));
    }

    /** ST's getInstructStoppingSequences: the stop sequence, and the turn sequences unless turned off, line by line. */
    List<String> stopStrings() {
        List<String> combined = new ArrayList<>(List.of(field("stop_sequence")));
        if (flag("sequences_as_stop_strings", true)) {
            combined.add(named("input_sequence", userName));
            combined.add(named("output_sequence", charName));
            combined.add(named("first_output_sequence", charName));
            combined.add(named("last_output_sequence", charName));
            combined.add(named("system_sequence", "System"));
            combined.add(named("last_system_sequence", "System"));
        }
        Set<String> lines = new LinkedHashSet<>(List.of(String.join("\n", combined).split("\n", -1)));
        List<String> stops = new ArrayList<>();
        for (String line : lines) {
            if (!line.isBlank()) {
                stops.add(macros(wrap() ? "\n" + line : line, "System"));
            }
        }
        return stops;
    }

    private String named(String field, String name) {
        return NAME.matcher(field(field)).replaceAll(Matcher.quoteReplacement(name));
    }
}
