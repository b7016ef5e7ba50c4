package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.engine.macro.MacroEnv;
import tankard.engine.macro.Macros;
import tankard.engine.memory.SummaryMemory;
import tankard.engine.memory.VectorMemory;
import tankard.engine.openai.ChatCompletionPrompt;
import tankard.engine.prompt.Action;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.ChatHashes;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.Generation;
import tankard.engine.prompt.PromptInputs;
import tankard.engine.prompt.TokenCounter;
import tankard.engine.prompt.WorldInfo;
import tankard.engine.text.TextCompletionPrompt;
import tankard.engine.worldinfo.WorldInfoScanner;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Builds the prompt ST's frontend builds for a generation (ST: public/script.js, Generate): the part common to
 * every API is here, up to where Generate turns to text completion ({@link TextCompletionPrompt}) or chat
 * completion ({@link ChatCompletionPrompt}). Pure: reads its inputs, writes nothing.
 */
public final class PromptEngine {
    /** ST's extension prompt keys (public/scripts/constants.js inject_ids, and the modules' MODULE_NAME). */
    static final String DEPTH_PROMPT = "DEPTH_PROMPT";
    static final String PERSONA_DESCRIPTION = "PERSONA_DESCRIPTION";
    static final String MEMORY = "1_memory";
    static final String AUTHORS_NOTE = "2_floating_prompt";

    /** ST's persona_description_positions (public/scripts/personas.js). */
    private static final int PERSONA_TOP_AN = 2;
    private static final int PERSONA_BOTTOM_AN = 3;
    private static final int PERSONA_AT_DEPTH = 4;
    private static final int PERSONA_NONE = 9;
    /** ST's power_user.reasoning defaults (public/scripts/power-user.js). */
    private static final JsonNode DEFAULT_REASONING = JsJson.parse("{\"add_to_prompts\":false,\"prefix\":\"<think>\","
            + "\"suffix\":\"</think>\",\"separator\":\"\\n\",\"max_additions\":1}");

    private PromptEngine() {
    }

    /** The request ST's frontend would send for the action, with its itemization. */
    public static BuiltPrompt build(PromptInputs inputs, Action action) {
        return build(prepare(inputs, action));
    }

    static BuiltPrompt build(Generation generation) {
        return isChatCompletion(generation.inputs().settings())
                ? ChatCompletionPrompt.build(generation)
                : TextCompletionPrompt.build(generation);
    }

    /** ST's {@code main_api}: chat completion is "openai"; text completion "textgenerationwebui". */
    static boolean isChatCompletion(ObjectNode settings) {
        String api = mainApi(settings);
        return switch (api) {
            case "openai" -> true;
            case "textgenerationwebui" -> false;
            default -> throw Refusal.badRequest("The server engine builds prompts for chat completion (openai) and "
                    + "text completion (textgenerationwebui) only, not " + api);
        };
    }

    private static String mainApi(ObjectNode settings) {
        JsonNode api = settings.get("main_api");
        // ST: public/script.js loadSettings: an unset main_api is 'kobold', the retired 'poe' is 'openai'
        String name = api == null || api.isNull() ? "kobold" : text(api);
        return name.equals("poe") ? "openai" : name;
    }

    /**
     * ST's Vector Storage "Vectorize All" step (public/scripts/extensions/vectors/index.js, synchronizeChat with a
     * batch size): up to {@code limit} of the messages the chat's collection lacks inserted, with the macros a
     * prompt substitutes in them. Null when the user has not enabled chat vectorization.
     */
    static VectorMemory.Stats synchronizeVectors(PromptInputs inputs, int limit) {
        if (inputs.vectors() == null) {
            return null;
        }
        ObjectNode settings = inputs.settings();
        ObjectNode powerUser = object(settings.get("power_user"));
        Persona persona = Persona.of(settings, powerUser, inputs.metadata());
        Macros macros = cardMacros(inputs, inputs.chat(), Action.NORMAL, new ExtensionPrompts[1], powerUser, persona)
                .macros();
        return new VectorMemory(object(settings.get("extension_settings")).get("vectors"))
                .synchronize(list(inputs.chat()), inputs.known(), macros, inputs.vectors(), limit);
    }

