package tankard.frontend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One data folder, two frontends in turn: a summary and the Summarize settings made in Tankard's memory panel are
 * ST's in ST's Summarize extension, and a summary ST's panel writes shows in Tankard's. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendOwnUiMemoryInterchangeTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendOwnUiMemoryInterchangeTest {
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String AVATAR = "default_Wren.png";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    private static void send(Browser.Page page, String text, int messages) {
        page.type("#input", text);
        page.click("#send");
        page.waitFor("document.querySelectorAll('#messages article').length === " + messages
                + " && !document.querySelector('#messages article.streaming')", STEP);
    }

    @Test
    void aSummaryAndTheSummarizeSettingsGoBackAndForthBetweenTankardsUiAndSts() throws IOException {
        Path dataRoot = TestServer.tempDir();
        try (TestServer ownUi = TestServer.startIn(OwnUi.work(""), "--dataRoot", dataRoot.toString());
             MockCompletionServer mock = MockCompletionServer.start(ownUi.vertx);
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(ownUi.url("/#/connection"));
            OwnUi.boot(page);
            OwnUi.connect(page, mock);
            StUi.withScreenshot(page, "interchange-memory-1-tankard-ui", () -> {
                page.navigate(ownUi.url("/#/chat?avatar=" + AVATAR));
                page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
                send(page, "Tell me of the orchard.", 3);
                send(page, "And the hives?", 5);
                page.eval("{ const s = document.querySelector('#summary'); s.value = 'Wren spoke of the orchard and the hives.';"
                        + " s.dispatchEvent(new Event('input')); }");
                page.click("#saveSummary");
                page.waitFor("document.querySelector('#memoryStatus').textContent === 'Summary saved.'", STEP);
                page.click("#memoryPause");
                page.click("#summarySettings > summary");
                page.eval("{ const t = document.querySelector('#memoryTemplate'); t.value = '[Story so far: {{summary}}]';"
                        + " t.dispatchEvent(new Event('change', {bubbles: true})); }");
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP);
            });

            try (TestServer st = TestServer.startIn(TestServer.tempDir(), "--dataRoot", dataRoot.toString(), "--frontend",
                    stDir.resolve("public").toString())) {
                Browser.Page stPage = browser.newPage();
                stPage.navigate(st.url("/"));
                StUi.withScreenshot(stPage, "interchange-memory-2-st-frontend", () -> {
                    StUi.boot(stPage);
                    StUi.openDrawer(stPage, "rightNavHolder");
                    stPage.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: " + AVATAR + "\"])");
                    stPage.waitFor(CONTEXT + ".chat.length === 5 && " + CONTEXT + ".characterId !== undefined", STEP);
                    StUi.closeDrawer(stPage, "rightNavHolder");
                    stPage.waitFor("$('#memory_contents').val() === 'Wren spoke of the orchard and the hives.'", STEP);
                    assertEquals("Wren spoke of the orchard and the hives.", stPage.eval(CONTEXT + ".chat[3].extra.memory").asText(),
                            "on the message before the last, where ST's setMemoryContext keeps it");
                    assertTrue(stPage.eval("$('#memory_frozen').prop('checked')").asBoolean(), "ST's Pause is on");
                    assertEquals("[Story so far: {{summary}}]", stPage.eval("$('#memory_template').val()").asText());

                    // ST's panel writes a new summary, as typing into it does (saved on the message before the last)
                    stPage.eval("$('#memory_contents').val('Wren and the traveller planned the harvest.').trigger('input')");
                    stPage.waitFor(CONTEXT + ".chat[3].extra.memory === 'Wren and the traveller planned the harvest.'", STEP);
                    stPage.waitForNetworkIdle(Duration.ofSeconds(3), STEP); // ST's saveChatDebounced
                    StUi.openDrawer(stPage, "extensions-settings-button"); // the panel, for the screenshot
                    stPage.click("#memory_settings .inline-drawer-icon");
                    stPage.waitFor("$('#memory_contents').is(':visible') && $('#memory_settings .inline-drawer-content').css('display') === 'block'"
                            + " && document.querySelector('#memory_frozen').getBoundingClientRect().top > document.querySelector('#memory_contents').getBoundingClientRect().bottom", STEP);
                    stPage.eval("document.querySelector('#memory_contents').scrollIntoView({block: 'center'})");
                });
            }

            page.navigate(ownUi.url("/"));
            page.navigate(ownUi.url("/#/chat?avatar=" + AVATAR));
            StUi.withScreenshot(page, "interchange-memory-3-tankard-ui-again", () ->
                    page.waitFor("document.querySelector('#summary')?.value === 'Wren and the traveller planned the harvest.'", STEP));
        } finally {
            TestServer.deleteTree(dataRoot);
        }
    }
}
