package tankard.summarize.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.MockBackendTest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /api/tankard/summarize} against the mock backend: the request each source family gets, the
 * summary stored at {@code extra.memory} with the rest of the chat byte for byte as it was, and every way an
 * answer or a request can be unusable answered with its error and the chat left alone.
 */
class ChatSummaryHttpTest extends MockBackendTest {
    static final String HEADER = "{\"user_name\":\"Wren\",\"character_name\":\"Bramble\",\"create_date\":\"2024-01-01@10h00m00s\","
            + "\"chat_metadata\":{\"integrity\":\"5d1c\",\"note_prompt\":\"\"}}";
    static final List<String> MESSAGES = List.of(
            "{\"name\":\"Bramble\",\"is_user\":false,\"is_system\":false,\"send_date\":\"January 1, 2024 10:00am\","
                    + "\"mes\":\"Welcome to the Hollow Oak.\",\"extra\":{},\"swipe_id\":0,\"swipes\":[\"Welcome to the Hollow Oak.\"]}",
            "{\"name\":\"Wren\",\"is_user\":true,\"is_system\":false,\"send_date\":\"January 1, 2024 10:01am\","
                    + "\"mes\":\"I need a room for the night.\",\"extra\":{\"isSmallSys\":false}}",
            "{\"name\":\"Bramble\",\"is_user\":false,\"is_system\":false,\"send_date\":\"January 1, 2024 10:02am\","
                    + "\"mes\":\"Room four, up the stairs.\",\"extra\":{\"api\":\"openai\",\"model\":\"x\"},\"gen_started\":1.5e3}",
            "{\"name\":\"SillyTavern System\",\"is_user\":false,\"is_system\":true,\"send_date\":\"January 1, 2024 10:03am\","
                    + "\"mes\":\"A hidden note.\",\"extra\":{}}",
            "{\"name\":\"Wren\",\"is_user\":true,\"is_system\":false,\"send_date\":\"January 1, 2024 10:04am\","
                    + "\"mes\":\"I pay five gold \\u00e9cus.\\nAnd a tip.\",\"extra\":{}}",
            "{\"name\":\"Bramble\",\"is_user\":false,\"is_system\":false,\"send_date\":\"January 1, 2024 10:05am\","
                    + "\"mes\":\"Thank you kindly.\"}",
            "{\"name\":\"Wren\",\"is_user\":true,\"is_system\":false,\"send_date\":\"January 1, 2024 10:06am\","
                    + "\"mes\":\"Good night.\",\"extra\":{}}");
    static final String CONVERSATION = "Bramble: Welcome to the Hollow Oak.\n\nWren: I need a room for the night.\n\n"
            + "Bramble: Room four, up the stairs.\n\nWren: I pay five gold écus.\nAnd a tip.\n\nBramble: Thank you kindly.";
    private static final String CHAT = "chats/Bramble/Hollow Oak.jsonl";
    private static final String CHAT_REF = "\"avatar_url\":\"Bramble.png\",\"file_name\":\"Hollow Oak\"";


    static String chat(List<String> messages) {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        lines.addAll(messages);
        return String.join("\n", lines);
    }

    private byte[] putChat(List<String> messages) throws IOException {
        byte[] bytes = chat(messages).getBytes(StandardCharsets.UTF_8);
        put(CHAT, bytes);
        return bytes;
    }

    private byte[] stored() throws IOException {
        return documentBytes(CHAT);
    }

    private HttpResponse<Buffer> summarize(String fields) {
        return client.post("/api/tankard/summarize", "{" + CHAT_REF + "," + fields + "}");
    }

    private String custom(String extra) {
        return "\"backend\":{\"chat_completion_source\":\"custom\",\"custom_url\":\"" + mock.baseUrl()
                + "\",\"model\":\"" + MockCompletionServer.MODEL + "\",\"temperature\":0.7" + extra + "}";
    }

    /** The chat with message {@code index}'s line replaced: what storing the summary there must write. */
    private static byte[] withLine(List<String> messages, int index, String line) {
        List<String> changed = new ArrayList<>(messages);
        changed.set(index, line);
        return chat(changed).getBytes(StandardCharsets.UTF_8);
    }

    private static void assertFailure(HttpResponse<Buffer> response, int status, String reason, String message) {
        assertEquals(status, response.statusCode(), response.bodyAsString());
        JsonNode json = JsJson.parse(response.bodyAsString());
        assertEquals(reason, json.path("reason").asText(null), response.bodyAsString());
        assertTrue(json.path("error").asText().contains(message), response.bodyAsString());
    }

