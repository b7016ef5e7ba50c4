package tankard.engine.macro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.json.JsNumber;
import tankard.util.StringHash;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The registry of built-in macros (ST: public/scripts/macros/definitions/*.js, plus the prompt macros that
 * authors-note.js and reasoning.js register). Macros that reach outside the prompt's inputs ({{random}},
 * {{roll}}, {{banned}}, {{hasExtension}}, {{firstDisplayedMessageId}}) are registered with their arguments but
 * fail, so the engine leaves them as written. {{summary}} reads the chat's latest summary rather than the
 * Summarize panel's text box, which holds it unless the user edited it.
 */
final class BuiltinMacros {
    private static final Map<String, MacroDefinition> REGISTRY = new HashMap<>();
    private static final Pattern UTC_OFFSET = Pattern.compile("^UTC([+-]\\d+)$");
    private static final Pattern VARIABLE_SHORTHAND = Pattern.compile("^([.$])([a-zA-Z](?:[\\w\\-]*\\w)?)$");
    private static final Pattern LEADING_BANG = Pattern.compile("^\\s*!");
    private static final String COMMA_PLACEHOLDER = "##\uFFFDCOMMA\uFFFD##";
    private static final Pattern LEADING_BANG_SPACE = Pattern.compile("^\\s*!\\s*");

    private BuiltinMacros() {
    }

    /** MacroRegistry.getMacro: by name or alias, case-insensitive; null when unknown. */
    static MacroDefinition lookup(String name) {
        String trimmed = Js.trim(name);
        return trimmed.isEmpty() ? null : REGISTRY.get(trimmed.toLowerCase(Locale.ROOT));
    }

    static boolean isTrueBoolean(String value) {
        return value != null && List.of("on", "true", "1").contains(Js.trim(value).toLowerCase(Locale.ROOT));
    }

    static boolean isFalseBoolean(String value) {
        return value != null && List.of("off", "false", "0").contains(Js.trim(value).toLowerCase(Locale.ROOT));
    }

    /** A macro being registered: its arguments, flags and aliases. */
    private static final class Spec {
        private final String name;
        private final List<String> aliases = new ArrayList<>();
        private int minArgs;
        private List<String> types = List.of();
        private boolean list;
        private boolean strict = true;
        private boolean delayed;

        private Spec(String name) {
            this.name = name;
        }

        Spec alias(String... names) {
            aliases.addAll(Arrays.asList(names));
            return this;
        }

        /** Unnamed arguments: the first {@code required} are required, each with its types. */
        Spec args(int required, String... argTypes) {
            minArgs = required;
            types = List.of(argTypes);
            return this;
        }

        Spec list() {
            list = true;
            return this;
        }

        Spec lenient() {
            strict = false;
            return this;
        }

        Spec delayed() {
            delayed = true;
            return this;
        }

        void handle(MacroDefinition.Handler handler) {
            MacroDefinition definition = new MacroDefinition(name, minArgs, types.size(), list, strict, delayed,
                    types, handler);
            REGISTRY.put(name.toLowerCase(Locale.ROOT), definition);
            aliases.forEach(alias -> REGISTRY.put(alias.toLowerCase(Locale.ROOT), definition));
        }
    }

    private static Spec macro(String name) {
        return new Spec(name);
    }

    static {
        registerCoreMacros();
        registerEnvMacros();
        registerChatMacros();
        registerTimeMacros();
        registerVariableMacros();
        registerInstructMacros();
        registerPromptMacros();
    }

    private static JsonNode setting(MacroCall call, String path) {
        return Js.get(call.scope.env().settings(), path);
    }

    /** A setting printed as the handler's result would be: undefined and null print as "". */
    private static String settingText(MacroCall call, String path) {
        return MacroVariables.normalize(setting(call, path));
    }

    private static String repeat(String unit, String count) {
        double times = count == null ? 1 : JsNumber.parse(count);
        if (times < 0 || Double.isInfinite(times)) {
            throw new MacroFailure("Invalid count value");
        }
        return unit.repeat((int) times);
    }

    // ST: core-macros.js registerCoreMacros
    private static void registerCoreMacros() {
        macro("space").args(0, "integer").handle(call -> repeat(" ", call.arg(0)));
        macro("newline").args(0, "integer").handle(call -> repeat("\n", call.arg(0)));
        macro("noop").handle(call -> "");
        // Unscoped, {{trim}} marks where the post-processor trims the surrounding newlines.
        macro("trim").args(0, "string").handle(call -> call.scoped ? (call.arg(0) == null ? "" : call.arg(0))
                : "{{trim}}");
        macro("if").args(2, "string", "string").delayed().handle(BuiltinMacros::conditional);
        macro("else").handle(call -> MacroEngine.ELSE_MARKER);
        macro("input").handle(call -> call.scope.env().input() == null ? "" : call.scope.env().input());
        macro("maxPrompt").alias("maxPromptTokens").handle(call ->
                String.valueOf(call.scope.env().maxContext() - call.scope.env().maxResponse()));
        macro("maxContext").alias("maxContextTokens").handle(call -> String.valueOf(call.scope.env().maxContext()));
        macro("maxResponse").alias("maxResponseTokens").handle(call ->
                String.valueOf(call.scope.env().maxResponse()));
        macro("reverse").args(1, "string").handle(call -> new StringBuilder(call.arg(0)).reverse().toString());
        macro("//").alias("comment").args(1, "string").list().lenient().handle(call -> "");
        macro("outlet").args(1, "string").handle(call -> outlet(call.scope.env(), call.arg(0)));
        macro("random").list().handle(BuiltinMacros::outOfScope);
        macro("roll").args(1, "string").handle(BuiltinMacros::outOfScope);
        macro("banned").args(1, "string").handle(BuiltinMacros::outOfScope);
        macro("hasExtension").args(1, "string").handle(BuiltinMacros::outOfScope);
        macro("firstDisplayedMessageId").handle(BuiltinMacros::outOfScope);
        macro("pick").list().handle(BuiltinMacros::pick);
    }

    /** A macro whose value lies outside the prompt's inputs: failing leaves it as written. */
    private static String outOfScope(MacroCall call) {
        throw new MacroFailure("out of the server's scope");
    }

    /** {{pick::a::b}}: a choice stable for the chat, the text and the macro's place in it. */
    private static String pick(MacroCall call) {
        List<String> list = call.list.size() == 1 ? readSingleArgsRandomList(call.list.get(0)) : call.list;
        if (list.isEmpty()) {
            return "";
        }
        MacroEnv env = call.scope.env();
        List<String> seed = new ArrayList<>();
        seed.add(chatIdHash(env, false));
        seed.add(String.valueOf(call.scope.contentHash));
        seed.add(String.valueOf(call.globalOffset()));
        JsonNode reroll = Js.get(env.chatMetadata(), "pick_reroll_seed");
        if (Js.truthy(reroll)) {
            seed.add(Js.string(reroll));
        }
        long finalSeed = StringHash.of(String.join("-", seed));
        double random = new SeededRandom(String.valueOf(finalSeed)).nextDouble();
        return list.get((int) Math.floor(random * list.size()));
    }

    /**
     * getChatIdHash: the hash cached in the chat's metadata, else the hash of its main chat's or its own id. The
     * legacy macros recompute a cached 0, the new engine keeps any cached number.
     */
    static String chatIdHash(MacroEnv env, boolean legacy) {
        JsonNode cached = Js.get(env.chatMetadata(), "chat_id_hash");
        if (legacy ? Js.truthy(cached) : cached != null && cached.isNumber()) {
            return Js.string(cached);
        }
        JsonNode mainChat = Js.get(env.chatMetadata(), "main_chat");
        String chatId = mainChat != null && !mainChat.isNull() ? (mainChat.isTextual() ? mainChat.textValue() : null)
                : env.chatId();
        return String.valueOf(chatId == null ? 0 : StringHash.of(chatId));
    }

    private static List<String> readSingleArgsRandomList(String list) {
        List<String> items = new ArrayList<>();
        if (list.contains("::")) {
            for (String item : list.split("::", -1)) {
                items.add(Js.trim(item));
            }
            return items;
        }
        for (String item : list.replace("\\,", COMMA_PLACEHOLDER).split(",", -1)) {
            items.add(Js.trim(item).replace(COMMA_PLACEHOLDER, ","));
        }
        return items;
    }

    /** The world info outlet prompt for a key, or "". */
    static String outlet(MacroEnv env, String key) {
        Function<String, String> outlet = env.outlet();
        String value = key.isEmpty() || outlet == null ? null : outlet.apply(key);
        return value == null ? "" : value;
    }

    /** {{if condition}}then{{else}}otherwise{{/if}}: resolves the condition, then only the chosen branch. */
    private static String conditional(MacroCall call) {
        String condition = call.arg(0);
        boolean inverted = false;
        if (LEADING_BANG.matcher(condition).find()) {
            inverted = true;
            condition = LEADING_BANG_SPACE.matcher(condition).replaceFirst("");
        }
        condition = call.resolve(condition);
        Matcher shorthand = VARIABLE_SHORTHAND.matcher(condition);
        if (shorthand.matches()) {
            String macro = shorthand.group(1).equals(".") ? "getvar" : "getglobalvar";
            condition = call.resolve("{{" + macro + "::" + shorthand.group(2) + "}}");
        } else {
            MacroDefinition definition = lookup(condition);
            if (definition != null && definition.minArgs() == 0) {
                condition = call.resolve("{{" + condition + "}}");
            }
        }
        boolean falsy = condition.isEmpty() || isFalseBoolean(condition);
        if (inverted) {
            falsy = !falsy;
        }
        String[] branches = MacroEngine.splitOnTopLevelElse(call.arg(1));
        String chosen = falsy ? branches[1] : branches[0];
        if (chosen == null) {
            return "";
        }
        String result = call.resolve(chosen);
        return call.preserveWhitespace ? result : MacroEngine.trimScopedContent(result);
    }

    private static MacroEnv.CardFields card(MacroCall call) {
        return call.scope.card == null ? MacroEnv.CardFields.EMPTY : call.scope.card;
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    // ST: env-macros.js registerEnvMacros
    private static void registerEnvMacros() {
        macro("user").handle(call -> call.scope.user);
        macro("char").handle(call -> call.scope.character);
        macro("group").alias("charIfNotGroup").handle(call -> call.scope.group);
        macro("groupNotMuted").handle(call -> call.scope.groupNotMuted);
        macro("notChar").handle(call -> call.scope.notChar);
        macro("charPrompt").handle(call -> text(card(call).system()));
        macro("charInstruction").handle(call -> text(card(call).jailbreak()));
        macro("charDescription").alias("description").handle(call -> text(card(call).description()));
        macro("charPersonality").alias("personality").handle(call -> text(card(call).personality()));
        macro("charScenario").alias("scenario").handle(call -> text(card(call).scenario()));
        macro("persona").handle(call -> text(card(call).persona()));
        macro("mesExamplesRaw").handle(call -> text(card(call).mesExamples()));
        macro("mesExamples").handle(BuiltinMacros::mesExamples);
        macro("charDepthPrompt").handle(call -> text(card(call).charDepthPrompt()));
        macro("charCreatorNotes").alias("creatorNotes").handle(call -> text(card(call).creatorNotes()));
        macro("charFirstMessage").alias("greeting").args(0, "integer").handle(call -> {
            double index = call.arg(0) == null ? 0 : JsNumber.parse(call.arg(0));
            if (index == 0) {
                return text(card(call).firstMessage());
            }
            List<String> greetings = card(call).alternateGreetings();
            int at = (int) index - 1;
            return greetings == null || at < 0 || at >= greetings.size() ? "" : text(greetings.get(at));
        });
        macro("charVersion").alias("version", "char_version").handle(call -> text(card(call).version()));
        macro("model").handle(call -> text(call.scope.env().model()));
        macro("original").handle(call -> call.scope.takeOriginal());
        macro("isMobile").handle(call -> "false");
        macro("lastGenerationType").handle(call -> text(call.scope.env().generationType()));
    }

    /** {{mesExamples}}: parseMesExamples, then formatInstructModeExamples in instruct mode. */
    private static String mesExamples(MacroCall call) {
        return formatMesExamples(call.scope.macros, text(card(call).mesExamples()), call.scope.user,
                call.scope.character);
    }

    /** The card's examples as {{mesExamples}} prints them (ST: env-macros.js and substituteParamsLegacy). */
    static String formatMesExamples(Macros macros, String raw, String user, String character) {
        if (raw.isEmpty()) {
            return "";
        }
        JsonNode settings = macros.env().settings();
        boolean openai = "openai".equals(Js.string(Js.coalesce(Js.get(settings, "main_api"), TextNode.valueOf(""))));
        boolean instruct = Js.truthy(Js.get(settings, "power_user.instruct.enabled")) && !openai;
        List<String> parsed = parseMesExamples(macros, raw, instruct || openai);
        if (parsed.isEmpty()) {
            return "";
        }
        MacroEnv.ExamplesFormatter formatter = macros.env().instructExamples();
        if (!instruct || formatter == null) {
            return String.join("", parsed);
        }
        return String.join("", formatter.format(parsed, user, character));
    }

    /** ST: script.js parseMesExamples; each block gets the heading and a trailing newline. */
    private static List<String> parseMesExamples(Macros macros, String examples, boolean startHeading) {
        if (examples.equals("<START>")) {
            return List.of();
        }
        if (!examples.startsWith("<START>")) {
            examples = "<START>\n" + Js.trim(examples);
        }
        JsonNode separatorSetting = Js.get(macros.env().settings(), "power_user.context.example_separator");
        String separator = Js.truthy(separatorSetting)
                ? macros.substitute(MacroVariables.normalize(separatorSetting)) + "\n" : "";
        String heading = startHeading ? "<START>\n" : separator;
        String[] blocks = Pattern.compile("<START>", Pattern.CASE_INSENSITIVE).split(examples, -1);
        List<String> parsed = new ArrayList<>();
        for (int i = 1; i < blocks.length; i++) {
            parsed.add(heading + Js.trim(blocks[i]) + "\n");
        }
        return parsed;
    }

    // ST: chat-macros.js registerChatMacros
    private static void registerChatMacros() {
        macro("lastMessage").handle(call -> messageText(call, lastMessageId(call.scope.env(), true, message -> true)));
        macro("lastMessageId").handle(call -> idText(lastMessageId(call.scope.env(), true, message -> true)));
        macro("lastUserMessage").handle(call -> messageText(call, lastMessageId(call.scope.env(), true,
                message -> Js.truthy(message.get("is_user")) && !Js.truthy(message.get("is_system")))));
        macro("lastCharMessage").handle(call -> messageText(call, lastMessageId(call.scope.env(), true,
                message -> !Js.truthy(message.get("is_user")) && !Js.truthy(message.get("is_system")))));
        macro("firstIncludedMessageId").handle(call -> {
            JsonNode value = Js.get(call.scope.env().chatMetadata(), "lastInContextMessageId");
            return value != null && value.isNumber() ? JsNumber.string(value) : "";
        });
        macro("lastSwipeId").handle(call -> {
            int id = lastMessageId(call.scope.env(), false, message -> true);
            JsonNode swipes = id < 0 ? null : call.scope.env().chat().get(id).get("swipes");
            return swipes != null && swipes.isArray() ? String.valueOf(swipes.size()) : "";
        });
        macro("currentSwipeId").handle(call -> {
            int id = lastMessageId(call.scope.env(), false, message -> true);
            JsonNode swipeId = id < 0 ? null : call.scope.env().chat().get(id).get("swipe_id");
            return swipeId != null && swipeId.isNumber() ? JsJson.jsNumber(swipeId.asDouble() + 1) : "";
        });
        macro("allChatRange").handle(call -> {
            int size = chatSize(call.scope.env());
            return size == 0 ? "" : "0-" + (size - 1);
        });
    }

    private static int chatSize(MacroEnv env) {
        return env.chat() == null ? 0 : env.chat().size();
    }

    /** chat-macros.js getLastMessageId: -1 when no message qualifies. */
    static int lastMessageId(MacroEnv env, boolean excludeSwipeInProgress, Predicate<JsonNode> filter) {
        for (int i = chatSize(env) - 1; i >= 0; i--) {
            JsonNode message = env.chat().get(i);
            JsonNode swipes = message.get("swipes");
            if (excludeSwipeInProgress && swipes != null && swipes.isArray()
                    && JsNumber.of(message.get("swipe_id")) >= swipes.size()) {
                continue;
            }
            if (filter.test(message)) {
                return i;
            }
        }
        return -1;
    }

    private static String messageText(MacroCall call, int id) {
        if (id < 0) {
            return "";
        }
        JsonNode mes = call.scope.env().chat().get(id).get("mes");
        return mes == null || mes.isNull() ? "" : Js.string(mes);
    }

    private static String idText(int id) {
        return id < 0 ? "" : String.valueOf(id);
    }

    // ST: time-macros.js registerTimeMacros
    private static void registerTimeMacros() {
        macro("time").args(0, "string").handle(call -> {
            ZonedDateTime now = call.scope.env().now();
            String spec = call.arg(0);
            Matcher matcher = spec == null ? null : UTC_OFFSET.matcher(spec);
            if (matcher == null || !matcher.find()) {
                return Moment.format(now, "LT");
            }
            int offset = Integer.parseInt(matcher.group(1).replace("+", ""));
            int minutes = Math.abs(offset) < 16 ? offset * 60 : offset;
            return Moment.format(now.withZoneSameInstant(ZoneOffset.ofTotalSeconds(minutes * 60)), "LT");
        });
        macro("date").handle(call -> Moment.format(call.scope.env().now(), "LL"));
        macro("weekday").handle(call -> Moment.format(call.scope.env().now(), "dddd"));
        macro("isotime").handle(call -> Moment.format(call.scope.env().now(), "HH:mm"));
        macro("isodate").handle(call -> Moment.format(call.scope.env().now(), "YYYY-MM-DD"));
        macro("datetimeformat").args(1, "string").handle(call -> Moment.format(call.scope.env().now(),
                call.arg(0).isEmpty() ? "YYYY-MM-DDTHH:mm:ssZ" : call.arg(0)));
        macro("idleDuration").alias("idle_duration").handle(call -> idleDuration(call.scope.env()));
        macro("timeDiff").args(2, "string", "string").handle(call ->
                timeDiff(call.scope.env(), call.arg(0), call.arg(1)));
    }

    /** moment.duration(moment(left).diff(moment(right))).humanize(true). */
    static String timeDiff(MacroEnv env, String left, String right) {
        ZonedDateTime leftTime = Moment.parseIso(left, env.now().getZone());
        ZonedDateTime rightTime = Moment.parseIso(right, env.now().getZone());
        double difference = leftTime == null || rightTime == null ? Double.NaN
                : leftTime.toInstant().toEpochMilli() - rightTime.toInstant().toEpochMilli();
        return Moment.humanize(difference, true);
    }

    /** time-macros.js getTimeSinceLastMessage: since the user message before the latest message. */
    static String idleDuration(MacroEnv env) {
        JsonNode last = null;
        boolean takeNext = false;
        for (int i = chatSize(env) - 1; i >= 0; i--) {
            JsonNode message = env.chat().get(i);
            if (Js.truthy(message.get("is_system"))) {
                continue;
            }
            if (Js.truthy(message.get("is_user")) && takeNext) {
                last = message;
                break;
            }
            takeNext = true;
        }
        if (last == null || !Js.truthy(last.get("send_date"))) {
            return "just now";
        }
        ZonedDateTime now = env.now();
        ZonedDateTime sent = parseTimestamp(last.get("send_date"), now);
        double difference = sent == null ? Double.NaN
                : now.toInstant().toEpochMilli() - sent.toInstant().toEpochMilli();
        return Moment.humanize(difference, false);
    }

    private static final Pattern MERIDIEM_DATE = Pattern.compile(
            "(\\w+)\\s(\\d{1,2}),\\s(\\d{4})\\s(\\d{1,2}):(\\d{1,2})(am|pm)", Pattern.CASE_INSENSITIVE);
    private static final List<Pattern> HUMANIZED_DATES = List.of(
            Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})@(\\d{1,2})h(\\d{1,2})m(\\d{1,2})s(\\d{1,3})ms"),
            Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})@(\\d{1,2})h(\\d{1,2})m(\\d{1,2})s()"),
            Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2}) @(\\d{1,2})h (\\d{1,2})m (\\d{1,2})s (\\d{1,3})ms"));

    /** ST: utils.js timestampToMoment and parseTimestamp, for a message's send_date; null when invalid. */
    private static ZonedDateTime parseTimestamp(JsonNode timestamp, ZonedDateTime now) {
        String text = Js.string(timestamp);
        if (timestamp.isNumber() || text.matches("\\d+")) {
            double millis = JsNumber.of(timestamp);
            if (!Double.isFinite(millis) || millis < 0) {
                return null;
            }
            return Instant.ofEpochMilli((long) millis).atZone(now.getZone());
        }
        ZonedDateTime iso = Moment.parseIso(text, now.getZone());
        if (iso != null) {
            return iso;
        }
        Matcher meridiem = MERIDIEM_DATE.matcher(text);
        if (meridiem.find()) {
            Month month = monthNamed(meridiem.group(1));
            if (month == null) {
                return null;
            }
            int hour = Integer.parseInt(meridiem.group(4)) % 12 + (meridiem.group(6).equalsIgnoreCase("pm") ? 12 : 0);
            return LocalDateTime.of(Integer.parseInt(meridiem.group(3)), month, Integer.parseInt(meridiem.group(2)),
                    hour, Integer.parseInt(meridiem.group(5))).atZone(now.getZone());
        }
        for (Pattern pattern : HUMANIZED_DATES) {
            Matcher matcher = pattern.matcher(text);
            if (matcher.find()) {
                int millis = matcher.group(7).isEmpty() ? 0 : Integer.parseInt(matcher.group(7));
                return LocalDateTime.of(Integer.parseInt(matcher.group(1)), Integer.parseInt(matcher.group(2)),
                                Integer.parseInt(matcher.group(3)), Integer.parseInt(matcher.group(4)),
                                Integer.parseInt(matcher.group(5)), Integer.parseInt(matcher.group(6)),
                                millis * 1_000_000)
                        .atZone(ZoneOffset.UTC).withZoneSameInstant(now.getZone());
            }
        }
        return null;
    }

    private static Month monthNamed(String name) {
        for (Month month : Month.values()) {
            String full = month.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
            if (full.equalsIgnoreCase(name) || full.substring(0, 3).equalsIgnoreCase(name)) {
                return month;
            }
        }
        return null;
    }

    // ST: variable-macros.js registerVariableMacros
    private static void registerVariableMacros() {
        registerVariables("", "var", call -> call.scope.variables.local);
        registerVariables("global", "globalvar", call -> call.scope.variables.global);
    }

    private static void registerVariables(String infix, String suffix, Function<MacroCall, MacroVariables.Scope> of) {
        macro("set" + infix + "var").args(2, "string", "string|number").handle(call -> {
            of.apply(call).set(call.arg(0), TextNode.valueOf(call.arg(1)));
            return "";
        });
        macro("add" + infix + "var").args(2, "string", "string|number").handle(call -> {
            of.apply(call).add(call.arg(0), TextNode.valueOf(call.arg(1)));
            return "";
        });
        macro("inc" + infix + "var").args(1, "string").handle(call ->
                MacroVariables.normalize(of.apply(call).add(call.arg(0), DoubleNode.valueOf(1))));
        macro("dec" + infix + "var").args(1, "string").handle(call ->
                MacroVariables.normalize(of.apply(call).add(call.arg(0), DoubleNode.valueOf(-1))));
        macro("get" + infix + "var").args(1, "string").handle(call ->
                MacroVariables.normalize(of.apply(call).get(call.arg(0))));
        macro("has" + infix + "var").alias(suffix + "exists").args(1, "string").handle(call ->
                String.valueOf(of.apply(call).has(call.arg(0))));
        macro("delete" + infix + "var").alias("flush" + infix + "var").args(1, "string").handle(call -> {
            of.apply(call).delete(call.arg(0));
            return "";
        });
    }

    // ST: instruct-macros.js registerInstructMacros
    private static void registerInstructMacros() {
        String instruct = "power_user.instruct.";
        instructValue("instructStoryStringPrefix", instruct + "story_string_prefix", null);
        instructValue("instructStoryStringSuffix", instruct + "story_string_suffix", null);
        instructValue("instructUserPrefix", instruct + "input_sequence", null, "instructInput");
        instructValue("instructUserSuffix", instruct + "input_suffix", null);
        instructValue("instructAssistantPrefix", instruct + "output_sequence", null, "instructOutput");
        instructValue("instructAssistantSuffix", instruct + "output_suffix", null, "instructSeparator");
        instructValue("instructSystemPrefix", instruct + "system_sequence", null);
        instructValue("instructSystemSuffix", instruct + "system_suffix", null);
        instructValue("instructFirstAssistantPrefix", instruct + "first_output_sequence",
                instruct + "output_sequence", "instructFirstOutputPrefix");
        instructValue("instructLastAssistantPrefix", instruct + "last_output_sequence",
                instruct + "output_sequence", "instructLastOutputPrefix");
        instructValue("instructStop", instruct + "stop_sequence", null);
        instructValue("instructUserFiller", instruct + "user_alignment_message", null);
        instructValue("instructSystemInstructionPrefix", instruct + "last_system_sequence", null);
        instructValue("instructFirstUserPrefix", instruct + "first_input_sequence", instruct + "input_sequence",
                "instructFirstInput");
        instructValue("instructLastUserPrefix", instruct + "last_input_sequence", instruct + "input_sequence",
                "instructLastInput");
        macro("defaultSystemPrompt").alias("instructSystem", "instructSystemPrompt").handle(call ->
                Js.truthy(setting(call, "power_user.sysprompt.enabled"))
                        ? settingText(call, "power_user.sysprompt.content") : "");
        macro("systemPrompt").handle(call -> {
            if (!Js.truthy(setting(call, "power_user.sysprompt.enabled"))) {
                return "";
            }
            String characterPrompt = card(call).system();
            if (Js.truthy(setting(call, "power_user.prefer_character_prompt")) && characterPrompt != null
                    && !characterPrompt.isEmpty()) {
                return characterPrompt;
            }
            return settingText(call, "power_user.sysprompt.content");
        });
        macro("exampleSeparator").alias("chatSeparator").handle(call ->
                settingText(call, "power_user.context.example_separator"));
        macro("chatStart").handle(call -> settingText(call, "power_user.context.chat_start"));
    }

    /** An instruct sequence, "" unless instruct mode is on; {@code fallback} stands in when the value is falsy. */
    private static void instructValue(String name, String path, String fallback, String... aliases) {
        macro(name).alias(aliases).handle(call -> {
            if (!Js.truthy(setting(call, "power_user.instruct.enabled"))) {
                return "";
            }
            JsonNode value = setting(call, path);
            if (fallback != null && !Js.truthy(value)) {
                value = setting(call, fallback);
            }
            return MacroVariables.normalize(value);
        });
    }

    // ST: authors-note.js registerAuthorsNoteMacros, reasoning.js registerReasoningMacros
    private static void registerPromptMacros() {
        macro("authorsNote").handle(call -> authorsNote(call.scope.env()));
        macro("charAuthorsNote").handle(call -> characterAuthorsNote(call.scope.env()));
        macro("summary").handle(call -> {
            if (!memoryEnabled(call.scope.env())) {
                throw new MacroFailure("the memory extension is disabled");
            }
            return latestMemory(call.scope.env());
        });
        macro("defaultAuthorsNote").handle(call -> settingText(call, "extension_settings.note.default"));
        macro("reasoningPrefix").handle(call -> settingText(call, "power_user.reasoning.prefix"));
        macro("reasoningSuffix").handle(call -> settingText(call, "power_user.reasoning.suffix"));
        macro("reasoningSeparator").handle(call -> settingText(call, "power_user.reasoning.separator"));
    }

    /** The chat's Author's Note ({@code chat_metadata.note_prompt}). */
    static String authorsNote(MacroEnv env) {
        return MacroVariables.normalize(Js.get(env.chatMetadata(), "note_prompt"));
    }

    /** The character's Author's Note: the {@code extension_settings.note.chara} entry named after its avatar. */
    static String characterAuthorsNote(MacroEnv env) {
        String avatar = env.characterAvatar();
        JsonNode notes = Js.get(env.settings(), "extension_settings.note.chara");
        if (avatar == null || notes == null || !notes.isArray()) {
            return "";
        }
        String fileName = avatar.replaceFirst("\\.[^/.]+$", "");
        for (JsonNode note : notes) {
            if (fileName.equals(Js.string(note.get("name")))) {
                return MacroVariables.normalize(note.get("prompt"));
            }
        }
        return "";
    }

    /** Whether the memory extension, which registers {{summary}}, is enabled. */
    static boolean memoryEnabled(MacroEnv env) {
        JsonNode disabled = Js.get(env.settings(), "extension_settings.disabledExtensions");
        if (disabled != null && disabled.isArray()) {
            for (JsonNode name : disabled) {
                if ("memory".equals(name.asText())) {
                    return false;
                }
            }
        }
        return true;
    }

    /** extensions/memory/index.js getLatestMemoryFromChat: the newest {@code extra.memory} before the last message. */
    static String latestMemory(MacroEnv env) {
        for (int i = chatSize(env) - 2; i >= 0; i--) {
            JsonNode memory = env.chat().get(i).path("extra").get("memory");
            if (Js.truthy(memory)) {
                return MacroVariables.normalize(memory);
            }
        }
        return "";
    }
}
