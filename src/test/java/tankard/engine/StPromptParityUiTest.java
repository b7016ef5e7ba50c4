package tankard.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tankard.engine.parity.ParityBrowser;
import tankard.engine.parity.ParityRun;
import tankard.engine.parity.ParityRun.Action;
import tankard.engine.parity.ParityRun.Scenario;
import tankard.engine.parity.ParityRun.Target;
import tankard.engine.parity.UserData;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;

import static tankard.engine.parity.UserData.message;

/**
 * Issue 30's acceptance: for each scenario, the body SillyTavern 1.18.0's own frontend posts to Tankard's generate
 * route (captured in a headless browser with a fixed clock) equals, as parsed JSON, what Tankard's
 * {@code POST /api/tankard/prompt} builds on the server for the same chat. Each captured body is also written to
 * {@code target/parity/<scenario>.json}. Needs an ST install: {@code TANKARD_ST_DIR=/path/to/SillyTavern
 * ./mvnw -B surefire:test -Dtest=StPromptParityUiTest}; {@code -Dparity.scenarios=cc-default,tc-chatml-send} runs
 * only the scenarios whose names start so.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StPromptParityUiTest {
    private static final String BRAMBLE = "Bramble.png";
    private static final String BRAMBLE_CHAT = "Bramble - 2026-03-14@14h00m00s";
    private static final String WREN = "Wren.png";
    private static final String GROUP_ID = "1773496800000";
    private static final String GROUP_CHAT = "Archive Night - 2026-03-14@14h00m00s";
    private static final String BOOK = "Thornwood Archive";
    private static final String TYPED = "Is there anything behind the lantern?";

    private static ParityBrowser browser;
    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @BeforeAll
    static void launch() {
        browser = ParityBrowser.launch();
    }

    @AfterAll
    static void close() {
        browser.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void stAndTankardBuildTheSameRequest(Scenario scenario) throws IOException {
        ParityRun.run(stDir, browser, scenario);
    }

    /** All scenarios, or those named in {@code -Dparity.scenarios=a,b} (a comma-separated list of prefixes). */
    static List<Scenario> scenarios() {
        String only = System.getProperty("parity.scenarios", "");
        List<Scenario> all = allScenarios();
        return only.isBlank() ? all : all.stream()
                .filter(s -> Arrays.stream(only.split(",")).anyMatch(prefix -> s.name().startsWith(prefix.strip()))).toList();
    }

    private static List<Scenario> allScenarios() {
        List<Scenario> all = new ArrayList<>();
        Target bramble = Target.character(BRAMBLE, BRAMBLE_CHAT);
        // Chat Completion, the default prompt manager order, every action
        for (Action action : Action.values()) {
            all.add(new Scenario("cc-default-" + action.name().toLowerCase(), StPromptParityUiTest::chatCompletion,
                    bramble, action, action == Action.SEND ? TYPED : "", 5));
        }
        // Text Completion, three instruct templates of this test's own
        all.add(new Scenario("tc-chatml-send", text(chatMl()), bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("tc-chatml-continue", text(chatMl()), bramble, Action.CONTINUE, "", 5));
        all.add(new Scenario("tc-alpaca-send", text(alpaca()), bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("tc-alpaca-swipe", text(alpaca()), bramble, Action.SWIPE, "", 5));
        all.add(new Scenario("tc-llama3-send", text(llama3()), bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("tc-llama3-impersonate", text(llama3()), bramble, Action.IMPERSONATE, "", 5));
        // world info, author's note, summary, persona, group, overflow
        all.add(new Scenario("cc-lorebook-send", (st, mock) -> lorebook(chatCompletion(st, mock), true),
                bramble, Action.SEND, "Show me the map, please. The lantern is dim.", 5));
        all.add(new Scenario("tc-lorebook-send", (st, mock) -> lorebook(text(chatMl()).apply(st, mock), false),
                bramble, Action.SEND, "Show me the map, please. The lantern is dim.", 5));
        all.add(new Scenario("cc-authors-note-send", (st, mock) -> authorsNote(chatCompletion(st, mock)),
                bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("tc-authors-note-send", (st, mock) -> authorsNote(text(alpaca()).apply(st, mock)),
                bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("cc-summary-send", (st, mock) -> summary(chatCompletion(st, mock)),
                bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("tc-summary-send", (st, mock) -> summary(text(llama3()).apply(st, mock)),
                bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("cc-persona-send", (st, mock) -> persona(chatCompletion(st, mock), 0),
                bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("tc-persona-send", (st, mock) -> persona(text(chatMl()).apply(st, mock), 4),
                bramble, Action.SEND, TYPED, 5));
        Target group = Target.group(GROUP_ID, GROUP_CHAT, WREN);
        all.add(new Scenario("cc-group-send", (st, mock) -> group(chatCompletion(st, mock)),
                group, Action.SEND, "Wren, what do you make of this map?", 4));
        all.add(new Scenario("tc-group-send", (st, mock) -> group(text(llama3()).apply(st, mock)),
                group, Action.SEND, "Wren, what do you make of this map?", 4));
        all.add(new Scenario("cc-overflow-send", (st, mock) -> overflow(chatCompletion(st, mock), true),
                Target.character(BRAMBLE, BRAMBLE_CHAT), Action.SEND, TYPED, 31));
        all.add(new Scenario("tc-overflow-send", (st, mock) -> overflow(text(alpaca()).apply(st, mock), false),
                Target.character(BRAMBLE, BRAMBLE_CHAT), Action.SEND, TYPED, 31));
        // harder cases: card overrides and depth prompt with squashed system messages and names in content; a
        // custom prompt order; date and time macros against the fixed clock; world info logic and positions;
        // the story string inside the chat; group regenerate and swipe
        all.add(new Scenario("cc-card-overrides-send", (st, mock) -> cardOverrides(chatCompletion(st, mock)),
                bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("cc-card-overrides-continue", (st, mock) -> cardOverrides(chatCompletion(st, mock)),
                bramble, Action.CONTINUE, "", 5));
        all.add(new Scenario("cc-prompt-order-send", (st, mock) -> promptOrder(chatCompletion(st, mock)),
                bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("cc-clock-macros-send", (st, mock) -> clockMacros(chatCompletion(st, mock)),
                bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("tc-clock-macros-send", (st, mock) -> clockMacros(text(llama3()).apply(st, mock)),
                bramble, Action.SEND, TYPED, 5));
        all.add(new Scenario("tc-lore-logic-send", (st, mock) -> loreLogic(text(alpaca()).apply(st, mock)),
                bramble, Action.SEND, "The Lantern flickers; is the map safe from the damp?", 5));
        all.add(new Scenario("cc-lore-logic-send", (st, mock) -> loreLogic(chatCompletion(st, mock)),
                bramble, Action.SEND, "The Lantern flickers; is the map safe from the damp?", 5));
        all.add(new Scenario("tc-story-in-chat-send", (st, mock) -> storyInChat(text(chatMl()).apply(st, mock)),
                bramble, Action.SEND, TYPED, 5));
        Target brambleSpeaks = Target.group(GROUP_ID, GROUP_CHAT, BRAMBLE);
        all.add(new Scenario("cc-group-regenerate", (st, mock) -> group(chatCompletion(st, mock)),
                brambleSpeaks, Action.REGENERATE, "", 4));
        all.add(new Scenario("tc-group-swipe", (st, mock) -> group(text(chatMl()).apply(st, mock)),
                brambleSpeaks, Action.SWIPE, "", 4));
        // Vector Storage (local transformers source) recalls an old message into the prompt
        all.add(new Scenario("cc-vectors-send", (st, mock) -> vectors(chatCompletion(st, mock)),
                bramble, Action.SEND, "Where did you say the telescope is kept?", 13, ParityRun::vectorizeAll));
        return all;
    }

    // ---- the data ----

    /** Bramble, her chat of five messages, and Chat Completion at the mock. */
    private static UserData chatCompletion(Path stDir, MockCompletionServer mock) {
        return archive(UserData.fromDefaults(stDir).chatCompletion(mock));
    }

    /** Bramble, her chat, and Text Completion at the mock with that instruct template. */
    private static BiFunction<Path, MockCompletionServer, UserData> text(ObjectNode instruct) {
        return (stDir, mock) -> archive(UserData.fromDefaults(stDir).textCompletion(mock, instruct));
    }

    private static UserData archive(UserData data) {
        return data.card(BRAMBLE, bramble(BRAMBLE_CHAT))
                .chat("Bramble", BRAMBLE_CHAT, UserData.metadata("parity-bramble"), brambleChat());
    }

    private static ObjectNode bramble(String chat) {
        return UserData.card("Bramble", chat,
                "{{char}} is a hedgehog who keeps the Thornwood archive. She speaks softly and knows every shelf.",
                "patient, curious, fond of riddles",
                "{{user}} visits the archive after closing time on a {{weekday}}.",
                "*Bramble looks up from a ledger.* Oh! A visitor at this hour?",
                "<START>\n{{user}}: Do you have maps?\n{{char}}: *rustles through a drawer* Only the ones that are honest about their edges.");
    }

    private static List<ObjectNode> brambleChat() {
        return List.of(
                message("Bramble", false, "2026-03-14T14:00:00.000Z", "*Bramble looks up from a ledger.* Oh! A visitor at this hour?"),
                message(UserData.USER, true, "2026-03-14T14:01:00.000Z", "Good evening, Bramble. I am looking for the old map of Thornwood."),
                message("Bramble", false, "2026-03-14T14:02:00.000Z", "*She adjusts her spectacles.* The old map? It was moved to the east wing after the flood."),
                message(UserData.USER, true, "2026-03-14T14:03:00.000Z", "Can you show me the east wing?"),
                message("Bramble", false, "2026-03-14T14:04:00.000Z", "Of course. Mind the loose floorboard by the lantern."));
    }

    /** ChatML-like: names forced, sequences with their own suffixes. */
    private static ObjectNode chatMl() {
        return instruct("Parity ChatML", "<|im_start|>user", "<|im_end|>\n", "<|im_start|>assistant", "<|im_end|>\n",
                "<|im_start|>system", "<|im_end|>\n", "<|im_end|>", "force");
    }

    /** Alpaca-like: no names, a last output sequence of its own. */
    private static ObjectNode alpaca() {
        ObjectNode instruct = instruct("Parity Alpaca", "### Instruction:", "\n\n", "### Response:", "\n\n",
                "### Input:", "\n\n", "", "none");
        return instruct.put("last_output_sequence", "### Response (one short paragraph):").put("wrap", true);
    }

    /** Llama-3-like: names always, a story string prefix, system sequences apart from the user's. */
    private static ObjectNode llama3() {
        ObjectNode instruct = instruct("Parity Llama 3", "<|start_header_id|>user<|end_header_id|>\n\n", "<|eot_id|>",
                "<|start_header_id|>assistant<|end_header_id|>\n\n", "<|eot_id|>",
                "<|start_header_id|>system<|end_header_id|>\n\n", "<|eot_id|>", "<|eot_id|>", "always");
        return instruct.put("wrap", false).put("story_string_prefix", "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n")
                .put("story_string_suffix", "<|eot_id|>");
    }

    private static ObjectNode instruct(String name, String input, String inputSuffix, String output, String outputSuffix,
                                       String system, String systemSuffix, String stop, String names) {
        return JsJson.object().put("enabled", true).put("preset", name)
                .put("input_sequence", input).put("input_suffix", inputSuffix)
                .put("output_sequence", output).put("output_suffix", outputSuffix)
                .put("system_sequence", system).put("system_suffix", systemSuffix)
                .put("last_system_sequence", "").put("first_input_sequence", "").put("first_output_sequence", "")
                .put("last_input_sequence", "").put("last_output_sequence", "")
                .put("story_string_prefix", "").put("story_string_suffix", "")
                .put("stop_sequence", stop).put("wrap", true).put("macro", true).put("names_behavior", names)
                .put("activation_regex", "").put("bind_to_context", false).put("user_alignment_message", "")
                .put("system_same_as_user", false).put("sequences_as_stop_strings", true).put("skip_examples", false);
    }

    /**
     * A book with a keyword entry, a constant one, one that only the constant's text triggers (recursion), one at
     * depth and one that nothing triggers; selected globally or linked to Bramble's card.
     */
    private static UserData lorebook(UserData data, boolean global) {
        ObjectNode book = JsJson.object();
        ObjectNode entries = book.putObject("entries");
        entries.set("0", entry(0, "lantern", "The brass lantern of the east wing never goes out; {{char}} refills it at dusk.", 0, 100));
        entries.set("1", entry(1, "", "The Thornwood archive is built into the roots of an old oak.", 1, 50).put("constant", true));
        entries.set("2", entry(2, "oak", "The oak's roots hold a sealed vault that only the head archivist may open.", 1, 60));
        entries.set("3", entry(3, "map", "[{{user}} has asked about maps before.]", 4, 100).put("depth", 2));
        entries.set("4", entry(4, "dragon", "Dragons are not allowed in the archive.", 0, 100));
        data.world(BOOK, book);
        if (global) {
            ((ObjectNode) data.settings().get("world_info_settings").get("world_info")).putArray("globalSelect").add(BOOK);
        } else {
            ObjectNode card = bramble(BRAMBLE_CHAT);
            ((ObjectNode) card.get("data").get("extensions")).put("world", BOOK);
            data.card(BRAMBLE, card);
        }
        return data;
    }

    private static ObjectNode entry(int uid, String key, String content, int position, int order) {
        ObjectNode entry = JsJson.object().put("uid", uid);
        ArrayNode keys = entry.putArray("key");
        if (!key.isEmpty()) {
            keys.add(key);
        }
        entry.putArray("keysecondary");
        entry.put("comment", "entry " + uid).put("content", content).put("constant", false).put("vectorized", false)
                .put("selective", true).put("selectiveLogic", 0).put("addMemo", true).put("order", order)
                .put("position", position).put("disable", false).put("ignoreBudget", false)
                .put("excludeRecursion", false).put("preventRecursion", false).put("matchPersonaDescription", false)
                .put("matchCharacterDescription", false).put("matchCharacterPersonality", false)
                .put("matchCharacterDepthPrompt", false).put("matchScenario", false).put("matchCreatorNotes", false)
                .put("delayUntilRecursion", 0).put("probability", 100).put("useProbability", true).put("depth", 4)
                .put("outletName", "").put("group", "").put("groupOverride", false).put("groupWeight", 100)
                .putNull("scanDepth").putNull("caseSensitive").putNull("matchWholeWords").putNull("useGroupScoring")
                .put("automationId", "").put("role", 0).putNull("sticky").putNull("cooldown").putNull("delay")
                .put("displayIndex", uid);
        entry.putArray("triggers");
        return entry;
    }

    /** An author's note in the chat's metadata: every third user message, in the chat at depth 2, as system. */
    private static UserData authorsNote(UserData data) {
        ObjectNode metadata = UserData.metadata("parity-bramble").put("note_prompt", "[{{char}} is tired but kind to {{user}}.]")
                .put("note_interval", 3).put("note_depth", 2).put("note_position", 1).put("note_role", 0);
        return data.chat("Bramble", BRAMBLE_CHAT, metadata, brambleChat());
    }

    /** A summary kept in an earlier message's extra.memory, put in the chat at depth 3 by the summary extension. */
    private static UserData summary(UserData data) {
        ObjectNode memory = (ObjectNode) data.extensionSettings().get("memory");
        memory.put("template", "[Summary so far: {{summary}}]").put("position", 1).put("depth", 3).put("role", 0)
                .put("scan", false).put("memoryFrozen", false);
        List<ObjectNode> chat = brambleChat();
        ((ObjectNode) chat.get(2).get("extra")).put("memory", "{{user}} came for the old map; it is in the east wing.");
        return data.chat("Bramble", BRAMBLE_CHAT, UserData.metadata("parity-bramble"), chat);
    }

    /** The user's persona with a description, in the story string (position 0) or in the chat at depth 1 (position 4). */
    private static UserData persona(UserData data, int position) {
        String description = "{{user}} is a cartographer's apprentice with ink-stained fingers.";
        ObjectNode powerUser = data.powerUser();
        powerUser.putObject("personas").put(UserData.USER_AVATAR, UserData.USER);
        powerUser.putObject("persona_descriptions").putObject(UserData.USER_AVATAR).put("description", description)
                .put("position", position).put("depth", 1).put("role", 0).put("lorebook", "").put("title", "");
        powerUser.put("persona_description", description).put("persona_description_position", position)
                .put("persona_description_depth", 1).put("persona_description_role", 0)
                .put("persona_description_lorebook", "").put("default_persona", UserData.USER_AVATAR);
        return data;
    }

    /**
     * Bramble and Wren in a group that activates whoever the user names (nobody speaks by chance): a send names
     * Wren; a regenerate drops the trailing replies and reads the user's last message, which names Bramble. (An
     * impersonation in a group has ST pick a member at random, so no scenario does one.)
     */
    private static UserData group(UserData data) {
        ObjectNode bramble = bramble("");
        ObjectNode wren = UserData.card("Wren", "", "{{char}} is a young owl who sorts the night returns.",
                "shy, precise", "", "*Wren hoots quietly.*", "");
        for (ObjectNode card : List.of(bramble, wren)) {
            card.put("talkativeness", "0");
            ((ObjectNode) card.get("data").get("extensions")).put("talkativeness", "0");
        }
        data.card(BRAMBLE, bramble).card(WREN, wren);
        ObjectNode group = JsJson.object().put("id", GROUP_ID).put("name", "Archive Night").put("avatar_url", "")
                .put("allow_self_responses", false).put("activation_strategy", 0).put("generation_mode", 0)
                .put("fav", false).put("chat_id", GROUP_CHAT).put("auto_mode_delay", 5)
                .put("generation_mode_join_prefix", "").put("generation_mode_join_suffix", "")
                .put("hideMutedSprites", false).put("create_date", "2026-03-14T14:00:00.000Z");
        group.putArray("members").add(BRAMBLE).add(WREN);
        group.putArray("disabled_members");
        group.putObject("chat_metadata");
        group.putArray("chats").add(GROUP_CHAT);
        List<ObjectNode> chat = List.of(
                member("Bramble", BRAMBLE, "2026-03-14T14:00:00.000Z", "*Bramble looks up from a ledger.* Oh! A visitor at this hour?"),
                member("Wren", WREN, "2026-03-14T14:00:30.000Z", "*Wren hoots quietly.*"),
                message(UserData.USER, true, "2026-03-14T14:01:00.000Z", "Bramble, I brought the map you asked about."),
                member("Bramble", BRAMBLE, "2026-03-14T14:02:00.000Z", "Splendid. Spread it on the big table, please."));
        return data.group(group).groupChat(GROUP_CHAT, UserData.metadata("parity-group"), chat);
    }

    private static ObjectNode member(String name, String avatar, String sendDate, String text) {
        return message(name, false, sendDate, text).put("original_avatar", avatar).put("force_avatar",
                "/thumbnail?type=avatar&file=" + avatar);
    }

    /**
     * Vector Storage on for chats, recalling into the chat at depth 2: an early message about the telescope, out of
     * the five protected last ones, answers the question.
     */
    private static UserData vectors(UserData data) {
        ObjectNode vectors = JsJson.object().put("source", "transformers").put("enabled_chats", true)
                .put("template", "Past events:\n{{text}}").put("depth", 2).put("position", 1).put("protect", 5)
                .put("insert", 3).put("query", 2).put("score_threshold", 0.25).put("message_chunk_size", 400)
                .put("include_wi", false);
        data.extensionSettings().set("vectors", vectors);
        List<ObjectNode> chat = new ArrayList<>(brambleChat());
        String[][] more = {
                {"true", "Do you keep anything besides maps?"},
                {"false", "The brass telescope is kept in the north tower, under a velvet cloth."},
                {"true", "Who cleans the shelves?"},
                {"false", "The mice do, every Tuesday, in exchange for crumbs."},
                {"true", "What is the oldest book here?"},
                {"false", "A herbal from the year the river froze, bound in birch bark."},
                {"true", "May I read it?"},
                {"false", "Only with gloves on, and only by lamplight."}};
        for (int i = 0; i < more.length; i++) {
            boolean user = Boolean.parseBoolean(more[i][0]);
            chat.add(message(user ? UserData.USER : "Bramble", user, "2026-03-14T14:%02d:00.000Z".formatted(10 + i), more[i][1]));
        }
        return data.chat("Bramble", BRAMBLE_CHAT, UserData.metadata("parity-bramble"), chat);
    }

    /**
     * Bramble's own main prompt (wrapping the user's with {{original}}), post-history instructions and a depth
     * prompt; system messages squashed, names in the messages' content, continue as a prefill.
     */
    private static UserData cardOverrides(UserData data) {
        ObjectNode card = bramble(BRAMBLE_CHAT);
        ObjectNode fields = (ObjectNode) card.get("data");
        fields.put("system_prompt", "{{original}} Keep {{char}} gentle.")
                .put("post_history_instructions", "Answer {{user}} in at most two sentences.");
        ((ObjectNode) fields.get("extensions").get("depth_prompt")).put("prompt", "[{{char}} smells rain coming.]")
                .put("depth", 1).put("role", "user");
        data.oai().put("squash_system_messages", true).put("names_behavior", 2).put("continue_prefill", true);
        return data.card(BRAMBLE, card);
    }

    /**
     * The prompt manager's order for all characters (ST's dummy id 100001) rearranged: the scenario first, the
     * personality off, and a prompt of this test's own as the user's, injected at depth 1.
     */
    private static UserData promptOrder(UserData data) {
        ArrayNode prompts = (ArrayNode) data.oai().get("prompts");
        prompts.addObject().put("identifier", "parity-reminder").put("name", "Parity reminder")
                .put("system_prompt", false).put("role", "user").put("content", "(Remember the {{weekday}} rules, {{char}}.)")
                .put("injection_position", 1).put("injection_depth", 1).put("injection_order", 100)
                .put("forbid_overrides", false).put("marker", false);
        ArrayNode order = JsJson.array();
        for (String[] item : new String[][] {{"scenario", "true"}, {"main", "true"}, {"charDescription", "true"},
                {"charPersonality", "false"}, {"worldInfoBefore", "true"}, {"personaDescription", "true"},
                {"nsfw", "false"}, {"worldInfoAfter", "true"}, {"dialogueExamples", "true"}, {"chatHistory", "true"},
                {"parity-reminder", "true"}, {"jailbreak", "true"}}) {
            order.addObject().put("identifier", item[0]).put("enabled", Boolean.parseBoolean(item[1]));
        }
        ObjectNode global = JsJson.object().put("character_id", 100001);
        global.set("order", order);
        ((ArrayNode) data.oai().get("prompt_order")).add(global);
        return data;
    }

    /** Date and time macros in the card and the author's note: the fixed clock makes them known. */
    private static UserData clockMacros(UserData data) {
        ObjectNode card = bramble(BRAMBLE_CHAT);
        ((ObjectNode) card.get("data")).put("scenario", "It is {{time}} on {{date}} ({{weekday}}, {{isodate}} {{isotime}})."
                + " {{user}} last spoke {{idle_duration}} ago.{{// not for the model}} {{datetimeformat YYYY-MM-DD HH:mm}}");
        ObjectNode metadata = UserData.metadata("parity-bramble").put("note_prompt", "[Time check: {{time_UTC+2}}; said last: {{lastMessage}}]")
                .put("note_interval", 1).put("note_depth", 1).put("note_position", 1).put("note_role", 0);
        return data.card(BRAMBLE, card).chat("Bramble", BRAMBLE_CHAT, metadata, brambleChat());
    }

    /**
     * Entries with secondary keys (AND ALL, NOT ANY), a case-sensitive key, a key matched inside words, and the
     * positions around the author's note and the examples, with the author's note in the prompt.
     */
    private static UserData loreLogic(UserData data) {
        ObjectNode book = JsJson.object();
        ObjectNode entries = book.putObject("entries");
        ObjectNode andAll = entry(0, "map", "The map is kept in a cedar tube against the damp.", 2, 100)
                .put("selectiveLogic", 3);
        ((ArrayNode) andAll.get("keysecondary")).add("damp").add("safe");
        entries.set("0", andAll);
        ObjectNode notAny = entry(1, "map", "The map has a torn corner.", 3, 100).put("selectiveLogic", 2);
        ((ArrayNode) notAny.get("keysecondary")).add("damp");
        entries.set("1", notAny);
        entries.set("2", entry(2, "Lantern", "The Lantern is named Old Ember.", 5, 100).put("caseSensitive", true));
        entries.set("3", entry(3, "lantern", "Nobody may carry the lantern upstairs.", 6, 90).put("caseSensitive", true));
        entries.set("4", entry(4, "flick", "Flickering light means the oil is low.", 0, 100).put("matchWholeWords", false));
        entries.set("5", entry(5, "ledger", "The ledger lists every borrower since 1702.", 1, 100).put("scanDepth", 1));
        data.world(BOOK, book);
        ((ObjectNode) data.settings().get("world_info_settings").get("world_info")).putArray("globalSelect").add(BOOK);
        ObjectNode metadata = UserData.metadata("parity-bramble").put("note_prompt", "[Bramble hums while she works.]")
                .put("note_interval", 1).put("note_depth", 4).put("note_position", 0).put("note_role", 0);
        return data.chat("Bramble", BRAMBLE_CHAT, metadata, brambleChat());
    }

    /** The story string in the chat at depth 2 as the system's, and the examples left out of instruct formatting. */
    private static UserData storyInChat(UserData data) {
        ObjectNode context = (ObjectNode) data.powerUser().get("context");
        context.put("story_string_position", 1).put("story_string_depth", 2).put("story_string_role", 0)
                .put("example_separator", "--- example ---").put("chat_start", "--- chat ---");
        ((ObjectNode) data.powerUser().get("instruct")).put("skip_examples", true);
        return data;
    }

    /** Thirty messages and a context too small for them: the oldest are left out. */
    private static UserData overflow(UserData data, boolean chatCompletion) {
        if (chatCompletion) {
            data.oai().put("openai_max_context", 700).put("openai_max_tokens", 100);
        } else {
            data.settings().put("max_context", 700).put("amount_gen", 100);
        }
        List<ObjectNode> chat = new ArrayList<>(brambleChat().subList(0, 1));
        for (int i = 1; i <= 30; i++) {
            boolean user = i % 2 == 1;
            String text = user ? "Question number " + i + ": which shelf holds the records of the year " + (1700 + i) + "?"
                    : "Answer number " + i + ": the records of that year are on shelf " + i + ", behind the green ledgers.";
            chat.add(message(user ? UserData.USER : "Bramble", user, "2026-03-14T14:%02d:00.000Z".formatted(i), text));
        }
        return data.chat("Bramble", BRAMBLE_CHAT, UserData.metadata("parity-bramble"), chat);
    }
}
