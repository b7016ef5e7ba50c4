package tankard.engine.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.engine.macro.Macros;
import tankard.engine.prompt.ExampleDialogue;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.Generation;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Fills a chat completion from the prompt manager's prompts, the chat and the example dialogues within the token
 * budget (ST: public/scripts/openai.js, prepareOpenAIMessages and the functions it calls).
 */
final class ChatCompletionBuilder {
    /**
     * A chat message on its way into the prompt (ST: the objects setOpenAIMessages makes); {@code invocations} are
     * the tool calls a message records, null for other messages.
     */
    record ChatPrompt(String role, String content, String name, boolean injected, JsonNode signature,
                      List<ObjectNode> invocations, String reasoning) {
        static ChatPrompt injected(String role, String content) {
            return new ChatPrompt(role, content, null, true, null, null, "");
        }

        /** An assistant message with text of its own, not a tool call. */
        boolean isAssistantText() {
            return role.equals("assistant") && invocations == null && !Js.trim(content).isEmpty();
        }
    }

    private static final String NARRATOR = "narrator";
    private static final Pattern WORLD_INFO_ARGUMENT = Pattern.compile("\\{(\\d+)}");
    private static final Pattern NOT_WORD = Pattern.compile("\\W");
    private static final Pattern OPENROUTER_GEMINI = Pattern.compile("google/gemini", Pattern.CASE_INSENSITIVE);
    private static final Pattern START_TAG = Pattern.compile("<START>", Pattern.CASE_INSENSITIVE);
    private static final List<String> KNOWN_EXTENSION_KEYS = List.of("1_memory", "2_floating_prompt", "3_vectors",
            "4_vectors_data_bank", "chromadb", "PERSONA_DESCRIPTION", "QUIET_PROMPT", "DEPTH_PROMPT");
    private static final List<String> KNOWN_RELATIVE_PROMPTS = List.of("summary", "authorsNote", "vectorsMemory",
            "vectorsDataBank", "smartContext");
    private static final List<String> ROLES = List.of("system", "user", "assistant");
    private static final String EXTENSION_PROMPTS_ORDER = "100";
    private static final Set<String> TOOL_SOURCES = Set.of("openai", "custom", "mistralai", "claude", "openrouter",
            "aimlapi", "groq", "cohere", "deepseek", "makersuite", "vertexai", "ai21", "xai", "pollinations", "moonshot",
            "fireworks", "cometapi", "chutes", "electronhub", "azure_openai", "zai", "siliconflow", "nanogpt",
            "workers_ai", "minimax");
    private static final String TOOL_REASONING_DISABLED = "disabled";
    private static final String SINCE_LAST_USER = "since_last_user";
    private static final String ACTIVE_CHAIN = "active_chain";
    private static final Set<String> TOOL_POST_PROCESSING = Set.of("", "merge_tools", "semi_tools", "strict_tools");

    private final Generation generation;
    private final OaiSettings settings;
    private final MessageTokens counter;
    private final Macros macros;
    private final PromptManager promptManager;
    private final String type;
    private final ChatCompletion chatCompletion = new ChatCompletion();
    private final Map<String, Integer> tokensByIdentifier = new LinkedHashMap<>();

    ChatCompletionBuilder(Generation generation, OaiSettings settings, MessageTokens counter) {
        this.generation = generation;
        this.settings = settings;
        this.counter = counter;
        this.macros = generation.macros();
        this.promptManager = new PromptManager(settings, macros);
        this.type = generation.action().stName();
    }

    /**
     * prepareOpenAIMessages: the messages array. When the prompts ST must send exceed the budget, ST warns and
     * sends what was placed until then, and so does this.
     */
    ArrayNode build() {
        List<ChatPrompt> messages = openAiMessages();
        List<List<ExampleDialogue.Message>> examples = openAiMessageExamples();
        chatCompletion.setTokenBudget(intSetting("openai_max_context"), intSetting("openai_max_tokens"));
        try {
            PromptCollection prompts = preparePrompts();
            populateChatCompletion(prompts, messages, examples, cyclePrompt());
        } catch (ChatCompletion.BudgetExceeded mandatoryPromptsTooLong) {
            // ST: "Mandatory prompts exceed the context size." and the request goes out as it stands
        }
        for (ChatItem item : chatCompletion.placed()) {
            tokensByIdentifier.put(item.identifier(), item.tokens());
        }
        if (settings.truthy("squash_system_messages")) {
            chatCompletion.squashSystemMessages(counter);
        }
        return chatCompletion.getChat();
    }

    /** The tokens of each top-level part before squashing (ST: PromptManager.populateTokenCounts). */
    Map<String, Integer> tokensByIdentifier() {
        return tokensByIdentifier;
    }

    private int intSetting(String key) {
        JsonNode number = Js.number(settings.get(key));
        return number == null ? 0 : number.intValue();
    }