    private record CardMacros(MacroEnv.CardFields card, Macros macros) {
    }

    /** The card's fields (their own macros substituted) and the macros of the chat that read them. */
    private static CardMacros cardMacros(PromptInputs inputs, ArrayNode chat, Action action, ExtensionPrompts[] outlets,
                                         ObjectNode powerUser, Persona persona) {
        MacroEnv.CardFields card = cardFields(inputs, powerUser, inputs.metadata(), persona,
                new Macros(macroEnv(inputs, chat, MacroEnv.CardFields.EMPTY, action, outlets)));
        return new CardMacros(card, new Macros(macroEnv(inputs, chat, card, action, outlets)));
    }

    /** Generate from its start to the branch on the API. */
    static Generation prepare(PromptInputs inputs, Action action) {
        ObjectNode settings = inputs.settings();
        ObjectNode powerUser = object(settings.get("power_user"));
        ObjectNode metadata = inputs.metadata();
        boolean chatCompletion = isChatCompletion(settings);
        Persona persona = Persona.of(settings, powerUser, metadata);
        String name1 = persona.name();
        String name2 = inputs.character() == null ? "" : text(inputs.character().get("name"));

        // copies one level deep, as ST's spreads do: the engine changes messages' fields, never what is inside them
        ArrayNode chat = JsJson.array().addAll(inputs.chat());
        JsonNode last = chat.isEmpty() ? null : chat.get(chat.size() - 1);
        if (action == Action.SWIPE && (last == null || Js.truthy(last.get("is_user")))) {
            throw Refusal.badRequest("There is no reply to swipe: the chat's last message is not the character's");
        }
        if (action == Action.CONTINUE && last == null) {
            throw Refusal.badRequest("There is no message to continue: the chat is empty");
        }
        String bias = "";
        if (action == Action.REGENERATE && inputs.group() != null) {
            // ST: group-chats.js regenerateGroup: the last round's replies go, then a normal generation
            for (int drop = GroupMembers.lastRound(chat); drop > 0; drop--) {
                chat.remove(chat.size() - 1);
            }
            action = Action.NORMAL;
        } else if (action == Action.REGENERATE && !chat.isEmpty() && !Js.truthy(chat.get(chat.size() - 1).get("is_user"))) {
            chat.remove(chat.size() - 1);
        }

        ObjectNode userMessage = userMessage(inputs, action);
        if (userMessage != null) {
            chat.add(userMessage);
        }
        ExtensionPrompts[] outlets = new ExtensionPrompts[1]; // {{outlet::key}} reads the prompts made below
        CardMacros cardMacros = cardMacros(inputs, chat, action, outlets, powerUser, persona);
        MacroEnv.CardFields card = cardMacros.card();
        Macros macros = cardMacros.macros();
        ExtensionPrompts prompts = new ExtensionPrompts(macros);
        outlets[0] = prompts;
        ObjectNode extensions = object(settings.get("extension_settings"));
        boolean noteScan = Js.truthy(extensions.path("note").get("allowWIScan"));

        // ST: Generate, the depth prompts: each group member's (getGroupDepthPrompts), else the character's
        List<GroupMembers.DepthPrompt> groupDepthPrompts = GroupMembers.depthPrompts(inputs, macros, powerUser);
        if (!groupDepthPrompts.isEmpty()) {
            for (int i = 0; i < groupDepthPrompts.size(); i++) {
                GroupMembers.DepthPrompt depthPrompt = groupDepthPrompts.get(i);
                prompts.set(DEPTH_PROMPT + "_" + i, depthPrompt.text(), ExtensionPrompts.IN_CHAT, depthPrompt.depth(),
                        noteScan, depthPrompt.role());
            }
        } else {
            JsonNode depthPrompt = inputs.character() == null ? null
                    : inputs.character().path("data").path("extensions").get("depth_prompt");
            prompts.set(DEPTH_PROMPT, card.charDepthPrompt(), ExtensionPrompts.IN_CHAT, GroupMembers.depthOf(depthPrompt), noteScan,
                    role(depthPrompt == null ? null : depthPrompt.get("role")));
        }

        if (!chat.isEmpty()) {
            ObjectNode first = shallowCopy(chat.get(0));
            first.put("mes", macros.substitute(text(first.get("mes"))));
            chat.set(0, first);
        }

        // the chat's own messages, shared with other prompts: a message is copied before it is changed
        List<ObjectNode> coreChat = inputs.known().coreChat(chat,
                message -> Js.truthy(message.get("is_system")) ? null : withTitles(message));
        if (action == Action.SWIPE && !coreChat.isEmpty()) {
            coreChat.remove(coreChat.size() - 1);
        }
        addReasoning(coreChat, action, name2, inputs.group() != null, powerUser, macros);

        int maxContext = maxContext(settings, chatCompletion);
        if (inputs.vectors() != null) {
            // ST: Generate runs the generation interceptors here; Vector Storage's is rearrangeChat
            VectorMemory vectors = new VectorMemory(extensions.get("vectors"));
            vectors.synchronize(list(chat), inputs.known(), macros, inputs.vectors());
            vectors.rearrange(coreChat, inputs.known(), macros, inputs.vectors(), prompts);
        }
        bias = promptBias(chat, action, powerUser, macros);
        boolean forceName2 = action != Action.IMPERSONATE
                && (!bias.isEmpty() && !bias.equals(macros.substitute(text(powerUser.get("user_prompt_bias"))))
                || Js.truthy(powerUser.get("always_force_name2")));

        boolean instruct = !chatCompletion && Js.truthy(powerUser.path("instruct").get("enabled"));
        List<String> examples = parseExamples(card.mesExamples(), instruct, chatCompletion, powerUser, macros);

        Note note = Note.of(metadata, extensions);
        boolean noteActive = authorsNote(prompts, chat, note, extensions, inputs.character());
        memory(prompts, chat, extensions, macros);

        WorldInfo worldInfo = WorldInfoScanner.scan(new WorldInfoScanner.Input(persona.withLorebook(settings),
                inputs.character(), metadata, inputs.books(), coreChat, card, action, maxContext, prompts,
                noteActive, macros, tokenCounter(inputs, chatCompletion), ThreadLocalRandom.current()));

        for (WorldInfo.Example example : worldInfo.examples()) {
            if (example.content().isEmpty()) {
                continue;
            }
            List<String> parsed = parseExamples(baseChatReplace(example.content(), macros, powerUser), instruct,
                    chatCompletion, powerUser, macros);
            if (example.position() == WorldInfo.Example.BEFORE) {
                examples.addAll(0, parsed);
            } else {
                examples.addAll(parsed);
            }
        }
        for (WorldInfo.DepthGroup group : worldInfo.depth()) {
            prompts.set("customDepthWI_" + group.depth() + "_" + group.role(), String.join("\n", group.entries()),
                    ExtensionPrompts.IN_CHAT, group.depth(), false, group.role());
        }
        worldInfo.outlets().forEach((name, entries) -> prompts.set("customWIOutlet_" + name,
                String.join("\n", entries), ExtensionPrompts.NONE, 0, false, null));
        personaDescription(prompts, persona, note, noteActive);

        return new Generation(inputs, action, name1, name2, macros, card, coreChat, maxContext, forceName2,
                examples, worldInfo, prompts, bias);
    }

