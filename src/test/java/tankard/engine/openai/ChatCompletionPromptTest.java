package tankard.engine.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.engine.prompt.Action;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.Itemization;
import tankard.engine.prompt.WorldInfo;
import tankard.json.JsJson;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static tankard.engine.openai.ChatScene.cost;
import static tankard.engine.openai.ChatScene.expected;

class ChatCompletionPromptTest {
    private static final String NEW_CHAT = "[Start a new Chat]";
    private static final String MAIN = "Write Bramble's next reply to Wren.";
    private static final String DESCRIPTION = "Bramble is a hedgehog who guards the herb garden.";
    private static final String JAILBREAK = "Stay in character as Bramble.";

    private static ChatScene shortChat() {
        return new ChatScene()
                .character("*Bramble bristles.* Who goes there?")
                .user("Only me, with the watering can.")
                .character("Hmph. Mind the mint.")
                .user("I always do.");
    }

    @Test
    void theDefaultOrderPlacesEachPartWhereSillyTavernDoes() {
        ChatScene scene = shortChat();
        scene.worldInfo = new WorldInfo("The garden has a well.", "Frost comes early.", List.of(), List.of(), Map.of());
        scene.powerUser.put("persona_description", "Wren is a gardener.");
        scene.examples.add("<START>\nWren: Hello?\nBramble: Hmph.\nGo away.\n");

        assertEquals(expected(
                "system", MAIN,
                "system", "The garden has a well.",
                "system", "Wren is a gardener.",
                "system", DESCRIPTION,
                "system", "Prickly but kind.",
                "system", "Dawn in the garden.",
                "system", "Keep it gentle.",
                "system", "Frost comes early.",
                "system", "[Example Chat]",
                "system@example_user", "Hello?",
                "system@example_assistant", "Hmph.\nGo away.",
                "system", NEW_CHAT,
                "assistant", "*Bramble bristles.* Who goes there?",
                "user", "Only me, with the watering can.",
                "assistant", "Hmph. Mind the mint.",
                "user", "I always do.",
                "system", JAILBREAK), scene.messages());

        Itemization itemization = scene.build().itemization();
        assertEquals(cost("system", MAIN) + cost("system", "Keep it gentle.") + cost("system", JAILBREAK),
                itemization.tokens(Itemization.SYSTEM));
        assertEquals(cost("system", DESCRIPTION) + cost("system", "Prickly but kind.")
                + cost("system", "Dawn in the garden."), itemization.tokens(Itemization.STORY_STRING));
        assertEquals(cost("system", "The garden has a well.Frost comes early.") + 2,
                itemization.tokens(Itemization.WORLD_INFO), "world info is counted as one text");
    }

    @Test
    void settingsWithoutAnOaiSectionAreReadFromTheTopLevelAndMigrated() {
        ChatScene scene = new ChatScene().order("main", "chatHistory").user("Hi.");
        scene.settings.remove("oai_settings");
        scene.settings.put("main_prompt", "Old main prompt for {{char}}.").put("names_in_completion", true)
                .put("chat_completion_source", "openai").put("openai_model", ChatScene.MODEL);
        scene.settings.set("prompt_order", scene.oai.get("prompt_order"));
        assertEquals(expected("system", "Old main prompt for Bramble.", "system", NEW_CHAT, "user@Wren", "Hi."),
                scene.messages());
    }

    @Test
    void aCustomOrderLeavesOutADisabledPromptAndInjectsAnAbsolutePromptAtItsDepth() {
        ChatScene scene = shortChat();
        scene.oai.withArray("prompts").add(ChatScene.prompt("style", "Write in the present tense.")
                .put("system_prompt", false));
        scene.oai.withArray("prompts").add(ChatScene.prompt("reminder", "Remember the frost, {{char}}.")
                .put("system_prompt", false).put("role", "user").put("injection_position", 1).put("injection_depth", 1));
        scene.order("main", "charDescription", "style", "-nsfw", "reminder", "chatHistory", "jailbreak");

        assertEquals(expected(
                "system", MAIN,
                "system", DESCRIPTION,
                "system", "Write in the present tense.",
                "system", NEW_CHAT,
                "assistant", "*Bramble bristles.* Who goes there?",
                "user", "Only me, with the watering can.",
                "assistant", "Hmph. Mind the mint.",
                "user", "Remember the frost, Bramble.",
                "user", "I always do.",
                "system", JAILBREAK), scene.messages());
    }