    /**
     * Generate's cyclePrompt for a continue: the last message's text, with the continue postfix unless it ends in
     * a space.
     */
    private String cyclePrompt() {
        if (!generation.isContinue()) {
            return "";
        }
        List<ObjectNode> chat = generation.coreChat();
        String cyclePrompt = chat.isEmpty() ? "" : Js.string(chat.get(chat.size() - 1).get("mes"));
        return cyclePrompt.endsWith(" ") ? cyclePrompt : cyclePrompt + settings.string("continue_postfix");
    }

    // ---- setOpenAIMessages and setOpenAIMessageExamples ----

    /**
     * setOpenAIMessages: the chat as messages, newest first, names put into the text as names_behavior says. Each
     * is made when first read: the history reads a long chat only as far back as the budget reaches.
     */
    private List<ChatPrompt> openAiMessages() {
        String source = settings.source();
        String model = settings.model();
        List<ObjectNode> chat = generation.coreChat();
        ChatPrompt[] made = new ChatPrompt[chat.size()];
        return new AbstractList<>() {
            @Override
            public ChatPrompt get(int index) {
                if (made[Objects.checkIndex(index, made.length)] == null) {
                    made[index] = openAiMessage(chat.get(made.length - 1 - index), source, model);
                }
                return made[index];
            }

            @Override
            public int size() {
                return made.length;
            }
        };
    }

    private ChatPrompt openAiMessage(ObjectNode message, String source, String model) {
        boolean inGroup = generation.inGroup();
        JsonNode extra = message.path("extra");
        boolean narrator = extra.path("type").isTextual() && extra.get("type").textValue().equals(NARRATOR);
        String role = narrator ? "system" : Js.truthy(message.get("is_user")) ? "user" : "assistant";
        String content = Js.string(message.get("mes"));
        JsonNode nameNode = message.get("name");
        String name = Js.isUndefined(nameNode) || nameNode.isNull() ? null : Js.string(nameNode);
        String shownName = Js.string(message.get("name"));
        boolean notUser = !Js.strictEquals(message.get("name"), textNode(generation.name1()));
        switch (settings.namesBehavior()) {
            case OaiSettings.NAMES_DEFAULT -> {
                if (inGroup && notUser || Js.truthy(message.get("force_avatar")) && notUser && !narrator) {
                    content = shownName + ": " + content;
                }
            }
            case OaiSettings.NAMES_CONTENT -> {
                if (!narrator) {
                    content = shownName + ": " + content;
                }
            }
            default -> {
            }
        }
        content = content.replace("\r", "");
        boolean sameModel = Js.strictEquals(extra.get("api"), textNode(source))
                && Js.strictEquals(extra.get("model"), model == null ? NullNode.instance : textNode(model));
        boolean otherGroupMember = inGroup && !Js.strictEquals(message.get("name"), textNode(generation.name2()));
        JsonNode signature = sameModel && !otherGroupMember ? extra.get("reasoning_signature") : null;
        String reasoning = sameModel && !otherGroupMember && !Js.isUndefined(extra.get("reasoning"))
                && !extra.get("reasoning").isNull() ? Js.string(extra.get("reasoning")) : "";
        return new ChatPrompt(role, content, name, false, signature, invocations(extra, sameModel), reasoning);
    }

    /**
     * The history oldest first: the older messages as they are read, then the newest ones with the injections
     * among them. Removing one of the older messages (never needed in practice) makes the list whole first.
     */
    private static final class History extends AbstractList<ChatPrompt> {
        private List<ChatPrompt> older;
        private final List<ChatPrompt> recent;

        History(List<ChatPrompt> older, List<ChatPrompt> recent) {
            this.older = older;
            this.recent = recent;
        }

        @Override
        public ChatPrompt get(int index) {
            return index < older.size() ? older.get(index) : recent.get(index - older.size());
        }

        @Override
        public ChatPrompt remove(int index) {
            if (index < older.size()) {
                recent.addAll(0, older);
                older = List.of();
            }
            return recent.remove(index - older.size());
        }

        @Override
        public int size() {
            return older.size() + recent.size();
        }
    }

    /** The message's tool invocations; their signatures and reasoning only when the same model made them. */
    private static List<ObjectNode> invocations(JsonNode extra, boolean sameModel) {
        JsonNode saved = extra.get("tool_invocations");
        if (saved == null || !saved.isArray()) {
            return null;
        }
        List<ObjectNode> invocations = new ArrayList<>();
        for (JsonNode invocation : saved) {
            ObjectNode copy = invocation.isObject() ? ((ObjectNode) invocation).deepCopy() : JsJson.object();
            if (!sameModel && (Js.truthy(copy.get("signature")) || Js.truthy(copy.get("reasoning")))) {
                copy.remove(List.of("signature", "reasoning"));
            }
            invocations.add(copy);
        }
        return invocations;
    }

