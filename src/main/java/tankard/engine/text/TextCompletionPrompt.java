package tankard.engine.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.engine.macro.Macros;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.Generation;
import tankard.engine.prompt.Itemization;
import tankard.engine.prompt.PromptInputs;
import tankard.engine.prompt.TokenCounter;
import tankard.json.Js;
import tankard.json.JsJson;

import java.nio.charset.StandardCharsets;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * The text completion half of ST's Generate (public/script.js, from "Prepare the system prompt for Text
 * Completion APIs" to getTextGenGenerationData): the story string, instruct formatting, in-chat injections, the
 * chat fitted into the context, the answer line, the stop strings and ST's request body.
 */
public final class TextCompletionPrompt {
    /** ST: Generate's FORMAT_TOKEN, marking where a continued message ends. */
    private static final String FORMAT_TOKEN = "\u0000\ufffc\u0000\ufffd";
    private static final String STORY_STRING_KEY = "__STORY_STRING__";
    private static final Pattern NEWLINES = Pattern.compile("\n+");

    /** A chat message as formatMessageHistoryItem reads it; {@code name} null where the message has none. */
    private record Message(String name, String mes, boolean isUser, boolean narrator, boolean forceAvatar) {
        Message withMes(String text) {
            return new Message(name, text, isUser, narrator, forceAvatar);
        }
    }

    /**
     * The prompt's messages, each chat message made a {@link Message} when it is read: the history reads only what
     * the context reaches, so a long chat's old messages are never read but for {@link #isUser}.
     */
    private static final class Messages extends AbstractList<Message> {
        /** A chat message not read yet (its JSON) or a {@link Message}. */
        private final List<Object> items;

        Messages(List<? extends JsonNode> chat) {
            items = new ArrayList<>(chat);
        }

        @Override
        public Message get(int index) {
            Object item = items.get(index);
            if (item instanceof Message message) {
                return message;
            }
            Message message = message((ObjectNode) item);
            items.set(index, message);
            return message;
        }

        /** Whether message {@code index} is the user's, without reading the rest of it. */
        boolean isUser(int index) {
            return items.get(index) instanceof Message message ? message.isUser()
                    : Js.truthy(((ObjectNode) items.get(index)).get("is_user"));
        }

        /** Where this very message is, searched from the end (where prompts are injected); -1 if nowhere. */
        int lastIndexOfSame(Message message) {
            for (int i = items.size() - 1; i >= 0; i--) {
                if (items.get(i) == message) {
                    return i;
                }
            }
            return -1;
        }

        @Override
        public void add(int index, Message message) {
            items.add(index, message);
        }

        @Override
        public int size() {
            return items.size();
        }
    }

    private final Generation generation;
    private final TextSettings settings;
    private final Macros macros;
    private final String name1;
    private final String name2;
    private final boolean instruct;
    private final InstructMode instructMode;
    private final TextTokenCounter counter;
    private final int padding;
    private final boolean isContinue;
    private final boolean isImpersonate;
    /** The classifier-free guidance in force, or null. */
    private final Cfg.Active cfg;

    private TextCompletionPrompt(Generation generation) {
        this.generation = generation;
        this.settings = TextSettings.of(generation.inputs().settings());
        this.macros = generation.macros();
        this.name1 = generation.name1();
        this.name2 = generation.name2();
        this.instruct = settings.instructEnabled();
        this.instructMode = new InstructMode(settings, macros, name1, name2, generation.inGroup(), groupNames());
        this.counter = TextTokenCounter.of(settings, generation.inputs().tokenizers(), connectedModel());
        this.padding = settings.tokenPadding();
        this.isContinue = generation.isContinue();
        this.isImpersonate = generation.isImpersonate();
        JsonNode avatar = generation.inputs().character() == null ? null : generation.inputs().character().get("avatar");
        this.cfg = Cfg.active(generation.inputs().settings(), generation.inputs().metadata(),
                avatar == null || avatar.isNull() ? null : Js.string(avatar), generation.inGroup(), macros);
    }

    /** ST's getTokenCountAsync with a text completion API: the tokenizer {@code power_user.tokenizer} picks. */
    public static TokenCounter tokenCounter(PromptInputs inputs) {
        return TextTokenCounter.of(TextSettings.of(inputs.settings()), inputs.tokenizers(), "");
    }

    public static BuiltPrompt build(Generation generation) {
        return new TextCompletionPrompt(generation).build();
    }