    /** The persona the chat speaks as: the chat's locked persona, else the selected one (ST: personas.js). */
    record Persona(String avatar, String name, String description, int position, int depth, int role,
                   JsonNode lorebook) {
        static Persona of(ObjectNode settings, ObjectNode powerUser, ObjectNode metadata) {
            String avatar = text(settings.get("user_avatar"));
            String name = text(settings.get("username"));
            String description = text(powerUser.get("persona_description"));
            int position = intOr(powerUser.get("persona_description_position"), 0);
            int depth = intOr(powerUser.get("persona_description_depth"), 2);
            int role = intOr(powerUser.get("persona_description_role"), 0);
            JsonNode lorebook = powerUser.get("persona_description_lorebook");
            JsonNode locked = metadata.get("persona");
            if (locked != null && locked.isTextual() && powerUser.path("personas").has(locked.textValue())) {
                avatar = locked.textValue();
                name = text(powerUser.path("personas").get(avatar));
                JsonNode saved = powerUser.path("persona_descriptions").path(avatar);
                description = text(saved.get("description"));
                position = intOr(saved.get("position"), 0);
                depth = intOr(saved.get("depth"), 2);
                role = intOr(saved.get("role"), 0);
                lorebook = saved.get("lorebook");
            }
            return new Persona(avatar, name, description, position, depth, role, lorebook);
        }

        /**
         * The settings with this persona's lorebook as the selected one, as ST's selectCurrentPersona leaves
         * {@code power_user} for a chat locked to a persona.
         */
        ObjectNode withLorebook(ObjectNode settings) {
            JsonNode selected = settings.path("power_user").get("persona_description_lorebook");
            if (java.util.Objects.equals(selected, lorebook) || !(settings.get("power_user") instanceof ObjectNode)) {
                return settings;
            }
            ObjectNode copy = settings.deepCopy();
            ((ObjectNode) copy.get("power_user")).set("persona_description_lorebook", lorebook);
            return copy;
        }
    }