    private static JsonNode textNode(String text) {
        return TextNode.valueOf(text);
    }

    /** setOpenAIMessageExamples: each example block as its messages; none when power_user.strip_examples. */
    private List<List<ExampleDialogue.Message>> openAiMessageExamples() {
        List<List<ExampleDialogue.Message>> examples = new ArrayList<>();
        if (Js.truthy(PowerUser.get(generation, "strip_examples"))) {
            return examples;
        }
        for (String item : generation.examples()) {
            String replaced = START_TAG.matcher(item).replaceFirst(Matcher.quoteReplacement("{Example Dialogue:}"))
                    .replace("\r", "");
            examples.add(ExampleDialogue.parse(replaced, generation.name1(), generation.name2(), groupNames(),
                    generation.inGroup()));
        }
        return examples;
    }

    /** getGroupNames: the names of the group's members. */
    List<String> groupNames() {
        List<String> names = new ArrayList<>();
        if (generation.inGroup()) {
            for (ObjectNode member : generation.inputs().members()) {
                if (Js.truthy(member.get("name"))) {
                    names.add(Js.string(member.get("name")));
                }
            }
        }
        return names;
    }

    // ---- preparePromptsForChatCompletion ----

    /**
     * preparePromptsForChatCompletion: the prompt manager's prompts with the markers filled (world info, card
     * fields, persona), the control prompts (impersonation, group nudge, bias), the extension prompts that go
     * around the main prompt, and the card's overrides of the main prompt and post-history instructions.
     */
    private PromptCollection preparePrompts() {
        var card = generation.card();
        String scenario = Objects.toString(card.scenario(), "");
        String personality = Objects.toString(card.personality(), "");
        String scenarioText = !scenario.isEmpty() && settings.truthy("scenario_format")
                ? macros.substitute(settings.string("scenario_format")) : scenario;
        String personalityText = !personality.isEmpty() && settings.truthy("personality_format")
                ? macros.substitute(settings.string("personality_format")) : personality;
        String groupNudge = macros.substitute(settings.string("group_nudge_prompt"));
        String impersonation = settings.truthy("impersonation_prompt")
                ? macros.substitute(settings.string("impersonation_prompt")) : "";

        List<ManagedPrompt> systemPrompts = new ArrayList<>();
        systemPrompts.add(new ManagedPrompt("worldInfoBefore", "system", formatWorldInfo(generation.worldInfo().before())));
        systemPrompts.add(new ManagedPrompt("worldInfoAfter", "system", formatWorldInfo(generation.worldInfo().after())));
        systemPrompts.add(new ManagedPrompt("charDescription", "system", card.description()));
        systemPrompts.add(new ManagedPrompt("charPersonality", "system", personalityText));
        systemPrompts.add(new ManagedPrompt("scenario", "system", scenarioText));
        systemPrompts.add(new ManagedPrompt("impersonate", "system", impersonation));
        systemPrompts.add(new ManagedPrompt("quietPrompt", "system", ""));
        systemPrompts.add(new ManagedPrompt("groupNudge", "system", groupNudge));
        systemPrompts.add(new ManagedPrompt("bias", "assistant", bias()));

        ExtensionPrompts extensionPrompts = generation.extensionPrompts();
        addExtensionPrompt(systemPrompts, extensionPrompts.get("1_memory"), "summary", true);
        addExtensionPrompt(systemPrompts, extensionPrompts.get("2_floating_prompt"), "authorsNote", true);
        addExtensionPrompt(systemPrompts, extensionPrompts.get("3_vectors"), "vectorsMemory", false);
        addExtensionPrompt(systemPrompts, extensionPrompts.get("4_vectors_data_bank"), "vectorsDataBank", true);
        addExtensionPrompt(systemPrompts, extensionPrompts.get("chromadb"), "smartContext", false);

        String persona = personaDescription();
        if (persona != null) {
            systemPrompts.add(new ManagedPrompt("personaDescription", "system", persona));
        }

        for (Map.Entry<String, ExtensionPrompts.Prompt> entry : extensionPrompts.all().entrySet()) {
            ExtensionPrompts.Prompt prompt = entry.getValue();
            boolean aroundMain = prompt.position() == ExtensionPrompts.BEFORE_PROMPT
                    || prompt.position() == ExtensionPrompts.IN_PROMPT;
            if (KNOWN_EXTENSION_KEYS.contains(entry.getKey()) || prompt.value().isEmpty() || !aroundMain) {
                continue;
            }
            ManagedPrompt extension = new ManagedPrompt(NOT_WORD.matcher(entry.getKey()).replaceAll("_"),
                    promptRole(prompt.role()), prompt.value());
            extension.position = promptPosition(prompt.position());
            extension.extension = true;
            systemPrompts.add(extension);
        }

        PromptCollection prompts = promptManager.collection(type);
        for (ManagedPrompt prompt : systemPrompts) {
            ManagedPrompt collectionPrompt = prompts.get(prompt.identifier);
            if (collectionPrompt != null) {
                prompt.injectionPosition = Js.coalesce(collectionPrompt.injectionPosition, prompt.injectionPosition);
                prompt.injectionDepth = Js.coalesce(collectionPrompt.injectionDepth, prompt.injectionDepth);
                prompt.injectionOrder = Js.coalesce(collectionPrompt.injectionOrder, prompt.injectionOrder);
                prompt.role = collectionPrompt.role != null ? collectionPrompt.role : prompt.role;
            }
            ManagedPrompt prepared = promptManager.prepare(prompt);
            int markerIndex = prompts.index(prompt.identifier);
            if (markerIndex >= 0) {
                prompts.set(prepared, markerIndex);
            } else {
                prompts.add(prepared);
            }
        }

        applyOverride(prompts, "main", card.system());
        applyOverride(prompts, "jailbreak", card.jailbreak());
        return prompts;
    }

