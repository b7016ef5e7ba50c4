package tankard.engine.macro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.StringHash;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * substituteParams when {@code power_user.experimental_macro_engine} is off (ST: public/script.js
 * substituteParamsLegacy, public/scripts/macros.js evaluateMacros): a fixed sequence of regular expression
 * replacements. Out of scope as in the new engine, and left as written: {{roll}}, {{banned}}, {{random}},
 * {{firstDisplayedMessageId}}.
 */
final class LegacyMacros {
    private static final String COMMA_PLACEHOLDER = "##\uFFFDCOMMA\uFFFD##";

    private record Replacement(Pattern pattern, Function<MatchResult, String> value) {
    }

    private final Macros macros;
    private final MacroVariables variables;

    LegacyMacros(Macros macros, MacroVariables variables) {
        this.macros = macros;
        this.variables = variables;
    }

    private static Pattern regex(String regex) {
        return Pattern.compile(regex, Pattern.CASE_INSENSITIVE);
    }

    private MacroEnv env() {
        return macros.env();
    }

    String substitute(String content, Macros.Options options) {
        String user = options.name1Override() != null ? options.name1Override() : text(env().name1());
        String character = options.name2Override() != null ? options.name2Override() : text(env().name2());
        Map<String, Supplier<String>> environment = environment(options, user, character);
        List<Replacement> replacements = new ArrayList<>();
        preEnvironmentMacros(replacements, environment);
        environment.forEach((name, value) -> replacements.add(new Replacement(
                regex("\\{\\{" + Pattern.quote(name) + "}}"), match -> value.get())));
        postEnvironmentMacros(replacements);
        String pickSeed = BuiltinMacros.chatIdHash(env(), true) + "-" + StringHash.of(content) + "-";
        replacements.add(new Replacement(regex("\\{\\{pick\\s?::?([^}]+)}}"), match -> pick(match, pickSeed)));
        for (Replacement replacement : replacements) {
            if (content.isEmpty()) {
                break;
            }
            if (!replacement.pattern().pattern().startsWith("<") && !content.contains("{{")) {
                break;
            }
            content = replacement.pattern().matcher(content)
                    .replaceAll(match -> Matcher.quoteReplacement(replacement.value().apply(match)));
        }
        return content;
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    /** substituteParamsLegacy's environment, in its order: later entries replace inside earlier values. */
    private Map<String, Supplier<String>> environment(Macros.Options options, String user, String character) {
        Map<String, Supplier<String>> environment = new LinkedHashMap<>();
        if (options.original() != null) {
            boolean[] taken = new boolean[1];
            environment.put("original", () -> {
                if (taken[0]) {
                    return "";
                }
                taken[0] = true;
                return options.original();
            });
        }
        if (options.replaceCharacterCard()) {
            MacroEnv.CardFields card = card();
            environment.put("charPrompt", () -> text(card.system()));
            environment.put("charInstruction", () -> text(card.jailbreak()));
            environment.put("charJailbreak", () -> text(card.jailbreak()));
            environment.put("description", () -> text(card.description()));
            environment.put("personality", () -> text(card.personality()));
            environment.put("scenario", () -> text(card.scenario()));
            environment.put("persona", () -> text(card.persona()));
            environment.put("mesExamples", () -> BuiltinMacros.formatMesExamples(macros, text(card.mesExamples()),
                    text(env().name1()), text(env().name2())));
            environment.put("mesExamplesRaw", () -> text(card.mesExamples()));
            environment.put("charVersion", () -> text(card.version()));
            environment.put("char_version", () -> text(card.version()));
            environment.put("charDepthPrompt", () -> text(card.charDepthPrompt()));
            environment.put("creatorNotes", () -> text(card.creatorNotes()));
        }
        String group = groupValue(options, character, true);
        environment.put("user", () -> user);
        environment.put("char", () -> character);
        environment.put("group", () -> group);
        environment.put("charIfNotGroup", () -> group);
        String groupNotMuted = groupValue(options, character, false);
        environment.put("groupNotMuted", () -> groupNotMuted);
        environment.put("notChar", () -> notChar(user, character));
        environment.put("model", () -> text(env().model()));
        options.dynamicMacros().forEach((name, value) -> environment.put(name, () -> value));
        // MacrosParser.populateEnv: the macros ST's modules register in the legacy parser.
        environment.put("isMobile", () -> "false");
        environment.put("lastGenerationType", () -> text(env().generationType()));
        environment.put("authorsNote", () -> BuiltinMacros.authorsNote(env()));
        environment.put("charAuthorsNote", () -> BuiltinMacros.characterAuthorsNote(env()));
        environment.put("defaultAuthorsNote", () -> MacroVariables.normalize(
                Js.get(env().settings(), "extension_settings.note.default")));
        if (BuiltinMacros.memoryEnabled(env())) {
            environment.put("summary", () -> BuiltinMacros.latestMemory(env()));
        }
        return environment;
    }

    private MacroEnv.CardFields card() {
        return env().card() == null ? MacroEnv.CardFields.EMPTY : env().card();
    }

    private String groupValue(Macros.Options options, String character, boolean includeMuted) {
        if (options.groupOverride() != null) {
            return options.groupOverride();
        }
        if (env().groupMembers() == null) {
            return character;
        }
        return env().groupMembers().stream().filter(member -> includeMuted || !member.muted())
                .map(MacroEnv.GroupMember::name).filter(name -> !name.isEmpty()).collect(Collectors.joining(", "));
    }

    private String notChar(String user, String character) {
        if (env().groupMembers() == null) {
            return user;
        }
        List<String> others = new ArrayList<>();
        env().groupMembers().stream().map(MacroEnv.GroupMember::name)
                .filter(name -> !name.isEmpty() && !name.equals(character)).forEach(others::add);
        others.add(user);
        return String.join(", ", others);
    }

    private JsonNode setting(String path) {
        return Js.get(env().settings(), path);
    }

    /** A value as String.replace prints what a replacer returns: undefined prints as "undefined". */
    private static String replaced(JsonNode value) {
        return value == null ? "undefined" : Js.string(value);
    }

    private void preEnvironmentMacros(List<Replacement> replacements, Map<String, Supplier<String>> environment) {
        replacements.add(new Replacement(regex("<USER>"), match -> environment.get("user").get()));
        replacements.add(new Replacement(regex("<BOT>"), match -> environment.get("char").get()));
        replacements.add(new Replacement(regex("<CHAR>"), match -> environment.get("char").get()));
        replacements.add(new Replacement(regex("<CHARIFNOTGROUP>"), match -> environment.get("group").get()));
        replacements.add(new Replacement(regex("<GROUP>"), match -> environment.get("group").get()));
        instructMacros(replacements);
        variableMacros(replacements);
        replacements.add(new Replacement(regex("\\{\\{newline}}"), match -> "\n"));
        replacements.add(new Replacement(regex("(?:\\r?\\n)*\\{\\{trim}}(?:\\r?\\n)*"), match -> ""));
        replacements.add(new Replacement(regex("\\{\\{noop}}"), match -> ""));
        replacements.add(new Replacement(regex("\\{\\{input}}"), match -> text(env().input())));
    }

    /** instruct-mode.js getInstructMacros. */
    private void instructMacros(List<Replacement> replacements) {
        boolean instruct = Js.truthy(setting("power_user.instruct.enabled"));
        boolean sysprompt = Js.truthy(setting("power_user.sysprompt.enabled"));
        String sequence = "power_user.instruct.";
        instructMacro(replacements, "instructStoryStringPrefix", instruct, setting(sequence + "story_string_prefix"));
        instructMacro(replacements, "instructStoryStringSuffix", instruct, setting(sequence + "story_string_suffix"));
        instructMacro(replacements, "instructInput|instructUserPrefix", instruct, setting(sequence + "input_sequence"));
        instructMacro(replacements, "instructUserSuffix", instruct, setting(sequence + "input_suffix"));
        instructMacro(replacements, "instructOutput|instructAssistantPrefix", instruct,
                setting(sequence + "output_sequence"));
        instructMacro(replacements, "instructSeparator|instructAssistantSuffix", instruct,
                setting(sequence + "output_suffix"));
        instructMacro(replacements, "instructSystemPrefix", instruct, setting(sequence + "system_sequence"));
        instructMacro(replacements, "instructSystemSuffix", instruct, setting(sequence + "system_suffix"));
        instructMacro(replacements, "instructFirstOutput|instructFirstAssistantPrefix", instruct,
                Js.or(setting(sequence + "first_output_sequence"), setting(sequence + "output_sequence")));
        instructMacro(replacements, "instructLastOutput|instructLastAssistantPrefix", instruct,
                Js.or(setting(sequence + "last_output_sequence"), setting(sequence + "output_sequence")));
        instructMacro(replacements, "instructStop", instruct, setting(sequence + "stop_sequence"));
        instructMacro(replacements, "instructUserFiller", instruct, setting(sequence + "user_alignment_message"));
        instructMacro(replacements, "instructSystemInstructionPrefix", instruct,
                setting(sequence + "last_system_sequence"));
        instructMacro(replacements, "instructFirstInput|instructFirstUserPrefix", instruct,
                Js.or(setting(sequence + "first_input_sequence"), setting(sequence + "input_sequence")));
        instructMacro(replacements, "instructLastInput|instructLastUserPrefix", instruct,
                Js.or(setting(sequence + "last_input_sequence"), setting(sequence + "input_sequence")));
        String characterPrompt = card().system();
        JsonNode systemPrompt = Js.truthy(setting("power_user.prefer_character_prompt")) && characterPrompt != null
                && !characterPrompt.isEmpty() ? TextNode.valueOf(characterPrompt)
                : setting("power_user.sysprompt.content");
        instructMacro(replacements, "systemPrompt", sysprompt, systemPrompt);
        instructMacro(replacements, "defaultSystemPrompt|instructSystem|instructSystemPrompt", sysprompt,
                setting("power_user.sysprompt.content"));
        instructMacro(replacements, "chatSeparator", true, setting("power_user.context.example_separator"));
        instructMacro(replacements, "chatStart", true, setting("power_user.context.chat_start"));
    }

    private static void instructMacro(List<Replacement> replacements, String names, boolean enabled,
                                      JsonNode value) {
        replacements.add(new Replacement(regex("\\{\\{(" + names + ")}}"),
                match -> enabled ? replaced(value) : ""));
    }

    /** variables.js getVariableMacros. */
    private void variableMacros(List<Replacement> replacements) {
        MacroVariables.Scope local = variables.local;
        MacroVariables.Scope global = variables.global;
        for (String infix : List.of("", "global")) {
            MacroVariables.Scope scope = infix.isEmpty() ? local : global;
            replacements.add(new Replacement(regex("\\{\\{set" + infix + "var::([^:]+)::([^}]*)}}"), match -> {
                scope.set(Js.trim(match.group(1)), TextNode.valueOf(match.group(2)));
                return "";
            }));
            replacements.add(new Replacement(regex("\\{\\{add" + infix + "var::([^:]+)::([^}]+)}}"), match -> {
                scope.add(Js.trim(match.group(1)), TextNode.valueOf(match.group(2)));
                return "";
            }));
            replacements.add(new Replacement(regex("\\{\\{inc" + infix + "var::([^}]+)}}"),
                    match -> Js.string(scope.add(Js.trim(match.group(1)), DoubleNode.valueOf(1)))));
            replacements.add(new Replacement(regex("\\{\\{dec" + infix + "var::([^}]+)}}"),
                    match -> Js.string(scope.add(Js.trim(match.group(1)), DoubleNode.valueOf(-1)))));
            replacements.add(new Replacement(regex("\\{\\{get" + infix + "var::([^}]+)}}"),
                    match -> Js.string(scope.get(Js.trim(match.group(1))))));
        }
    }

    private void postEnvironmentMacros(List<Replacement> replacements) {
        String maxPrompt = String.valueOf(env().maxContext() - env().maxResponse());
        replacements.add(new Replacement(regex("\\{\\{maxPrompt}}"), match -> maxPrompt));
        replacements.add(new Replacement(regex("\\{\\{maxPromptTokens}}"), match -> maxPrompt));
        replacements.add(new Replacement(regex("\\{\\{maxContext}}"), match -> String.valueOf(env().maxContext())));
        replacements.add(new Replacement(regex("\\{\\{maxContextTokens}}"),
                match -> String.valueOf(env().maxContext())));
        replacements.add(new Replacement(regex("\\{\\{maxResponse}}"), match -> String.valueOf(env().maxResponse())));
        replacements.add(new Replacement(regex("\\{\\{maxResponseTokens}}"),
                match -> String.valueOf(env().maxResponse())));
        replacements.add(new Replacement(regex("\\{\\{lastMessage}}"), match -> lastMessageText(message -> true)));
        replacements.add(new Replacement(regex("\\{\\{lastMessageId}}"), match -> {
            int id = lastMessageId(true, message -> true);
            return id < 0 ? "" : String.valueOf(id);
        }));
        replacements.add(new Replacement(regex("\\{\\{lastUserMessage}}"), match -> lastMessageText(
                message -> Js.truthy(message.get("is_user")) && !Js.truthy(message.get("is_system")))));
        replacements.add(new Replacement(regex("\\{\\{lastCharMessage}}"), match -> lastMessageText(
                message -> !Js.truthy(message.get("is_user")) && !Js.truthy(message.get("is_system")))));
        replacements.add(new Replacement(regex("\\{\\{firstIncludedMessageId}}"), match -> {
            JsonNode value = Js.get(env().chatMetadata(), "lastInContextMessageId");
            return value == null || value.isNull() ? "" : Js.string(value);
        }));
        replacements.add(new Replacement(regex("\\{\\{lastSwipeId}}"), match -> {
            JsonNode swipes = lastMessageField("swipes");
            return swipes != null && swipes.isArray() ? String.valueOf(swipes.size()) : "";
        }));
        replacements.add(new Replacement(regex("\\{\\{currentSwipeId}}"), match -> {
            JsonNode swipeId = lastMessageField("swipe_id");
            if (swipeId != null && swipeId.isNull()) {
                return "";
            }
            // undefined + 1 is NaN, which prints
            return swipeId != null && swipeId.isNumber() ? JsJson.jsNumber(swipeId.asDouble() + 1) : "NaN";
        }));
        replacements.add(new Replacement(regex("\\{\\{allChatRange}}"),
                match -> chatSize() == 0 ? "" : "0-" + (chatSize() - 1)));
        replacements.add(new Replacement(regex("\\{\\{reverse:(.+?)}}"),
                match -> new StringBuilder(match.group(1)).reverse().toString()));
        replacements.add(new Replacement(Pattern.compile("\\{\\{//([\\s\\S]*?)}}", Pattern.MULTILINE), match -> ""));
        ZonedDateTime now = env().now();
        replacements.add(new Replacement(regex("\\{\\{time}}"), match -> Moment.format(now, "LT")));
        replacements.add(new Replacement(regex("\\{\\{date}}"), match -> Moment.format(now, "LL")));
        replacements.add(new Replacement(regex("\\{\\{weekday}}"), match -> Moment.format(now, "dddd")));
        replacements.add(new Replacement(regex("\\{\\{isotime}}"), match -> Moment.format(now, "HH:mm")));
        replacements.add(new Replacement(regex("\\{\\{isodate}}"), match -> Moment.format(now, "YYYY-MM-DD")));
        replacements.add(new Replacement(regex("\\{\\{datetimeformat +([^}]*)}}"),
                match -> Moment.format(now, match.group(1).isEmpty() ? "YYYY-MM-DDTHH:mm:ssZ" : match.group(1))));
        replacements.add(new Replacement(regex("\\{\\{idle_duration}}"),
                match -> BuiltinMacros.idleDuration(env())));
        replacements.add(new Replacement(regex("\\{\\{time_UTC([-+]\\d+)}}"), match -> {
            int offset = Integer.parseInt(match.group(1).replace("+", ""));
            int minutes = Math.abs(offset) < 16 ? offset * 60 : offset;
            return Moment.format(now.withZoneSameInstant(ZoneOffset.ofTotalSeconds(minutes * 60)), "LT");
        }));
        replacements.add(new Replacement(regex("\\{\\{outlet::(.+?)}}"),
                match -> BuiltinMacros.outlet(env(), Js.trim(match.group(1)))));
        replacements.add(new Replacement(regex("\\{\\{timeDiff::(.*?)::(.*?)}}"),
                match -> BuiltinMacros.timeDiff(env(), match.group(1), match.group(2))));
    }

    /** getPickReplaceMacro: seeded by the chat, the text the substitution started from, and the match's offset. */
    private static String pick(MatchResult match, String seed) {
        String listText = match.group(1);
        List<String> list = new ArrayList<>();
        if (listText.contains("::")) {
            list.addAll(List.of(listText.split("::", -1)));
        } else {
            for (String item : listText.replace("\\,", COMMA_PLACEHOLDER).split(",", -1)) {
                list.add(Js.trim(item).replace(COMMA_PLACEHOLDER, ","));
            }
        }
        long finalSeed = StringHash.of(seed + match.start());
        // seedrandom flattens a number seed to its text and a NUL
        double random = new SeededRandom(finalSeed + "\0").nextDouble();
        return list.get((int) Math.floor(random * list.size()));
    }

    private int chatSize() {
        return env().chat() == null ? 0 : env().chat().size();
    }

    private int lastMessageId(boolean excludeSwipeInProgress, Predicate<JsonNode> filter) {
        return BuiltinMacros.lastMessageId(env(), excludeSwipeInProgress, filter);
    }

    private String lastMessageText(Predicate<JsonNode> filter) {
        int id = lastMessageId(true, filter);
        JsonNode mes = id < 0 ? null : env().chat().get(id).get("mes");
        return mes == null || mes.isNull() ? "" : Js.string(mes);
    }

    private JsonNode lastMessageField(String field) {
        int id = lastMessageId(false, message -> true);
        return id < 0 ? null : env().chat().get(id).get(field);
    }
}