    /** ST: public/script.js getCharacterCardFieldsLazy, each field trimmed then baseChatReplace'd. */
    private static MacroEnv.CardFields cardFields(PromptInputs inputs, ObjectNode powerUser, ObjectNode metadata,
                                                  Persona persona, Macros macros) {
        String personaText = baseChatReplace(persona.description().strip(), macros, powerUser);
        ObjectNode character = inputs.character();
        if (character == null) {
            return new MacroEnv.CardFields("", "", "", personaText, "", "", "", "", "", "", "", List.of());
        }
        JsonNode data = character.path("data");
        GroupMembers.Cards group = GroupMembers.cards(inputs, metadata, macros, powerUser);
        String system = Js.truthy(metadata.get("system_prompt")) ? text(metadata.get("system_prompt"))
                : text(data.get("system_prompt"));
        String scenario = Js.truthy(metadata.get("scenario")) ? text(metadata.get("scenario"))
                : text(character.get("scenario"));
        String examples = Js.truthy(metadata.get("mes_example")) ? text(metadata.get("mes_example"))
                : text(character.get("mes_example"));
        return new MacroEnv.CardFields(
                group != null ? group.description() : cardText(character.get("description"), macros, powerUser),
                group != null ? group.personality() : cardText(character.get("personality"), macros, powerUser),
                group != null ? group.scenario() : baseChatReplace(scenario.strip(), macros, powerUser),
                personaText,
                group != null ? group.mesExamples() : baseChatReplace(examples.strip(), macros, powerUser),
                Js.truthy(powerUser.get("prefer_character_prompt")) ? baseChatReplace(system.strip(), macros, powerUser) : "",
                Js.truthy(powerUser.get("prefer_character_jailbreak"))
                        ? cardText(data.get("post_history_instructions"), macros, powerUser) : "",
                cardText(data.path("extensions").path("depth_prompt").get("prompt"), macros, powerUser),
                cardText(data.get("creator_notes"), macros, powerUser),
                text(data.get("character_version")),
                text(character.get("first_mes")),
                greetings(data.get("alternate_greetings")));
    }

