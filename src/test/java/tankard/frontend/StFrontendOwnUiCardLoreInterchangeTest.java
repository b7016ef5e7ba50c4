package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.character.CardWriter;
import tankard.testing.Browser;
import tankard.testing.TestImages;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A card's embedded lorebook imported in Tankard's own UI is the book ST's frontend makes of it: ST's own
 * {@code convertCharacterBook} gives the same entries, and ST opens the card with that book linked and offers no
 * import. Needs an ST install: {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendOwnUiCardLoreInterchangeTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendOwnUiCardLoreInterchangeTest {
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final String BOOK = "{\"name\":\"Harbour Lore\",\"entries\":["
            + "{\"id\":3,\"keys\":[\"lamp\",\"light\"],\"secondary_keys\":[\"dusk\"],\"comment\":\"The lamp\",\"content\":\"The lamp is lit at dusk.\","
            + "\"constant\":false,\"selective\":true,\"insertion_order\":10,\"enabled\":true,\"position\":\"before_char\","
            + "\"extensions\":{\"depth\":2,\"probability\":80,\"group\":\"harbour\",\"role\":1}},"
            + "{\"keys\":[\"ferry\"],\"content\":\"The ferry leaves at dawn.\",\"insertion_order\":5,\"enabled\":false,"
            + "\"position\":\"after_char\"}]}";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void aCardsLorebookImportedInTankardsUiIsTheBookStMakesOfIt() throws IOException {
        Path dataRoot = TestServer.tempDir();
        Path card = TestServer.tempDir().resolve("keeper.png");
        Files.write(card, CardWriter.write(TestImages.image("png", 32, 48), "{\"spec\":\"chara_card_v2\",\"spec_version\":\"2.0\","
                + "\"data\":{\"name\":\"Keeper\",\"first_mes\":\"Mind the steps.\",\"extensions\":{},\"character_book\":" + BOOK + "}}"));
        try (TestServer ownUi = TestServer.startIn(OwnUi.work(""), "--dataRoot", dataRoot.toString());
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(ownUi.url("/"));
            OwnUi.boot(page);
            StUi.withScreenshot(page, "interchange-card-lore-1-tankard-ui", () -> {
                page.waitFor("document.querySelector('.card') !== null", STEP);
                page.chooseFiles(() -> page.click("#importButton"), card);
                page.waitFor("document.querySelector('dialog[open] h2')?.textContent === 'Keeper has an embedded lorebook'", STEP);
                page.click("dialog[open] button[value='import']");
                page.waitFor("document.getElementById('toasts').textContent.includes('Harbour Lore')", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });

            try (TestServer st = TestServer.startIn(TestServer.tempDir(), "--dataRoot", dataRoot.toString(), "--frontend",
                    stDir.resolve("public").toString())) {
                Browser.Page stPage = browser.newPage();
                stPage.navigate(st.url("/"));
                StUi.withScreenshot(stPage, "interchange-card-lore-2-st-frontend", () -> {
                    StUi.boot(stPage);
                    StUi.openCharacter(stPage, "Keeper.png");
                    assertEquals("Harbour Lore", stPage.eval("$('#character_world').val()").asText(), "ST shows the book linked");
                    assertTrue(stPage.eval("document.querySelector('dialog[open]') === null").asBoolean(),
                            "ST offers no import: the card links a book that exists");
                });
                JsonNode both = stPage.eval("(async () => { const wi = await import('/scripts/world-info.js');"
                        + " const card = await (await fetch('/api/characters/get', { method: 'POST', headers: SillyTavern.getContext().getRequestHeaders(),"
                        + " body: JSON.stringify({ avatar_url: 'Keeper.png' }) })).json();"
                        + " return { st: wi.convertCharacterBook(card.data.character_book), stored: await wi.loadWorldInfo('Harbour Lore') }; })()");
                assertEquals(both.path("st"), both.path("stored"), "the book Tankard's UI wrote is the one ST's conversion makes");
            }
        } finally {
            TestServer.deleteTree(dataRoot);
        }
    }
}