    private BuiltPrompt build() {
        ExtensionPrompts extensionPrompts = generation.extensionPrompts();
        int maxContext = generation.maxContext();
        if (cfg != null) {
            // ST: the context shrinks by the longer guidance prompt
            String negative = cfg.prompt(true).value();
            String positive = cfg.prompt(false).value();
            if (!negative.isEmpty() || !positive.isEmpty()) {
                maxContext -= Math.max(counter.count(negative), counter.count(positive));
            }
        }

        List<String> examples = new ArrayList<>(generation.examples().stream().map(this::exampleHeading).toList());
        List<String> rawExamples = List.copyOf(examples);
        if (instruct) {
            examples = new ArrayList<>(instructMode.formatExamples(examples));
        }

        String system = systemPrompt();
        String beforeAnchor = extensionPrompts.at(ExtensionPrompts.BEFORE_PROMPT);
        String afterAnchor = extensionPrompts.at(ExtensionPrompts.IN_PROMPT);
        String persona = personaInPrompt();
        String wiBefore = generation.worldInfo().before();
        String wiAfter = generation.worldInfo().after();

        Map<String, Object> params = new HashMap<>();
        params.put("description", generation.card().description());
        params.put("personality", generation.card().personality());
        params.put("persona", persona);
        params.put("scenario", generation.card().scenario());
        params.put("system", system);
        params.put("char", name2);
        params.put("user", name1);
        params.put("wiBefore", wiBefore);
        params.put("wiAfter", wiAfter);
        params.put("loreBefore", wiBefore);
        params.put("loreAfter", wiAfter);
        params.put("anchorBefore", Js.trim(beforeAnchor));
        params.put("anchorAfter", Js.trim(afterAnchor));
        params.put("mesExamples", String.join("", examples));
        params.put("mesExamplesRaw", String.join("", rawExamples));

        boolean storyInChat = settings.contextNumber("story_string_position", 0) == ExtensionPrompts.IN_CHAT;
        String storyString = StoryString.render(settings.contextText("story_string"), params, macros,
                name1, name2, storyInChat, instruct, settings.instructFlag("wrap"),
                !settings.instructText("story_string_suffix").isEmpty());
        String combinedStoryString = instruct ? instructMode.formatStoryString(storyString) : storyString;
        if (storyInChat) {
            extensionPrompts.set(STORY_STRING_KEY, combinedStoryString, ExtensionPrompts.IN_CHAT,
                    settings.contextNumber("story_string_depth", 1), false,
                    settings.contextNumber("story_string_role", ExtensionPrompts.SYSTEM));
            combinedStoryString = "";
        } else {
            extensionPrompts.set(STORY_STRING_KEY, "", ExtensionPrompts.IN_CHAT, 0, false, ExtensionPrompts.SYSTEM);
        }
        if (settings.flag("strip_examples", false)) {
            examples = new ArrayList<>();
        }

        Messages coreChat = new Messages(generation.coreChat());
        List<Integer> injectedIndices = doChatInject(coreChat, extensionPrompts);
        postHistoryInstructions(coreChat, injectedIndices);

        History history = history(coreChat);
        List<String> chat2 = history.chat2();
        IntPredicate userMessageIndices = history.userMessageIndices();

        boolean addUserAlignment = instruct && !settings.instructText("user_alignment_message").isEmpty();
        String userAlignmentMessage = "";
        if (addUserAlignment) {
            Message alignment = new Message(name1, macros.substitute(settings.instructText("user_alignment_message")),
                    true, false, false);
            userAlignmentMessage = formatMessageHistoryItem(alignment, InstructMode.Force.FIRST);
        }

        if (chat2.isEmpty()) {
            chat2.add(""); // ST: the hack for regenerating the first message
        }

        Fit fit = new Fit();
        fit.combinedStoryString = combinedStoryString;
        fit.userAlignmentMessage = userAlignmentMessage;
        fit.chatString = addChatsSeparator("");

        String pinExmString = null;
        if (settings.flag("pin_examples", false)) {
            pinExmString = String.join("", examples);
            fit.examplesString = pinExmString;
        }
        if (isContinue && chat2.size() > 1) {
            fit.cyclePrompt = chat2.remove(0);
            injectedIndices = shiftDown(injectedIndices);
            IntPredicate unshifted = userMessageIndices;
            userMessageIndices = i -> i >= 0 && unshifted.test(i + 1);
        }

        List<String> kept = fillContext(fit, chat2, injectedIndices, userMessageIndices, maxContext,
                addUserAlignment);

        // ST: how many unpinned examples fit
        int tokenCount = messagesTokenCount(fit);
        int examplesToAdd = 0;
        if (pinExmString == null) {
            for (String example : examples) {
                tokenCount += counter.count(example.replace("\r", ""));
                fit.examplesString += example;
                if (tokenCount < maxContext) {
                    examplesToAdd++;
                } else {
                    break;
                }
            }
        }

        String generatedPromptCache = fit.cyclePrompt;
        List<String> mesSend = new ArrayList<>();
        Collections.reverse(kept);
        for (int i = 0; i < kept.size(); i++) {
            String item = kept.get(i);
            if (i == kept.size() - 1 && !isContinue
                    && (!instruct || settings.instructFlag("wrap"))) {
                item = item.endsWith("\n") ? item.substring(0, item.length() - 1) : item;
            }
            mesSend.add(item);
        }

        // ST: setPromptString, and checkPromptSize when continuing
        String mesExmString;
        if (!generatedPromptCache.isEmpty()) {
            while (true) {
                mesExmString = pinExmString != null ? pinExmString
                        : String.join("", examples.subList(0, examplesToAdd));
                modifyLast(mesSend);
                String prompt = (combinedStoryString + mesExmString + addChatsSeparator(String.join("", mesSend))
                        + "\n" + modifyLastPromptLine("") + generatedPromptCache).replace("\r", "");
                if (counter.count(prompt, padding) <= maxContext) {
                    break;
                }
                if (examplesToAdd > 0) {
                    examplesToAdd--;
                } else if (!mesSend.isEmpty()) {
                    mesSend.remove(0);
                } else {
                    break;
                }
            }
        } else {
            mesExmString = pinExmString != null ? pinExmString : String.join("", examples.subList(0, examplesToAdd));
            modifyLast(mesSend);
        }

        Combine combine = new Combine(combinedStoryString, mesExmString, mesSend, generatedPromptCache);
        String finalPrompt = combinedPrompt(combine, false);
        String negativePrompt = cfg == null ? null : combinedPrompt(combine, true);

        List<String> stops = stoppingStrings();
        ObjectNode request = TextGenRequest.build(settings, macros, generation.inputs().tokenizers(),
                new TextGenRequest.Inputs(finalPrompt, amountGen(), maxContextSetting(), isImpersonate, isContinue,
                        generation.action().stName(), stops, connectedModel(),
                        cfg == null ? null : cfg.scale().value(), negativePrompt));

        Itemization itemization = itemize(storyString, fit.examplesString, combine.mesSendString, beforeAnchor,
                afterAnchor, persona, generation.promptBias());
        return new BuiltPrompt(BuiltPrompt.TEXT_COMPLETIONS, request, itemization);
    }