    private String bias() {
        return Objects.toString(generation.promptBias(), "");
    }

    /** The persona description when it goes into the prompt (power_user's text at position IN_PROMPT), else null. */
    private String personaDescription() {
        JsonNode position = PowerUser.get(generation, "persona_description_position");
        boolean inPrompt = position == null || position.isNumber() && position.doubleValue() == 0;
        JsonNode description = PowerUser.get(generation, "persona_description");
        return Js.truthy(description) && inPrompt ? Js.string(description) : null;
    }

    /** A known extension prompt (summary, author's note, vectors …) as a prompt placed around the main prompt. */
    private static void addExtensionPrompt(List<ManagedPrompt> systemPrompts, ExtensionPrompts.Prompt prompt,
                                           String identifier, boolean ownRole) {
        if (prompt == null || prompt.value().isEmpty()) {
            return;
        }
        ManagedPrompt managed = new ManagedPrompt(identifier, ownRole ? promptRole(prompt.role()) : "system",
                prompt.value());
        managed.position = promptPosition(prompt.position());
        systemPrompts.add(managed);
    }

    /** The card's main prompt or post-history instructions in place of the user's, unless that is off or forbidden. */
    private void applyOverride(PromptCollection prompts, String identifier, String override) {
        ManagedPrompt prompt = prompts.get(identifier);
        if (override == null || override.isEmpty() || prompt == null || prompt.forbidsOverrides()
                || promptManager.isDisabled(identifier)) {
            return;
        }
        String original = prompt.content;
        prompt.content = override;
        prompts.override(promptManager.prepare(prompt, original), prompts.index(identifier));
    }

    /** formatWorldInfo: the text in {@code wi_format}'s {0}. */
    private String formatWorldInfo(String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        String format = settings.string("wi_format");
        if (Js.trim(format).isEmpty()) {
            return value;
        }
        return WORLD_INFO_ARGUMENT.matcher(format).replaceAll(match ->
                Matcher.quoteReplacement(match.group(1).equals("0") ? value : match.group()));
    }

    /** getPromptPosition. */
    private static String promptPosition(int position) {
        return position == ExtensionPrompts.BEFORE_PROMPT ? "start" : position == ExtensionPrompts.IN_PROMPT ? "end" : null;
    }

    /** getPromptRole. */
    private static String promptRole(Integer role) {
        if (role == null) {
            return "system";
        }
        return switch (role) {
            case ExtensionPrompts.USER -> "user";
            case ExtensionPrompts.ASSISTANT -> "assistant";
            default -> "system";
        };
    }

    // ---- populateChatCompletion ----