    @Test
    void inChatPromptsAtOneDepthGroupByOrderAndRoleWithTheHighestOrderLast() {
        ChatScene scene = shortChat();
        for (String[] prompt : new String[][] {{"high", "200", "High order."}, {"low", "50", "Low order."},
                {"middle", "100", "Middle order."}}) {
            scene.oai.withArray("prompts").add(ChatScene.prompt(prompt[0], prompt[2]).put("system_prompt", false)
                    .put("injection_position", 1).put("injection_depth", 0)
                    .put("injection_order", Integer.parseInt(prompt[1])));
        }
        scene.order("high", "low", "middle", "chatHistory");
        scene.extensionPrompts = prompts -> prompts.set("2_floating_prompt", "Author's note.", ExtensionPrompts.IN_CHAT,
                0, false, ExtensionPrompts.SYSTEM);
        assertEquals(expected("system", NEW_CHAT,
                "assistant", "*Bramble bristles.* Who goes there?",
                "user", "Only me, with the watering can.",
                "assistant", "Hmph. Mind the mint.",
                "user", "I always do.",
                "system", "Low order.",
                "system", "Middle order.\nAuthor's note.",
                "system", "High order."), scene.messages());
    }

    @Test
    void namesGoIntoTheNameFieldOrTheTextAsNamesBehaviorSays() {
        ChatScene scene = new ChatScene().order("chatHistory")
                .character("Hmph.")
                .message("Old Tom", false, "Evening, both.")
                .user("Hello, Tom.");
        scene.chat.get(1).put("force_avatar", "Old Tom.png");

        assertEquals(expected("system", NEW_CHAT, "assistant", "Hmph.", "assistant", "Old Tom: Evening, both.",
                "user", "Hello, Tom."), scene.messages(), "default: only messages sent as someone else");

        scene.oai.put("names_behavior", 2);
        assertEquals(expected("system", NEW_CHAT, "assistant", "Bramble: Hmph.", "assistant", "Old Tom: Evening, both.",
                "user", "Wren: Hello, Tom."), scene.messages(), "content: every message");

        scene.oai.put("names_behavior", 1);
        assertEquals(expected("system", NEW_CHAT, "assistant@Bramble", "Hmph.", "assistant@Old_Tom", "Evening, both.",
                "user@Wren", "Hello, Tom."), scene.messages(), "completion: the name field, sanitized");

        scene.oai.put("names_behavior", -1);
        assertEquals(expected("system", NEW_CHAT, "assistant", "Hmph.", "assistant", "Evening, both.",
                "user", "Hello, Tom."), scene.messages(), "none");
    }

    @Test
    void exampleDialoguesSplitAtSpeakerLinesAndGoInWhole() {
        ChatScene scene = new ChatScene().order("dialogueExamples").user("Hi.");
        scene.oai.put("new_example_chat_prompt", "[Example of {{char}}]");
        scene.examples.add("<start>\nWren: Is the mint ready?\nBramble: No.\nWren: Tomorrow?\nBramble: Perhaps.\n");
        scene.examples.add("<START>\nSome narration first.\nBramble: *sniffs*\n");

        assertEquals(expected(
                "system", "[Example of Bramble]",
                "system@example_user", "Is the mint ready?",
                "system@example_assistant", "No.",
                "system@example_user", "Tomorrow?",
                "system@example_assistant", "Perhaps.",
                "system", "[Example of Bramble]",
                "system@example_assistant", "Some narration first.\n *sniffs*"), scene.messages());

        scene.powerUser.put("strip_examples", true);
        assertEquals("[]", scene.messages());
    }