    /**
     * Generate's chat2 (the formatted messages, newest first) and which of them are the user's (ST's
     * userMessageIndices, asked of one index only: read from the message when asked).
     */
    private record History(List<String> chat2, IntPredicate userMessageIndices) {
    }

    /**
     * ST: Generate's chat2 loop: each message formatted, first and last sequences applied, a continued one cut. The
     * formatting is done as the context reads the messages, newest first: a long chat's old ones are never formatted.
     */
    private History history(Messages coreChat) {
        int size = coreChat.size();
        int lastUserMessageIndex = -1;
        for (int k = size - 1; k >= 0 && lastUserMessageIndex < 0; k--) {
            lastUserMessageIndex = coreChat.isUser(k) ? k : -1;
        }
        // chat2's index i is coreChat's size - 1 - i
        IntPredicate userMessageIndices = i -> i >= 0 && i < size && coreChat.isUser(size - 1 - i)
                && !(i == 0 && isContinue);
        int lastUser = lastUserMessageIndex;
        String[] chat2 = new String[size];
        List<String> formatted = new AbstractList<>() {
            private int from; // chat2.shift()

            @Override
            public String get(int index) {
                int i = Objects.checkIndex(index, size()) + from;
                if (chat2[i] == null) {
                    chat2[i] = historyItem(coreChat.get(size - 1 - i), i, size - 1 - i, lastUser);
                }
                return chat2[i];
            }

            @Override
            public String remove(int index) {
                if (index != 0) {
                    throw new UnsupportedOperationException("chat2 only loses its first message");
                }
                String first = get(0);
                from++;
                return first;
            }

            @Override
            public int size() {
                return size - from;
            }
        };
        return new History(size == 0 ? new ArrayList<>() : formatted, userMessageIndices);
    }

