package tankard.engine.memory;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import tankard.engine.macro.MacroEnv;
import tankard.engine.macro.Macros;
import tankard.engine.macro.TestMacros;
import tankard.engine.prompt.TokenCounter;
import tankard.json.JsJson;

import java.time.ZonedDateTime;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Summarize extension on the main API: when a summary is due, the requests each mode sends for chat and text
 * completion, the message the answer is kept in, and what edits and deletions do to kept summaries.
 */
class SummaryMemoryTest {
    private static final Macros MACROS = TestMacros.macros("Wren", "Bramble", JsJson.object(),
            MacroEnv.CardFields.EMPTY, null, JsJson.array(), JsJson.object(), "", ZonedDateTime.now());
    /** One token a character, so budgets are easy to reckon. */
    private static final TokenCounter CHARS = String::length;
    private static final String INSTRUCTION = "Sum up {{char}}'s tale in {{words}} words.";

    /** settings.json with the extension set to the main API, the given memory settings over that. */
    private static ObjectNode settings(String memory) {
        ObjectNode settings = (ObjectNode) JsJson.parse("{\"main_api\":\"openai\",\"power_user\":{},"
                + "\"oai_settings\":{\"openai_max_context\":8000,\"openai_max_tokens\":400},"
                + "\"max_context\":4096,\"amount_gen\":200,"
                + "\"extension_settings\":{\"memory\":{\"source\":\"main\",\"prompt\":\"" + INSTRUCTION + "\","
                + "\"promptWords\":150,\"promptInterval\":10}}}");
        ObjectNode over = (ObjectNode) JsJson.parse(memory);
        ((ObjectNode) settings.path("extension_settings").path("memory")).setAll(over);
        return settings;
    }

    private static SummaryMemory summary(ObjectNode settings) {
        return new SummaryMemory(settings, MACROS, CHARS);
    }

    private static ObjectNode message(String name, String text, boolean user) {
        ObjectNode message = JsJson.object().put("name", name).put("is_user", user).put("is_system", false)
                .put("mes", text);
        message.putObject("extra");
        return message;
    }

    /** A chat of {@code size} messages taking turns, the user first: "Wren said 1.", "Bramble said 2." … */
    private static ArrayNode chat(int size) {
        ArrayNode chat = JsJson.array();
        for (int i = 1; i <= size; i++) {
            boolean user = i % 2 == 1;
            chat.add(message(user ? "Wren" : "Bramble", (user ? "Wren" : "Bramble") + " said " + i + ".", user));
        }
        return chat;
    }

    private static ArrayNode withMemory(ArrayNode chat, int index, String memory) {
        ((ObjectNode) chat.get(index).get("extra")).put("memory", memory);
        return chat;
    }

    @Nested
    class Triggers {
        @Test
        void aSummaryIsDueOnceIntervalMessagesFollowTheLastSummary() {
            SummaryMemory memory = summary(settings("{}"));
            assertTrue(memory.due(chat(10)).isPresent(), "10 messages, none summarized");
            assertFalse(memory.due(withMemory(chat(12), 2, "Old.")).isPresent(), "9 messages after the summary");
            assertTrue(memory.due(withMemory(chat(13), 2, "Old.")).isPresent(), "10 messages after the summary");
        }

        @Test
        void theInstructionHasItsWordsAndMacrosFilledIn() {
            var due = summary(settings("{}")).due(chat(10));
            assertEquals("Sum up Bramble's tale in 150 words.", due.orElseThrow().instruction());
        }

        @Test
        void aSummaryIsDueOnceForceWordsWordsFollowTheLastSummary() {
            // 4 messages after the summary, far from the interval; "Wren said 57." is 3 words: 12 in all
            ArrayNode chat = withMemory(chat(60), 55, "Old.");
            assertTrue(summary(settings("{\"promptInterval\":50,\"promptForceWords\":12}")).due(chat).isPresent());
            assertFalse(summary(settings("{\"promptInterval\":50,\"promptForceWords\":13}")).due(chat).isPresent());
            assertFalse(summary(settings("{\"promptInterval\":50}")).due(chat).isPresent(), "force words off");
        }

