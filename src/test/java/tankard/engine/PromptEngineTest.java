package tankard.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.engine.prompt.Action;
import tankard.engine.prompt.ChatHashes;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.Generation;
import tankard.engine.prompt.PromptInputs;
import tankard.json.JsJson;
import tankard.tokenizer.TokenizerFiles;
import tankard.tokenizer.Tokenizers;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The part of ST's Generate every API shares: what each action takes from the chat, and the extension prompts
 * (depth prompts, author's note, summary, persona) as ST's frontend sets them before the API builds its prompt.
 */
class PromptEngineTest {
    private static final Tokenizers TOKENIZERS = new Tokenizers(new TokenizerFiles(List.of()));

    private static ObjectNode object(String json) {
        return (ObjectNode) JsJson.parse(json);
    }

    private static ObjectNode settings(String powerUser, String extensions) {
        return object("{\"main_api\":\"openai\",\"username\":\"Wren\",\"user_avatar\":\"wren.png\","
                + "\"power_user\":{" + powerUser + "},\"extension_settings\":{" + extensions + "},"
                + "\"oai_settings\":{\"openai_max_context\":4096,\"openai_max_tokens\":300}}");
    }

    private static ObjectNode card(String depthPrompt) {
        return object("{\"name\":\"Bramble\",\"description\":\"  A hedge witch, {{char}}.  \",\"personality\":\"calm\","
                + "\"scenario\":\"The hives.\",\"mes_example\":\"{{user}}: Hi\\n{{char}}: Mind the bees.\","
                + "\"data\":{\"extensions\":{" + depthPrompt + "}}}");
    }

    private static ArrayNode chat(String... messages) {
        ArrayNode chat = JsJson.array();
        for (String message : messages) {
            chat.add(JsJson.parse(message));
        }
        return chat;
    }

    private static String message(String name, boolean user, String text, String extra) {
        return "{\"name\":\"" + name + "\",\"is_user\":" + user + ",\"mes\":\"" + text + "\",\"extra\":{" + extra + "}}";
    }

    private static Generation prepare(ObjectNode settings, ObjectNode card, ArrayNode chat, ObjectNode metadata,
                                      Action action, String text) {
        return PromptEngine.prepare(new PromptInputs(settings, card, null, List.of(), chat, metadata, name -> null,
                text, ZonedDateTime.parse("2026-01-01T10:00:00Z"), TOKENIZERS), action);
    }

    private static List<String> texts(Generation generation) {
        List<String> texts = new ArrayList<>();
        generation.coreChat().forEach(message -> texts.add(message.get("mes").asText()));
        return texts;
    }

    private static final ArrayNode CHAT = chat(
            message("Bramble", false, "Welcome, {{user}}.", ""),
            message("Wren", true, "Hello.", ""),
            "{\"name\":\"System\",\"is_system\":true,\"mes\":\"hidden\"}",
            message("Bramble", false, "Mind the bees.", "\"reasoning\":\"She is wary.\""));

    @Test
    void eachActionTakesWhatSTsGenerateTakesFromTheChat() {
        ObjectNode settings = settings("", "");
        assertEquals(List.of("Welcome, Wren.", "Hello.", "Mind the bees.", "Any honey?"),
                texts(prepare(settings, card(""), CHAT, JsJson.object(), Action.NORMAL, "Any honey?")));
        assertEquals(List.of("Welcome, Wren.", "Hello."),
                texts(prepare(settings, card(""), CHAT, JsJson.object(), Action.REGENERATE, "")));
        assertEquals(List.of("Welcome, Wren.", "Hello."),
                texts(prepare(settings, card(""), CHAT, JsJson.object(), Action.SWIPE, "")));
        assertEquals(List.of("Welcome, Wren.", "Hello.", "<think>She is wary.</think>\nMind the bees."),
                texts(prepare(settings, card(""), CHAT, JsJson.object(), Action.CONTINUE, "")),
                "the message a continue extends keeps its reasoning, even with reasoning off");
        assertEquals(List.of("Welcome, Wren.", "Hello.", "Mind the bees."),
                texts(prepare(settings, card(""), CHAT, JsJson.object(), Action.IMPERSONATE, "")));
        assertEquals(4, CHAT.size(), "the chat given is left alone");
    }

    @Test
    void noPromptChangesTheChatItIsBuiltFrom() {
        // the server shares a chat's parsed messages among prompts (ChatSnapshots): a build must copy what it changes
        ArrayNode chat = chat(
                message("Bramble", false, "Welcome, {{user}}.", ""),
                message("Wren", true, "Look.\\r\\nHere.", "\"append_title\":true,\"title\":\"map.png\","
                        + "\"media\":[{\"title\":\"hive.png\",\"append_title\":true}],\"bias\":\"Sure\""),
                "{\"name\":\"System\",\"is_system\":true,\"mes\":\"hidden\"}",
                message("Bramble", false, "Mind the bees.", "\"reasoning\":\"She is wary.\",\"api\":\"openai\""),
                message("Wren", true, "Any honey?", ""),
                message("Bramble", false, "Some.", "\"reasoning\":\"Generous.\",\"memory\":\"They met.\""));
        ArrayNode before = chat.deepCopy();
        ObjectNode metadata = object("{\"note_prompt\":\"Bees.\",\"note_interval\":1,\"note_depth\":1,"
                + "\"note_position\":1}");
        String reasoning = "\"reasoning\":{\"add_to_prompts\":true,\"prefix\":\"<think>\",\"suffix\":\"</think>\","
                + "\"separator\":\"\\n\",\"max_additions\":5}";
        ObjectNode chatCompletion = settings(reasoning, "\"memory\":{\"position\":1,\"depth\":2}");
        ObjectNode textCompletion = settings(reasoning + ",\"instruct\":{\"enabled\":true,\"input_sequence\":\"[U]\","
                + "\"output_sequence\":\"[A]\",\"wrap\":true,\"names_behavior\":\"always\"}", "");
        textCompletion.put("main_api", "textgenerationwebui");
        for (ObjectNode settings : List.of(chatCompletion, textCompletion)) {
            for (Action action : Action.values()) {
                List<ObjectNode> requests = new ArrayList<>();
                for (ChatHashes known : List.of(ChatHashes.NONE, new ChatHashes(chat))) {
                    requests.add(PromptEngine.build(new PromptInputs(settings, card(""), null, List.of(), chat, metadata,
                            name -> null, "More.", ZonedDateTime.parse("2026-01-01T10:00:00Z"), TOKENIZERS, null, "",
                            known), action).request());
                    assertEquals(before, chat, action + " on " + settings.get("main_api"));
                }
                assertEquals(requests.get(0), requests.get(1), "what is known of the parsed chat builds the same");
            }
        }
    }

    @Test
    void cardFieldsAreTrimmedAndTheExamplesSplitIntoStartBlocks() {
        Generation generation = prepare(settings("", ""), card(""), CHAT, JsJson.object(), Action.NORMAL, "");
        assertEquals("A hedge witch, Bramble.", generation.card().description());
        assertEquals(List.of("<START>\nWren: Hi\nBramble: Mind the bees.\n"), generation.examples());
        assertEquals(4096 - 300, generation.maxContext());
    }

    @Test
    void theAuthorsNoteComesEveryIntervalUserMessagesAtItsDepth() {
        ObjectNode metadata = object("{\"note_prompt\":\"Bees are everywhere.\",\"note_interval\":2,"
                + "\"note_depth\":3,\"note_position\":1,\"note_role\":1}");
        ExtensionPrompts.Prompt note = prepare(settings("", ""), card(""), CHAT, metadata, Action.REGENERATE, "")
                .extensionPrompts().get(PromptEngine.AUTHORS_NOTE);
        assertEquals("", note.value(), "one user message of an interval of two: not yet");
        note = prepare(settings("", ""), card(""), CHAT, metadata, Action.NORMAL, "Again.")
                .extensionPrompts().get(PromptEngine.AUTHORS_NOTE);
        assertEquals(new ExtensionPrompts.Prompt("Bees are everywhere.", 1, 3, false, 1), note);
    }

    @Test
    void theLatestSummaryBeforeTheLastMessageIsInjectedWithTheTemplate() {
        ArrayNode chat = chat(
                message("Bramble", false, "One.", "\"memory\":\"Old summary.\""),
                message("Wren", true, "Two.", "\"memory\":\" Newer summary. \""),
                message("Bramble", false, "Three.", "\"memory\":\"On the last message: not read.\""));
        ExtensionPrompts.Prompt summary = prepare(settings("", "\"memory\":{\"position\":1,\"depth\":5,\"role\":0}"),
                card(""), chat, JsJson.object(), Action.CONTINUE, "").extensionPrompts().get(PromptEngine.MEMORY);
        assertEquals(new ExtensionPrompts.Prompt("[Summary: Newer summary.]", 1, 5, false, 0), summary);
    }

    @Test
    void theCharactersDepthPromptAndThePersonaAtDepthAreExtensionPrompts() {
        Generation generation = prepare(
                settings("\"persona_description\":\"A beekeeper.\",\"persona_description_position\":4,"
                        + "\"persona_description_depth\":1,\"persona_description_role\":1", ""),
                card("\"depth_prompt\":{\"prompt\":\" {{char}} hums. \",\"depth\":6,\"role\":\"assistant\"}"),
                CHAT, JsJson.object(), Action.NORMAL, "");
        assertEquals(new ExtensionPrompts.Prompt("Bramble hums.", 1, 6, false, 2),
                generation.extensionPrompts().get(PromptEngine.DEPTH_PROMPT));
        assertEquals(new ExtensionPrompts.Prompt("A beekeeper.", 1, 1, true, 1),
                generation.extensionPrompts().get(PromptEngine.PERSONA_DESCRIPTION));
    }

    @Test
    void aGroupsRegenerateDropsTheLastRoundAndGeneratesAsANormalTurn() {
        ObjectNode thorn = object("{\"name\":\"Thorn\",\"avatar\":\"thorn.png\",\"data\":{}}");
        ObjectNode group = object("{\"id\":\"g1\",\"members\":[\"bramble.png\",\"thorn.png\"],\"disabled_members\":[]}");
        ArrayNode chat = chat(
                message("Bramble", false, "Earlier.", "\"gen_id\":1"),
                message("Wren", true, "Hello, both.", ""),
                message("Bramble", false, "Hi.", "\"gen_id\":2"),
                message("Thorn", false, "Hey.", "\"gen_id\":2"));
        Generation generation = PromptEngine.prepare(new PromptInputs(settings("", ""), thorn, group,
                List.of(card(""), thorn), chat, JsJson.object(), name -> null, "",
                ZonedDateTime.parse("2026-01-01T10:00:00Z"), TOKENIZERS), Action.REGENERATE);
        assertEquals(List.of("Earlier.", "Hello, both."), texts(generation));
        assertEquals(Action.NORMAL, generation.action(), "ST's regenerateGroup generates a normal turn");
        assertEquals(2, GroupMembers.lastRound(chat));
    }

    @Test
    void aGroupJoinsItsMembersCardsAndDepthPrompts() {
        ObjectNode bramble = card("\"depth_prompt\":{\"prompt\":\"Bramble hums.\",\"depth\":2}");
        ObjectNode thorn = object("{\"name\":\"Thorn\",\"description\":\"A fox.\",\"data\":{\"extensions\":"
                + "{\"depth_prompt\":{\"prompt\":\"Thorn sniffs.\",\"depth\":1,\"role\":\"user\"}}}}");
        ObjectNode moss = object("{\"name\":\"Moss\",\"description\":\"Muted.\",\"data\":{}}");
        ObjectNode group = object("{\"id\":\"g1\",\"members\":[\"bramble.png\",\"thorn.png\",\"moss.png\"],"
                + "\"disabled_members\":[\"moss.png\"],\"generation_mode\":1,"
                + "\"generation_mode_join_prefix\":\"<FIELDNAME> of {{char}}: \",\"generation_mode_join_suffix\":\"\"}");
        Generation generation = PromptEngine.prepare(new PromptInputs(settings("", ""), thorn, group,
                List.of(bramble, thorn, moss), CHAT, JsJson.object(), name -> null, "",
                ZonedDateTime.parse("2026-01-01T10:00:00Z"), TOKENIZERS), Action.REGENERATE);
        assertEquals("Description of Bramble: A hedge witch, Bramble.\nDescription of Thorn: A fox.",
                generation.card().description());
        assertEquals("Thorn", generation.name2());
        assertEquals(new ExtensionPrompts.Prompt("Bramble hums.", 1, 2, false, 0),
                generation.extensionPrompts().get(PromptEngine.DEPTH_PROMPT + "_0"));
        assertEquals(new ExtensionPrompts.Prompt("Thorn sniffs.", 1, 1, false, 1),
                generation.extensionPrompts().get(PromptEngine.DEPTH_PROMPT + "_1"));
        assertNull(generation.extensionPrompts().get(PromptEngine.DEPTH_PROMPT));
    }
}