    @Test
    void aChatLongerThanTheBudgetLosesItsOldestMessagesAndThenTheExamples() {
        ChatScene scene = new ChatScene().order("main", "dialogueExamples", "chatHistory");
        for (int i = 1; i <= 6; i++) {
            scene.user("Question number " + i + " about the garden?").character("Answer number " + i + ", grudgingly.");
        }
        scene.examples.add("<START>\nWren: Hello?\nBramble: Hmph.\n");
        int main = cost("system", MAIN);
        int newChat = cost("system", NEW_CHAT);
        int lastThree = cost("assistant", "Answer number 6, grudgingly.") + cost("user", "Question number 6 about the garden?")
                + cost("assistant", "Answer number 5, grudgingly.");
        int examples = cost("system", "[Example Chat]")
                + cost(JsJson.object().put("role", "system").put("content", "Hello?").put("name", "example_user"))
                + cost(JsJson.object().put("role", "system").put("content", "Hmph.").put("name", "example_assistant"));
        scene.oai.put("openai_max_tokens", 100).put("openai_max_context", 100 + 3 + main + newChat + lastThree);

        BuiltPrompt built = scene.build();
        assertEquals(expected("system", MAIN, "system", NEW_CHAT,
                "assistant", "Answer number 5, grudgingly.",
                "user", "Question number 6 about the garden?",
                "assistant", "Answer number 6, grudgingly."), JsJson.compact(built.request().get("messages")));
        assertEquals(newChat + lastThree, built.itemization().tokens(Itemization.HISTORY));
        assertEquals(main + newChat + lastThree, built.itemization().toJson().get("total").asInt());

        scene.oai.put("function_calling", true);
        assertEquals(expected("system", MAIN, "system", NEW_CHAT,
                "user", "Question number 6 about the garden?",
                "assistant", "Answer number 6, grudgingly."), scene.messages(),
                "with function calling on, ST keeps room for tool definitions");
        scene.oai.put("function_calling", false);

        scene.powerUser.put("pin_examples", true);
        scene.oai.put("openai_max_context", 100 + 3 + main + examples + newChat + lastThree);
        assertEquals(expected("system", MAIN, "system", "[Example Chat]", "system@example_user", "Hello?",
                "system@example_assistant", "Hmph.", "system", NEW_CHAT,
                "assistant", "Answer number 5, grudgingly.",
                "user", "Question number 6 about the garden?",
                "assistant", "Answer number 6, grudgingly."), scene.messages(), "pinned examples go in first");
    }

    @Test
    void continueWithPrefillSendsTheLastMessageLastAndWithoutPrefillNudges() {
        ChatScene scene = new ChatScene().order("main", "chatHistory", "jailbreak")
                .user("What is that noise?")
                .character("It is the frost, creeping");
        scene.action = Action.CONTINUE;
        scene.oai.put("continue_prefill", true);
        assertEquals(expected("system", MAIN, "system", NEW_CHAT, "user", "What is that noise?", "system", JAILBREAK,
                "assistant", "It is the frost, creeping"), scene.messages());

        scene.oai.put("chat_completion_source", "claude").put("claude_model", "claude-sonnet-4-5")
                .put("assistant_prefill", "{{char}} speaks:");
        assertEquals(expected("system", MAIN, "system", NEW_CHAT, "user", "What is that noise?", "system", JAILBREAK,
                "assistant", "Bramble speaks:\n\nIt is the frost, creeping"), scene.messages(),
                "Claude's assistant prefill goes before the continued text");

        scene.oai.put("chat_completion_source", "openai").put("continue_prefill", false);
        assertEquals(expected("system", MAIN, "system", NEW_CHAT, "user", "What is that noise?", "system", JAILBREAK,
                "assistant", "It is the frost, creeping",
                "system", "[Continue your last message without repeating its original content.]"), scene.messages());
    }