    /** The message at chat2's index {@code i}, coreChat's index {@code j}, as the chat2 loop formats it. */
    private String historyItem(Message item, int i, int j, int lastUserMessageIndex) {
        String formatted = formatMessageHistoryItem(item, InstructMode.Force.NONE);
        if (j == 0 && instruct) {
            formatted = formatMessageHistoryItem(item, InstructMode.Force.FIRST);
        }
        if (lastUserMessageIndex >= 0 && j == lastUserMessageIndex && instruct && !isImpersonate) {
            formatted = formatMessageHistoryItem(item, InstructMode.Force.LAST);
        }
        if (i == 0 && isContinue) {
            // the continued message ends where its text does, without the suffix
            if (instruct) {
                String marked = item.mes().replace(FORMAT_TOKEN, "") + FORMAT_TOKEN;
                formatted = formatMessageHistoryItem(item.withMes(marked), InstructMode.Force.LAST);
            }
            formatted = formatted.contains(FORMAT_TOKEN)
                    ? formatted.substring(0, formatted.lastIndexOf(FORMAT_TOKEN))
                    : jsSlice(formatted, formatted.lastIndexOf(item.mes()) + item.mes().length());
        }
        return formatted;
    }

    /**
     * ST: Generate's loops that collect enough messages to fill the context, injections first, then the user
     * alignment message where the kept chat does not start with the user. Answers the kept messages, newest first.
     */
    private List<String> fillContext(Fit fit, List<String> chat2, List<Integer> injectedIndices,
                                     IntPredicate userMessageIndices, int maxContext, boolean addUserAlignment) {
        String[] kept = new String[chat2.size()];
        int tokenCount = messagesTokenCount(fit);
        StringBuilder chatString = new StringBuilder(fit.chatString); // ST adds to a string: the same text, in one go
        int lastAddedIndex = 0;
        for (int index : injectedIndices) {
            if (index < 0 || index >= chat2.size()) {
                continue;
            }
            tokenCount += counter.count(chat2.get(index).replace("\r", ""));
            if (tokenCount >= maxContext) {
                break;
            }
            chatString.append(chat2.get(index));
            kept[index] = chat2.get(index);
            lastAddedIndex = Math.max(lastAddedIndex, index);
        }
        for (int i = 0; i < chat2.size(); i++) {
            if (kept[i] != null) {
                continue;
            }
            tokenCount += counter.count(chat2.get(i).replace("\r", ""));
            if (tokenCount >= maxContext) {
                break;
            }
            chatString.append(chat2.get(i));
            kept[i] = chat2.get(i);
            lastAddedIndex = Math.max(lastAddedIndex, i);
        }
        fit.chatString = chatString.toString();
        List<String> messages = new ArrayList<>();
        for (String message : kept) {
            if (message != null) {
                messages.add(message);
            }
        }
        if (addUserAlignment && !userMessageIndices.test(lastAddedIndex)) {
            fit.chatString = fit.userAlignmentMessage + fit.chatString;
            messages.add(fit.userAlignmentMessage);
        }
        return messages;
    }

    /** What getCombinedPrompt flattens; {@code mesSendString} is the chat part of the last prompt it made. */
    private static final class Combine {
        final String combinedStoryString;
        final String mesExmString;
        final List<String> mesSend;
        final String generatedPromptCache;
        String mesSendString = "";

        Combine(String combinedStoryString, String mesExmString, List<String> mesSend, String generatedPromptCache) {
            this.combinedStoryString = combinedStoryString;
            this.mesExmString = mesExmString;
            this.mesSend = mesSend;
            this.generatedPromptCache = generatedPromptCache;
        }
    }