    private void populateChatCompletion(PromptCollection prompts, List<ChatPrompt> messages,
                                        List<List<ExampleDialogue.Message>> examples, String cyclePrompt) {
        chatCompletion.reserveBudget(3); // every reply is primed with <|start|>assistant<|message|>
        for (String identifier : List.of("worldInfoBefore", "main", "worldInfoAfter", "charDescription",
                "charPersonality", "scenario", "personaDescription")) {
            addToChatCompletion(prompts, identifier);
        }

        MessageCollection controlPrompts = new MessageCollection("controlPrompts");
        Message impersonateMessage = Message.fromPrompt(prompts.get("impersonate"), counter);
        if (generation.isImpersonate()) {
            controlPrompts.add(impersonateMessage);
        }
        Message quietPromptMessage = Message.fromPrompt(prompts.get("quietPrompt"), counter);
        if (quietPromptMessage.hasContent()) {
            controlPrompts.add(quietPromptMessage);
        }
        chatCompletion.reserveBudget(controlPrompts);

        List<String> ordered = new ArrayList<>(List.of("nsfw", "jailbreak"));
        List<ManagedPrompt> absolutePrompts = new ArrayList<>();
        for (ManagedPrompt prompt : prompts.collection) {
            if (prompt.isUserPrompt() && !prompt.isAbsolute()) {
                ordered.add(prompt.identifier);
            }
            if (prompt.isAbsolute()) {
                absolutePrompts.add(prompt);
            }
        }
        for (String identifier : ordered) {
            addToChatCompletion(prompts, identifier);
        }
        if (prompts.has("enhanceDefinitions")) {
            addToChatCompletion(prompts, "enhanceDefinitions");
        }
        if (!Js.trim(bias()).isEmpty()) {
            addToChatCompletion(prompts, "bias");
        }

        for (String identifier : KNOWN_RELATIVE_PROMPTS) {
            ManagedPrompt prompt = prompts.get(identifier);
            if (prompt != null && prompt.position != null) {
                injectToMain(prompt, prompt.position, absolutePrompts);
            }
        }
        for (ManagedPrompt prompt : List.copyOf(prompts.collection)) {
            if (prompt.extension && prompt.position != null) {
                injectToMain(prompt, prompt.position, absolutePrompts);
            }
        }

        if (canPerformToolCalls()) {
            // ST reserves the tokens of the registered tools' definitions; the server registers none: "{}"
            chatCompletion.reserveBudget(counter.count(JsJson.object().put("role", "user").put("content", "{}")));
        }

        if (generation.isContinue() && settings.truthy("continue_prefill") && !messages.isEmpty()) {
            ChatPrompt continued = messages.get(0);
            messages = messages.subList(1, messages.size());
            boolean assistantPrefill = continued.role().equals("assistant") && settings.sourceIs(OaiSettings.CLAUDE);
            String prefill = assistantPrefill ? macros.substitute(settings.string("assistant_prefill")) : "";
            String content = String.join("\n\n", List.of(prefill, continued.content()).stream()
                    .filter(text -> !text.isEmpty()).toList());
            Message continueMessage = Message.create(continued.role(), content, "continuePrefill", counter);
            if (continued.name() != null && !continued.name().isEmpty()
                    && settings.namesBehavior() == OaiSettings.NAMES_COMPLETION) {
                continueMessage.setName(PromptManager.sanitizeName(continued.name()), counter);
            }
            controlPrompts.add(continueMessage);
            chatCompletion.reserveBudget(continueMessage);
        }

        List<ChatPrompt> withInjections = populateInjectionPrompts(absolutePrompts, messages);

        if (Js.truthy(PowerUser.get(generation, "pin_examples"))) {
            populateDialogueExamples(prompts, examples);
            populateChatHistory(withInjections, prompts, cyclePrompt);
        } else {
            populateChatHistory(withInjections, prompts, cyclePrompt);
            populateDialogueExamples(prompts, examples);
        }

        chatCompletion.freeBudget(controlPrompts);
        if (!controlPrompts.items().isEmpty()) {
            chatCompletion.add(controlPrompts);
        }
    }

    /**
     * ToolManager.canPerformToolCalls: function calling on, a source that supports it (by ST's list: the model
     * lists some sources consult are not known on the server), prompt post-processing that keeps tool calls, and a
     * generation type that may call tools.
     */
    private boolean canPerformToolCalls() {
        return isToolCallingSupported() && !generation.isImpersonate() && !generation.isContinue();
    }

    /** ToolManager.isToolCallingSupported. */
    private boolean isToolCallingSupported() {
        return settings.truthy("function_calling") && TOOL_SOURCES.contains(settings.source())
                && TOOL_POST_PROCESSING.contains(settings.string("custom_prompt_post_processing"));
    }

    /** getEffectiveToolReasoningMode for the providers that take reasoning with tool calls (OpenRouter, custom). */
    private String toolReasoningMode() {
        boolean provider = settings.sourceIs(OaiSettings.OPENROUTER) || settings.sourceIs(OaiSettings.CUSTOM);
        String mode = settings.string("tool_reasoning_mode");
        return provider && settings.truthy("show_thoughts") && List.of(SINCE_LAST_USER, ACTIVE_CHAIN).contains(mode)
                ? mode : TOOL_REASONING_DISABLED;
    }

    /** addToChatCompletion: a prompt as its own collection at its place in the order, unless off or in-chat. */
    private void addToChatCompletion(PromptCollection prompts, String identifier) {
        if (!prompts.has(identifier)) {
            return;
        }
        if (promptManager.isDisabled(identifier) && !identifier.equals("main")) {
            return;
        }
        ManagedPrompt prompt = prompts.get(identifier);
        if (prompt.isAbsolute()) {
            return;
        }
        MessageCollection collection = new MessageCollection(identifier);
        collection.add(Message.fromPrompt(prompt, counter));
        chatCompletion.add(collection, prompts.index(identifier));
    }

