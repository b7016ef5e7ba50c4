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
 * One data folder, two frontends in turn: a lorebook made in Tankard's world info editor, global and linked to a
 * chat, is ST's in ST's frontend (listed, active, the chat's, its entry as typed), and an entry ST's editor changes
 * shows in Tankard's editor. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendOwnUiWorldInfoInterchangeTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendOwnUiWorldInfoInterchangeTest {
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String AVATAR = "default_Wren.png";
    private static final String BOOK = "Harbour Lore";
    private static final String ENTRY = "#world_popup_entries_list .world_entry[uid=\"0\"]";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void aLorebookAndItsLinksGoBackAndForthBetweenTankardsUiAndSts() throws IOException {
        Path dataRoot = TestServer.tempDir();
        try (TestServer ownUi = TestServer.startIn(OwnUi.work(""), "--dataRoot", dataRoot.toString());
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            StUi.withScreenshot(page, "interchange-worldinfo-1-tankard-ui", () -> {
                page.navigate(ownUi.url("/#/chat?avatar=" + AVATAR));
                OwnUi.boot(page);
                page.waitFor("document.querySelector('#lorebooks') !== null", STEP);
                page.click("#lorebooks");
                page.waitFor("document.querySelector('#wiNewBook') !== null", STEP);
                TankardUiWorldInfoTest.newBook(page, BOOK);
                TankardUiWorldInfoTest.newEntry(page, "The lighthouse", "lighthouse, beacon", "The keeper is named Orla.");
                OwnUi.choose(page, "#wiPosition", "4:1");
                page.click("#wiSave");
                page.waitFor("document.querySelector('#wiStatus').textContent === 'All changes saved'", STEP);
                TankardUiWorldInfoTest.tick(page, "#wiGlobal", "Linked: every chat");
                TankardUiWorldInfoTest.tick(page, "#wiChat", "Linked: this chat");
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP);
            });
            JsonNode settings = JsJson.parse(Files.readAllBytes(dataRoot.resolve("default-user/settings.json")));
            assertEquals("[\"" + BOOK + "\"]", JsJson.compact(settings.at("/world_info_settings/world_info/globalSelect")));

            try (TestServer st = TestServer.startIn(TestServer.tempDir(), "--dataRoot", dataRoot.toString(), "--frontend",
                    stDir.resolve("public").toString())) {
                Browser.Page stPage = browser.newPage();
                stPage.navigate(st.url("/"));
                StUi.withScreenshot(stPage, "interchange-worldinfo-2-st-frontend", () -> {
                    StUi.boot(stPage);
                    String module = "(await import('/scripts/world-info.js'))";
                    assertTrue(stPage.eval("(async () => " + module + ".world_names.includes(" + OwnUi.js(BOOK) + "))()").asBoolean(), "ST lists the book");
                    assertTrue(stPage.eval("(async () => " + module + ".selected_world_info.includes(" + OwnUi.js(BOOK) + "))()").asBoolean(),
                            "ST has it active for every chat");
                    JsonNode entry = JsJson.parse(stPage.eval("(async () => JSON.stringify((await " + module + ".loadWorldInfo("
                            + OwnUi.js(BOOK) + ")).entries[0]))()").asText());
                    assertEquals("The keeper is named Orla.", entry.path("content").asText());
                    assertEquals("[\"lighthouse\",\"beacon\"]", JsJson.compact(entry.path("key")));
                    assertEquals(4, entry.path("position").asInt());
                    assertEquals(1, entry.path("role").asInt());

                    StUi.openDrawer(stPage, "rightNavHolder");
                    stPage.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: " + AVATAR + "\"])");
                    stPage.waitFor(CONTEXT + ".characterId !== undefined && " + CONTEXT + ".chatMetadata.world_info !== undefined", STEP);
                    StUi.closeDrawer(stPage, "rightNavHolder");
                    assertEquals(BOOK, stPage.eval(CONTEXT + ".chatMetadata.world_info").asText(), "ST reads the chat's lorebook");

                    // ST's own editor changes the entry's content
                    stPage.eval("(async () => " + module + ".openWorldInfoEditor(" + OwnUi.js(BOOK) + "))()");
                    stPage.waitFor("document.querySelector(" + OwnUi.js(ENTRY) + ") !== null", STEP);
                    stPage.click(ENTRY + " .inline-drawer-toggle");
                    stPage.awaitVisible(ENTRY + " textarea[name=\"content\"]");
                    stPage.eval("$(" + OwnUi.js(ENTRY + " textarea[name=\"content\"]") + ").val('The keeper is named Orla, and she never sleeps.').trigger('input')");
                    Path book = dataRoot.resolve("default-user/worlds/" + BOOK + ".json");
                    stPage.waitUntil(() -> read(book).contains("she never sleeps"), STEP, () -> "ST saved no change: " + read(book));
                });
            }

            page.navigate(ownUi.url("/"));
            page.navigate(ownUi.url("/#/worldinfo?book=" + BOOK.replace(" ", "%20")));
            StUi.withScreenshot(page, "interchange-worldinfo-3-tankard-ui-again", () -> {
                page.waitFor("document.querySelector('#wiEntries li[data-uid=\"0\"] button.entry') !== null", STEP);
                page.click("#wiEntries li[data-uid='0'] button.entry");
                page.waitFor("document.querySelector('#wiContent')?.value === 'The keeper is named Orla, and she never sleeps.'", STEP);
                assertTrue(page.eval("document.querySelector('#wiGlobal').checked").asBoolean(), "still global");
            });
        } finally {
            TestServer.deleteTree(dataRoot);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