    private static List<String> greetings(JsonNode greetings) {
        List<String> list = new ArrayList<>();
        if (greetings != null && greetings.isArray()) {
            greetings.forEach(greeting -> list.add(text(greeting)));
        }
        return list;
    }

    private static String cardText(JsonNode value, Macros macros, ObjectNode powerUser) {
        return baseChatReplace(value == null || value.isNull() ? "" : text(value).strip(), macros, powerUser);
    }

    static String baseChatReplace(String value, Macros macros, ObjectNode powerUser) {
        return baseChatReplace(value, macros, powerUser, null);
    }

    /**
     * ST: public/script.js baseChatReplace: macros (card macros kept, the character's name overridden where
     * given), newlines collapsed if set, no CR.
     */
    static String baseChatReplace(String value, Macros macros, ObjectNode powerUser, String name2) {
        if (value == null || value.isEmpty()) {
            return value == null ? "" : value;
        }
        value = macros.substitute(value, new Macros.Options(null, name2, null, null, false, Map.of()));
        if (Js.truthy(powerUser.get("collapse_newlines"))) {
            value = value.replaceAll("\n+", "\n");
        }
        return value.replace("\r", "");
    }

    /** What macros read (ST: MacroEnvBuilder): the chat as it is, the card fields once they are known. */
    private static MacroEnv macroEnv(PromptInputs inputs, ArrayNode chat, MacroEnv.CardFields card, Action action,
                                     ExtensionPrompts[] outlets) {
        ObjectNode settings = inputs.settings();
        Persona persona = Persona.of(settings, object(settings.get("power_user")), inputs.metadata());
        String name2 = inputs.character() == null ? "" : text(inputs.character().get("name"));
        String avatar = inputs.character() == null ? null : text(inputs.character().get("avatar"));
        boolean chatCompletion = isChatCompletion(settings);
        int context = maxContextSize(settings, chatCompletion);
        return new MacroEnv(persona.name(), name2, settings, card, avatar, GroupMembers.members(inputs), chat,
                inputs.metadata(), inputs.chatId(), model(settings), context,
                context - maxContext(settings, chatCompletion), "", action == null ? "" : action.stName(),
                inputs.now(), null, key -> {
                    ExtensionPrompts.Prompt outlet = outlets[0] == null ? null : outlets[0].get("customWIOutlet_" + key);
                    return outlet == null ? "" : outlet.value();
                });
    }

    /**
     * ST: public/script.js sendMessageAsUser, the message a send adds before the prompt is built; null when the
     * action adds none.
     */
    static ObjectNode userMessage(PromptInputs inputs, Action action) {
        if (action != Action.NORMAL || inputs.userText() == null || inputs.userText().isEmpty()) {
            return null;
        }
        ObjectNode powerUser = object(inputs.settings().get("power_user"));
        Persona persona = Persona.of(inputs.settings(), powerUser, inputs.metadata());
        ObjectNode message = JsJson.object();
        message.put("name", persona.name());
        message.put("is_user", true);
        message.put("is_system", false);
        message.put("send_date", isoTime(inputs.now()));
        message.put("mes", new Macros(macroEnv(inputs, inputs.chat(), MacroEnv.CardFields.EMPTY, action,
                new ExtensionPrompts[1])).substitute(inputs.userText()));
        message.putObject("extra").put("isSmallSys", false);
        if (powerUser.path("personas").has(persona.avatar())) { // ST locks the message's avatar to the persona
            message.put("force_avatar", "/thumbnail?type=persona&file=" + Urls.encodeUriComponent(persona.avatar()));
        }
        return message;
    }

    /** JavaScript's {@code Date.prototype.toISOString}, what ST's getMessageTimeStamp answers. */
    static String isoTime(java.time.ZonedDateTime time) {
        return java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
                .format(time.withZoneSameInstant(java.time.ZoneOffset.UTC));
    }