    /** ST: getCombinedPrompt: the guidance prompt and the bias put in, the parts joined. */
    private String combinedPrompt(Combine combine, boolean negative) {
        List<String> messages = new ArrayList<>(combine.mesSend);
        List<String> prefixes = new ArrayList<>(Collections.nCopies(messages.size(), ""));
        int last = messages.size() - 1;
        if (cfg != null) {
            Cfg.Prompt cfgPrompt = cfg.prompt(negative);
            if (!cfgPrompt.value().isEmpty() && last >= 0) {
                if (cfgPrompt.depth() == 0) {
                    messages.set(last, appendSpaced(messages.get(last), cfgPrompt.value()));
                } else {
                    int at = Math.max(combine.mesSend.size() - cfgPrompt.depth(), 0);
                    if (at < messages.size()) {
                        prefixes.set(at, prefixes.get(at) + cfgPrompt.value() + "\n");
                    }
                }
            }
        }
        String promptBias = generation.promptBias();
        if (!instruct && !isImpersonate && !Js.trim(promptBias).isEmpty() && last >= 0) {
            messages.set(last, appendSpaced(messages.get(last), InstructMode.trimStart(promptBias)));
        }
        StringBuilder joined = new StringBuilder();
        for (int i = 0; i < messages.size(); i++) {
            joined.append(prefixes.get(i)).append(messages.get(i));
        }
        combine.mesSendString = addChatsSeparator(joined.toString());
        String prompt = (combine.combinedStoryString + combine.mesExmString + combine.mesSendString
                + combine.generatedPromptCache).replace("\r", "");
        return settings.flag("collapse_newlines", false) ? NEWLINES.matcher(prompt).replaceAll("\n") : prompt;
    }

    /** The text after the message, with a space between unless the message ends in whitespace. */
    private static String appendSpaced(String message, String text) {
        boolean endsWithSpace = !message.isEmpty() && Js.isWhitespace(message.charAt(message.length() - 1));
        return message + (endsWithSpace ? text : " " + text);
    }

    /** The strings Generate's getMessagesTokenCount joins, as they stand while the context fills. */
    private static final class Fit {
        String combinedStoryString = "";
        String examplesString = "";
        String userAlignmentMessage = "";
        String chatString = "";
        String cyclePrompt = "";
    }

    private int messagesTokenCount(Fit fit) {
        String encode = (fit.combinedStoryString + fit.examplesString + fit.userAlignmentMessage + fit.chatString
                + modifyLastPromptLine("") + fit.cyclePrompt).replace("\r", "");
        return counter.count(encode, padding);
    }

    private void modifyLast(List<String> mesSend) {
        if (!mesSend.isEmpty()) {
            int last = mesSend.size() - 1;
            mesSend.set(last, modifyLastPromptLine(mesSend.get(last)));
        }
    }

    /** ST: Generate's modifyLastPromptLine (no quiet prompt: Tankard builds the user's generations). */
    private String modifyLastPromptLine(String lastMesString) {
        StringBuilder line = new StringBuilder(lastMesString);
        if (instruct && !isContinue) {
            String name = isImpersonate ? name1 : name2;
            line.append(instructMode.formatPrompt(name, isImpersonate, generation.promptBias()));
        }
        if (!instruct && isImpersonate && !isContinue) {
            if (!endsWithNewline(line)) {
                line.append('\n');
            }
            line.append(name1).append(':');
        }
        ArrayNode chat = generation.inputs().chat();
        boolean continuingOnFirstMessage = chat.size() == 1 && isContinue;
        if (!instruct && generation.forceName2() && !continuingOnFirstMessage) {
            if (!endsWithNewline(line)) {
                line.append('\n');
            }
            if (!isContinue || !lastChatMessageIsUser()) {
                line.append(name2).append(':');
            }
        }
        return line.toString();
    }

    private static boolean endsWithNewline(StringBuilder text) {
        return !text.isEmpty() && text.charAt(text.length() - 1) == '\n';
    }

    private boolean lastChatMessageIsUser() {
        ArrayNode chat = generation.inputs().chat();
        return !chat.isEmpty() && Js.truthy(chat.get(chat.size() - 1).get("is_user"));
    }

    /** A parsed example block with the heading ST's parseMesExamples gives text completion without instruct mode. */
    private String exampleHeading(String example) {
        if (instruct || !example.startsWith("<START>\n")) {
            return example;
        }
        String separator = settings.contextText("example_separator");
        String heading = separator.isEmpty() ? "" : macros.substitute(separator) + "\n";
        return heading + example.substring("<START>\n".length());
    }

