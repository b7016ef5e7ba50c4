package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.MockCompletionServer;
import tankard.testing.MockServerTest;
import tankard.testing.StreamingClient;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /api/tankard/generate} against the mock backend: the user's message and the reply land in the chat
 * as lines of their own (the lines before untouched), streamed or whole; a swipe, a continue and a regenerate
 * change only the last line; a failed backend leaves only the user's message.
 */
class EngineGenerateHttpTest extends MockServerTest {
    private static final String CHAT = "chats/Bramble/Hive.jsonl";
    private static final String REF = "\"avatar_url\":\"Bramble.png\",\"file_name\":\"Hive\"";
    private static final String HEADER = "{\"user_name\":\"Wren\",\"character_name\":\"Bramble\","
            + "\"create_date\":\"2026-01-01@10h00m00s\",\"chat_metadata\":{\"integrity\":\"a1\"}}";
    private static final String GREETING = "{\"name\":\"Bramble\",\"is_user\":false,\"is_system\":false,"
            + "\"send_date\":\"January 1, 2026 10:00am\",\"mes\":\"Mind the bees.\",\"extra\":{},\"swipe_id\":0,"
            + "\"swipes\":[\"Mind the bees.\"]}";

    @BeforeEach
    void data() {
        put("characters/Bramble.png", Fixtures.card(Fixtures.text("characters/bramble-v2.json")));
        put(CHAT, (HEADER + "\n" + GREETING).getBytes(StandardCharsets.UTF_8));
        settings(false, mock.baseUrl());
    }

    private void settings(boolean stream, String url) {
        settings(stream, url, "custom");
    }

    private void settings(boolean stream, String url, String source) {
        put("settings.json", ("{\"main_api\":\"openai\",\"username\":\"Wren\",\"user_avatar\":\"user.png\","
                + "\"power_user\":{\"trim_spaces\":true},\"oai_settings\":{\"chat_completion_source\":\"" + source + "\","
                + "\"custom_url\":\"" + url + "\",\"custom_model\":\"" + MockCompletionServer.MODEL + "\","
                + "\"stream_openai\":" + stream + ",\"openai_max_context\":4096,\"openai_max_tokens\":300}}")
                .getBytes(StandardCharsets.UTF_8));
    }

    private HttpResponse<Buffer> generate(String fields) {
        return client.post("/api/tankard/generate", "{" + REF + "," + fields + "}");
    }

    private List<String> lines() {
        return List.of(new String(documentBytes(CHAT), StandardCharsets.UTF_8).split("\n"));
    }

    private JsonNode line(int index) {
        return JsJson.parse(lines().get(index));
    }

    @Test
    void aSendAppendsTheUsersMessageAndTheReplyAndAnswersThem() {
        HttpResponse<Buffer> response = generate("\"action\":\"send\",\"text\":\"Which hive, {{char}}?\"");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertEquals("Mock reply 1.", json(response).path("text").asText());

        List<String> lines = lines();
        assertEquals(4, lines.size(), String.join("\n", lines));
        assertEquals(HEADER, lines.get(0));
        assertEquals(GREETING, lines.get(1), "the lines before are kept byte for byte");
        JsonNode user = line(2);
        assertEquals("Which hive, Bramble?", user.path("mes").asText());
        assertTrue(user.path("is_user").asBoolean());
        assertEquals("Wren", user.path("name").asText());
        JsonNode reply = line(3);
        assertEquals("Mock reply 1.", reply.path("mes").asText());
        assertEquals("Bramble", reply.path("name").asText());
        assertEquals("custom", reply.at("/extra/api").asText());
        assertEquals(MockCompletionServer.MODEL, reply.at("/extra/model").asText());
        assertEquals(0, reply.path("swipe_id").asInt());
        assertEquals("[\"Mock reply 1.\"]", reply.path("swipes").toString());
        assertEquals(reply.path("send_date"), reply.at("/swipe_info/0/send_date"));
        assertEquals(json(response).path("message"), reply);

        JsonNode sent = mock.lastCall("/v1/chat/completions").json();
        assertTrue(sent.path("messages").toString().contains("Which hive, Bramble?"), sent.toString());
    }

    @Test
    void aStreamedReplyIsRelayedAndSavedBeforeTheStreamEnds() {
        settings(true, mock.baseUrl());
        HttpResponse<Buffer> response = generate("\"action\":\"send\",\"text\":\"Hello.\"");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertTrue(response.bodyAsString().contains("data: [DONE]"), response.bodyAsString());
        assertEquals("Mock reply 1.", line(3).path("mes").asText(), "saved by the time the stream ended");
    }