    /** ST: Generate's coreChat map: titles of attachments the user asked to append, in a copy. */
    private static ObjectNode withTitles(ObjectNode message) {
        List<String> titles = ChatHashes.titles(message);
        if (titles.isEmpty()) {
            return message;
        }
        return shallowCopy(message).put("mes", text(message.get("mes")) + "\n\n" + String.join("\n\n", titles));
    }

    /**
     * ST: Generate's loop over PromptReasoning.addToMessage (public/scripts/reasoning.js): the newest messages'
     * reasoning is put before their text in the reasoning template, up to {@code max_additions} when
     * {@code add_to_prompts} is on; the message a continue extends always keeps its reasoning.
     */
    private static void addReasoning(List<ObjectNode> coreChat, Action action, String name2, boolean inGroup,
                                     ObjectNode powerUser, Macros macros) {
        // power_user is ST's defaults with settings.json's power_user assigned over them, one level deep
        JsonNode settings = powerUser.has("reasoning") ? powerUser.get("reasoning") : DEFAULT_REASONING;
        boolean adding = Js.truthy(settings.get("add_to_prompts"));
        JsonNode max = settings.get("max_additions");
        int maxAdditions = max == null || !max.isNumber() ? Integer.MAX_VALUE : max.asInt();
        int added = 0;
        for (int i = coreChat.size() - 1; i >= 0; i--) {
            ObjectNode message = coreChat.get(i);
            boolean prefix = action == Action.CONTINUE && i == coreChat.size() - 1;
            boolean otherMember = inGroup && !text(message.get("name")).equals(name2);
            String reasoning = text(message.path("extra").get("reasoning"));
            boolean add = prefix || adding && added < maxAdditions;
            if (!otherMember && add && !reasoning.isEmpty() && !reasoning.equals("\u200B")) {
                added++;
                String content = text(message.get("mes"));
                String start = macros.substitute(text(settings.get("prefix")));
                String formatted = prefix && content.isEmpty() ? start + reasoning
                        : start + reasoning + macros.substitute(text(settings.get("suffix")))
                        + macros.substitute(text(settings.get("separator"))) + content;
                coreChat.set(i, shallowCopy(message).put("mes", formatted));
            }
            if (!adding || added >= maxAdditions) {
                break;
            }
        }
    }

    /** ST's getTokenCountAsync for the API at hand, as world info, summaries and extensions count. */
    static TokenCounter tokenCounter(PromptInputs inputs, boolean chatCompletion) {
        return chatCompletion ? ChatCompletionPrompt.tokenCounter(inputs) : TextCompletionPrompt.tokenCounter(inputs);
    }

    /** ST: public/script.js getMaxPromptTokens: the context size less the response length. */
    static int maxContext(ObjectNode settings, boolean chatCompletion) {
        if (chatCompletion) {
            ObjectNode oai = object(settings.get("oai_settings"));
            return maxContextSize(settings, true) - intOr(oai.get("openai_max_tokens"), 300);
        }
        return maxContextSize(settings, false) - intOr(settings.get("amount_gen"), 80);
    }

    /** ST: public/script.js getMaxContextTokens. */
    static int maxContextSize(ObjectNode settings, boolean chatCompletion) {
        return chatCompletion ? intOr(object(settings.get("oai_settings")).get("openai_max_context"), 4095)
                : intOr(settings.get("max_context"), 2048);
    }

    /** ST: public/script.js getBiasStrings, for a generation without typed bias. */
    private static String promptBias(ArrayNode chat, Action action, ObjectNode powerUser, Macros macros) {
        if (action == Action.IMPERSONATE || action == Action.CONTINUE) {
            return "";
        }
        String bias = "";
        for (int i = chat.size() - 1; i >= 0; i--) {
            JsonNode message = chat.get(i);
            if (action == Action.SWIPE && i == chat.size() - 1) {
                continue;
            }
            if (Js.truthy(message.get("is_user")) || Js.truthy(message.get("is_system"))
                    || "narrator".equals(text(message.path("extra").get("type")))) {
                String messageBias = text(message.path("extra").get("bias"));
                if (!messageBias.strip().isEmpty()) {
                    bias = messageBias;
                }
                break;
            }
        }
        if (bias.isEmpty()) {
            bias = text(powerUser.get("user_prompt_bias"));
        }
        return macros.substitute(bias);
    }