    /**
     * injectToMain: an extension prompt at the start or end of the main prompt; when the main prompt goes into the
     * chat, a copy goes into the chat next to it.
     */
    private void injectToMain(ManagedPrompt prompt, String position, List<ManagedPrompt> absolutePrompts) {
        if (chatCompletion.has("main")) {
            chatCompletion.insert(Message.fromPrompt(prompt, counter), "main", position);
            return;
        }
        for (int i = 0; i < absolutePrompts.size(); i++) {
            ManagedPrompt main = absolutePrompts.get(i);
            if ("main".equals(main.identifier)) {
                ManagedPrompt copy = prompt.copy();
                copy.role = main.role;
                copy.injectionPosition = main.injectionPosition;
                copy.injectionDepth = main.injectionDepth;
                copy.injectionOrder = main.injectionOrder;
                absolutePrompts.add(position.equals("end") ? i + 1 : i, copy);
                return;
            }
        }
    }

    /**
     * populationInjectionPrompts: at each depth, the in-chat prompts and the extension prompts of that depth, one
     * message per role, higher orders first; returns the chat oldest first.
     */
    private List<ChatPrompt> populateInjectionPrompts(List<ManagedPrompt> prompts, List<ChatPrompt> newestFirst) {
        ExtensionPrompts extensionPrompts = generation.extensionPrompts();
        int totalInserted = 0;
        // ST walks every depth up to MAX_INJECTION_DEPTH; only those with a prompt add anything
        java.util.NavigableSet<Integer> depths = extensionPrompts.depths(ExtensionPrompts.IN_CHAT);
        for (ManagedPrompt prompt : prompts) {
            JsonNode at = prompt.injectionDepth;
            double depth = at != null && at.isNumber() ? at.doubleValue() : -1;
            if (depth >= 0 && depth <= ExtensionPrompts.MAX_INJECTION_DEPTH && depth == Math.rint(depth)) {
                depths.add((int) depth);
            }
        }
        // the injections go among the newest messages, down to the deepest: the older ones are left to be read
        int spliced = Math.min(newestFirst.size(), depths.isEmpty() ? 1 : depths.last() + 1);
        List<ChatPrompt> messages = new ArrayList<>(newestFirst.subList(0, spliced));
        for (int depth : depths) {
            Map<String, List<ManagedPrompt>> orderGroups = new LinkedHashMap<>();
            orderGroups.put(EXTENSION_PROMPTS_ORDER, new ArrayList<>());
            for (ManagedPrompt prompt : prompts) {
                if (prompt.isAtDepth(depth) && prompt.content != null && !prompt.content.isEmpty()) {
                    String order = Js.string(Js.coalesce(prompt.injectionOrder,
                            IntNode.valueOf(100)));
                    orderGroups.computeIfAbsent(order, key -> new ArrayList<>()).add(prompt);
                }
            }
            List<String> orders = new ArrayList<>(orderGroups.keySet());
            orders.sort(Comparator.comparingDouble(ChatCompletionBuilder::orderValue).reversed());
            List<ChatPrompt> roleMessages = new ArrayList<>();
            for (String order : orders) {
                for (int r = 0; r < ROLES.size(); r++) {
                    String role = ROLES.get(r);
                    List<String> parts = new ArrayList<>();
                    String rolePrompts = String.join("\n", orderGroups.get(order).stream()
                            .filter(prompt -> role.equals(prompt.role)).map(prompt -> prompt.content).toList());
                    parts.add(rolePrompts);
                    if (order.equals(EXTENSION_PROMPTS_ORDER)) {
                        parts.add(extensionPrompts.at(ExtensionPrompts.IN_CHAT, depth, "\n", r, false));
                    }
                    String joint = String.join("\n", parts.stream().filter(text -> !text.isEmpty()).map(Js::trim).toList());
                    if (!joint.isEmpty()) {
                        roleMessages.add(ChatPrompt.injected(role, joint));
                    }
                }
            }
            if (!roleMessages.isEmpty()) {
                messages.addAll(Math.min(depth + totalInserted, messages.size()), roleMessages);
                totalInserted += roleMessages.size();
            }
        }
        Collections.reverse(messages);
        List<ChatPrompt> older = newestFirst.subList(spliced, newestFirst.size());
        return new History(new AbstractList<>() {
            @Override
            public ChatPrompt get(int index) {
                return older.get(older.size() - 1 - index);
            }

            @Override
            public int size() {
                return older.size();
            }
        }, messages);
    }

    /** An order group's key as a number ({@code +key}). */
    private static double orderValue(String order) {
        JsonNode number = Js.number(TextNode.valueOf(order));
        return number == null ? Double.NaN : number.doubleValue();
    }