        @Test
        void wordsAreRunsOfAsciiWordCharactersAsTheRegexCountsThem() {
            assertEquals(5, SummaryMemory.wordCount(JsJson.tree("don't stop_it, café 42")));
            assertEquals(0, SummaryMemory.wordCount(JsJson.tree("… — !")));
            assertEquals(0, SummaryMemory.wordCount(null));
        }

        @Test
        void intervalZeroTurnsSummariesOffEvenWithForceWords() {
            ArrayNode chat = chat(40);
            assertFalse(summary(settings("{\"promptInterval\":0,\"promptForceWords\":1}")).due(chat).isPresent());
            assertTrue(summary(settings("{\"promptInterval\":1,\"promptForceWords\":1}")).due(chat).isPresent());
        }

        @Test
        void aFrozenMemoryIsNotSummarized() {
            assertFalse(summary(settings("{\"memoryFrozen\":true}")).due(chat(30)).isPresent());
        }

        @Test
        void aChatShorterThanTheIntervalIsNotSummarizedWhateverItsWords() {
            SummaryMemory memory = summary(settings("{\"promptInterval\":20,\"promptForceWords\":5}"));
            assertFalse(memory.due(chat(19)).isPresent());
            assertTrue(memory.due(chat(20)).isPresent());
        }

        @Test
        void anEmptyInstructionAsksNothing() {
            assertFalse(summary(settings("{\"prompt\":\"\"}")).due(chat(30)).isPresent());
        }

        @Test
        void onlyTheMainApiSourceIsSummarizedHereAndTheDefaultSourceIsExtras() {
            assertFalse(summary(settings("{\"source\":\"extras\"}")).due(chat(30)).isPresent());
            ObjectNode defaults = settings("{}");
            ((ObjectNode) defaults.path("extension_settings").path("memory")).remove("source");
            assertFalse(summary(defaults).due(chat(30)).isPresent());
        }

        @Test
        void thePromptBuilderNamesTheModeAndAnUnknownOneAsksNothing() {
            assertEquals(SummaryMemory.Mode.CLASSIC, summary(settings("{}")).due(chat(10)).orElseThrow().mode());
            assertEquals(SummaryMemory.Mode.RAW_BLOCKING,
                    summary(settings("{\"prompt_builder\":1}")).due(chat(10)).orElseThrow().mode());
            assertEquals(SummaryMemory.Mode.RAW_NON_BLOCKING,
                    summary(settings("{\"prompt_builder\":2}")).due(chat(10)).orElseThrow().mode());
            assertFalse(summary(settings("{\"prompt_builder\":3}")).due(chat(10)).isPresent());
            assertFalse(summary(settings("{\"prompt_builder\":\"1\"}")).due(chat(10)).isPresent());
        }

        @Test
        void theDefaultSettingsSummarizeEveryTenMessagesWithTheExtensionsInstruction() {
            ObjectNode settings = settings("{}");
            ObjectNode memory = (ObjectNode) settings.path("extension_settings").path("memory");
            memory.remove("prompt");
            memory.remove("promptWords");
            memory.remove("promptInterval");
            SummaryMemory summary = summary(settings);
            assertFalse(summary.due(chat(9)).isPresent());
            String instruction = summary.due(chat(10)).orElseThrow().instruction();
            assertTrue(instruction.contains("Limit the summary to 200 words or less."), instruction);
        }
    }

