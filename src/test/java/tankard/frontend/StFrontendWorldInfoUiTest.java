package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.StServer;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;

/**
 * Issue 7's lorebook acceptance in a real browser: in ST's World Info panel a new lorebook gets an entry with a
 * keyword and is activated for all chats; a message without the keyword leaves the entry out of the prompt the
 * (mock) chat-completion backend receives, a message with it brings the entry in. After a reload the book, its
 * entry and its activation are still there, and the book's file is byte for byte what ST 1.18.0 writes for the
 * same steps (run on a real ST server alongside). Needs an ST install and node:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendWorldInfoUiTest}. Screenshots go to
 * {@code target/ui/}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendWorldInfoUiTest {
    private static final Duration STEP_TIMEOUT = StUi.STEP_TIMEOUT;
    private static final Duration QUIET = StUi.QUIET;
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String CHARACTER = "default_Seraphina.png";
    private static final String BOOK = "Harbor Lore";
    private static final String KEYWORD = "lighthouse";
    private static final String CONTENT = "The lighthouse keeper of Brinemouth is a retired pirate named Odile.";
    private static final String BOOK_FILE = "worlds/" + BOOK + ".json";
    private static final String ENTRY = "#world_popup_entries_list .world_entry";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void lorebookMadeInThePanelTriggersInThePromptAndIsStoredAsStWould() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             MockCompletionServer stMock = MockCompletionServer.start(server.vertx);
             StServer st = StServer.start(stDir, server.vertx, "skipContentCheck: false\n",
                     stFiles -> StUi.writeChatSettings(stDir, stFiles, stMock, false));
             // one browser each: cookies are per host, not per port, and both servers name their session cookie alike
             Browser stBrowser = Browser.launch();
             Browser browser = Browser.launch()) {
            StUi.writeChatSettings(stDir, server.files(), mock, false);
            new Run(browser.newPage(), server.url("/"), server.files(), mock, "st-wi").steps();
            new Run(stBrowser.newPage(), st.url("/"), st.files(), stMock, "st-wi-original").steps();

            String file = "worlds/" + BOOK + ".json";
            assertArrayEquals(st.files().bytes(file), server.files().bytes(file),
                    "the lorebook file is the one ST writes:\n" + server.files().read(file));
            assertEquals(globalSelect(st.files()), globalSelect(server.files()));
        }
    }

    private static JsonNode globalSelect(UserFiles files) {
        return StUi.settings(files).at("/world_info_settings/world_info/globalSelect");
    }

    /** The steps in one browser tab against one server. */
    private static final class Run {
        private final Browser.Page page;
        private final String url;
        private final UserFiles files;
        private final MockCompletionServer mock;
        private final String name;

        Run(Browser.Page page, String url, UserFiles files, MockCompletionServer mock, String name) {
            this.page = page;
            this.url = url;
            this.files = files;
            this.mock = mock;
            this.name = name;
        }

        void steps() {
            page.navigate(url);
            step("0-boot", () -> {
                StUi.boot(page);
                StUi.assertClean(page, "Boot");
            });
            step("1-create", this::createBook);
            step("2-entry", this::addEntry);
            step("3-activate", this::activate);
            step("4-prompt", this::chat);
            step("5-reload", this::reloadAndCheck);
        }

        private void step(String id, Runnable steps) {
            StUi.withScreenshot(page, name + "-" + id, steps);
        }

        /** "New World" in the World Info panel, named in its dialog; the editor then shows the empty book. */
        private void createBook() {
            StUi.openDrawer(page, "WI-SP-button");
            page.click("#world_create_button");
            page.awaitVisible("dialog[open] .popup-input");
            page.type("dialog[open] .popup-input", BOOK);
            int before = page.responses().size();
            page.click("dialog[open] .popup-button-ok");
            Browser.Response saved = page.awaitResponse(before, r -> StUi.hasPath(r, "/api/worldinfo/edit"), STEP_TIMEOUT);
            assertEquals(200, saved.status(), page.report());
            page.waitFor("$('#world_editor_select option:selected').text() === " + jsString(BOOK), STEP_TIMEOUT);
            page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
            assertEquals("{\n    \"entries\": {}\n}", files.read(BOOK_FILE));
            StUi.assertClean(page, "Creating a lorebook");
        }

        /** A new entry, opened, given a keyword and a content; each edit is saved (debounced) to the book's file. */
        private void addEntry() {
            page.click("#world_popup_new");
            page.waitFor("document.querySelectorAll(" + jsString(ENTRY) + ").length === 1", STEP_TIMEOUT);
            page.click(ENTRY + " .inline-drawer-toggle");
            page.awaitVisible(ENTRY + " textarea[name=\"content\"]");
            page.type(ENTRY + " textarea[name=\"key\"]", KEYWORD);
            page.eval("document.querySelector(" + jsString(ENTRY + " textarea[name=\"key\"]") + ").blur()"); // commits it
            page.type(ENTRY + " textarea[name=\"content\"]", CONTENT);
            page.waitFor("document.querySelector(" + jsString(ENTRY + " textarea[name=\"content\"]") + ").value === " + jsString(CONTENT), STEP_TIMEOUT);
            awaitFile(BOOK_FILE, entry -> entry.contains(CONTENT) && entry.contains("\"" + KEYWORD + "\""));
            JsonNode entry = JsJson.parse(files.read(BOOK_FILE)).at("/entries/0");
            assertEquals("[\"" + KEYWORD + "\"]", JsJson.compact(entry.get("key")));
            assertEquals(CONTENT, entry.get("content").asText());
            StUi.assertClean(page, "Adding an entry");
        }

        /** The book picked in "Active World(s) for all chats", which ST keeps in its settings. */
        private void activate() {
            String value = page.eval("[...document.querySelectorAll('#world_info option')].find(o => o.textContent === "
                    + jsString(BOOK) + ").value").asText();
            page.click("#world_info + .select2-container .select2-selection");
            String option = ".select2-results__option[id^=\"select2-world_info-result-\"][id$=\"-" + value + "\"]";
            page.waitFor("document.querySelector(" + jsString(option) + ") !== null", STEP_TIMEOUT);
            page.click(option);
            page.waitFor("$('#world_info').find(':selected').toArray().some(o => o.textContent === " + jsString(BOOK) + ")", STEP_TIMEOUT);
            awaitFile("settings.json", text -> JsJson.parse(text).at("/world_info_settings/world_info/globalSelect").toString()
                    .equals("[\"" + BOOK + "\"]"));
            StUi.closeDrawer(page, "WI-SP-button");
            StUi.assertClean(page, "Activating the lorebook");
        }

        /** Without its keyword the entry stays out of the prompt; with it the entry is in. */
        private void chat() {
            StUi.openDrawer(page, "rightNavHolder");
            page.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: " + CHARACTER + "\"])");
            page.waitFor(CONTEXT + ".chat.length === 1 && " + CONTEXT + ".characterId !== undefined", STEP_TIMEOUT);
            page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
            StUi.closeDrawer(page, "rightNavHolder");
            send("Good morning, how are you?", 1);
            assertFalse(prompt().contains(CONTENT), "no keyword, no entry: " + prompt());
            send("What do you know about the old " + KEYWORD + "?", 2);
            assertTrue(prompt().contains(CONTENT), "the entry is in the prompt: " + prompt());
            StUi.assertClean(page, "Chatting");
        }

        private void send(String text, int reply) {
            page.type("#send_textarea", text);
            page.click("#send_but");
            page.waitFor(CONTEXT + ".chat.at(-1).mes === " + jsString(MockCompletionServer.replyText(reply))
                    + " && !$('#mes_stop').is(':visible')", STEP_TIMEOUT);
            page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        }

        /** Every message text of the last completion request the backend received. */
        private String prompt() {
            StringBuilder text = new StringBuilder();
            for (JsonNode message : mock.lastCall("/v1/chat/completions").json().get("messages")) {
                text.append(message.path("content").asText()).append('\n');
            }
            return text.toString();
        }

        /** After a reload the book is listed and still active, and the editor shows its entry. */
        private void reloadAndCheck() {
            page.reload();
            StUi.boot(page);
            page.waitFor("$('#world_info').find(':selected').toArray().some(o => o.textContent === " + jsString(BOOK) + ")", STEP_TIMEOUT);
            StUi.openDrawer(page, "WI-SP-button");
            int index = page.eval("[...document.querySelectorAll('#world_editor_select option')].find(o => o.textContent === "
                    + jsString(BOOK) + ")?.value ?? ''").asInt(-1);
            assertTrue(index >= 0, "the book is listed: " + page.report());
            page.click("#world_editor_select + .select2-container .select2-selection");
            String option = ".select2-results__option[id^=\"select2-world_editor_select-result-\"][id$=\"-" + index + "\"]";
            page.waitFor("document.querySelector(" + jsString(option) + ") !== null", STEP_TIMEOUT);
            page.click(option);
            page.waitFor("document.querySelectorAll(" + jsString(ENTRY) + ").length === 1", STEP_TIMEOUT);
            page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
            page.click(ENTRY + " .inline-drawer-toggle");
            page.awaitVisible(ENTRY + " textarea[name=\"content\"]");
            assertEquals(CONTENT, page.eval("document.querySelector(" + jsString(ENTRY + " textarea[name=\"content\"]") + ").value").asText());
            assertEquals(KEYWORD, page.eval("document.querySelector(" + jsString(ENTRY + " textarea[name=\"key\"]") + ").value").asText());
            StUi.closeDrawer(page, "WI-SP-button");
            StUi.assertClean(page, "Reloading");
        }

        /** Waits until the file exists and its text passes the check (debounced saves land a moment later). */
        private void awaitFile(String file, java.util.function.Predicate<String> check) {
            long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
            while (!(files.exists(file) && check.test(files.read(file)))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(file + " was not saved as expected:\n"
                            + (files.exists(file) ? files.read(file) : "(missing)") + "\n" + page.report());
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError(e);
                }
            }
            page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        }
    }
}