    @Test
    void openAiCompatibleSourceGetsOneUserMessageAndTheSummaryIsStoredOnTheLastMessageSummarized() throws IOException {
        putChat(MESSAGES);
        HttpResponse<Buffer> r = summarize(custom("") + ",\"max_tokens\":300");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"summary\":\"Mock reply 1.\",\"index\":5,\"messages\":5,\"fallback\":false}", r.bodyAsString());

        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("/v1/chat/completions", call.path());
        JsonNode body = call.json();
        assertEquals(2, body.path("messages").size());
        assertEquals("system", body.at("/messages/0/role").asText());
        String instruction = body.at("/messages/0/content").asText();
        assertTrue(instruction.contains("summarize the most important facts"), instruction);
        assertTrue(!instruction.contains("Above all") && !instruction.contains("merge"), instruction);
        assertEquals("user", body.at("/messages/1/role").asText());
        assertEquals("Conversation:\n" + CONVERSATION, body.at("/messages/1/content").asText(),
                "the newest message and the system message are left out");
        assertEquals(300, body.path("max_tokens").asInt(), "no known limit for this model: the configured one");
        assertEquals(false, body.path("stream").asBoolean(true));
        assertEquals(MockCompletionServer.MODEL, body.path("model").asText());
        assertEquals(0.7, body.path("temperature").asDouble(), "the connection's samplers are kept");