    @Test
    void impersonationEndsWithTheImpersonationPrompt() {
        ChatScene scene = shortChat().order("main", "chatHistory", "jailbreak");
        scene.action = Action.IMPERSONATE;
        scene.oai.put("impersonation_prompt", "Write {{user}}'s next line.");
        assertEquals(expected("system", MAIN, "system", NEW_CHAT,
                "assistant", "*Bramble bristles.* Who goes there?",
                "user", "Only me, with the watering can.",
                "assistant", "Hmph. Mind the mint.",
                "user", "I always do.",
                "system", JAILBREAK,
                "system", "Write Wren's next line."), scene.messages());
    }

    @Test
    void extensionPromptsGoIntoTheChatAtTheirDepthOrAroundTheMainPrompt() {
        ChatScene scene = shortChat().order("main", "charDescription", "chatHistory");
        scene.extensionPrompts = prompts -> {
            prompts.set("2_floating_prompt", "[Author's note: {{char}} is sleepy.]", ExtensionPrompts.IN_CHAT, 2,
                    false, ExtensionPrompts.SYSTEM);
            prompts.set("DEPTH_PROMPT", "{{user}} smells of mint.", ExtensionPrompts.IN_CHAT, 2, false,
                    ExtensionPrompts.USER);
            prompts.set("1_memory", "Summary: the mint was saved.", ExtensionPrompts.IN_PROMPT, 0, false,
                    ExtensionPrompts.SYSTEM);
            prompts.set("4_vectors_data_bank", "From the almanac: frost in May.", ExtensionPrompts.BEFORE_PROMPT, 0,
                    false, ExtensionPrompts.SYSTEM);
        };
        BuiltPrompt built = scene.build();
        assertEquals(expected(
                "system", "From the almanac: frost in May.",
                "system", MAIN,
                "system", "Summary: the mint was saved.",
                "system", DESCRIPTION,
                "system", NEW_CHAT,
                "assistant", "*Bramble bristles.* Who goes there?",
                "user", "Only me, with the watering can.",
                "user", "Wren smells of mint.",
                "system", "[Author's note: Bramble is sleepy.]",
                "assistant", "Hmph. Mind the mint.",
                "user", "I always do."), JsJson.compact(built.request().get("messages")));
        assertEquals(cost("system", "[Author's note: {{char}} is sleepy.]") + 2,
                built.itemization().tokens(Itemization.AUTHORS_NOTE), "counted as a full system message");
    }

    @Test
    void aMarkerMissingFromTheOrderIsSentAfterEverythingElse() {
        ChatScene scene = new ChatScene().exactOrder("main", "chatHistory", "jailbreak").user("Hi.");
        scene.card = tankard.engine.macro.TestMacros.card("", "", "Dawn in the garden.", "");
        assertEquals(expected("system", MAIN, "system", NEW_CHAT, "user", "Hi.", "system", JAILBREAK,
                "system", "Dawn in the garden."), scene.messages());
    }

    @Test
    void aGroupChatNamesItsSpeakersAndEndsWithTheGroupNudge() {
        // ST splits example lines only where the speaker changes between the user and the characters
        ChatScene scene = new ChatScene().order("main", "dialogueExamples", "chatHistory")
                .user("Good morning, both.")
                .message("Old Tom", false, "Morning.")
                .character("Hmph.");
        scene.group = JsJson.object().put("id", "garden").put("name", "The Garden");
        scene.members.add(JsJson.object().put("name", "Bramble"));
        scene.members.add(JsJson.object().put("name", "Old Tom"));
        scene.oai.put("new_group_chat_prompt", "[A group chat with {{char}} begins]");
        scene.examples.add("<START>\nWren: Tea?\nOld Tom: Please.\nBramble: No.\n");

        ObjectNode request = scene.build().request();
        assertEquals(expected(
                "system", MAIN,
                "system", "[Example Chat]",
                "system@example_user", "Wren: Tea?",
                "system@example_assistant", "Old Tom: Please.\nBramble: No.",
                "system", "[A group chat with Bramble begins]",
                "user", "Good morning, both.",
                "assistant", "Old Tom: Morning.",
                "assistant", "Bramble: Hmph.",
                "system", "[Write the next reply only as Bramble.]"), JsJson.compact(request.get("messages")));
        assertEquals("[\"Bramble\",\"Old Tom\"]", JsJson.compact(request.get("group_names")));
    }

