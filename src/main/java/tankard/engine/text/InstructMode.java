package tankard.engine.text;

import tankard.engine.macro.Macros;
import tankard.engine.prompt.ExampleDialogue;
import tankard.json.Js;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * ST's instruct mode formatting (public/scripts/instruct-mode.js) for one prompt: the template's sequences around
 * messages, examples, the story string and the answer line, and the stop strings they make.
 */
final class InstructMode {
    /** ST's {@code force_output_sequence}: none, the first or the last sequences. */
    enum Force { NONE, FIRST, LAST }

    private static final Pattern NAME_MACRO = Pattern.compile("\\{\\{name}}", Pattern.CASE_INSENSITIVE);
    private static final Pattern START = Pattern.compile("<START>", Pattern.CASE_INSENSITIVE);
    private static final Pattern START_LINE = Pattern.compile("<START>\n", Pattern.CASE_INSENSITIVE);

    private final TextSettings settings;
    private final Macros macros;
    private final String name1;
    private final String name2;
    private final boolean inGroup;
    /** getGroupNames: the group members' names, in the group's order. */
    private final List<String> groupNames;

    InstructMode(TextSettings settings, Macros macros, String name1, String name2, boolean inGroup,
                 List<String> groupNames) {
        this.settings = settings;
        this.macros = macros;
        this.name1 = name1;
        this.name2 = name2;
        this.inGroup = inGroup;
        this.groupNames = groupNames;
    }

    private String seq(String key) {
        return settings.instructText(key);
    }

    private boolean wrap() {
        return settings.instructFlag("wrap");
    }

    private boolean macro() {
        return settings.instructFlag("macro");
    }

    private String namesBehavior() {
        return Js.string(settings.instruct.get("names_behavior"));
    }

    private String separator() {
        return wrap() ? "\n" : "";
    }

    static String replaceName(String text, String name) {
        return NAME_MACRO.matcher(text).replaceAll(Matcher.quoteReplacement(name));
    }

    /** ST: formatInstructModeChat. {@code name} may be null (a message without a name). */
    String formatChat(String name, String mes, boolean isUser, boolean isNarrator, boolean forceAvatar, Force force) {
        boolean includeNames = !isNarrator && namesBehavior().equals("always");
        boolean notUser = !Objects.equals(name, name1);
        if (!isNarrator && namesBehavior().equals("force") && (inGroup && notUser || forceAvatar && notUser)) {
            includeNames = true;
        }
        String prefix;
        String suffix;
        boolean sameAsUser = settings.instructFlag("system_same_as_user");
        if (isNarrator) {
            prefix = sameAsUser ? seq("input_sequence") : seq("system_sequence");
            suffix = sameAsUser ? seq("input_suffix") : seq("system_suffix");
        } else if (isUser) {
            prefix = force == Force.FIRST ? or(seq("first_input_sequence"), seq("input_sequence"))
                    : force == Force.LAST ? or(seq("last_input_sequence"), seq("input_sequence"))
                    : seq("input_sequence");
            suffix = seq("input_suffix");
        } else {
            prefix = force == Force.FIRST ? or(seq("first_output_sequence"), seq("output_sequence"))
                    : force == Force.LAST ? or(seq("last_output_sequence"), seq("output_sequence"))
                    : seq("output_sequence");
            suffix = seq("output_suffix");
        }
        String shownName = name == null || name.isEmpty() ? "System" : name;
        if (macro()) {
            prefix = replaceName(macros.substitute(prefix, Macros.Options.names(name1, name2)), shownName);
            suffix = replaceName(macros.substitute(suffix, Macros.Options.names(name1, name2)), shownName);
        }
        if (suffix.isEmpty() && wrap()) {
            suffix = "\n";
        }
        String body = includeNames && name != null && !name.isEmpty() ? name + ": " + mes + suffix : mes + suffix;
        return joinNonEmpty(separator(), prefix, body);
    }

    /** ST: formatInstructModeStoryString. */
    String formatStoryString(String storyString) {
        if (storyString.isEmpty()) {
            return "";
        }
        boolean applySequences = settings.contextNumber("story_string_position", 0) != 1;
        String prefix = seq("story_string_prefix");
        if (applySequences && !prefix.isEmpty()) {
            storyString = replaceName(macros.substitute(prefix), "System") + separator() + storyString;
        }
        String suffix = seq("story_string_suffix");
        if (applySequences && !suffix.isEmpty()) {
            storyString = storyString + macros.substitute(suffix);
        }
        return storyString;
    }