    /** ST: the system prompt prepared for text completion (null where ST's would be undefined). */
    private String systemPrompt() {
        if (!Js.truthy(settings.sysprompt.get("enabled"))) {
            return "";
        }
        JsonNode content = settings.sysprompt.get("content");
        String original = content == null || content.isNull() ? "" : Js.string(content);
        String cardSystem = generation.card().system();
        String system = settings.flag("prefer_character_prompt", true) && !cardSystem.isEmpty()
                ? macros.substitute(cardSystem, Macros.Options.original(original))
                : baseChatReplace(content);
        return instruct ? macros.substitute(system, Macros.Options.original(original)) : system;
    }

    /** ST: baseChatReplace; null for a value that is not a non-empty string (ST hands it back as it is). */
    private String baseChatReplace(JsonNode value) {
        if (value == null || !value.isTextual()) {
            return null;
        }
        return baseChatReplace(value.textValue());
    }

    private String baseChatReplace(String value) {
        if (value.isEmpty()) {
            return value;
        }
        String replaced = macros.substitute(value, Macros.Options.withoutCard());
        if (settings.flag("collapse_newlines", false)) {
            replaced = NEWLINES.matcher(replaced).replaceAll("\n");
        }
        return replaced.replace("\r", "");
    }

    /** The persona description when it goes into the story string (persona_description_position IN_PROMPT). */
    private String personaInPrompt() {
        JsonNode saved = settings.value("persona_description_position");
        JsonNode position = saved == null || saved.isNull() ? null : Js.number(saved);
        boolean inPrompt = saved == null || position != null && position.doubleValue() == 0; // JS ==, null != 0
        return inPrompt ? generation.card().persona() : "";
    }

    /** ST: doChatInject: IN_CHAT extension prompts spliced into the chat at their depth, by role. */
    private List<Integer> doChatInject(Messages messages, ExtensionPrompts allPrompts) {
        // ST inserts into the reversed chat; a depth counted from the end is the same place in the chat, the
        // messages inserted there in reverse order
        ExtensionPrompts extensionPrompts = inChatPrompts(allPrompts);
        List<Message> injectedMessages = new ArrayList<>();
        int totalInserted = 0;
        int[] roles = {ExtensionPrompts.SYSTEM, ExtensionPrompts.USER, ExtensionPrompts.ASSISTANT};
        for (int depth : extensionPrompts.depths(ExtensionPrompts.IN_CHAT)) { // ST walks every depth to the last
            List<Message> roleMessages = new ArrayList<>();
            for (int role : roles) {
                String prompt = InstructMode.trimStart(extensionPrompts.at(ExtensionPrompts.IN_CHAT, depth, "\n",
                        role, false));
                if (!prompt.isEmpty()) {
                    String name = role == ExtensionPrompts.SYSTEM ? "" : role == ExtensionPrompts.USER ? name1 : name2;
                    roleMessages.add(new Message(name, prompt, role == ExtensionPrompts.USER,
                            role == ExtensionPrompts.SYSTEM, false));
                }
            }
            if (!roleMessages.isEmpty()) {
                int at = isContinue && depth == 0 ? 1 : depth;
                int injectIndex = Math.min(at + totalInserted, messages.size());
                int place = messages.size() - injectIndex;
                for (Message message : roleMessages) {
                    messages.add(place, message); // each before the one inserted before it: reversed
                }
                totalInserted += roleMessages.size();
                injectedMessages.addAll(roleMessages);
            }
        }
        List<Integer> indices = new ArrayList<>();
        for (Message injectedMessage : injectedMessages) {
            int at = messages.lastIndexOfSame(injectedMessage);
            indices.add(at < 0 ? -1 : messages.size() - 1 - at); // its index in the reversed chat, as ST's
        }
        return indices;
    }

    /**
     * The in-chat prompts as ST stores them (setExtensionPrompt keeps {@code Number(depth)} and
     * {@code Number(role ?? SYSTEM)}): a prompt without a depth has NaN, which no depth matches, and one without a
     * role is a system prompt.
     */
    private ExtensionPrompts inChatPrompts(ExtensionPrompts allPrompts) {
        ExtensionPrompts inChat = new ExtensionPrompts(macros);
        allPrompts.all().forEach((key, prompt) -> {
            if (prompt.position() == ExtensionPrompts.IN_CHAT && prompt.depth() != null) {
                inChat.set(key, prompt.value(), prompt.position(), prompt.depth(), prompt.scan(),
                        prompt.role() == null ? ExtensionPrompts.SYSTEM : prompt.role());
            }
        });
        return inChat;
    }