    @Test
    void promptsThatMustGoInButDoNotFitLeaveTheRequestAsFarAsItGot() {
        ChatScene scene = new ChatScene().order("main", "charDescription", "chatHistory").user("Hi.");
        scene.oai.put("openai_max_tokens", 100)
                .put("openai_max_context", 100 + 3 + cost("system", MAIN) + cost("system", DESCRIPTION) - 1);
        assertEquals(expected("system", MAIN), scene.messages(), "ST warns and sends what it placed");
    }

    @Test
    void claudeOpenRouterAndGoogleRequestsCarryTheirOwnFields() {
        ChatScene scene = new ChatScene().order("chatHistory").user("Hi.");
        scene.powerUser.put("custom_stopping_strings", "[\"\\nWren:\", \"a stop string too long for Google\"]");
        scene.oai.put("top_k_openai", 40).put("use_sysprompt", true).put("assistant_prefill", "{{char}}:")
                .put("claude_model", "claude-opus-4-1").put("chat_completion_source", "claude");
        ObjectNode claude = scene.build().request();
        assertEquals("claude-opus-4-1|40|true|Bramble:|[\"\\nWren:\",\"a stop string too long for Google\"]|auto",
                claude.get("model").asText() + "|" + claude.get("top_k") + "|" + claude.get("use_sysprompt") + "|"
                        + claude.get("assistant_prefill").asText() + "|" + JsJson.compact(claude.get("stop")) + "|"
                        + claude.get("reasoning_effort").asText());

        scene.oai.put("chat_completion_source", "openrouter").put("openrouter_model", "google/gemini-2.5-flash")
                .put("min_p_openai", 0.05).put("openrouter_middleout", "auto");
        ObjectNode openRouter = scene.build().request();
        assertEquals("google/gemini-2.5-flash|40|0.05|1|0|false|[]|auto|false", openRouter.get("model").asText() + "|"
                + openRouter.get("top_k") + "|" + openRouter.get("min_p") + "|" + openRouter.get("repetition_penalty")
                + "|" + openRouter.get("top_a") + "|" + openRouter.get("use_fallback") + "|"
                + JsJson.compact(openRouter.get("provider")) + "|" + openRouter.get("middleout").asText() + "|"
                + openRouter.has("assistant_prefill"));

        scene.oai.put("chat_completion_source", "openrouter").put("openrouter_model", "OR_Website");
        assertEquals("null", JsJson.compact(scene.build().request().get("model")), "OpenRouter's own choice");

        scene.oai.put("chat_completion_source", "makersuite").put("google_model", "gemini-2.5-pro");
        ObjectNode google = scene.build().request();
        assertEquals("gemini-2.5-pro|40|[\"\\nWren:\"]|true", google.get("model").asText() + "|" + google.get("top_k")
                + "|" + JsJson.compact(google.get("stop")) + "|" + google.get("use_sysprompt"));
    }

    @Test
    void toolInvocationsBecomeToolCallsAndResultsWhenFunctionCallingIsOn() {
        ChatScene scene = new ChatScene().order("chatHistory").user("Is it cold out?").character("");
        scene.chat.get(1).put("is_system", true).putObject("extra").putArray("tool_invocations").addObject()
                .put("id", "call_1").put("name", "weather").put("parameters", "{\"place\":\"garden\"}")
                .put("result", "Frosty").put("reasoning", "I should check.");
        scene.character("It is frosty.");
        scene.oai.put("function_calling", true);
        assertEquals("[{\"role\":\"system\",\"content\":\"[Start a new Chat]\"},"
                + "{\"role\":\"user\",\"content\":\"Is it cold out?\"},"
                + "{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                + "\"function\":{\"arguments\":\"{\\\"place\\\":\\\"garden\\\"}\",\"name\":\"weather\"}}]},"
                + "{\"role\":\"tool\",\"content\":\"Frosty\",\"tool_call_id\":\"call_1\"},"
                + "{\"role\":\"assistant\",\"content\":\"It is frosty.\"}]", scene.messages());

        scene.oai.put("function_calling", false);
        assertEquals(expected("system", NEW_CHAT, "user", "Is it cold out?", "assistant", "It is frosty."),
                scene.messages(), "without function calling the invocation message is an empty message");
    }