    /** A chat completion request as the engine sends it: a system prompt, the chat, Claude's prefill. */
    private static ObjectNode chatRequest(ArrayNode chat) {
        ObjectNode request = JsJson.object();
        request.put("type", "normal");
        ArrayNode messages = request.putArray("messages");
        messages.addObject().put("role", "system").put("content", "You are Bramble, a ferryman on a misty river.");
        for (int i = 0; i < chat.size(); i++) {
            messages.addObject().put("role", chat.get(i).path("is_user").asBoolean() ? "user" : "assistant")
                    .put("content", chat.get(i).get("mes").asText());
        }
        request.put("model", "claude-test").put("temperature", 0.7).put("max_tokens", 400).put("stream", true)
                .put("chat_completion_source", "claude").put("assistant_prefill", "Bramble:").put("n", 2);
        return request;
    }

    /** A text completion request: the chat as "name: text" lines, the character's name to answer. */
    private static ObjectNode textRequest(ArrayNode chat) {
        StringBuilder prompt = new StringBuilder("Bramble is a ferryman on a misty river.\n");
        chat.forEach(message -> prompt.append(message.get("name").asText()).append(": ")
                .append(message.get("mes").asText()).append('\n'));
        prompt.append("Bramble:");
        ObjectNode request = JsJson.object().put("prompt", prompt.toString()).put("model", "local")
                .put("max_new_tokens", 200).put("max_tokens", 200).put("stream", true).put("n", 3)
                .put("api_type", "koboldcpp").put("grammar_retain_state", true);
        request.putArray("stopping_strings").add("\nWren:");
        return request;
    }

    @Nested
    class ClassicRequests {
        @Test
        void chatCompletionSendsTheLastMessagesThenTheReplyThenTheInstructionQuietly() {
            ArrayNode chat = chat(10);
            ObjectNode last = chatRequest(chat);
            SummaryMemory.Request request = summary(settings("{\"overrideResponseLength\":256}"))
                    .request(chat, last, "Bramble said 10.").orElseThrow();
            ArrayNode messages = (ArrayNode) request.body().get("messages");
            assertEquals(last.get("messages").size() + 2, messages.size());
            for (int i = 0; i < last.get("messages").size(); i++) {
                assertEquals(last.get("messages").get(i), messages.get(i));
            }
            assertEquals(JsJson.parse("{\"role\":\"assistant\",\"content\":\"Bramble said 10.\"}"),
                    messages.get(messages.size() - 2));
            assertEquals(JsJson.parse("{\"role\":\"system\",\"content\":\"Sum up Bramble's tale in 150 words.\"}"),
                    messages.get(messages.size() - 1));
            ObjectNode body = request.body();
            assertEquals(false, body.get("stream").asBoolean());
            assertEquals("quiet", body.get("type").asText());
            assertEquals(256, body.get("max_tokens").asInt());
            assertFalse(body.has("assistant_prefill"), "no Claude prefill on a quiet generation");
            assertFalse(body.has("n"), "no multi-swipe on a quiet generation");
            assertEquals("claude-test", body.get("model").asText());
            assertEquals(0.7, body.get("temperature").asDouble());
            assertEquals(-1, request.lastUsedIndex());
            assertEquals("Bramble:", last.get("assistant_prefill").asText(), "the last request is left as it was");
        }

        @Test
        void theResponseLengthStaysTheLastRequestsWithoutAnOverride() {
            ArrayNode chat = chat(10);
            ObjectNode body = summary(settings("{}")).request(chat, chatRequest(chat), "x").orElseThrow().body();
            assertEquals(400, body.get("max_tokens").asInt());
        }

        @Test
        void textCompletionWithoutInstructPutsTheInstructionOnItsOwnLineAfterTheReply() {
            ArrayNode chat = chat(10);
            ObjectNode last = textRequest(chat);
            ObjectNode body = summary(settings("{\"overrideResponseLength\":128}"))
                    .request(chat, last, " Bramble said 10.").orElseThrow().body();
            assertEquals(last.get("prompt").asText() + " Bramble said 10.\nSum up Bramble's tale in 150 words.\n",
                    body.get("prompt").asText());
            assertEquals(false, body.get("stream").asBoolean());
            assertEquals(128, body.get("max_new_tokens").asInt());
            assertEquals(128, body.get("max_tokens").asInt());
            assertFalse(body.has("n_predict"), "only the length fields the request has");
            assertEquals(1, body.get("n").asInt());
            assertFalse(body.has("grammar_retain_state"));
            assertEquals(last.get("stopping_strings"), body.get("stopping_strings"));
        }

