package tankard.summarize.chat;

import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tankard summarize}: the same summarizer as the route, from the command line, on a data root. */
class SummarizeCommandTest {
    private Vertx vertx;
    private MockCompletionServer mock;
    private Path work;
    private Path chat;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() throws IOException {
        vertx = Vertx.vertx();
        mock = MockCompletionServer.start(vertx);
        work = TestServer.tempDir();
        chat = work.resolve("data/default-user/chats/Bramble/Hollow Oak.jsonl");
        Files.createDirectories(chat.getParent());
        Files.writeString(chat, ChatSummaryHttpTest.chat(ChatSummaryHttpTest.MESSAGES));
    }

    @AfterEach
    void tearDown() {
        mock.close();
        vertx.close();
    }

    private int run(String... args) {
        return SummarizeCommand.run(args, Map.of(), work, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void summarizesAndStoresTheSummaryInTheChat() throws IOException {
        Files.writeString(work.resolve("backend.json"), "{\"chat_completion_source\":\"custom\",\"custom_url\":\""
                + mock.baseUrl() + "\",\"model\":\"m\"}");
        int status = run("--user", "default-user", "--character", "Bramble.png", "--chat", "Hollow Oak",
                "--backend", "@backend.json", "--prompt", "the gold", "--max-tokens", "200", "--dataRoot", "data");
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertEquals("Mock reply 1.\n", out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("Stored on message 5"));
        assertEquals(200, mock.lastCall().json().path("max_tokens").asInt());
        assertTrue(mock.lastCall().json().at("/messages/0/content").asText().contains("must keep: the gold"));
        assertTrue(Files.readString(chat).contains("\"mes\":\"Thank you kindly.\",\"extra\":{\"memory\":\"Mock reply 1.\"}}"));
    }

    @Test
    void badArgumentsAndFailedSummariesChangeNothing() throws IOException {
        byte[] before = Files.readAllBytes(chat);
        assertEquals(2, run("--character", "Bramble.png", "--chat", "Hollow Oak", "--dataRoot", "data"), "no backend");
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--backend is required"));
        assertEquals(2, run("--backend", "{\"chat_completion_source\":\"custom\"}", "--character", "Bramble.png",
                "--chat", "Hollow Oak", "--user", "../x", "--dataRoot", "data"));
        assertEquals(2, run("--backend", "[]", "--character", "Bramble.png", "--chat", "Hollow Oak", "--dataRoot", "data"));
        assertEquals(2, run("--backend", "{\"chat_completion_source\":\"custom\"}", "--charcter", "Bramble.png",
                "--chat", "Hollow Oak", "--dataRoot", "data"), "a mistyped option");
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("Unknown option --charcter"));
        assertEquals(2, run("--backend", "{\"chat_completion_source\":\"custom\",\"custom_url\":\"" + mock.baseUrl()
                + "\"}", "--character", "Bramble.png", "--chat", "Nowhere", "--dataRoot", "data"), "no such chat");
        mock.onCompletion(request -> request.response().end("{\"choices\":[{\"message\":{\"content\":\"\"},"
                + "\"finish_reason\":\"stop\"}]}"));
        assertEquals(1, run("--backend", "{\"chat_completion_source\":\"custom\",\"custom_url\":\"" + mock.baseUrl()
                + "\"}", "--character", "Bramble.png", "--chat", "Hollow Oak", "--dataRoot", "data"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("empty summary"));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertArrayEquals(before, Files.readAllBytes(chat));
    }
}