    @Test
    void aFailedBackendSavesOnlyTheUsersMessage() {
        mock.onCompletion(request -> request.response().setStatusCode(500).end("{\"error\":{\"message\":\"boom\"}}"));
        HttpResponse<Buffer> failed = generate("\"action\":\"send\",\"text\":\"Hello.\"");
        assertEquals(500, failed.statusCode(), failed.bodyAsString());
        assertEquals(3, lines().size());
        assertEquals("Hello.", line(2).path("mes").asText());

        settings(false, "http://127.0.0.1:9/v1");
        HttpResponse<Buffer> unreachable = generate("\"action\":\"send\",\"text\":\"Anyone?\"");
        assertEquals(502, unreachable.statusCode(), unreachable.bodyAsString());
        assertEquals(4, lines().size());
        assertEquals("Anyone?", line(3).path("mes").asText());
    }

    @Test
    void aReplyCutOffByADyingBackendIsSavedMarkedAndTheBrowserToldWhy() {
        settings(true, mock.baseUrl());
        mock.onCompletion(request -> {
            request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            request.response().write(MockCompletionServer.deltaEvent("The bees are "));
            request.response().write(MockCompletionServer.deltaEvent("in the"));
            server.vertx.setTimer(100, t -> request.connection().close()); // mid-chunk: no end of the body
        });
        HttpResponse<Buffer> response = generate("\"action\":\"send\",\"text\":\"Where?\"");
        assertEquals(200, response.statusCode());
        String body = response.bodyAsString();
        assertTrue(body.contains("in the") && body.contains("The backend stopped before the reply was complete"), body);
        JsonNode reply = line(3);
        assertEquals("The bees are in the", reply.path("mes").asText(), "what came, kept as ST keeps a stopped reply");
        assertTrue(reply.at("/extra/tankard_cut_off").asText().startsWith("The backend stopped"), reply.toString());
        assertEquals(reply.at("/extra/tankard_cut_off"), reply.at("/swipe_info/0/extra/tankard_cut_off"));

        mock.onCompletion(request -> request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                .end(MockCompletionServer.deltaEvent("In the old oak.") + "data: [DONE]\n\n"));
        generate("\"action\":\"swipe\"");
        JsonNode swiped = line(3);
        assertEquals("In the old oak.", swiped.path("mes").asText());
        assertTrue(swiped.at("/extra/tankard_cut_off").isMissingNode(), "a swipe that ended well is not marked: " + swiped);
        assertTrue(swiped.at("/swipe_info/0/extra/tankard_cut_off").isTextual(), "the cut one still is");
    }

    @Test
    void aReplyTheUserStopsIsSavedAsFarAsItCameUnmarked() throws InterruptedException {
        settings(true, mock.baseUrl());
        mock.onCompletion(request -> {
            request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            for (int i = 0; i < 30; i++) {
                String piece = "word" + i + " ";
                server.vertx.setTimer(1 + i * 100L, t -> {
                    if (!request.response().closed()) {
                        request.response().write(MockCompletionServer.deltaEvent(piece));
                    }
                });
            }
        });
        long left = System.nanoTime();
        StreamingClient.leaveAfterTheFirstChunk(server, client, "/api/tankard/generate",
                "{" + REF + ",\"action\":\"send\",\"text\":\"Tell me.\"}");
        while (lines().size() < 4 && System.nanoTime() - left < 10_000_000_000L) { // saved a moment after the stop
            Thread.sleep(20);
        }
        JsonNode reply = line(3);
        assertTrue(reply.path("mes").asText().startsWith("word0") && !reply.path("mes").asText().contains("word29"),
                reply.toString());
        assertTrue(reply.at("/extra/tankard_cut_off").isMissingNode(), "a stop is the user's: " + reply);

        mock.onCompletion(request -> request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                .end(MockCompletionServer.deltaEvent("Once more.") + "data: [DONE]\n\n"));
        generate("\"action\":\"regenerate\"");
        assertEquals(4, lines().size(), String.join("\n", lines()));
        assertEquals("Once more.", line(3).path("mes").asText(), "in place of the stopped one");
    }