        @Test
        void textCompletionWithInstructClosesTheReplyThenAddsASystemTurnAndTheQuietAnswerLine() {
            ObjectNode settings = settings("{}");
            settings.set("power_user", JsJson.parse("{\"instruct\":{\"enabled\":true,\"wrap\":true,\"macro\":true,"
                    + "\"input_sequence\":\"<|im_start|>user\",\"input_suffix\":\"<|im_end|>\\n\","
                    + "\"output_sequence\":\"<|im_start|>assistant\",\"output_suffix\":\"<|im_end|>\\n\","
                    + "\"system_sequence\":\"<|im_start|>system\",\"system_suffix\":\"<|im_end|>\\n\","
                    + "\"last_system_sequence\":\"\",\"names_behavior\":\"force\"}}"));
            ArrayNode chat = chat(10);
            ObjectNode last = JsJson.object().put("prompt", "<|im_start|>user\nWren said 9.<|im_end|>\n<|im_start|>assistant\n");
            String prompt = summary(settings).request(chat, last, "Bramble said 10.").orElseThrow().body()
                    .get("prompt").asText();
            assertEquals(last.get("prompt").asText() + "Bramble said 10.<|im_end|>\n"
                    + "<|im_start|>system\nSum up Bramble's tale in 150 words.<|im_end|>\n<|im_start|>assistant\n", prompt);
        }

        @Test
        void theLastSystemSequenceNamesTheQuietAnswerLineAsSystem() {
            ObjectNode settings = settings("{}");
            settings.set("power_user", JsJson.parse("{\"instruct\":{\"enabled\":true,\"wrap\":false,\"macro\":true,"
                    + "\"output_sequence\":\"### Response:\",\"output_suffix\":\"\\n\\n\",\"system_same_as_user\":true,"
                    + "\"input_sequence\":\"### {{name}} says:\",\"input_suffix\":\"\\n\","
                    + "\"last_system_sequence\":\"### {{name}}, {{user}} wants:\"}}"));
            ArrayNode chat = chat(10);
            ObjectNode last = JsJson.object().put("prompt", "### Response:");
            String prompt = summary(settings).request(chat, last, "Hi.").orElseThrow().body().get("prompt").asText();
            assertEquals("### Response:Hi.\n\n### Wren says:Sum up Bramble's tale in 150 words.\n"
                    + "### System, Wren wants:", prompt);
        }

        @Test
        void aLongChatsSummaryRequestIsTheLastRequestForAtLeastNinetyFivePercent() {
            ArrayNode chat = JsJson.array();
            for (int i = 1; i <= 200; i++) {
                boolean user = i % 2 == 1;
                chat.add(message(user ? "Wren" : "Bramble", (user ? "Wren asks about the river's bend number " + i
                        : "Bramble poles the ferry past reed bank " + i + " and tells of the fog.") , user));
            }
            String reply = "Bramble ties the ferry to the old post and points at the lantern.";
            SummaryMemory memory = summary(settings("{\"promptInterval\":20}"));

            ObjectNode lastChat = chatRequest(chat);
            ObjectNode chatSummary = memory.request(chat, lastChat, reply).orElseThrow().body();
            assertCachedShare(JsJson.compact(lastChat.get("messages")), JsJson.compact(chatSummary.get("messages")));

            ObjectNode lastText = textRequest(chat);
            ObjectNode textSummary = memory.request(chat, lastText, reply).orElseThrow().body();
            assertCachedShare(lastText.get("prompt").asText(), textSummary.get("prompt").asText());
        }