    /**
     * populateChatHistory: the chat from the newest message back while the budget lasts, after the new-chat
     * marker; the group nudge after it, the continue nudge at the end.
     */
    private void populateChatHistory(List<ChatPrompt> messages, PromptCollection prompts, String cyclePrompt) {
        if (!prompts.has("chatHistory")) {
            return;
        }
        chatCompletion.add(new MessageCollection("chatHistory"), prompts.index("chatHistory"));

        String newChat = settings.string(generation.inGroup() ? "new_group_chat_prompt" : "new_chat_prompt");
        Message newChatMessage = Message.create("system", macros.substitute(newChat), "newMainChat", counter);
        chatCompletion.reserveBudget(newChatMessage);

        Message groupNudgeMessage = null;
        if (generation.inGroup() && prompts.has("groupNudge") && !generation.isImpersonate()) {
            groupNudgeMessage = Message.fromPrompt(prompts.get("groupNudge"), counter);
            chatCompletion.reserveBudget(groupNudgeMessage);
        }

        MessageCollection continueMessages = null;
        if (generation.isContinue() && !cyclePrompt.isEmpty() && !settings.truthy("continue_prefill")) {
            ManagedPrompt nudge = new ManagedPrompt("continueNudge", "system", macros.substitute(
                    settings.string("continue_nudge_prompt"), new Macros.Options(null, null, null, null, true,
                            Map.of("lastChatMessage", Js.trim(cyclePrompt)))));
            continueMessages = new MessageCollection("continueNudge");
            int continued = -1;
            for (int i = messages.size() - 1; i >= 0; i--) {
                if (!messages.get(i).injected()) {
                    continued = i;
                    break;
                }
            }
            if (continued >= 0) {
                ChatPrompt message = messages.remove(continued);
                continueMessages.add(Message.fromPrompt(promptManager.prepare(
                        new ManagedPrompt(null, message.role(), message.content())), counter));
            }
            continueMessages.add(Message.fromPrompt(promptManager.prepare(nudge), counter));
            chatCompletion.reserveBudget(continueMessages);
        }

        String sendIfEmpty = settings.string("send_if_empty");
        Message emptyReplacement = Message.create("user", sendIfEmpty, "emptyUserMessageReplacement", counter);
        if (!messages.isEmpty() && messages.get(messages.size() - 1).role().equals("assistant")
                && settings.truthy("send_if_empty") && chatCompletion.canAfford(emptyReplacement)) {
            chatCompletion.insert(emptyReplacement, "chatHistory", "end");
        }

        boolean includeSignature = isReasoningSignatureSupported();
        boolean namesInCompletion = settings.namesBehavior() == OaiSettings.NAMES_COMPLETION;
        boolean canUseTools = isToolCallingSupported();
        String toolReasoningMode = toolReasoningMode();
        int lastUserIndex = messages.size() - 1; // the last user message's, looked for from the end
        while (lastUserIndex >= 0 && !messages.get(lastUserIndex).role().equals("user")) {
            lastUserIndex--;
        }
        for (int index = 0; index < messages.size(); index++) {
            int promptIndex = messages.size() - 1 - index;
            ChatPrompt chatPrompt = messages.get(promptIndex);
            ManagedPrompt prompt = new ManagedPrompt("chatHistory-" + (messages.size() - index), chatPrompt.role(),
                    chatPrompt.content());
            prompt.name = chatPrompt.name();
            Message chatMessage = Message.fromPrompt(promptManager.prepare(prompt), counter);
            if (namesInCompletion && prompt.name != null && !prompt.name.isEmpty()) {
                chatMessage.setName(PromptManager.isValidName(prompt.name) ? prompt.name
                        : PromptManager.sanitizeName(prompt.name), counter);
            }
            if (canUseTools && chatPrompt.invocations() != null) {
                if (!insertToolCalls(chatPrompt, chatMessage, messages, promptIndex, lastUserIndex, toolReasoningMode,
                        includeSignature)) {
                    break;
                }
                continue;
            }
            if (includeSignature && Js.truthy(chatPrompt.signature())) {
                chatMessage.setSignature(chatPrompt.signature());
            }
            if (!chatCompletion.canAfford(chatMessage)) {
                break;
            }
            chatCompletion.insertAtStart(chatMessage, "chatHistory");
        }

        chatCompletion.freeBudget(newChatMessage);
        chatCompletion.insertAtStart(newChatMessage, "chatHistory");
        if (groupNudgeMessage != null) {
            chatCompletion.freeBudget(groupNudgeMessage);
            chatCompletion.insertAtEnd(groupNudgeMessage, "chatHistory");
        }
        if (continueMessages != null) {
            chatCompletion.freeBudget(continueMessages);
            chatCompletion.add(continueMessages);
        }
    }