    @Test
    void theCardReplacesTheMainPromptAndPostHistoryInstructionsUnlessForbidden() {
        ChatScene scene = new ChatScene().order("main", "chatHistory", "jailbreak").user("Hi.");
        scene.card = new tankard.engine.macro.MacroEnv.CardFields("", "", "", "", "", "Card main for {{char}}.",
                "Card instructions for {{char}}.", "", "", "", "", java.util.List.of());
        assertEquals(expected("system", "Card main for Bramble.", "system", NEW_CHAT, "user", "Hi.",
                "system", "Card instructions for Bramble."), scene.messages());

        ((ObjectNode) scene.oai.withArray("prompts").get(0)).put("forbid_overrides", true);
        assertEquals(expected("system", MAIN, "system", NEW_CHAT, "user", "Hi.",
                "system", "Card instructions for Bramble."), scene.messages(), "the main prompt forbids overrides");
    }

    @Test
    void aPromptWithTriggersGoesOnlyIntoThoseGenerationTypes() {
        ChatScene scene = new ChatScene().order("main", "chatHistory", "onSwipe").user("Hi.").character("Hmph.");
        scene.oai.withArray("prompts").add(ChatScene.prompt("onSwipe", "Try something new.")
                .put("system_prompt", false).set("injection_trigger", JsJson.array().add("swipe")));
        assertEquals(expected("system", MAIN, "system", NEW_CHAT, "user", "Hi.", "assistant", "Hmph."),
                scene.messages());

        scene.action = Action.SWIPE; // the chat as given stands for Generate's coreChat, swiped message already out
        ObjectNode request = scene.build().request();
        assertEquals(expected("system", MAIN, "system", NEW_CHAT, "user", "Hi.", "assistant", "Hmph.",
                "system", "Try something new."), JsJson.compact(request.get("messages")));
        assertEquals("swipe", request.get("type").asText());
    }

    @Test
    void squashingJoinsConsecutiveUnnamedSystemMessages() {
        ChatScene scene = shortChat().order("main", "charDescription", "scenario", "chatHistory", "jailbreak");
        scene.oai.put("squash_system_messages", true);
        assertEquals(expected("system", MAIN + "\n" + DESCRIPTION + "\nDawn in the garden.", "system", NEW_CHAT,
                "assistant", "*Bramble bristles.* Who goes there?",
                "user", "Only me, with the watering can.",
                "assistant", "Hmph. Mind the mint.",
                "user", "I always do.",
                "system", JAILBREAK), scene.messages());
    }