    /** ST: public/script.js parseMesExamples. */
    static List<String> parseExamples(String examples, boolean instruct, boolean chatCompletion,
                                      ObjectNode powerUser, Macros macros) {
        List<String> blocks = new ArrayList<>();
        if (examples == null || examples.isEmpty() || examples.equals("<START>")) {
            return blocks;
        }
        if (!examples.startsWith("<START>")) {
            examples = "<START>\n" + Js.trim(examples);
        }
        String separator = text(powerUser.path("context").get("example_separator"));
        String exampleSeparator = separator.isEmpty() ? "" : macros.substitute(separator) + "\n";
        String heading = chatCompletion || instruct ? "<START>\n" : exampleSeparator;
        String[] split = examples.split("(?i)<START>", -1);
        for (int i = 1; i < split.length; i++) {
            blocks.add(heading + Js.trim(split[i]) + "\n");
        }
        return blocks;
    }

    /** The author's note as ST's authors-note.js loadSettings fills the chat's metadata from its defaults. */
    private record Note(String text, int interval, int position, int depth, int role, boolean scan) {
        static Note of(ObjectNode metadata, ObjectNode extensions) {
            JsonNode note = extensions.path("note");
            return new Note(PromptEngine.text(Js.coalesce(metadata.get("note_prompt"), note.get("default"))),
                    intOr(Js.coalesce(metadata.get("note_interval"), note.get("defaultInterval")), 1),
                    intOr(Js.coalesce(metadata.get("note_position"), note.get("defaultPosition")), 1),
                    intOr(Js.coalesce(metadata.get("note_depth"), note.get("defaultDepth")), 4),
                    intOr(Js.coalesce(metadata.get("note_role"), note.get("defaultRole")), 0),
                    Js.truthy(note.get("allowWIScan")));
        }
    }

    /**
     * ST: public/scripts/authors-note.js setFloatingPrompt: the note every {@code interval} user messages, with
     * the character's own note where the user set one; answers whether the note is in this prompt (ST's
     * shouldWIAddPrompt).
     */
    private static boolean authorsNote(ExtensionPrompts prompts, ArrayNode chat, Note note, ObjectNode extensions,
                                       ObjectNode character) {
        int userMessages = 1; // an interval of 1 is every time, however many there are
        if (note.interval() != 1) {
            userMessages = 0;
            for (JsonNode message : chat) {
                if (Js.truthy(message.get("is_user"))) {
                    userMessages++;
                }
            }
        }
        if (userMessages <= 0 || note.interval() <= 0) {
            prompts.set(AUTHORS_NOTE, "", ExtensionPrompts.NONE, ExtensionPrompts.MAX_INJECTION_DEPTH, false, null);
            return false;
        }
        int till = userMessages >= note.interval() ? userMessages % note.interval() : note.interval() - userMessages;
        boolean active = till == 0;
        String text = active ? note.text() : "";
        if (active && character != null) {
            String file = text(character.get("avatar")).replaceFirst("\\.[^.]*$", "");
            for (JsonNode own : extensions.path("note").path("chara")) {
                if (file.equals(text(own.get("name")))) {
                    if (Js.truthy(own.get("useChara"))) {
                        String prompt = text(own.get("prompt"));
                        text = switch (intOr(own.get("position"), 0)) {
                            case 1 -> prompt + "\n" + text;
                            case 2 -> text + "\n" + prompt;
                            default -> prompt;
                        };
                    }
                    break;
                }
            }
        }
        prompts.set(AUTHORS_NOTE, text, note.position(), note.depth(), note.scan(), note.role());
        return active;
    }

