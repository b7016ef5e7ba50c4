package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One data folder, two frontends in turn: a chat made in Tankard's own UI (connection included) opens unchanged in
 * ST's frontend, goes on there, and what ST added shows in Tankard's UI. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendOwnUiInterchangeTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendOwnUiInterchangeTest {
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String AVATAR = "default_Wren.png";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    private static List<String> chatLines(Path dataRoot) throws IOException {
        Path folder = dataRoot.resolve("default-user/chats/default_Wren");
        try (var chats = Files.list(folder)) {
            return Files.readAllLines(chats.filter(p -> p.toString().endsWith(".jsonl")).findFirst().orElseThrow());
        }
    }

    private static String mes(String line) {
        return JsJson.parse(line.getBytes()).path("mes").asText();
    }

    @Test
    void aChatGoesBackAndForthBetweenTankardsUiAndSts() throws IOException {
        Path dataRoot = TestServer.tempDir();
        String data = dataRoot.toString();
        List<String> written;
        try (TestServer ownUi = TestServer.startIn(OwnUi.work(""), "--dataRoot", data);
             MockCompletionServer mock = MockCompletionServer.start(ownUi.vertx);
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(ownUi.url("/#/connection"));
            StUi.withScreenshot(page, "interchange-1-tankard-ui", () -> {
                OwnUi.connect(page, mock);
                page.navigate(ownUi.url("/#/chat?avatar=" + AVATAR));
                page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
                page.type("#input", "Hello from Tankard's UI");
                page.click("#send");
                page.waitFor("document.querySelectorAll('#messages article').length === 3 && !document.querySelector('#messages article.streaming')", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP);
            });
            written = chatLines(dataRoot);
            assertEquals(4, written.size(), "the header, the greeting, the question and the reply: " + written);

            // the same data with ST's frontend: the chat is there as it was, and goes on over the same connection
            try (TestServer st = StUi.startStFrontendOn(stDir, dataRoot)) {
                Browser.Page stPage = browser.newPage();
                stPage.navigate(st.url("/"));
                StUi.withScreenshot(stPage, "interchange-2-st-frontend", () -> {
                    StUi.boot(stPage);
                    StUi.openDrawer(stPage, "rightNavHolder");
                    stPage.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: " + AVATAR + "\"])");
                    stPage.waitFor(CONTEXT + ".chat.length === 3", STEP);
                    StUi.closeDrawer(stPage, "rightNavHolder");
                    assertEquals("Hello from Tankard's UI", stPage.eval(CONTEXT + ".chat[1].mes").asText());
                    assertEquals(mes(written.get(3)), stPage.eval(CONTEXT + ".chat[2].mes").asText());
                    stPage.waitForNetworkIdle(StUi.QUIET, STEP);
                });
                assertEquals(written.subList(1, 4), chatLines(dataRoot).subList(1, 4), "opening it in ST changed no message");
                StUi.withScreenshot(stPage, "interchange-3-st-reply", () -> {
                    // ST's API panel shows the connection Tankard's UI saved; Connect, as an ST user would
                    StUi.openDrawer(stPage, "sys-settings-button");
                    assertEquals(mock.baseUrl(), stPage.eval("$('#custom_api_url_text').val()").asText());
                    stPage.click("#api_button_openai");
                    stPage.waitFor("!document.querySelector('#send_but').classList.contains('displayNone')", STEP);
                    StUi.closeDrawer(stPage, "sys-settings-button");
                    stPage.type("#send_textarea", "Hello from ST");
                    stPage.click("#send_but");
                    stPage.waitFor(CONTEXT + ".chat.length === 5 && " + CONTEXT + ".chat.at(-1).mes === "
                            + OwnUi.js(MockCompletionServer.replyText(2)) + " && !$('#mes_stop').is(':visible')", STEP);
                    stPage.waitForNetworkIdle(StUi.QUIET, STEP);
                });
            }

            // and back: Tankard's UI shows what ST added
            page.navigate(ownUi.url("/"));
            page.navigate(ownUi.url("/#/chat?avatar=" + AVATAR));
            StUi.withScreenshot(page, "interchange-4-tankard-ui-again", () -> {
                page.waitFor("document.querySelectorAll('#messages article').length === 5", STEP);
                assertEquals("Hello from ST", page.eval("document.querySelectorAll('#messages article')[3].querySelector('.text').textContent").asText());
                assertEquals(MockCompletionServer.replyText(2), page.eval("document.querySelector('#messages article:last-of-type .text').textContent").asText());
            });
            JsonNode last = JsJson.parse(chatLines(dataRoot).get(5).getBytes());
            assertEquals(MockCompletionServer.replyText(2), last.path("mes").asText());
        } finally {
            TestServer.deleteTree(dataRoot);
        }
    }
}