    @Test
    void swipeContinueAndRegenerateChangeOnlyTheLastReply() {
        generate("\"action\":\"send\",\"text\":\"Hello.\"");
        List<String> before = lines();

        assertEquals(200, generate("\"action\":\"swipe\"").statusCode());
        JsonNode swiped = line(3);
        assertEquals(before.subList(0, 3), lines().subList(0, 3));
        assertEquals("Mock reply 2.", swiped.path("mes").asText());
        assertEquals(1, swiped.path("swipe_id").asInt());
        assertEquals("[\"Mock reply 1.\",\"Mock reply 2.\"]", swiped.path("swipes").toString());
        assertEquals(2, swiped.path("swipe_info").size());

        assertEquals(200, generate("\"action\":\"continue\"").statusCode());
        JsonNode continued = line(3);
        assertEquals("Mock reply 2.Mock reply 3.", continued.path("mes").asText());
        assertEquals("[\"Mock reply 1.\",\"Mock reply 2.Mock reply 3.\"]", continued.path("swipes").toString());

        assertEquals(200, generate("\"action\":\"regenerate\"").statusCode());
        assertEquals(4, lines().size());
        assertEquals("Mock reply 4.", line(3).path("mes").asText());
        assertEquals("[\"Mock reply 4.\"]", line(3).path("swipes").toString());
        String sent = mock.lastCall("/v1/chat/completions").json().path("messages").toString();
        assertTrue(!sent.contains("Mock reply 2.Mock reply 3."), "a regenerate leaves the old reply out: " + sent);
    }

    @Test
    void continuingTheMessageThatCarriesTheSummaryDropsItAsSTDoesOnAnEdit() {
        put(CHAT, (HEADER + "\n" + GREETING.replace("\"extra\":{}", "\"extra\":{\"memory\":\"They met.\"}"))
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(200, generate("\"action\":\"continue\"").statusCode());
        JsonNode continued = line(1);
        assertEquals("Mind the bees.Mock reply 1.", continued.path("mes").asText());
        assertTrue(continued.path("extra").path("memory").isMissingNode(), continued.toString());
    }

    @Test
    void aSwipeWithNoReplyToSwipeIsRefusedBeforeTheBackendIsCalled() {
        put(CHAT, (HEADER + "\n" + GREETING + "\n{\"name\":\"Wren\",\"is_user\":true,\"mes\":\"Hi.\"}")
                .getBytes(StandardCharsets.UTF_8));
        byte[] before = documentBytes(CHAT);
        HttpResponse<Buffer> response = generate("\"action\":\"swipe\"");
        assertEquals(400, response.statusCode(), response.bodyAsString());
        assertTrue(mock.calls().isEmpty(), "no generation was asked for");
        assertEquals(new String(before, StandardCharsets.UTF_8), new String(documentBytes(CHAT), StandardCharsets.UTF_8));
    }

    @Test
    void anImpersonationAnswersTheTextAndSavesNothing() {
        byte[] before = documentBytes(CHAT);
        HttpResponse<Buffer> response = generate("\"action\":\"impersonate\"");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertEquals("Mock reply 1.", json(response).path("text").asText());
        assertTrue(json(response).path("message").isNull());
        assertEquals(new String(before, StandardCharsets.UTF_8), new String(documentBytes(CHAT), StandardCharsets.UTF_8));
    }

    @Test
    void aStreamedImpersonationEndsWithItsCleanedText() {
        settings(true, mock.baseUrl());
        mock.onCompletion(request -> request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                .end(MockCompletionServer.deltaEvent("Wren: Which hive?\nBramble: The old one.") + "data: [DONE]\n\n"));
        byte[] before = documentBytes(CHAT);
        HttpResponse<Buffer> response = generate("\"action\":\"impersonate\"");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertTrue(response.bodyAsString().endsWith("data: {\"tankard_text\":\"Which hive?\"}\n\n"), response.bodyAsString());
        assertEquals(new String(before, StandardCharsets.UTF_8), new String(documentBytes(CHAT), StandardCharsets.UTF_8));
    }

    @Test
    void aBadRequestWritesNothing() {
        byte[] before = documentBytes(CHAT);
        HttpResponse<Buffer> response = generate("\"action\":\"dance\",\"text\":\"Hello.\"");
        assertEquals(400, response.statusCode(), response.bodyAsString());
        settings(false, mock.baseUrl(), "nonsense");
        assertEquals(400, generate("\"action\":\"send\",\"text\":\"Hello.\"").statusCode(),
                "an unknown source: refused before anything is written");
        assertEquals(new String(before, StandardCharsets.UTF_8), new String(documentBytes(CHAT), StandardCharsets.UTF_8));
    }
}
