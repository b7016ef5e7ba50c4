package tankard.frontend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static tankard.testing.MockCompletionServer.deltaEvent;

/**
 * Issue 29's two tabs: one account open in two browsers on one chat in ST's unmodified frontend, each sends a
 * message; the tab that missed the other's is refused with ST's integrity error, so ST asks its user, and after the
 * reload it offers, both messages are in the chat (docs/compatibility.md, "A save from a stale view"). Needs an ST
 * install: {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendTwoTabsUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendTwoTabsUiTest {
    private static final String CHAT = StUi.CONTEXT + ".chat";
    private static final String INTEGRITY_PROMPT =
            "(document.querySelector('dialog[open]')?.textContent ?? '').includes('integrity check failed')";

    private static final String CHARACTER = "default_Seraphina.png";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    /** Boots ST and opens the character's chat, new with its greeting. */
    private static void openChat(Browser.Page page, String url) {
        page.navigate(url);
        StUi.boot(page);
        StUi.openCharacter(page, CHARACTER);
    }

    private static List<String> said(TestServer server, String chatId) {
        String folder = server.files().chatPaths().stream().filter(p -> p.endsWith("/" + chatId + ".jsonl")).findFirst().orElseThrow();
        return server.files().read(folder).lines().skip(1).map(JsJson::parse).map(m -> m.path("mes").asText()).toList();
    }

    @Test
    void twoTabsEachSendAndNeitherMessageIsLostWithoutTheUserBeingAsked() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             Browser one = Browser.launch();
             Browser two = Browser.launch()) {
            StUi.writeChatSettings(stDir, server.files(), mock, true);
            mock.onCompletion(request -> request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                    .end(deltaEvent("An answer.") + "data: [DONE]\n\n"));
            Browser.Page tab1 = one.newPage();
            Browser.Page tab2 = two.newPage();
            openChat(tab1, server.url("/")); // the new chat is saved and named on the card
            openChat(tab2, server.url("/"));
            String chatId = tab1.eval(StUi.CONTEXT + ".getCurrentChatId()").asText();
            assertEquals(chatId, tab2.eval(StUi.CONTEXT + ".getCurrentChatId()").asText(), "one chat in both");

            StUi.withScreenshot(tab1, "st-two-tabs-1-tab-one", () -> {
                StUi.send(tab1, "From tab one");
                StUi.awaitReply(tab1, "An answer.");
            });
            List<String> afterTabOne = said(server, chatId);

            StUi.withScreenshot(tab2, "st-two-tabs-2-tab-two-asked", () -> {
                StUi.send(tab2, "From tab two");
                tab2.waitFor(INTEGRITY_PROMPT, StUi.STEP_TIMEOUT);
            });
            assertEquals(afterTabOne, said(server, chatId), "tab one's messages stay while tab two's user is asked");
            assertEquals(List.of(new Browser.FailedResponse("POST", server.url("/api/chats/save"), 400)),
                    tab2.failedResponses(), "only the stale save is refused");

            StUi.withScreenshot(tab2, "st-two-tabs-3-tab-two-reloaded", () -> {
                tab2.eval("window.beforeReload = true");
                tab2.click("dialog[open] .popup-button-ok"); // OK without OVERWRITE: ST reloads the page
                tab2.waitFor("window.beforeReload === undefined", StUi.STEP_TIMEOUT);
                StUi.boot(tab2);
                StUi.openDrawer(tab2, "rightNavHolder"); // the chat as stored now: tab one's messages
                tab2.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: " + CHARACTER + "\"])");
                tab2.waitFor(CHAT + ".length === 3", StUi.STEP_TIMEOUT); // the greeting, tab one's message and answer
                StUi.closeDrawer(tab2, "rightNavHolder");
                StUi.send(tab2, "From tab two");
                StUi.awaitReply(tab2, "An answer.");
            });
            List<String> both = said(server, chatId);
            assertEquals(List.of("From tab one", "An answer.", "From tab two", "An answer."), both.subList(both.size() - 4, both.size()),
                    "both tabs' messages: " + both);
            StUi.assertClean(tab1, "Tab one");
        }
    }
}
