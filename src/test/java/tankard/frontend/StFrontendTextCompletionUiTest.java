package tankard.frontend;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.StreamingClient;
import tankard.testing.TestServer;
import tankard.testing.TextCompletionProtocols;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;
import static tankard.testing.TextCompletionProtocols.llamaCppEvent;

/**
 * Issue 5's text-completion acceptance in a real browser: ST's frontend connects to a mock llama.cpp server
 * as its Text Completion API (with ST's default best-match tokenizer, which counts through the backend's own
 * tokenize API), a message's reply streams in (the mock holds back the end of its answer until
 * the page shows the beginning), and ST's stop button cancels the upstream generation. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendTextCompletionUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendTextCompletionUiTest {
    private static final String LAST_MESSAGE = StUi.LAST_MESSAGE;

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void aLlamaCppReplyStreamsInAndStopCancelsIt() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             Browser browser = Browser.launch()) {
            MockCompletionServer mock = MockCompletionServer.start(server.vertx);
            TextCompletionProtocols.install(mock);
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-textgen-1-connect", () -> {
                StUi.boot(page);
                connect(page, mock.origin());
            });
            StUi.withScreenshot(page, "st-textgen-2-streamed", () -> streamAReply(page, mock, server.vertx));
            StUi.withScreenshot(page, "st-textgen-3-stopped", () -> stopAReply(page, mock, server.vertx));
            mock.close();
        }
    }

    /** Chooses Text Completion, llama.cpp and the mock's URL in the API panel, connects, turns streaming on. */
    private static void connect(Browser.Page page, String url) {
        StUi.openDrawer(page, "sys-settings-button");
        page.eval("$('#main_api').val('textgenerationwebui').trigger('change'); true");
        page.eval("$('#textgen_type').val('llamacpp').trigger('change'); true");
        page.type("#llamacpp_api_url_text", url);
        page.click("#api_button_textgenerationwebui");
        page.waitFor("SillyTavern.getContext().onlineStatus === " + jsString(MockCompletionServer.MODEL), StUi.STEP_TIMEOUT);
        StUi.closeDrawer(page, "sys-settings-button");
        StUi.openDrawer(page, "ai-config-button");
        if (!page.eval("document.querySelector('#streaming_textgenerationwebui').checked").asBoolean()) {
            page.click("#streaming_textgenerationwebui");
        }
        StUi.closeDrawer(page, "ai-config-button");
        assertEquals("99", page.eval("$('#tokenizer').val()").asText(), "ST's default tokenizer: best match");
        StUi.openDrawer(page, "rightNavHolder");
        page.click("#rm_print_characters_block .character_select");
        page.waitFor("document.querySelectorAll('#chat .mes').length === 1", StUi.STEP_TIMEOUT);
    }

    /** Sends a message: the first half of the reply shows before the mock sends the rest. */
    private static void streamAReply(Browser.Page page, MockCompletionServer mock, Vertx vertx) {
        Promise<Void> firstHalfShown = Promise.promise();
        mock.route("/completion", request -> {
            long ticks = startReply(vertx, request, "Streamed");
            HttpServerResponse response = request.response();
            firstHalfShown.future().onSuccess(v -> {
                vertx.cancelTimer(ticks);
                response.end(llamaCppEvent(" through Tankard.", false) + llamaCppEvent("", true));
            });
        });
        send(page, "Hello there");
        page.waitFor(LAST_MESSAGE + ".includes('Streamed')", StUi.STEP_TIMEOUT);
        firstHalfShown.complete();
        page.waitFor(LAST_MESSAGE + ".includes('Streamed through Tankard.')", StUi.STEP_TIMEOUT);
        // best match for llama.cpp is the backend's own tokenizer, reached through Tankard's remote route
        assertTrue(mock.lastCall("/tokenize").json().has("content"));
        MockCompletionServer.Call completion = mock.lastCall("/completion");
        assertTrue(completion.json().path("stream").asBoolean());
        assertTrue(completion.json().path("prompt").asText().contains("Hello there"), completion.body());
    }

    /** Sends a message whose reply stalls after a word; ST's stop button closes the upstream connection. */
    private static void stopAReply(Browser.Page page, MockCompletionServer mock, Vertx vertx) {
        Promise<Void> upstreamClosed = Promise.promise();
        mock.route("/completion", request -> {
            long ticks = startReply(vertx, request, "Thinking");
            request.connection().closeHandler(v -> {
                vertx.cancelTimer(ticks);
                upstreamClosed.tryComplete();
            });
        });
        send(page, "Tell me a long story");
        page.waitFor(LAST_MESSAGE + ".includes('Thinking')", StUi.STEP_TIMEOUT);
        page.click("#mes_stop");
        StreamingClient.await(upstreamClosed.future());
    }

    /**
     * Streams the text, then an empty token every 100 ms, as a model between words: ST shows streamed text
     * only on a token that comes after its frame interval, so a lone first token would never show.
     * Returns the timer.
     */
    private static long startReply(Vertx vertx, HttpServerRequest request, String text) {
        HttpServerResponse response = request.response().setChunked(true);
        response.write(llamaCppEvent(text, false));
        return vertx.setPeriodic(100, id -> response.write(llamaCppEvent("", false)));
    }

    private static void send(Browser.Page page, String text) {
        page.type("#send_textarea", text);
        page.click("#send_but");
    }
}