    /**
     * ST: public/scripts/extensions/memory/index.js onChatChanged → setMemoryContext: the latest summary (the very
     * last message not looked at) with the extension's template, position, depth and role.
     */
    private static void memory(ExtensionPrompts prompts, ArrayNode chat, ObjectNode extensions, Macros macros) {
        JsonNode memory = extensions.path("memory");
        String summary = SummaryMemory.latestMemory(chat);
        String formatted = "";
        if (!summary.isEmpty()) {
            summary = Js.trim(summary);
            String template = memory.has("template") ? text(memory.get("template")) : "[Summary: {{summary}}]";
            formatted = template.isEmpty() ? "Summary: " + summary
                    : macros.substitute(template, new Macros.Options(null, null, null, null, true,
                    Map.of("summary", summary)));
        }
        prompts.set(MEMORY, formatted, intOr(memory.get("position"), ExtensionPrompts.IN_PROMPT),
                intOr(memory.get("depth"), 2), Js.truthy(memory.get("scan")), intOr(memory.get("role"), 0));
    }

    /** ST: public/script.js addPersonaDescriptionExtensionPrompt. */
    private static void personaDescription(ExtensionPrompts prompts, Persona persona, Note note, boolean noteActive) {
        prompts.set(PERSONA_DESCRIPTION, "", ExtensionPrompts.IN_PROMPT, 0, false, null);
        if (persona.description().isEmpty() || persona.position() == PERSONA_NONE) {
            return;
        }
        if ((persona.position() == PERSONA_TOP_AN || persona.position() == PERSONA_BOTTOM_AN) && noteActive) {
            ExtensionPrompts.Prompt current = prompts.get(AUTHORS_NOTE);
            String original = current == null ? "" : current.value();
            String withPersona = persona.position() == PERSONA_TOP_AN
                    ? persona.description() + "\n" + original
                    : original + "\n" + persona.description();
            prompts.set(AUTHORS_NOTE, withPersona, note.position(), note.depth(), note.scan(), note.role());
        }
        if (persona.position() == PERSONA_AT_DEPTH) {
            prompts.set(PERSONA_DESCRIPTION, persona.description(), ExtensionPrompts.IN_CHAT, persona.depth(), true,
                    persona.role());
        }
    }

    /** ST: public/script.js getExtensionPromptRoleByName. */
    static int role(JsonNode name) {
        if (name != null && name.isNumber() && name.asInt() >= 0 && name.asInt() <= 2) {
            return name.asInt();
        }
        String role = name == null ? "system" : text(name);
        return switch (role) {
            case "user" -> ExtensionPrompts.USER;
            case "assistant" -> ExtensionPrompts.ASSISTANT;
            default -> ExtensionPrompts.SYSTEM;
        };
    }

    /** The model the request names (ST: getChatCompletionModel, or the text API's model). */
    private static String model(ObjectNode settings) {
        return isChatCompletion(settings) ? text(settings.path("oai_settings").get("openai_model")) : "";
    }

    /** A JSON value as text: JavaScript's String(x), and empty where the value is null or missing. */
    static String text(JsonNode node) {
        return Js.text(node);
    }

    /** The messages as a list, read through (nothing is copied). */
    private static List<ObjectNode> list(ArrayNode array) {
        return new AbstractList<>() {
            @Override
            public ObjectNode get(int index) {
                return (ObjectNode) array.get(index);
            }

            @Override
            public int size() {
                return array.size();
            }
        };
    }

    /** A message's fields in a new object ({@code {...message}}): nested values are shared. */
    private static ObjectNode shallowCopy(JsonNode message) {
        return JsJson.object().setAll((ObjectNode) message);
    }

    static ObjectNode object(JsonNode node) {
        return node instanceof ObjectNode object ? object : JsJson.object();
    }

    static int intOr(JsonNode node, int fallback) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return fallback;
        }
        if (node.isNumber()) {
            return node.asInt();
        }
        try {
            return (int) Double.parseDouble(text(node).strip());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