    @Test
    void anOpenAiRequestCarriesTheSamplersAndStopStrings() {
        ChatScene scene = new ChatScene().order("chatHistory").user("Hi.");
        scene.oai.put("temp_openai", 0.7).put("freq_pen_openai", 0.2).put("pres_pen_openai", 0.1)
                .put("top_p_openai", 0.9).put("openai_max_tokens", 250).put("stream_openai", true).put("seed", 42)
                .put("reasoning_effort", "high").put("n", 3);
        scene.powerUser.put("custom_stopping_strings", "[\"\\n{{user}}:\", \"\", \"THE END\"]");
        ObjectNode request = scene.build().request();
        assertEquals("{\"type\":\"normal\",\"messages\":" + expected("system", NEW_CHAT, "user", "Hi.")
                + ",\"model\":\"gpt-4o\",\"temperature\":0.7,\"frequency_penalty\":0.2,\"presence_penalty\":0.1,"
                + "\"top_p\":0.9,\"max_tokens\":250,\"stream\":true,\"stop\":[\"\\nWren:\",\"THE END\"],"
                + "\"chat_completion_source\":\"openai\",\"n\":3,\"user_name\":\"Wren\",\"char_name\":\"Bramble\","
                + "\"group_names\":[],\"include_reasoning\":true,\"reasoning_effort\":\"high\","
                + "\"enable_web_search\":false,\"request_images\":false,\"request_image_resolution\":\"\","
                + "\"request_image_aspect_ratio\":\"\",\"custom_prompt_post_processing\":\"\",\"seed\":42}",
                JsJson.compact(request));

        scene.oai.put("openai_model", "o3-mini");
        ObjectNode reasoning = scene.build().request();
        assertEquals("{\"max_completion_tokens\":250,\"temperature\":null,\"stop\":null,\"n\":3}",
                JsJson.compact(JsJson.object().<ObjectNode>set("max_completion_tokens", reasoning.get("max_completion_tokens"))
                        .<ObjectNode>set("temperature", reasoning.get("temperature"))
                        .<ObjectNode>set("stop", reasoning.get("stop")).<ObjectNode>set("n", reasoning.get("n"))),
                "o-series models take max_completion_tokens and no samplers");
    }

    @Test
    void theSelectedBiasPresetBecomesALogitBiasByToken() {
        ChatScene scene = new ChatScene().order("chatHistory").user("Hi.");
        scene.oai.put("bias_preset_selected", "No frost").putObject("bias_presets").putArray("No frost")
                .add(JsJson.object().put("text", " frost").put("value", -50))
                .add(JsJson.object().put("text", "[42, 7]").put("value", 10))
                .add(JsJson.object().put("text", "").put("value", 99));
        int[] frost = ChatScene.TOKENIZERS.forCount(ChatScene.MODEL).encode(" frost");
        assertEquals(1, frost.length);
        assertEquals("{\"7\":10,\"42\":10,\"" + frost[0] + "\":-50}",
                JsJson.compact(scene.build().request().get("logit_bias")));

        scene.oai.put("chat_completion_source", "claude");
        assertEquals(false, scene.build().request().has("logit_bias"), "Claude takes no logit bias");
    }

    @Test
    void aCustomSourceRequestCarriesItsEndpointAndBodyFields() {
        ChatScene scene = new ChatScene().order("chatHistory").user("Hi.");
        scene.action = Action.CONTINUE;
        scene.oai.put("chat_completion_source", "custom").put("custom_model", "koboldcpp/bramble-7b")
                .put("custom_url", "http://127.0.0.1:5001/v1").put("custom_include_body", "min_p: 0.05")
                .put("custom_exclude_body", "- frequency_penalty").put("custom_include_headers", "")
                .put("reasoning_effort", "min").put("n", 2).put("verbosity", "low")
                .put("custom_prompt_post_processing", "strict");
        ObjectNode request = scene.build().request();
        assertEquals("{\"type\":\"continue\",\"messages\":" + expected("system", NEW_CHAT, "user", "Hi.",
                        "system", "[Continue your last message without repeating its original content.]")
                + ",\"model\":\"koboldcpp/bramble-7b\",\"temperature\":1,\"frequency_penalty\":0,"
                + "\"presence_penalty\":0,\"top_p\":1,\"max_tokens\":300,\"stream\":false,"
                + "\"chat_completion_source\":\"custom\",\"user_name\":\"Wren\",\"char_name\":\"Bramble\","
                + "\"group_names\":[],\"include_reasoning\":true,\"reasoning_effort\":\"minimal\","
                + "\"enable_web_search\":false,\"request_images\":false,\"request_image_resolution\":\"\","
                + "\"request_image_aspect_ratio\":\"\",\"custom_prompt_post_processing\":\"strict\","
                + "\"verbosity\":\"low\",\"custom_url\":\"http://127.0.0.1:5001/v1\","
                + "\"custom_include_body\":\"min_p: 0.05\",\"custom_exclude_body\":\"- frequency_penalty\","
                + "\"custom_include_headers\":\"\"}", JsJson.compact(request));
    }
}
