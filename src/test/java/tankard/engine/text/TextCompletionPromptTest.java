package tankard.engine.text;

import org.junit.jupiter.api.Test;
import tankard.engine.prompt.Action;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.Itemization;
import tankard.engine.prompt.WorldInfo;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.engine.text.TextPromptFixture.CHAR;
import static tankard.engine.text.TextPromptFixture.USER;
import static tankard.engine.text.TextPromptFixture.prompt;
import static tankard.engine.text.TextPromptFixture.stops;

class TextCompletionPromptTest {
    private static final String STORY = "You are Bramble.\nBramble keeps the inn.\nWren is a traveller.\n";

    @Test
    void withoutInstructTheChatIsNamedLinesAfterTheStoryStringAndExamples() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.examples.add("<START>\nWren: Hi\nBramble: Hello\n");
        BuiltPrompt built = fixture.build();

        assertEquals(STORY + "***\nWren: Hi\nBramble: Hello\n" + "***\nBramble: Welcome in.\nWren: A room, please.\n"
                + "Bramble:", prompt(built));
        assertEquals(List.of("\nWren:", "<END>"), stops(built));
        assertEquals(BuiltPrompt.TEXT_COMPLETIONS, built.route());
    }

    @Test
    void chatMlWithoutNamesWrapsEveryTurnAndTheStoryString() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest().chatMl("none");
        fixture.examples.add("<START>\nWren: Hi\nBramble: Hello\n");
        BuiltPrompt built = fixture.build();

        assertEquals("<|im_start|>system\n" + STORY + "<|im_end|>\n"
                + "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n"
                + "<|im_start|>assistant\nWelcome in.<|im_end|>\n"
                + "<|im_start|>user\nA room, please.<|im_end|>\n"
                + "<|im_start|>assistant\n", prompt(built));
        assertEquals(List.of("\nWren:", "\n<|im_end|>", "\n<|im_start|>user", "\n<|im_start|>assistant",
                "\n<|im_start|>system", "<END>"), stops(built));
    }

    @Test
    void alpacaWithNamesAlwaysNamesEveryTurnAndUsesTheLastOutputSequence() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest().alpaca("always");
        fixture.examples.add("<START>\nWren: Hi\nBramble: Hello\n");
        BuiltPrompt built = fixture.build();

        assertEquals(STORY + "***\n### Instruction:\nWren: Hi\n### Response:\nBramble: Hello\n"
                + "***\n### Response:\nBramble: Welcome in.\n### Instruction:\nWren: A room, please.\n"
                + "### Response (2 paragraphs):\nBramble:", prompt(built));
        assertEquals(List.of("\nWren:", "\n### Instruction:", "\n### Response:", "\n### Response (2 paragraphs):",
                "\n***", "<END>"), stops(built));
    }

    @Test
    void alpacaImpersonationEndsOnTheUsersInputSequence() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest().alpaca("always");
        fixture.action = Action.IMPERSONATE;
        BuiltPrompt built = fixture.build();

        assertEquals(STORY + "***\n### Response:\nBramble: Welcome in.\n### Instruction:\nWren: A room, please.\n"
                + "### Instruction:\nWren:", prompt(built));
        assertEquals("\nBramble:", stops(built).get(0));
    }

    @Test
    void llama3WithPastPersonaNamesAlignsPostHistoryAndNamesOnlyTheOldPersona() {
        TextPromptFixture fixture = new TextPromptFixture().llama3("force");
        fixture.instruct.put("user_alignment_message", "Let's begin.");
        fixture.sysprompt.put("post_history", "Stay in character, {{char}}.");
        fixture.message(CHAR, "Welcome in.");
        fixture.chat.addObject().put("name", "Old Wren").put("is_user", true).put("force_avatar", "old.png")
                .put("mes", "I was here before.");
        fixture.message(USER, "A room, please.");
        fixture.examples.add("<START>\nWren: Hi\nBramble: Hello\n");
        BuiltPrompt built = fixture.build();

        String user = "<|start_header_id|>user<|end_header_id|>\n\n";
        String assistant = "<|start_header_id|>assistant<|end_header_id|>\n\n";
        assertEquals("<|start_header_id|>system<|end_header_id|>\n\n" + STORY + "<|eot_id|>"
                + user + "Wren: Hi<|eot_id|>" + assistant + "Hello<|eot_id|>"
                + user + "Let's begin.<|eot_id|>"
                + assistant + "Welcome in.<|eot_id|>"
                + user + "Old Wren: I was here before.<|eot_id|>"
                + user + "A room, please.<|eot_id|>"
                + user + "Stay in character, Bramble.<|eot_id|>"
                + assistant, prompt(built));
        assertEquals(List.of("\nWren:", "<|eot_id|>", "<|start_header_id|>user<|end_header_id|>",
                "<|start_header_id|>assistant<|end_header_id|>", "<|start_header_id|>system<|end_header_id|>", "<END>"),
                stops(built));
    }

    @Test
    void llama3WithNamesNeverLeavesTheOldPersonaUnnamed() {
        TextPromptFixture fixture = new TextPromptFixture().llama3("none");
        fixture.chat.addObject().put("name", "Old Wren").put("is_user", true).put("force_avatar", "old.png")
                .put("mes", "I was here before.");
        String prompt = prompt(fixture.build());
        assertEquals("<|start_header_id|>system<|end_header_id|>\n\n" + STORY + "<|eot_id|>"
                + "<|start_header_id|>user<|end_header_id|>\n\nI was here before.<|eot_id|>"
                + "<|start_header_id|>assistant<|end_header_id|>\n\n", prompt);
    }

    /** Each message line below is 100 bytes, 30 tokens by ST's estimate; the answer line "\nBramble:" is 3. */
    @Test
    void aChatLongerThanTheContextLosesItsOldestMessagesThenItsExamples() {
        TextPromptFixture fixture = new TextPromptFixture();
        fixture.sysprompt.put("enabled", false);
        fixture.description = "";
        fixture.persona = "";
        fixture.context.put("chat_start", "");
        for (int i = 1; i <= 6; i++) {
            String name = i % 2 == 0 ? USER : CHAR;
            fixture.message(name, line(name, i));
        }
        fixture.examples.add("<START>\nWren: Hey\n");
        fixture.examples.add("<START>\nWren: Hoy\n");
        fixture.maxContext = 100;
        BuiltPrompt built = fixture.build();

        assertEquals("***\nWren: Hey\n" + "Wren: " + line(USER, 4) + "\n" + "Bramble: " + line(CHAR, 5) + "\n"
                + "Wren: " + line(USER, 6) + "\nBramble:", prompt(built));
    }

    /** The message text that makes {@code "<name>: <text>\n"} exactly 100 bytes. */
    private static String line(String name, int number) {
        String start = "message " + number + " ";
        return start + "x".repeat(100 - name.length() - 3 - start.length());
    }

    @Test
    void continueEndsOnTheUnfinishedMessageWithoutAnAnswerLine() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest().message(CHAR, "Right this");
        fixture.action = Action.CONTINUE;
        fixture.forceName2 = false;
        BuiltPrompt built = fixture.build();

        assertEquals(STORY + "***\nBramble: Welcome in.\nWren: A room, please.\nBramble: Right this", prompt(built));
        assertEquals(List.of("\nWren:", "<END>"), stops(built));
    }

    @Test
    void chatMlContinueLeavesTheLastTurnOpen() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest().message(CHAR, "Right this")
                .chatMl("none");
        fixture.action = Action.CONTINUE;
        fixture.forceName2 = false;

        assertEquals("<|im_start|>system\n" + STORY + "<|im_end|>\n"
                + "<|im_start|>assistant\nWelcome in.<|im_end|>\n"
                + "<|im_start|>user\nA room, please.<|im_end|>\n"
                + "<|im_start|>assistant\nRight this", prompt(fixture.build()));
    }

    @Test
    void continueOnAUserMessageAlsoStopsOnTheCharactersName() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.action = Action.CONTINUE;
        fixture.forceName2 = false;
        BuiltPrompt built = fixture.build();

        assertEquals(STORY + "***\nBramble: Welcome in.\nWren: A room, please.", prompt(built));
        assertEquals(List.of("\nWren:", "\nBramble:", "<END>"), stops(built));
    }

    @Test
    void impersonationWithoutInstructEndsOnTheUsersName() {
        TextPromptFixture fixture = new TextPromptFixture().message(CHAR, "Welcome in.");
        fixture.action = Action.IMPERSONATE;
        BuiltPrompt built = fixture.build();

        assertEquals(STORY + "***\nBramble: Welcome in.\nWren:", prompt(built));
        assertEquals(List.of("\nBramble:", "\nWren:", "<END>"), stops(built));
    }

    @Test
    void inChatPromptsAtDepthTwoGoTwoMessagesUpInRoleOrder() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest()
                .message(CHAR, "Right this way.").message(USER, "Thanks.");
        fixture.injections.add(prompts -> prompts.set("2_floating_prompt", "[Note: it rains]",
                ExtensionPrompts.IN_CHAT, 2, false, ExtensionPrompts.SYSTEM));
        fixture.injections.add(prompts -> prompts.set("zz_user", "*shakes off the rain*",
                ExtensionPrompts.IN_CHAT, 2, false, ExtensionPrompts.USER));
        BuiltPrompt built = fixture.build();

        assertEquals(STORY + "***\nBramble: Welcome in.\nWren: A room, please.\nWren: *shakes off the rain*\n"
                + "[Note: it rains]\nBramble: Right this way.\nWren: Thanks.\nBramble:", prompt(built));
        assertEquals(5, built.itemization().tokens(Itemization.AUTHORS_NOTE)); // 16 bytes / 3.35, rounded up
    }

    @Test
    void chatMlInjectionsTakeTheirRolesSequences() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest().chatMl("none");
        fixture.injections.add(prompts -> prompts.set("2_floating_prompt", "It rains.", ExtensionPrompts.IN_CHAT, 1,
                false, ExtensionPrompts.SYSTEM));
        assertEquals("<|im_start|>system\n" + STORY + "<|im_end|>\n"
                + "<|im_start|>assistant\nWelcome in.<|im_end|>\n"
                + "<|im_start|>system\nIt rains.<|im_end|>\n"
                + "<|im_start|>user\nA room, please.<|im_end|>\n"
                + "<|im_start|>assistant\n", prompt(fixture.build()));
    }

    @Test
    void theStoryStringCanBeInjectedIntoTheChat() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.context.put("story_string_position", 1).put("story_string_depth", 1).put("story_string_role", 0);
        assertEquals("***\nBramble: Welcome in.\n" + STORY + "Wren: A room, please.\nBramble:",
                prompt(fixture.build()));
    }

    @Test
    void aPromptBiasFollowsTheAnswerLine() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.promptBias = "  *smiles*";
        assertEquals(STORY + "***\nBramble: Welcome in.\nWren: A room, please.\nBramble: *smiles*",
                prompt(fixture.build()));
    }

    @Test
    void itemizationCountsTheStoryStringExamplesAndHistory() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.examples.add("<START>\nWren: Hi\nBramble: Hello\n");
        Itemization itemization = fixture.build().itemization();

        assertEquals(estimate(STORY), itemization.tokens(Itemization.STORY_STRING));
        assertEquals(estimate("***\nWren: Hi\nBramble: Hello\n"), itemization.tokens(Itemization.EXAMPLES));
        assertEquals(estimate("***\nBramble: Welcome in.\nWren: A room, please.\nBramble:"),
                itemization.tokens(Itemization.HISTORY));
        assertEquals(estimate("Wren is a traveller."), itemization.tokens(Itemization.PERSONA));
    }

    @Test
    void chatMlWithGroupNamesNamesTheMembersButNotTheUser() {
        TextPromptFixture fixture = new TextPromptFixture().chatMl("force")
                .message(CHAR, "Welcome in.").message("Thistle", "Mind the cat.").message(USER, "A room, please.");
        fixture.groupMembers.addAll(List.of(CHAR, "Thistle"));
        fixture.examples.add("<START>\nWren: Hi\nBramble: Hello\n");
        BuiltPrompt built = fixture.build();

        assertEquals("<|im_start|>system\n" + STORY + "<|im_end|>\n"
                + "<|im_start|>user\nWren: Hi<|im_end|>\n<|im_start|>assistant\nBramble: Hello<|im_end|>\n"
                + "<|im_start|>assistant\nBramble: Welcome in.<|im_end|>\n"
                + "<|im_start|>assistant\nThistle: Mind the cat.<|im_end|>\n"
                + "<|im_start|>user\nA room, please.<|im_end|>\n"
                + "<|im_start|>assistant\nBramble:", prompt(built));
        assertEquals(List.of("\nWren:", "\nThistle:"), stops(built).subList(0, 2));
    }

    @Test
    void systemSameAsUserWrapsNarrationInTheUsersSequences() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest().chatMl("none");
        fixture.instruct.put("system_same_as_user", true);
        fixture.injections.add(prompts -> prompts.set("2_floating_prompt", "It rains.", ExtensionPrompts.IN_CHAT, 0,
                false, ExtensionPrompts.SYSTEM));
        assertEquals("<|im_start|>system\n" + STORY + "<|im_end|>\n"
                + "<|im_start|>assistant\nWelcome in.<|im_end|>\n"
                + "<|im_start|>user\nA room, please.<|im_end|>\n"
                + "<|im_start|>user\nIt rains.<|im_end|>\n"
                + "<|im_start|>assistant\n", prompt(fixture.build()));
    }

    @Test
    void pinnedExamplesStayWhileTheChatIsCut() {
        TextPromptFixture fixture = new TextPromptFixture();
        fixture.sysprompt.put("enabled", false);
        fixture.description = "";
        fixture.persona = "";
        fixture.context.put("chat_start", "");
        fixture.powerUser.put("pin_examples", true);
        fixture.message(CHAR, line(CHAR, 1)).message(USER, line(USER, 2));
        fixture.examples.add("<START>\n" + "Wren: " + "y".repeat(200) + "\n");
        fixture.maxContext = 100;

        assertEquals("***\nWren: " + "y".repeat(200) + "\n" + "Wren: " + line(USER, 2) + "\nBramble:",
                prompt(fixture.build()));
    }

    @Test
    void anchorsAndWorldInfoReachTheStoryStringTemplate() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.context.put("story_string", "{{#if anchorBefore}}{{anchorBefore}}\n{{/if}}{{wiBefore}}"
                + "{{description}}\n{{loreAfter}}{{#if anchorAfter}}{{anchorAfter}}\n{{/if}}");
        fixture.worldInfo = new WorldInfo("The inn is old.\n", "Rooms cost a coin.\n", List.of(), List.of(), Map.of());
        fixture.injections.add(prompts -> prompts.set("1_memory", "Summary: they met.", ExtensionPrompts.IN_PROMPT, 0,
                false, ExtensionPrompts.SYSTEM));
        fixture.injections.add(prompts -> prompts.set("a_before", " Before all. ", ExtensionPrompts.BEFORE_PROMPT, 0,
                false, ExtensionPrompts.SYSTEM));
        BuiltPrompt built = fixture.build();

        assertEquals("Before all.\nThe inn is old.\nBramble keeps the inn.\nRooms cost a coin.\nSummary: they met.\n"
                + "***\nBramble: Welcome in.\nWren: A room, please.\nBramble:", prompt(built));
        assertEquals(estimate("The inn is old.\nRooms cost a coin.\n"), built.itemization().tokens(Itemization.WORLD_INFO));
        assertEquals(estimate("Summary: they met."), built.itemization().tokens(Itemization.SUMMARY));
    }

    @Test
    void singleLineStopsAtTheFirstNewline() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.powerUser.put("single_line", true);
        assertEquals(List.of("\n", "\nWren:", "<END>"), stops(fixture.build()));
    }

    @Test
    void guidanceSendsItsPositivePromptInTheChatAndItsNegativeOneAlongside() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.settings.putObject("extension_settings").putObject("cfg").putObject("global")
                .put("guidance_scale", 1.5).put("negative_prompt", "Be dull.").put("positive_prompt", "Be vivid.");
        BuiltPrompt built = fixture.build();

        assertEquals(STORY + "***\nBramble: Welcome in.\nBe vivid.\nWren: A room, please.\nBramble:", prompt(built));
        assertEquals(STORY + "***\nBramble: Welcome in.\nBe dull.\nWren: A room, please.\nBramble:",
                built.request().get("negative_prompt").textValue());
        assertEquals(1.5, built.request().get("guidance_scale").doubleValue());
    }

    @Test
    void aCharactersGuidanceAtDepthZeroFollowsTheLastLine() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.settings.putObject("extension_settings").putObject("cfg").putArray("chara").addObject()
                .put("name", "Bramble").put("guidance_scale", 2).put("positive_prompt", "Warmly.");
        fixture.metadata.put("cfg_prompt_insertion_depth", 0);
        BuiltPrompt built = fixture.build();

        assertEquals(STORY + "***\nBramble: Welcome in.\nWren: A room, please.\nBramble: Warmly.", prompt(built));
        assertEquals(2, built.request().get("guidance_scale").intValue());
    }

    @Test
    void settingsWithoutPowerUserValuesGiveStsDefaults() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.settings.removeAll();
        BuiltPrompt built = fixture.build();

        assertEquals("Write Bramble's next reply in a fictional chat between Bramble and Wren.\n"
                + "Bramble keeps the inn.\nWren is a traveller.\n***\nBramble: Welcome in.\nWren: A room, please.\n"
                + "Bramble:", prompt(built));
        assertEquals(List.of("\nWren:", "\n***"), stops(built));
        assertEquals("ooba", built.request().get("api_type").textValue());
        assertTrue(built.request().get("max_new_tokens").isNull(), "Number(undefined) is NaN, sent as null");
    }

    @Test
    void anInChatPromptWithoutDepthIsLeftOutAndOneWithoutRoleIsNarration() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.injections.add(prompts -> prompts.set("no_depth", "Never shown.", ExtensionPrompts.IN_CHAT, null,
                false, ExtensionPrompts.SYSTEM));
        fixture.injections.add(prompts -> prompts.set("no_role", "It rains.", ExtensionPrompts.IN_CHAT, 1, false,
                null));
        assertEquals(STORY + "***\nBramble: Welcome in.\nIt rains.\nWren: A room, please.\nBramble:",
                prompt(fixture.build()));
    }

    private static int estimate(String text) {
        return (int) Math.ceil(text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length / 3.35);
    }
}