        // ST's setMemoryContext on message 5, which had no extra: only its line changes
        assertArrayEquals(withLine(MESSAGES, 5, MESSAGES.get(5).replace("\"}", "\",\"extra\":{\"memory\":\"Mock reply 1.\"}}")),
                stored());
    }

    @Test
    void thePreviousSummaryIsMergedAndTheFocusKept() throws IOException {
        List<String> messages = new ArrayList<>(MESSAGES);
        messages.set(2, MESSAGES.get(2).replace("\"model\":\"x\"}", "\"model\":\"x\",\"memory\":\"Wren took room four.\"}"));
        putChat(messages);
        HttpResponse<Buffer> r = summarize(custom("") + ",\"prompt\":\"Who paid what.\",\"exclude_last\":1");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(2, json(r).path("messages").asInt());
        JsonNode body = mock.lastCall().json();
        String instruction = body.at("/messages/0/content").asText();
        assertTrue(instruction.contains("merge the new events into it"), instruction);
        assertTrue(instruction.contains("Above all, the summary must keep: Who paid what."), instruction);
        assertEquals("Summary so far:\nWren took room four.\n\nWhat happened next:\nWren: I pay five gold écus.\n"
                + "And a tip.\n\nBramble: Thank you kindly.", body.at("/messages/1/content").asText());
        assertArrayEquals(withLine(messages, 5, messages.get(5).replace("\"}", "\",\"extra\":{\"memory\":\"Mock reply 1.\"}}")),
                stored(), "the new summary goes on the newest message summarized; the old one stays");
    }

    @Test
    void excludeLastLeavesOutTheNewestMessages() throws IOException {
        putChat(MESSAGES);
        HttpResponse<Buffer> r = summarize(custom("") + ",\"exclude_last\":3");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(2, json(r).path("index").asInt());
        assertEquals("Conversation:\nBramble: Welcome to the Hollow Oak.\n\nWren: I need a room for the night.\n\n"
                + "Bramble: Room four, up the stairs.", mock.lastCall().json().at("/messages/1/content").asText());
        // the line is written as ST's JSON.stringify writes it (1.5e3 becomes 1500); all others stay as they were
        assertArrayEquals(withLine(MESSAGES, 2, MESSAGES.get(2).replace("\"model\":\"x\"}",
                "\"model\":\"x\",\"memory\":\"Mock reply 1.\"}").replace("1.5e3", "1500")), stored());
    }

    @Test
    void claudeGetsItsMessagesCallWithMaxTokensCappedAtTheModelsOutputLimit() throws IOException {
        putChat(MESSAGES);
        mock.route("/v1/messages", request -> request.response().end("{\"id\":\"msg_1\",\"type\":\"message\","
                + "\"content\":[{\"type\":\"thinking\",\"thinking\":\"Hmm.\",\"signature\":\"s\"},"
                + "{\"type\":\"text\",\"text\":\"Wren rented room four.\"}],\"stop_reason\":\"end_turn\"}"));
        HttpResponse<Buffer> r = summarize("\"backend\":{\"chat_completion_source\":\"claude\",\"model\":"
                + "\"claude-3-haiku-20240307\",\"reverse_proxy\":\"" + mock.baseUrl() + "\",\"proxy_password\":\"pw\","
                + "\"use_sysprompt\":true,\"assistant_prefill\":\"Bramble:\"},\"max_tokens\":8000");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("Wren rented room four.", json(r).path("summary").asText(), "the thinking block is left out");
        MockCompletionServer.Call call = mock.lastCall();
        assertEquals("/v1/messages", call.path());
        assertEquals("pw", call.headers().get("x-api-key"));
        JsonNode body = call.json();
        assertEquals(4096, body.path("max_tokens").asInt(), "claude-3-haiku writes at most 4096 tokens");
        assertTrue(body.at("/system/0/text").asText().contains("summarize the most important facts"), body.toString());
        assertEquals(1, body.path("messages").size(), "no prefill on a summary: " + body);
        assertEquals("Conversation:\n" + CONVERSATION, body.at("/messages/0/content/0/text").asText());
        assertTrue(new String(stored(), StandardCharsets.UTF_8).contains("\"memory\":\"Wren rented room four.\""));
    }

    @Test
    void claudeCutOffAtMaxTokensIsRefusedAndNothingStored() throws IOException {
        byte[] before = putChat(MESSAGES);
        mock.route("/v1/messages", request -> request.response().end("{\"content\":[{\"type\":\"text\","
                + "\"text\":\"Wren rented room\"}],\"stop_reason\":\"max_tokens\"}"));
        assertFailure(summarize("\"backend\":{\"chat_completion_source\":\"claude\",\"model\":\"claude-x\","
                + "\"reverse_proxy\":\"" + mock.baseUrl() + "\",\"proxy_password\":\"pw\"},\"max_tokens\":20"),
                502, "length", "cut off at the output limit (20 tokens)");
        assertArrayEquals(before, stored());
    }

    @Test
    void googleGetsGenerateContentAndItsThoughtsAreLeftOut() throws IOException {
        putChat(MESSAGES);
        mock.route("/v1beta/models/gemini-2.0-flash:generateContent", request -> request.response().end(
                "{\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Pondering\",\"thought\":true},"
                        + "{\"text\":\"Wren stays at the Hollow Oak.\"}]},\"finishReason\":\"STOP\"}]}"));
        HttpResponse<Buffer> r = summarize("\"backend\":{\"chat_completion_source\":\"makersuite\",\"model\":"
                + "\"gemini-2.0-flash\",\"reverse_proxy\":\"" + mock.origin() + "/\",\"proxy_password\":\"gk\","
                + "\"use_sysprompt\":true},\"max_tokens\":20000");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("Wren stays at the Hollow Oak.", json(r).path("summary").asText());
        JsonNode body = mock.lastCall().json();
        assertEquals(8192, body.at("/generationConfig/maxOutputTokens").asInt(), "gemini-2.0-flash writes at most 8192");
        assertTrue(body.at("/systemInstruction/parts/0/text").asText().contains("summarize"), body.toString());
        assertEquals("user", body.at("/contents/0/role").asText());
        assertEquals("Conversation:\n" + CONVERSATION, body.at("/contents/0/parts/0/text").asText());
    }

    @Test
    void googleLengthCutIsRefused() throws IOException {
        byte[] before = putChat(MESSAGES);
        mock.route("/v1beta/models/gemini-2.0-flash:generateContent", request -> request.response().end(
                "{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Wren stays\"}]},\"finishReason\":\"MAX_TOKENS\"}]}"));
        assertFailure(summarize("\"backend\":{\"chat_completion_source\":\"makersuite\",\"model\":\"gemini-2.0-flash\","
                + "\"reverse_proxy\":\"" + mock.origin() + "/\",\"proxy_password\":\"gk\"}"), 502, "length", "cut off");
        assertArrayEquals(before, stored());
    }

    @Test
    void textCompletionIsWrappedInTheInstructTemplateWithItsStopStrings() throws IOException {
        putChat(MESSAGES);
        put("instruct/Tavern ML.json", ("{\"name\":\"Tavern ML\",\"input_sequence\":\"<|user|>\",\"output_sequence\":"
                + "\"<|bot|>\",\"system_sequence\":\"<|sys|>\",\"input_suffix\":\"<|end|>\\n\",\"output_suffix\":"
                + "\"<|end|>\\n\",\"system_suffix\":\"<|end|>\\n\",\"stop_sequence\":\"<|end|>\",\"wrap\":true,"
                + "\"macro\":true,\"last_system_sequence\":\"\",\"first_output_sequence\":\"<|bot|>\","
                + "\"names_behavior\":\"force\"}").getBytes(StandardCharsets.UTF_8));
        mock.route("/v1/completions", request -> request.response().end("{\"choices\":[{\"text\":\"  Wren paid. \","
                + "\"finish_reason\":\"stop\"}]}"));
        HttpResponse<Buffer> r = summarize("\"backend\":{\"api_type\":\"koboldcpp\",\"api_server\":\"" + mock.origin()
                + "\",\"temperature\":0.5,\"stop\":[\"\\nWren:\"],\"truncation_length\":4096},\"instruct\":\"Tavern ML\","
                + "\"max_tokens\":250");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("Wren paid.", json(r).path("summary").asText());
        // a name the preset API stores sanitized ("Tavern: ML" as Tavern ML.json) finds the same file
        putChat(MESSAGES);
        HttpResponse<Buffer> stored = summarize("\"backend\":{\"api_type\":\"koboldcpp\",\"api_server\":\""
                + mock.origin() + "\",\"temperature\":0.5,\"stop\":[\"\\nWren:\"],\"truncation_length\":4096},"
                + "\"instruct\":\"Tavern: ML\",\"max_tokens\":250");
        assertEquals(200, stored.statusCode(), stored.bodyAsString());
        JsonNode body = mock.lastCall("/v1/completions").json();
        String instruction = SummaryPrompt.instruction(null, false);
        assertEquals("<|sys|>\n" + instruction + "<|end|>\n" + "<|user|>\nConversation:\n" + CONVERSATION + "<|end|>\n"
                + "<|bot|>\n", body.path("prompt").asText());
        assertEquals("[\"\\n<|end|>\",\"\\n<|user|>\",\"\\n<|bot|>\",\"\\n<|sys|>\"]", body.path("stop").toString(),
                "the template's stop strings replace the chat's");
        assertEquals(body.path("stop"), body.path("stopping_strings"));
        for (String field : List.of("max_tokens", "max_new_tokens", "n_predict", "num_predict")) {
            assertEquals(250, body.path(field).asInt(), field);
        }
        assertEquals(false, body.path("stream").asBoolean(true));
        assertEquals(0.5, body.path("temperature").asDouble());
    }

    @Test
    void textCompletionEmptyAnswerIsRefusedAndNothingStored() throws IOException {
        byte[] before = putChat(MESSAGES);
        mock.route("/v1/completions", request -> request.response().end("{\"choices\":[{\"text\":\" \\n \","
                + "\"finish_reason\":\"stop\"}]}"));
        assertFailure(summarize("\"backend\":{\"api_type\":\"ooba\",\"api_server\":\"" + mock.origin() + "\"}"),
                502, "empty", "empty summary");
        assertArrayEquals(before, stored());
    }

    @Test
    void openAiLengthCutIsRefusedAndNothingStored() throws IOException {
        byte[] before = putChat(MESSAGES);
        mock.onCompletion(request -> request.response().end("{\"choices\":[{\"index\":0,\"message\":{\"role\":"
                + "\"assistant\",\"content\":\"Wren arrived and\"},\"finish_reason\":\"length\"}]}"));
        assertFailure(summarize(custom("")), 502, "length", "cut off");
        assertArrayEquals(before, stored());
    }

    @Test
    void upstreamErrorIsReportedWithItsMessageAndNothingStored() throws IOException {
        byte[] before = putChat(MESSAGES);
        mock.onCompletion(request -> request.response().setStatusCode(429)
                .end("{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}"));
        assertFailure(summarize(custom("")), 502, "upstream", "429: Rate limit reached");
        assertArrayEquals(before, stored());
    }

    @Test
    void unreachableBackendIsAnUpstreamError() throws IOException {
        byte[] before = putChat(MESSAGES);
        assertFailure(summarize("\"backend\":{\"chat_completion_source\":\"custom\",\"custom_url\":"
                + "\"http://127.0.0.1:1/v1\",\"model\":\"m\"}"), 502, "upstream", "could not be reached");
        assertArrayEquals(before, stored());
    }

    @Test
    void badInputIsRefusedBeforeAnyCall() throws IOException {
        byte[] before = putChat(MESSAGES);
        String backend = custom("");
        assertEquals(404, client.post("/api/tankard/summarize", "{\"avatar_url\":\"Bramble.png\",\"file_name\":"
                + "\"No such chat\"," + backend + "}").statusCode());
        assertEquals(400, client.post("/api/tankard/summarize", "{\"avatar_url\":\"../../Bramble.png\",\"file_name\":"
                + "\"Hollow Oak\"," + backend + "}").statusCode());
        assertEquals(404, client.post("/api/tankard/summarize", "{\"avatar_url\":\"Bramble.png\",\"file_name\":"
                + "\"../../../secrets\"," + backend + "}").statusCode(), "the name is sanitized into this folder");
        assertEquals(404, client.post("/api/tankard/summarize", "{\"id\":\"../chats/Bramble/Hollow Oak\"," + backend + "}")
                .statusCode(), "sanitized into the group chats folder");
        assertEquals(400, client.post("/api/tankard/summarize", "{\"file_name\":\"Hollow Oak\"," + backend + "}")
                .statusCode(), "no chat named");
        assertEquals(400, summarize("\"backend\":{\"model\":\"m\"}").statusCode(), "no source");
        assertEquals(400, summarize("\"backend\":{\"chat_completion_source\":\"nope\"}").statusCode());
        assertEquals(400, summarize(backend + ",\"max_tokens\":0").statusCode());
        assertEquals(400, summarize(backend + ",\"max_tokens\":\"many\"").statusCode());
        assertEquals(400, summarize(backend + ",\"exclude_last\":0").statusCode());
        assertEquals(400, summarize(backend + ",\"prompt\":[1]").statusCode());
        assertEquals(400, summarize(backend + ",\"exclude_last\":7").statusCode(), "nothing left to summarize");
        assertEquals(404, summarize("\"backend\":{\"api_type\":\"koboldcpp\",\"api_server\":\"" + mock.origin()
                + "\"},\"instruct\":\"../secrets\"").statusCode(), "cleaned as ST cleans it into the instruct folder");
        assertEquals(404, summarize("\"backend\":{\"api_type\":\"koboldcpp\",\"api_server\":\"" + mock.origin()
                + "\"},\"instruct\":\"Missing\"").statusCode());
        assertEquals(400, summarize("\"backend\":{\"api_type\":\"nope\",\"api_server\":\"" + mock.origin() + "\"}")
                .statusCode());
        assertEquals(0, mock.calls().size());
        assertArrayEquals(before, stored());
        assertFalse(hasDocument("chats/secrets.jsonl"));
        assertEquals(List.of("Hollow Oak.jsonl"), server.files().chatNames("chats/Bramble"));
    }

    @Test
    void groupChatsAreNamedByTheirId() throws IOException {
        put("group chats/1700000000000.jsonl", chat(MESSAGES).getBytes(StandardCharsets.UTF_8));
        HttpResponse<Buffer> r = client.post("/api/tankard/summarize", "{\"id\":\"1700000000000\"," + custom("") + "}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertArrayEquals(withLine(MESSAGES, 5, MESSAGES.get(5).replace("\"}", "\",\"extra\":{\"memory\":\"Mock reply 1.\"}}")),
                documentBytes("group chats/1700000000000.jsonl"));
    }

    @Test
    void aConversationTooLongForTheContextGoesThroughSummaryOfSummaries() throws IOException {
        List<String> messages = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String name = i % 2 == 0 ? "Bramble" : "Wren";
            messages.add("{\"name\":\"" + name + "\",\"is_user\":" + (i % 2 == 1) + ",\"is_system\":false,\"mes\":\"Turn "
                    + i + ": the rain kept falling on the old inn while the travellers argued about the road north and "
                    + "the price of a room.\",\"extra\":{}}");
        }
        putChat(messages);
        HttpResponse<Buffer> r = summarize(custom("") + ",\"max_tokens\":100,\"context_size\":700");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(true, json(r).path("fallback").asBoolean());
        List<MockCompletionServer.Call> calls = mock.calls();
        int chunks = calls.size() - 1;
        assertTrue(chunks >= 2, "the conversation is summarized in parts: " + calls.size());
        for (MockCompletionServer.Call call : calls.subList(0, chunks)) {
            String content = call.json().at("/messages/1/content").asText();
            assertTrue(content.startsWith("Conversation:\nBramble: Turn ") || content.startsWith("Conversation:\nWren: Turn "),
                    content);
            assertTrue(content.length() < 4000, "each part fits the window: " + content.length());
            assertEquals(100, call.json().path("max_tokens").asInt());
        }
        List<String> partSummaries = new ArrayList<>();
        for (int n = 1; n <= chunks; n++) {
            partSummaries.add(MockCompletionServer.replyText(n));
        }
        assertEquals("Conversation:\n" + String.join("\n\n", partSummaries),
                mock.lastCall().json().at("/messages/1/content").asText(), "then the joined summaries, once");
        String summary = MockCompletionServer.replyText(chunks + 1);
        assertEquals(summary, json(r).path("summary").asText());
        assertArrayEquals(withLine(messages, 38, messages.get(38).replace("\"extra\":{}",
                "\"extra\":{\"memory\":\"" + summary + "\"}")), stored());
    }
}