        private static void assertCachedShare(String last, String summary) {
            int common = 0;
            while (common < last.length() && common < summary.length() && last.charAt(common) == summary.charAt(common)) {
                common++;
            }
            double share = (double) common / summary.length();
            assertTrue(share >= 0.95, "common prefix " + common + " of " + summary.length() + " = " + share);
            assertTrue(common >= last.length() - 1, "all of the last request but a closing bracket is a prefix");
        }
    }

    @Nested
    class RawRequests {
        @Test
        void chatCompletionAsksWithTheInstructionAsSystemAndTheMessagesSinceTheSummaryAsUser() {
            ArrayNode chat = withMemory(chat(14), 2, "Wren met Bramble.");
            chat.insert(6, JsJson.object().put("name", "Narrator").put("is_system", true).put("mes", "Fog."));
            ((ObjectNode) chat.get(8)).put("mes", "");
            SummaryMemory.Request request = summary(settings("{\"prompt_builder\":1,\"overrideResponseLength\":300}"))
                    .request(chat, chatRequest(chat), "ignored").orElseThrow();
            assertEquals(SummaryMemory.Mode.RAW_BLOCKING, request.mode());
            assertEquals(13, request.lastUsedIndex(), "the last message is left out");
            StringBuilder expected = new StringBuilder("Wren met Bramble.");
            for (int i = 3; i <= 13; i++) {
                if (i != 6 && i != 8) {
                    expected.append("\n\n").append(chat.get(i).get("name").asText()).append(":\n")
                            .append(chat.get(i).get("mes").asText());
                }
            }
            ObjectNode body = request.body();
            assertEquals(JsJson.parse("[{\"role\":\"system\",\"content\":\"Sum up Bramble's tale in 150 words.\"},"
                    + "{\"role\":\"user\",\"content\":" + JsJson.compact(JsJson.tree(expected.toString())) + "}]"),
                    body.get("messages"));
            assertEquals(300, body.get("max_tokens").asInt());
            assertEquals("quiet", body.get("type").asText());
            assertFalse(body.has("assistant_prefill"));
            assertEquals(false, body.get("stream").asBoolean());
        }

        @Test
        void textCompletionWithoutInstructPutsTheInstructionOverTheUsersNamedMessage() {
            ArrayNode chat = chat(10);
            ObjectNode body = summary(settings("{\"prompt_builder\":2}")).request(chat, textRequest(chat), "x")
                    .orElseThrow().body();
            StringBuilder raw = new StringBuilder();
            for (int i = 0; i < 9; i++) {
                raw.append(i == 0 ? "" : "\n\n").append(chat.get(i).get("name").asText()).append(":\n")
                        .append(chat.get(i).get("mes").asText());
            }
            assertEquals("Sum up Bramble's tale in 150 words.\nWren: " + raw + "\n", body.get("prompt").asText());
            assertEquals(1, body.get("n").asInt());
        }

        @Test
        void textCompletionWithInstructWrapsTheInstructionAsTheStoryStringAndTheMessagesAsTheUsersTurn() {
            ObjectNode settings = settings("{\"prompt_builder\":1,\"maxMessagesPerRequest\":2}");
            settings.set("power_user", JsJson.parse("{\"instruct\":{\"enabled\":true,\"wrap\":true,\"macro\":true,"
                    + "\"input_sequence\":\"[INST]\",\"input_suffix\":\"[/INST]\",\"output_sequence\":\"\","
                    + "\"story_string_prefix\":\"<<{{name}}>>\",\"story_string_suffix\":\"\","
                    + "\"last_system_sequence\":\"[ANSWER {{name}}]\",\"names_behavior\":\"always\"}}"));
            ArrayNode chat = chat(10);
            ObjectNode body = summary(settings).request(chat, textRequest(chat), "x").orElseThrow().body();
            assertEquals("<<System>>\nSum up Bramble's tale in 150 words.\n"
                    + "[INST]\nWren: Wren:\nWren said 1.\n\nBramble:\nBramble said 2.[/INST]"
                    + "[ANSWER Bramble]\n", body.get("prompt").asText());
        }