    /** ST: the post-history instructions (sysprompt.post_history, or the card's) as a last user message. */
    private void postHistoryInstructions(Messages coreChat, List<Integer> injectedIndices) {
        if (!Js.truthy(settings.sysprompt.get("enabled"))) {
            return;
        }
        JsonNode postHistory = settings.sysprompt.get("post_history");
        String original = postHistory == null || postHistory.isNull() ? "" : Js.string(postHistory);
        String cardJailbreak = generation.card().jailbreak();
        String jailbreak = settings.flag("prefer_character_jailbreak", true) && !cardJailbreak.isEmpty()
                ? macros.substitute(cardJailbreak, Macros.Options.original(original))
                : baseChatReplace(postHistory);
        if (jailbreak == null || jailbreak.isEmpty()) {
            return;
        }
        Message message = new Message(null, jailbreak, true, false, false);
        if (isContinue) {
            coreChat.add(Math.max(0, coreChat.size() - 1), message);
        } else {
            coreChat.add(message);
            injectedIndices.replaceAll(index -> index + 1);
        }
    }

    private static Message message(ObjectNode item) {
        JsonNode name = item.get("name");
        return new Message(Js.truthy(name) ? Js.string(name) : null, Js.string(Js.coalesce(item.get("mes"),
                TextNode.valueOf(""))),
                Js.truthy(item.get("is_user")), "narrator".equals(Js.string(Js.get(item, "extra.type"))),
                Js.truthy(item.get("force_avatar")));
    }

    /** ST: formatMessageHistoryItem. */
    private String formatMessageHistoryItem(Message item, InstructMode.Force force) {
        String characterName = item.name() != null && !item.name().isEmpty() ? item.name() : name2;
        String itemName = item.isUser() ? item.name() : characterName;
        if (instruct) {
            return instructMode.formatChat(itemName, item.mes(), item.isUser(), item.narrator(), item.forceAvatar(),
                    force);
        }
        boolean named = item.name() != null && !item.name().isEmpty() && !item.narrator();
        return named ? itemName + ": " + item.mes() + "\n" : item.mes() + "\n";
    }

    private String addChatsSeparator(String mesSendString) {
        String chatStart = settings.contextText("chat_start");
        return chatStart.isEmpty() ? mesSendString : macros.substitute(chatStart + "\n") + mesSendString;
    }

    private static List<Integer> shiftDown(List<Integer> indices) {
        return new ArrayList<>(indices.stream().map(index -> index - 1).filter(index -> index >= 0).toList());
    }

    /** JavaScript's {@code text.slice(0, end)}. */
    private static String jsSlice(String text, int end) {
        int to = end < 0 ? Math.max(0, text.length() + end) : Math.min(end, text.length());
        return text.substring(0, to);
    }

    /** ST: getStoppingStrings for text completion. */
    private List<String> stoppingStrings() {
        List<String> result = new ArrayList<>();
        if (settings.contextFlag("names_as_stop_strings")) {
            String charString = "\n" + name2 + ":";
            String userString = "\n" + name1 + ":";
            result.add(isImpersonate ? charString : userString);
            result.add(userString);
            if (isContinue && lastChatMessageIsUser()) {
                result.add(charString);
            }
            if (generation.inGroup() && (!name2.isEmpty() || isImpersonate)) {
                for (String member : groupNames()) {
                    if (!member.equals(name2)) {
                        result.add("\n" + member + ":");
                    }
                }
            }
        }
        result.addAll(instructMode.stoppingSequences());
        result.addAll(customStoppingStrings());
        if (settings.flag("single_line", false)) {
            result.add(0, "\n");
        }
        LinkedHashSet<String> unique = new LinkedHashSet<>();
        for (String stop : result) {
            if (!stop.isEmpty()) {
                unique.add(stop);
            }
        }
        return List.copyOf(unique);
    }

    /** ST: getCustomStoppingStrings (power-user.js): the saved JSON list (no ephemeral strings server-side). */
    private List<String> customStoppingStrings() {
        String saved = settings.text("custom_stopping_strings", "");
        if (saved.isEmpty()) {
            return List.of();
        }
        JsonNode parsed = JsJson.tryParse(saved.getBytes(StandardCharsets.UTF_8));
        if (parsed == null || !parsed.isArray()) {
            return List.of();
        }
        boolean substitute = settings.flag("custom_stopping_strings_macro", true);
        List<String> strings = new ArrayList<>();
        for (JsonNode item : parsed) {
            if (item.isTextual() && !item.textValue().isEmpty()) {
                strings.add(substitute ? macros.substitute(item.textValue()) : item.textValue());
            }
        }
        return strings;
    }

