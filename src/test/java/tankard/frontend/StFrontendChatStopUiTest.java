package tankard.frontend;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.StServer;
import tankard.testing.StreamingClient;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.MockCompletionServer.deltaEvent;

/**
 * Issue 5's chat-completion stop in a real browser: ST's frontend on the custom (OpenAI-compatible) source at a
 * mock that holds its stream open; the first words show, the user clicks ST's stop button, and the mock sees
 * its connection closed. The same steps run on the real ST server first, so the test shows what ST does.
 * Needs an ST install and node: {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendChatStopUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendChatStopUiTest {
    private static final String LAST_MESSAGE = StUi.LAST_MESSAGE;

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void stopClosesTheUpstreamChatStream() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             MockCompletionServer stMock = MockCompletionServer.start(server.vertx);
             StServer st = StServer.start(stDir, server.vertx, "skipContentCheck: false\n",
                     stFiles -> StUi.writeChatSettings(stDir, stFiles, stMock, true));
             // one browser each: cookies are per host, not per port, and both servers name their session cookie alike
             Browser stBrowser = Browser.launch();
             Browser browser = Browser.launch()) {
            StUi.writeChatSettings(stDir, server.files(), mock, true);
            stopAReply(stBrowser.newPage(), st.url("/"), stMock, server.vertx, "st-chat-stop-original");
            stopAReply(browser.newPage(), server.url("/"), mock, server.vertx, "st-chat-stop");
        }
    }

    /**
     * Opens a character, sends a message whose reply streams a word and then only keeps the stream alive, waits
     * for the word on the page, clicks stop, and waits for the mock to see its connection closed.
     */
    private static void stopAReply(Browser.Page page, String url, MockCompletionServer mock, Vertx vertx, String name) {
        Promise<Void> upstreamClosed = Promise.promise();
        mock.onCompletion(request -> {
            HttpServerResponse response = request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
            response.write(deltaEvent("Thinking"));
            // ST shows streamed text only on a chunk after its frame interval, so a lone first chunk would never show
            long ticks = vertx.setPeriodic(100, id -> response.write(deltaEvent("")));
            request.connection().closeHandler(v -> {
                vertx.cancelTimer(ticks);
                upstreamClosed.tryComplete();
            });
        });
        page.navigate(url);
        StUi.withScreenshot(page, name + "-1-streaming", () -> {
            StUi.boot(page);
            StUi.openDrawer(page, "rightNavHolder");
            page.click("#rm_print_characters_block .character_select");
            page.waitFor("SillyTavern.getContext().chat.length === 1", StUi.STEP_TIMEOUT);
            StUi.closeDrawer(page, "rightNavHolder");
            page.type("#send_textarea", "Tell me a long story");
            page.click("#send_but");
            page.waitFor(LAST_MESSAGE + ".includes('Thinking')", StUi.STEP_TIMEOUT);
        });
        StUi.withScreenshot(page, name + "-2-stopped", () -> {
            assertTrue(page.eval("$('#mes_stop').is(':visible')").asBoolean(), "still generating");
            page.click("#mes_stop");
            StreamingClient.await(upstreamClosed.future());
            page.waitFor("!$('#mes_stop').is(':visible')", StUi.STEP_TIMEOUT);
        });
        assertTrue(mock.lastCall("/v1/chat/completions").json().path("stream").asBoolean());
    }
}