        @Test
        void theMessagesStopWhereTheTextCompletionBudgetEnds() {
            // budget 4096 - 200 = 3896 tokens, a token a character, 64 of padding
            ArrayNode chat = JsJson.array();
            String long1 = "a".repeat(1700);
            chat.add(message("Wren", long1, true));
            chat.add(message("Bramble", long1, false));
            chat.add(message("Wren", long1, true));
            chat.add(message("Bramble", "last", false));
            chat.addAll(chat(6));
            ObjectNode settings = settings("{\"prompt_builder\":1}");
            SummaryMemory.Request request = summary(settings).request(chat, textRequest(chat), "x").orElseThrow();
            // the instruction (35), "\n\n", "Wren:\n" + 1700, "\n\n", "Bramble:\n" + 1700 and 64: 3518 fits; a third no
            String prompt = request.body().get("prompt").asText();
            assertTrue(prompt.contains("Bramble:\n" + long1) && !prompt.contains("last"), prompt);
            // the rest is Tankard's to summarize part by part, up to the message before the last
            assertTrue(request.backlog().text().endsWith("Wren:\nWren said 5."), request.backlog().text());
            assertEquals(8, request.lastUsedIndex());
        }

        @Test
        void chatCompletionGuessesTokensFromBytesWhileTheTokenPaddingIsSixtyFour() {
            ArrayNode chat = chat(12);
            TokenCounter huge = text -> 1_000_000;
            ObjectNode settings = settings("{\"prompt_builder\":1}");
            SummaryMemory.Request guessed = new SummaryMemory(settings, MACROS, huge)
                    .request(chat, chatRequest(chat), "x").orElseThrow();
            assertEquals(10, guessed.lastUsedIndex(), "the counter is not asked: all but the last message fit");

            ((ObjectNode) settings.get("power_user")).put("token_padding", 32);
            assertTrue(new SummaryMemory(settings, MACROS, huge).request(chat, chatRequest(chat), "x").isEmpty(),
                    "with another padding the counter says nothing fits");
        }

        @Test
        void theBytesGuessCountsUtf8BytesOverThreePointThreeFive() {
            // budget 8000 - 7800 = 200; the instruction (35) + "\n\n" + "Wren:\n" + 230 two-byte letters: 503 bytes,
            // ceil(503 / 3.35) + 64 = 215 tokens; counted in characters it would be 82 + 64 and fit
            ArrayNode chat = JsJson.array();
            chat.add(message("Wren", "\u00e9".repeat(230), true));
            chat.add(message("Bramble", "hi", false));
            chat.addAll(chat(8));
            ObjectNode settings = settings("{\"prompt_builder\":1,\"overrideResponseLength\":7800}");
            SummaryMemory.Request none = summary(settings).request(chat, chatRequest(chat), "x").orElseThrow();
            assertEquals("", none.body().get("messages").get(1).get("content").asText(), "ST's raw prompt takes none");
            assertTrue(none.backlog().text().startsWith("Wren:\n\u00e9"), "Tankard's backlog takes them all");
            ((ObjectNode) chat.get(0)).put("mes", "e".repeat(230));
            String user = summary(settings).request(chat, chatRequest(chat), "x").orElseThrow().body()
                    .get("messages").get(1).get("content").asText();
            assertTrue(user.startsWith("Wren:\n" + "e".repeat(230)), user);
        }

        @Test
        void maxMessagesPerRequestEndsTheBatch() {
            ArrayNode chat = chat(20);
            SummaryMemory.Request request = summary(settings("{\"prompt_builder\":1,\"maxMessagesPerRequest\":3}"))
                    .request(chat, chatRequest(chat), "x").orElseThrow();
            assertEquals(2, request.lastUsedIndex());
            assertEquals("Wren:\nWren said 1.\n\nBramble:\nBramble said 2.\n\nWren:\nWren said 3.",
                    request.body().get("messages").get(1).get("content").asText());
        }