    /** The names of the group's members (getGroupNames), in the group's order. */
    private List<String> groupNames() {
        List<String> names = new ArrayList<>();
        if (generation.inGroup()) {
            for (ObjectNode member : generation.inputs().members()) {
                if (member != null && Js.truthy(member.get("name"))) {
                    names.add(Js.string(member.get("name")));
                }
            }
        }
        return names;
    }

    /** The model the prompt is for (the macros' {@code {{model}}}), standing in for ST's {@code online_status}. */
    private String connectedModel() {
        String model = macros.env().model();
        return model == null ? "" : model;
    }

    /** ST's {@code amount_gen} as Generate reads it: {@code Number(settings.amount_gen)}. */
    private JsonNode amountGen() {
        JsonNode value = Js.number(generation.inputs().settings().get("amount_gen"));
        return value == null ? NullNode.getInstance() : TextGenRequest.number(value.doubleValue());
    }

    /** ST's {@code max_context}: {@code parseInt(settings.max_context)}, 2048 when settings.json has none. */
    private JsonNode maxContextSetting() {
        JsonNode value = generation.inputs().settings().get("max_context");
        if (value == null) {
            return IntNode.valueOf(2048);
        }
        Long parsed = TextGenRequest.parseInt(value.isNumber() ? JsJson.jsNumber(value.doubleValue()) : Js.string(value));
        return parsed == null ? NullNode.getInstance() : TextGenRequest.integer(parsed);
    }

    /**
     * ST's itemizedParams for a text completion prompt (public/scripts/itemized-prompts.js). The persona is part of
     * the story string, as ST shows it; {@code other} is the extension prompts that are neither summary, author's
     * note nor chat vectors, plus the prompt bias, so the parts add up to the total.
     */
    private Itemization itemize(String storyString, String examplesString, String mesSendString, String beforeAnchor,
                                String afterAnchor, String persona, String promptBias) {
        ExtensionPrompts prompts = generation.extensionPrompts();
        int worldInfo = counter.count(generation.worldInfo().before() + generation.worldInfo().after());
        int story = counter.count(storyString) - worldInfo;
        int examples = counter.count(examplesString);
        int allAnchors = counter.count(allExtensionPrompts(prompts));
        int anchors = counter.count(beforeAnchor) + counter.count(afterAnchor);
        int history = counter.count(mesSendString) - (allAnchors - anchors) + padding;
        int summary = counter.count(promptValue(prompts, "1_memory"));
        int authorsNote = counter.count(promptValue(prompts, "2_floating_prompt"));
        int vectors = counter.count(promptValue(prompts, "3_vectors"));
        int bias = counter.count(promptBias);

        Itemization itemization = new Itemization();
        itemization.add(Itemization.STORY_STRING, story);
        itemization.add(Itemization.WORLD_INFO, worldInfo);
        itemization.add(Itemization.EXAMPLES, examples);
        itemization.add(Itemization.HISTORY, history);
        itemization.add(Itemization.SUMMARY, summary);
        itemization.add(Itemization.AUTHORS_NOTE, authorsNote);
        itemization.add(Itemization.VECTORS, vectors);
        itemization.add(Itemization.PERSONA, counter.count(persona));
        itemization.add(Itemization.OTHER, allAnchors - summary - authorsNote - vectors + bias);
        itemization.total(story + worldInfo + examples + history + allAnchors + bias);
        return itemization;
    }

    private static String promptValue(ExtensionPrompts prompts, String key) {
        ExtensionPrompts.Prompt prompt = prompts.get(key);
        return prompt == null ? "" : prompt.value();
    }

    /** ST: getAllExtensionPrompts: every non-empty value, trimmed, joined by newlines, macros substituted. */
    private String allExtensionPrompts(ExtensionPrompts prompts) {
        List<String> values = new ArrayList<>();
        for (ExtensionPrompts.Prompt prompt : prompts.all().values()) {
            String value = Js.trim(prompt.value());
            if (!value.isEmpty()) {
                values.add(value);
            }
        }
        return macros.substitute(String.join("\n", values));
    }
}