    /**
     * A message's tool calls and their results, before the messages placed so far; false when they do not fit.
     * Reasoning goes with the calls made since the user's last message when the provider takes it.
     */
    private boolean insertToolCalls(ChatPrompt chatPrompt, Message chatMessage, List<ChatPrompt> messages,
                                    int promptIndex, int lastUserIndex, String reasoningMode, boolean includeSignature) {
        boolean reasoningEligible = !reasoningMode.equals(TOOL_REASONING_DISABLED) && promptIndex > lastUserIndex;
        String previousReasoning = reasoningEligible
                ? previousAssistantReasoning(messages, promptIndex, lastUserIndex, reasoningMode) : "";
        List<ObjectNode> invocations = new ArrayList<>();
        for (ObjectNode invocation : chatPrompt.invocations()) {
            ObjectNode clone = invocation.deepCopy();
            if (!reasoningEligible) {
                clone.remove("reasoning");
            } else if (!previousReasoning.isEmpty() && !Js.truthy(clone.get("reasoning"))) {
                clone.put("reasoning", previousReasoning);
            }
            invocations.add(clone);
        }
        Message toolCallMessage = Message.create(chatMessage.role(), null, "toolCall-" + chatMessage.identifier(),
                counter);
        List<Message> results = new ArrayList<>();
        for (int i = invocations.size() - 1; i >= 0; i--) {
            ObjectNode invocation = invocations.get(i);
            String result = Js.truthy(invocation.get("result")) ? Js.string(invocation.get("result")) : "[No content]";
            String id = Js.isUndefined(invocation.get("id")) ? null : Js.string(invocation.get("id"));
            results.add(Message.create("tool", result, id, counter));
        }
        toolCallMessage.setToolCalls(invocations, includeSignature, !reasoningMode.equals(TOOL_REASONING_DISABLED),
                counter);
        List<Message> all = new ArrayList<>();
        all.add(toolCallMessage);
        all.addAll(results);
        if (!chatCompletion.canAffordAll(all)) {
            return false;
        }
        for (Message result : results) {
            chatCompletion.insertAtStart(result, "chatHistory");
        }
        chatCompletion.insertAtStart(toolCallMessage, "chatHistory");
        return true;
    }

    /** The reasoning of the assistant's text before a tool call, looked for as the reasoning mode says. */
    private static String previousAssistantReasoning(List<ChatPrompt> messages, int promptIndex, int lastUserIndex,
                                                     String mode) {
        for (int i = promptIndex - 1; i > lastUserIndex; i--) {
            ChatPrompt candidate = messages.get(i);
            if (mode.equals(ACTIVE_CHAIN)) {
                if (candidate.role().equals("tool")
                        || candidate.role().equals("assistant") && candidate.invocations() != null) {
                    continue;
                }
                return candidate.isAssistantText() ? candidate.reasoning() : "";
            }
            if (candidate.isAssistantText() && !candidate.reasoning().isEmpty()) {
                return candidate.reasoning();
            }
        }
        return "";
    }

    /** isReasoningSignatureSupported: Google's models keep their reasoning signatures. */
    private boolean isReasoningSignatureSupported() {
        return settings.sourceIs(OaiSettings.VERTEXAI) || settings.sourceIs(OaiSettings.MAKERSUITE)
                || settings.sourceIs(OaiSettings.OPENROUTER)
                && OPENROUTER_GEMINI.matcher(settings.string("openrouter_model")).find();
    }

    /** populateDialogueExamples: whole example dialogues, each after the example-chat marker, while they fit. */
    private void populateDialogueExamples(PromptCollection prompts, List<List<ExampleDialogue.Message>> examples) {
        if (!prompts.has("dialogueExamples")) {
            return;
        }
        chatCompletion.add(new MessageCollection("dialogueExamples"), prompts.index("dialogueExamples"));
        if (examples.isEmpty()) {
            return;
        }
        Message newExampleChat = Message.create("system",
                macros.substitute(settings.string("new_example_chat_prompt")), "newChat", counter);
        for (int dialogueIndex = 0; dialogueIndex < examples.size(); dialogueIndex++) {
            List<ExampleDialogue.Message> dialogue = examples.get(dialogueIndex);
            List<Message> chatMessages = new ArrayList<>();
            for (int promptIndex = 0; promptIndex < dialogue.size(); promptIndex++) {
                ExampleDialogue.Message example = dialogue.get(promptIndex);
                Message chatMessage = Message.create("system", example.content(),
                        "dialogueExamples " + dialogueIndex + "-" + promptIndex, counter);
                chatMessage.setName(example.name(), counter);
                chatMessages.add(chatMessage);
            }
            List<Message> all = new ArrayList<>();
            all.add(newExampleChat);
            all.addAll(chatMessages);
            if (!chatCompletion.canAffordAll(all)) {
                break;
            }
            chatCompletion.insert(newExampleChat, "dialogueExamples", "end");
            for (Message chatMessage : chatMessages) {
                chatCompletion.insert(chatMessage, "dialogueExamples", "end");
            }
        }
    }
}
