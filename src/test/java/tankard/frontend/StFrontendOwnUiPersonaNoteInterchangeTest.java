package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One data folder, two frontends in turn: a persona and a chat's author's note made in Tankard's own UI are ST's
 * in ST's frontend, and what ST changes in them shows in Tankard's UI. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendOwnUiPersonaNoteInterchangeTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendOwnUiPersonaNoteInterchangeTest {
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String AVATAR = "default_Wren.png";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void aPersonaAndAnAuthorsNoteGoBackAndForthBetweenTankardsUiAndSts() throws IOException {
        Path dataRoot = TestServer.tempDir();
        try (OwnUi.Session session = OwnUi.Session.startOn(dataRoot)) {
            TestServer ownUi = session.server();
            Browser browser = session.browser();
            Browser.Page page = OwnUi.connected(session);
            StUi.withScreenshot(page, "interchange-persona-1-tankard-ui", () -> {
                page.navigate(ownUi.url("/#/personas"));
                page.waitFor("document.querySelector('#newPersona') !== null", STEP);
                page.type("#newPersonaName", "Ada Lovelace");
                page.type("#newPersonaDescription", "A mathematician who counts the stars.");
                page.click("#createPersona");
                page.waitFor("document.querySelector('#personaList button[aria-label=\"Use Ada Lovelace\"]') !== null", STEP);
                page.click("#personaList button[aria-label='Use Ada Lovelace']");
                page.waitFor("document.querySelector('#personaList li.current b').textContent === 'Ada Lovelace'", STEP);

                page.navigate(ownUi.url("/#/chat?avatar=" + AVATAR));
                page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
                page.click("#authorsNote");
                page.waitFor("document.querySelector('dialog[open] #notePrompt') !== null", STEP);
                page.type("#notePrompt", "[Spooky.]");
                page.eval("document.querySelector('#noteDepth').value = '2'");
                page.click("dialog button[value='save']");
                page.waitFor("document.getElementById('toasts').textContent.includes(\"Author's note saved\")", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP);
            });
            JsonNode settings = JsJson.parse(Files.readAllBytes(dataRoot.resolve("default-user/settings.json")));
            String persona = settings.path("user_avatar").asText();
            assertTrue(Files.exists(dataRoot.resolve("default-user/User Avatars/" + persona)), "its image: " + persona);

            try (TestServer st = StUi.startStFrontendOn(stDir, dataRoot)) {
                Browser.Page stPage = browser.newPage();
                stPage.navigate(st.url("/"));
                StUi.withScreenshot(stPage, "interchange-persona-2-st-frontend", () -> {
                    StUi.boot(stPage);
                    assertEquals("Ada Lovelace", stPage.eval(CONTEXT + ".name1").asText(), "ST speaks as the persona");
                    assertEquals("A mathematician who counts the stars.",
                            stPage.eval(CONTEXT + ".powerUserSettings.persona_description").asText());
                    assertEquals("Ada Lovelace", stPage.eval(CONTEXT + ".powerUserSettings.personas[" + OwnUi.js(persona) + "]").asText());
                    StUi.openDrawer(stPage, "rightNavHolder");
                    stPage.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: " + AVATAR + "\"])");
                    stPage.waitFor(CONTEXT + ".chat.length === 1 && " + CONTEXT + ".characterId !== undefined", STEP);
                    StUi.closeDrawer(stPage, "rightNavHolder");
                    assertEquals("[Spooky.]", stPage.eval(CONTEXT + ".chatMetadata.note_prompt").asText(), "ST reads the note");
                    assertEquals(2, stPage.eval(CONTEXT + ".chatMetadata.note_depth").asInt());
                    assertEquals("[Spooky.]", stPage.eval("$('#extension_floating_prompt').val()").asText(), "and shows it");

                    // ST changes both, through its own panels' inputs
                    stPage.eval("$('#extension_floating_prompt').val('[Spookier.]').trigger('input')");
                    stPage.eval("$('#persona_description').val('A mathematician who counts the comets.').trigger('input')");
                    stPage.waitForNetworkIdle(StUi.QUIET, STEP);
                });
            }

            page.navigate(ownUi.url("/"));
            page.navigate(ownUi.url("/#/personas"));
            StUi.withScreenshot(page, "interchange-persona-3-tankard-ui-again", () -> {
                page.waitFor("document.querySelector('#personaList li.current p')?.textContent === 'A mathematician who counts the comets.'", STEP);
                page.navigate(ownUi.url("/#/chat?avatar=" + AVATAR));
                page.waitFor("document.querySelector('#authorsNote') !== null", STEP);
                page.click("#authorsNote");
                page.waitFor("document.querySelector('dialog[open] #notePrompt')?.value === '[Spookier.]'", STEP);
            });
        } finally {
            TestServer.deleteTree(dataRoot);
        }
    }
}