        @Test
        void nothingIsAskedWhenNoMessageIsLeftAfterTheLatestSummary() {
            // the summary is on the next-to-last message: the raw prompt would hold no message
            ArrayNode chat = withMemory(chat(12), 10, "All of it.");
            SummaryMemory memory = summary(settings("{\"prompt_builder\":1,\"promptInterval\":1}"));
            assertTrue(memory.due(chat).isPresent());
            assertTrue(memory.request(chat, chatRequest(chat), "x").isEmpty());
        }
    }

    @Nested
    class Storing {
        @Test
        void classicKeepsTheSummaryOnTheNextToLastMessageOfTheChatAsItIsWhenTheAnswerComes() {
            ArrayNode chat = chat(10);
            SummaryMemory memory = summary(settings("{}"));
            SummaryMemory.Request request = memory.request(chat, chatRequest(chat), "x").orElseThrow();
            chat.add(message("Wren", "And then?", true));
            SummaryMemory.Stored stored = memory.store(chat, request, "They crossed.").orElseThrow();
            assertEquals(9, stored.index());
            assertEquals("They crossed.", stored.message().get("extra").get("memory").asText());
            assertEquals(chat.get(9).get("mes"), stored.message().get("mes"));
            assertFalse(chat.get(9).get("extra").has("memory"), "the chat itself is not changed");
        }

        @Test
        void classicKeepsTheSummaryOnTheOnlyMessageOfAOneMessageChat() {
            ArrayNode chat = chat(1);
            SummaryMemory.Request request = new SummaryMemory.Request(SummaryMemory.Mode.CLASSIC, JsJson.object(), -1, null);
            assertEquals(0, summary(settings("{}")).store(chat, request, "Hello.").orElseThrow().index());
        }

        @Test
        void rawKeepsTheSummaryOnTheLastMessageItCovers() {
            ArrayNode chat = chat(20);
            SummaryMemory memory = summary(settings("{\"prompt_builder\":2,\"maxMessagesPerRequest\":5}"));
            SummaryMemory.Request request = memory.request(chat, chatRequest(chat), "x").orElseThrow();
            SummaryMemory.Stored stored = memory.store(chat, request, "Five things.").orElseThrow();
            assertEquals(4, stored.index());
            assertEquals("Five things.", stored.message().get("extra").get("memory").asText());
        }

        @Test
        void aMessageWithoutExtraGetsOne() {
            ArrayNode chat = JsJson.array();
            chat.add(JsJson.object().put("name", "Wren").put("mes", "Hi."));
            chat.add(JsJson.object().put("name", "Bramble").put("mes", "Hello."));
            SummaryMemory.Request request = new SummaryMemory.Request(SummaryMemory.Mode.CLASSIC, JsJson.object(), -1, null);
            ObjectNode message = summary(settings("{}")).store(chat, request, "Met.").orElseThrow().message();
            assertEquals(JsJson.parse("{\"name\":\"Wren\",\"mes\":\"Hi.\",\"extra\":{\"memory\":\"Met.\"}}"), message);
        }

        @Test
        void reasoningIsCutFromTheSummaryWhenAutoParseIsOnAndTheRestTrimmed() {
            ObjectNode settings = settings("{}");
            settings.set("power_user", JsJson.parse("{\"reasoning\":{\"auto_parse\":true,\"prefix\":\"<think>\","
                    + "\"suffix\":\"</think>\"}}"));
            SummaryMemory memory = summary(settings);
            assertEquals("They crossed.", memory.withoutReasoning("\n <think>Who crossed?\n</think>\n They crossed. "));
            assertEquals("Plain. ", memory.withoutReasoning("Plain. "), "untouched without a block");
            assertEquals("x <think>a</think>", memory.withoutReasoning("x <think>a</think>"), "only at the start");
            ((ObjectNode) settings.get("power_user")).put("trim_spaces", false);
            assertEquals("\n They crossed. ", summary(settings).withoutReasoning("<think>a</think>\n They crossed. "));
            ((ObjectNode) settings.path("power_user").path("reasoning")).put("auto_parse", false);
            assertEquals("<think>a</think>B", summary(settings).withoutReasoning("<think>a</think>B"));
        }