    /** ST: formatInstructModeExamples. */
    List<String> formatExamples(List<String> examples) {
        String exampleSeparator = settings.contextText("example_separator");
        String blockHeading = exampleSeparator.isEmpty() ? "" : macros.substitute(exampleSeparator) + "\n";
        if (settings.instructFlag("skip_examples")) {
            return examples.stream().map(x -> replaceFirst(START_LINE, x, blockHeading)).toList();
        }
        boolean includeNames = namesBehavior().equals("always");
        boolean includeGroupNames = inGroup && (namesBehavior().equals("always") || namesBehavior().equals("force"));
        String inputPrefix = seq("input_sequence");
        String outputPrefix = seq("output_sequence");
        String inputSuffix = seq("input_suffix");
        String outputSuffix = seq("output_suffix");
        if (macro()) {
            Macros.Options names = Macros.Options.names(name1, name2);
            inputPrefix = replaceName(macros.substitute(inputPrefix, names), name1);
            outputPrefix = replaceName(macros.substitute(outputPrefix, names), name2);
            inputSuffix = replaceName(macros.substitute(inputSuffix, names), name1);
            outputSuffix = replaceName(macros.substitute(outputSuffix, names), name2);
            if (inputSuffix.isEmpty() && wrap()) {
                inputSuffix = "\n";
            }
            if (outputSuffix.isEmpty() && wrap()) {
                outputSuffix = "\n";
            }
        }
        List<String> formatted = new ArrayList<>();
        for (String item : examples) {
            String cleaned = replaceFirst(START, item, "{Example Dialogue:}").replace("\r", "");
            List<ExampleDialogue.Message> block = ExampleDialogue.parse(cleaned, name1, name2,
                    inGroup ? groupNames : List.of(), includeGroupNames && inGroup);
            if (block.isEmpty()) {
                continue;
            }
            if (!blockHeading.isEmpty()) {
                formatted.add(blockHeading);
            }
            for (ExampleDialogue.Message example : block) {
                boolean isUser = example.fromUser();
                boolean includeThisName = !includeGroupNames
                        && (includeNames || namesBehavior().equals("force") && isUser);
                String prefix = isUser ? inputPrefix : outputPrefix;
                String suffix = isUser ? inputSuffix : outputSuffix;
                String name = isUser ? name1 : name2;
                String content = includeThisName ? name + ": " + example.content() : example.content();
                formatted.add(joinNonEmpty(separator(), prefix, content + suffix));
            }
        }
        if (formatted.isEmpty()) {
            return examples.stream().map(x -> replaceFirst(START_LINE, x, blockHeading)).toList();
        }
        return formatted;
    }

    /** ST: formatInstructModePrompt, for the answer line of a normal or impersonated generation. */
    String formatPrompt(String name, boolean isImpersonate, String promptBias) {
        String behavior = namesBehavior();
        boolean includeNames = name != null && !name.isEmpty()
                && (behavior.equals("always") || inGroup && behavior.equals("force"));
        String sequence = isImpersonate ? or(seq("last_input_sequence"), seq("input_sequence"))
                : or(seq("last_output_sequence"), seq("output_sequence"));
        String nameFiller = "";
        String output = seq("output_sequence");
        String lastOutput = seq("last_output_sequence");
        if (includeNames && !lastOutput.isEmpty() && !output.isEmpty() && sequence.equals(lastOutput)
                && Js.isWhitespace(output.charAt(output.length() - 1))
                && !Js.isWhitespace(lastOutput.charAt(lastOutput.length() - 1))) {
            nameFiller = output.substring(output.length() - 1);
        }
        if (macro()) {
            sequence = replaceName(macros.substitute(sequence, Macros.Options.names(name1, name2)),
                    name == null || name.isEmpty() ? "System" : name);
        }
        String separator = separator();
        String text = includeNames ? separator + sequence + separator + nameFiller + name + ":" : separator + sequence;
        if (!isImpersonate && !promptBias.isEmpty()) {
            text += includeNames ? promptBias : separator + trimStart(promptBias);
        }
        return (wrap() ? Js.trimEnd(text) : text) + (includeNames ? "" : separator);
    }

    /** ST: getInstructStoppingSequences. */
    List<String> stoppingSequences() {
        List<String> result = new ArrayList<>();
        if (settings.instructEnabled()) {
            List<String> combined = new ArrayList<>();
            combined.add(seq("stop_sequence"));
            if (settings.instructFlag("sequences_as_stop_strings")) {
                combined.add(replaceName(seq("input_sequence"), name1));
                combined.add(replaceName(seq("output_sequence"), name2));
                combined.add(replaceName(seq("first_output_sequence"), name2));
                combined.add(replaceName(seq("last_output_sequence"), name2));
                combined.add(replaceName(seq("system_sequence"), "System"));
                combined.add(replaceName(seq("last_system_sequence"), "System"));
            }
            LinkedHashSet<String> unique = new LinkedHashSet<>(List.of(String.join("\n", combined).split("\n", -1)));
            for (String sequence : unique) {
                if (!sequence.isEmpty() && !Js.trim(sequence).isEmpty()) {
                    String wrapped = wrap() ? "\n" + sequence : sequence;
                    result.add(macro() ? macros.substitute(wrapped) : wrapped);
                }
            }
        }
        if (settings.contextFlag("use_stop_strings")) {
            String chatStart = settings.contextText("chat_start");
            if (!chatStart.isEmpty()) {
                result.add("\n" + macros.substitute(chatStart));
            }
            String exampleSeparator = settings.contextText("example_separator");
            if (!exampleSeparator.isEmpty()) {
                result.add("\n" + macros.substitute(exampleSeparator));
            }
        }
        return result;
    }

    static String or(String first, String second) {
        return first.isEmpty() ? second : first;
    }

    /** JavaScript's {@code trimStart}. */
    static String trimStart(String text) {
        int from = 0;
        while (from < text.length() && Js.isWhitespace(text.charAt(from))) {
            from++;
        }
        return text.substring(from);
    }

    private static String replaceFirst(Pattern pattern, String text, String replacement) {
        return pattern.matcher(text).replaceFirst(Matcher.quoteReplacement(replacement));
    }

    private static String joinNonEmpty(String separator, String first, String second) {
        List<String> parts = new ArrayList<>();
        if (!first.isEmpty()) {
            parts.add(first);
        }
        if (!second.isEmpty()) {
            parts.add(second);
        }
        return String.join(separator, parts);
    }
}