        @Test
        void anEmptySummaryIsNotKept() {
            ObjectNode settings = settings("{}");
            settings.set("power_user", JsJson.parse("{\"reasoning\":{\"auto_parse\":true,\"prefix\":\"<think>\","
                    + "\"suffix\":\"</think>\"}}"));
            ArrayNode chat = chat(10);
            SummaryMemory.Request request = new SummaryMemory.Request(SummaryMemory.Mode.CLASSIC, JsJson.object(), -1, null);
            assertTrue(summary(settings).store(chat, request, "<think>hmm</think>  ").isEmpty());
            assertTrue(summary(settings).store(chat, request, "").isEmpty());
        }

        @Test
        void aRawIndexBeyondAChatThatShrankKeepsNothing() {
            ArrayNode chat = chat(5);
            SummaryMemory.Request request = new SummaryMemory.Request(SummaryMemory.Mode.RAW_BLOCKING, JsJson.object(), 7, null);
            assertTrue(summary(settings("{}")).store(chat, request, "Sum.").isEmpty());
        }
    }

    @Nested
    class Fallbacks {
        @Test
        void changingTheLastMessageThatCarriesASummaryDropsIt() {
            ArrayNode chat = withMemory(chat(6), 5, "Old.");
            assertEquals(OptionalInt.of(5), SummaryMemory.memoryToDrop(chat, 5, "Something else"));
        }

        @Test
        void aLastMessageWhoseTextDidNotChangeKeepsItsSummary() {
            ArrayNode chat = withMemory(chat(6), 5, "Old.");
            assertEquals(OptionalInt.empty(), SummaryMemory.memoryToDrop(chat, 5, "Bramble said 6."));
        }

        @Test
        void editingAnEarlierMessageKeepsItsSummary() {
            ArrayNode chat = withMemory(chat(6), 3, "Old.");
            assertEquals(OptionalInt.empty(), SummaryMemory.memoryToDrop(chat, 3, "Something else"));
        }

        @Test
        void changingALastMessageWithoutASummaryDropsNothing() {
            ArrayNode chat = withMemory(chat(6), 3, "Old.");
            assertEquals(OptionalInt.empty(), SummaryMemory.memoryToDrop(chat, 5, "Something else"));
            assertEquals(OptionalInt.empty(), SummaryMemory.memoryToDrop(JsJson.array(), -1, ""));
        }

        @Test
        void afterADeletionTheLatestRemainingSummaryIsTheChatsSummary() {
            ArrayNode chat = withMemory(withMemory(chat(12), 3, "First."), 9, "Second.");
            assertEquals("Second.", SummaryMemory.latestMemory(chat));
            chat.remove(11);
            chat.remove(10);
            chat.remove(9);
            assertEquals("First.", SummaryMemory.latestMemory(chat));
        }

        @Test
        void theLastMessagesSummaryIsNotLookedAt() {
            ArrayNode chat = withMemory(withMemory(chat(6), 1, "Earlier."), 5, "On the last.");
            assertEquals("Earlier.", SummaryMemory.latestMemory(chat));
            assertEquals("", SummaryMemory.latestMemory(chat(6)));
            assertEquals("", SummaryMemory.latestMemory(JsJson.array()));
        }

        @Test
        void aDroppedSummaryNoLongerCountsForTheNextTrigger() {
            ArrayNode chat = withMemory(chat(30), 29, "On the last.");
            SummaryMemory memory = summary(settings("{}"));
            assertFalse(memory.due(chat).isPresent(), "the summary on the last message resets the count");
            int drop = SummaryMemory.memoryToDrop(chat, 29, "Before the swipe").orElseThrow();
            ((ObjectNode) chat.get(drop).get("extra")).remove("memory");
            assertTrue(memory.due(chat).isPresent());
        }
    }
}
