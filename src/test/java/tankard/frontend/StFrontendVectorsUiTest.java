package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;

/**
 * The acceptance of ST's Vector Storage on Tankard in a real browser, through ST's own frontend and its own
 * extension (ST: public/scripts/extensions/vectors/index.js), with its default source "Local (Transformers)", which
 * Tankard computes in process:
 * <ol>
 * <li>chat messages: the setting is switched on in the extension's panel, a 300-message chat
 * ({@code compat-tests/chats/vectors-lighthouse.jsonl}) is vectorized with "Vectorize All", "View Stats" shows as
 * many hashes as {@code /api/vector/list} holds, a question about the chat's second message (far beyond the
 * prompt's context budget) brings that message into the prompt the mock backend receives, and "Purge Vectors"
 * empties the index;</li>
 * <li>a Data Bank file ({@code compat-tests/vectors/harbor-almanac.txt}) uploaded through the Data Bank dialog:
 * not in the prompt while the file setting is off; with it on, the file is chunked and vectorized and the chunk
 * that answers the question is in the prompt, not the whole file;</li>
 * <li>a lorebook of vectorized entries ({@code compat-tests/vectors/orchard-lore.json}, active for all chats) whose
 * keywords the question does not contain: the entry stays out while the World Info setting is off and comes in
 * once it is on.</li>
 * </ol>
 * Needs an ST install: {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendVectorsUiTest}.
 * Screenshots go to {@code target/ui/}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendVectorsUiTest {
    private static final Duration STEP_TIMEOUT = StUi.STEP_TIMEOUT;
    /** 300 inserts of one message each (the transformers source embeds one at a time in ST) on a busy machine. */
    private static final Duration VECTORIZE_TIMEOUT = Duration.ofMinutes(3);
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String CHARACTER = "default_Seraphina.png";
    private static final String CHAT = "Lighthouse";
    private static final String BOOK = "Orchard Lore";
    private static final Path FIXTURES = Path.of("compat-tests").toAbsolutePath();
    private static final Path CHAT_FILE = FIXTURES.resolve("chats/vectors-lighthouse.jsonl");
    private static final Path ALMANAC = FIXTURES.resolve("vectors/harbor-almanac.txt");
    private static final Path LOREBOOK = FIXTURES.resolve("vectors/orchard-lore.json");

    /** The chat's second message, the only one about the telescope (ST's prompt line: "name: text"). */
    private static final String TELESCOPE = "Tester: Before I forget: my grandfather Aldous was the lighthouse keeper"
            + " on Skerrow Rock for forty years, and he left me his brass telescope, the one with a dent from the night"
            + " he climbed to the lamp room in a gale.";
    private static final String TELESCOPE_QUESTION = "Tell me again about my grandfather's brass telescope from the"
            + " lighthouse on Skerrow Rock.";
    private static final String MILL_QUESTION = "On which day does the tide mill at Quillon Ferry grind barley, and"
            + " what colour is the ink of the miller's ledger?";
    private static final String ARCHIVE_QUESTION = "Who keeps watch over the collection of preserved butterflies"
            + " under the observatory?";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void vectorStorageBringsOldMessagesDataBankChunksAndLorebookEntriesIntoThePrompt() throws IOException {
        List<String> chat = Files.readAllLines(CHAT_FILE).stream().skip(1).map(line -> JsJson.parse(line).get("mes").asText()).toList();
        String almanac = Files.readString(ALMANAC);
        List<String> paragraphs = List.of(almanac.strip().split("\n\n"));
        String mill = paragraphs.stream().filter(p -> p.startsWith("The tide mill")).findFirst().orElseThrow();
        JsonNode book = JsJson.parse(Files.readAllBytes(LOREBOOK));
        List<String> entries = new ArrayList<>();
        book.get("entries").forEach(entry -> {
            entries.add(entry.get("content").asText());
            entry.get("key").forEach(key -> assertFalse(ARCHIVE_QUESTION.toLowerCase().contains(key.asText()),
                    "no keyword of the lorebook in the question: " + key));
        });
        String archive = entries.get(0);
        assertEquals(300, chat.size());
        assertTrue(("Tester: " + chat.get(1)).equals(TELESCOPE) && archive.startsWith("The Glasswing Archive"));

        try (TestServer server = StUi.startTankard(stDir);
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             Browser browser = Browser.launch()) {
            StUi.writeChatSettings(stDir, server.files(), mock, false);
            UserFiles user = server.files();
            user.write("chats/" + CHARACTER.substring(0, CHARACTER.lastIndexOf('.')) + "/" + CHAT + ".jsonl",
                    Files.readAllBytes(CHAT_FILE));
            user.write("worlds/" + BOOK + ".json", Files.readAllBytes(LOREBOOK));
            StUi.changeSettings(user, settings -> // "Active World(s) for all chats", as the World Info panel saves it
                    ((ObjectNode) settings.get("world_info_settings").get("world_info")).putArray("globalSelect").add(BOOK));

            Run run = new Run(browser.newPage(), mock);
            run.page.navigate(server.url("/"));
            run.step("0-boot", () -> {
                StUi.boot(run.page);
                StUi.assertClean(run.page, "Boot");
            });
            run.step("1-enable-chats", run::enableForChats);
            run.step("2-open-chat", run::openTheLongChat);
            run.step("3-vectorize-all", () -> run.vectorizeAll(chat.size()));
            run.step("4-view-stats", () -> run.viewStats(chat.size()));
            run.step("5-old-message-in-prompt", () -> run.askAboutTheTelescope(chat));
            run.step("6-purge", run::purge);
            run.step("7-data-bank-upload", run::uploadToTheDataBank);
            run.step("8-data-bank-in-prompt", () -> run.askAboutTheMill(mill, paragraphs));
            run.step("9-lorebook-in-prompt", () -> run.askAboutTheArchive(archive, entries));
        }
    }

    /** The steps in one browser tab. */
    private static final class Run {
        private final Browser.Page page;
        private final MockCompletionServer mock;
        private int replies;

        Run(Browser.Page page, MockCompletionServer mock) {
            this.page = page;
            this.mock = mock;
        }

        void step(String id, Runnable steps) {
            StUi.withScreenshot(page, "st-vectors-" + id, steps);
        }

        /** The Vector Storage panel in the Extensions drawer, its source the default "Local (Transformers)". */
        private void openVectorSettings() {
            StUi.openDrawer(page, "extensions-settings-button");
            if (!page.eval("$('#vectors_source').is(':visible')").asBoolean()) {
                page.click(".vectors_settings .inline-drawer-toggle");
                page.waitFor("$('#vectors_source').is(':visible')", STEP_TIMEOUT);
            }
        }

        void enableForChats() {
            openVectorSettings();
            assertEquals("transformers", page.eval("$('#vectors_source').val()").asText());
            assertFalse(page.eval("$('#vectors_enabled_chats').prop('checked')").asBoolean());
            check("#vectors_enabled_chats", "enabled_chats");
            page.awaitVisible("#vectors_vectorize_all");
            StUi.closeDrawer(page, "extensions-settings-button");
        }

        /** Clicks the checkbox on and waits for the extension's settings to say so. */
        private void check(String checkbox, String setting) {
            page.click(checkbox);
            page.waitFor(CONTEXT + ".extensionSettings.vectors?." + setting + " === true", STEP_TIMEOUT);
        }

        /** The character, then the fixture chat picked in "Manage chat files". */
        void openTheLongChat() {
            StUi.openDrawer(page, "rightNavHolder");
            page.click("#rm_print_characters_block .character_select:has(.avatar[title$=" + jsString("File: " + CHARACTER) + "])");
            page.waitFor(CONTEXT + ".chat.length === 1 && " + CONTEXT + ".characterId !== undefined", STEP_TIMEOUT);
            page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
            StUi.closeDrawer(page, "rightNavHolder");
            page.click("#options_button");
            page.click("#option_select_chat");
            String block = ".select_chat_block[file_name=" + jsString(CHAT) + "]";
            page.waitFor("document.querySelector(" + jsString(block) + ") !== null", STEP_TIMEOUT);
            page.click(block);
            page.waitFor(CONTEXT + ".getCurrentChatId() === " + jsString(CHAT) + " && " + CONTEXT + ".chat.length === 300", STEP_TIMEOUT);
            page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
            page.eval("document.querySelector('dialog[open] .popup-button-close, dialog[open] .popup-button-ok')?.click(), true");
            page.waitFor("document.querySelector('dialog[open]') === null", STEP_TIMEOUT);
            assertEquals(List.of(), hashes(CHAT), "nothing vectorized yet");
            StUi.assertClean(page, "Opening the chat");
        }

        /** "Vectorize All": one insert per message (the source embeds one text a call), until its progress line goes. */
        void vectorizeAll(int messages) {
            openVectorSettings();
            int before = page.responses().size();
            page.click("#vectors_vectorize_all");
            page.waitUntil(() -> page.responses().stream().skip(before)
                            .filter(r -> StUi.hasPath(r, "/api/vector/insert") && r.status() == 200).count() >= messages,
                    VECTORIZE_TIMEOUT, () -> "not every message was inserted: " + page.responses().stream().skip(before)
                            .filter(r -> StUi.hasPath(r, "/api/vector/insert")).count() + " inserts");
            page.waitFor("!$('#vectorize_progress').is(':visible')", STEP_TIMEOUT);
            page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
            assertTrue(page.responses().stream().skip(before).filter(r -> r.url().contains("/api/vector/")).allMatch(r -> r.status() == 200),
                    page.report());
            assertEquals(messages, hashes(CHAT).size(), "one item per message");
            StUi.assertClean(page, "Vectorize All");
        }

        /** "View Stats": ST's toast counts the collection's hashes (ST: vectors/index.js, onViewStatsClick). */
        void viewStats(int messages) {
            page.eval("toastr.clear(), true");
            page.click("#vectors_view_stats");
            page.waitFor(TOASTS + ".includes('Total hashes')", STEP_TIMEOUT);
            String toast = page.eval(TOASTS).asText();
            int listed = hashes(CHAT).size();
            assertEquals(listed, number(toast, "Total hashes: (\\d+)"), toast);
            assertEquals(messages, number(toast, "Unique hashes: (\\d+)"), toast);
            // and it marks the vectorized messages on screen: all that are shown
            page.waitFor("document.querySelectorAll('#chat .mes.vectorized').length > 0", STEP_TIMEOUT);
            assertEquals(page.eval("document.querySelectorAll('#chat .mes').length").asInt(),
                    page.eval("document.querySelectorAll('#chat .mes.vectorized').length").asInt());
            StUi.closeDrawer(page, "extensions-settings-button"); // the toast stays for the screenshot
        }

        /** The chat's second message, far outside the context budget, comes back into the prompt as a past event. */
        void askAboutTheTelescope(List<String> chat) {
            page.eval("toastr.clear(), true");
            send(TELESCOPE_QUESTION);
            String prompt = prompt();
            // ST's template "Past events:\n{{text}}", the most relevant message last (ST: vectors/index.js, rearrangeChat)
            String pastEvents = prompt.substring(Math.max(0, prompt.indexOf("Past events:\n")));
            assertTrue(prompt.contains("Past events:\n") && pastEvents.contains(TELESCOPE + "\n"),
                    "the old message is in the prompt:\n" + prompt);
            assertEquals(1, prompt.split(Pattern.quote(TELESCOPE), -1).length - 1, "once:\n" + prompt);
            // not because the whole chat fits: an unrelated message of the same age is not in the prompt
            assertFalse(prompt.contains(chat.get(3)), "the early chat is outside the context budget");
            assertTrue(prompt.contains(chat.get(299)), "the last message is in the prompt");
            StUi.assertClean(page, "Asking about the telescope");
        }

        /** The question and the reply were vectorized as they came (ST syncs on each message); "Purge Vectors" deletes all. */
        void purge() {
            awaitHashes(CHAT, 302);
            openVectorSettings();
            page.eval("toastr.clear(), true");
            int before = page.responses().size();
            page.click("#vectors_purge");
            assertEquals(200, page.awaitResponse(before, r -> StUi.hasPath(r, "/api/vector/purge"), STEP_TIMEOUT).status());
            page.waitFor(TOASTS + ".includes('Vector index purged')", STEP_TIMEOUT);
            page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
            assertEquals(List.of(), hashes(CHAT));
            StUi.assertClean(page, "Purging"); // the drawer and the toast stay for the screenshot
        }

        /** A new chat, and the almanac added to the global Data Bank with the dialog's "Add" > "File". */
        void uploadToTheDataBank() {
            page.eval("toastr.clear(), true");
            StUi.closeDrawer(page, "extensions-settings-button");
            page.click("#options_button");
            page.click("#option_start_new_chat");
            page.awaitVisible("dialog[open] .popup-button-ok");
            page.click("dialog[open] .popup-button-ok");
            page.waitFor(CONTEXT + ".getCurrentChatId() !== " + jsString(CHAT) + " && " + CONTEXT + ".chat.length === 1", STEP_TIMEOUT);
            page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);

            page.click("#extensionsMenuButton");
            page.click("#manageAttachments");
            page.awaitVisible("dialog[open] .globalAttachmentsTitle .openActionModalButton");
            page.click("dialog[open] .globalAttachmentsTitle .openActionModalButton");
            int before = page.responses().size();
            page.chooseFiles(() -> page.click("dialog[open] .actionButtonsModal .actionButton:has(.actionButtonText:text-is(\"File\"))"), ALMANAC);
            assertEquals(200, page.awaitResponse(before, r -> StUi.hasPath(r, "/api/files/upload"), STEP_TIMEOUT).status());
            page.waitFor("document.querySelectorAll('dialog[open] .globalAttachmentsList .attachmentListItem').length === 1", STEP_TIMEOUT);
            page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
            page.click("dialog[open] .popup-button-ok");
            page.waitFor("document.querySelector('dialog[open]') === null", STEP_TIMEOUT);
            assertEquals("harbor-almanac.txt", page.eval(CONTEXT + ".extensionSettings.attachments[0].name").asText());
            assertClean("Uploading to the Data Bank");
        }

        /**
         * Off, the file is not in the prompt; on (with 500-character chunks: one a paragraph), ST vectorizes it when
         * generating and puts the best chunks (at most 5 by default) in the prompt: the mill's among them.
         */
        void askAboutTheMill(String mill, List<String> paragraphs) {
            send(MILL_QUESTION);
            assertFalse(prompt().contains(mill), "files are not enabled yet:\n" + prompt());

            openVectorSettings();
            check("#vectors_enabled_files", "enabled_files");
            page.type("#vectors_chunk_size_db", "500");
            page.waitFor(CONTEXT + ".extensionSettings.vectors.chunk_size_db === 500", STEP_TIMEOUT);
            StUi.closeDrawer(page, "extensions-settings-button");
            send(MILL_QUESTION);
            String prompt = prompt();
            assertTrue(prompt.contains("Related information:\n") && prompt.contains(mill), "the mill's chunk is in the prompt:\n" + prompt);
            long inPrompt = paragraphs.stream().filter(prompt::contains).count();
            assertTrue(inPrompt <= 5, inPrompt + " of the file's " + paragraphs.size() + " chunks are in the prompt:\n" + prompt);

            String url = page.eval(CONTEXT + ".extensionSettings.attachments[0].url").asText();
            String collection = page.eval("import('/scripts/utils.js').then(utils => 'file_' + utils.getStringHash("
                    + jsString(url) + "))").asText();
            assertEquals(paragraphs.size(), hashes(collection).size(), "one item per paragraph of " + collection);
            assertClean("Asking about the mill");
        }

        /** Off, the vectorized entry (no keyword of it in the question) stays out; on, it is activated by similarity. */
        void askAboutTheArchive(String archive, List<String> entries) {
            send(ARCHIVE_QUESTION);
            assertFalse(prompt().contains(archive), "World Info is not enabled yet:\n" + prompt());

            openVectorSettings();
            check("#vectors_enabled_world_info", "enabled_world_info");
            StUi.closeDrawer(page, "extensions-settings-button");
            send(ARCHIVE_QUESTION);
            String prompt = prompt();
            assertTrue(prompt.contains(archive), "the archive's entry is in the prompt:\n" + prompt);
            String collection = page.eval("import('/scripts/utils.js').then(utils => 'world_' + utils.getStringHash("
                    + jsString(BOOK) + "))").asText();
            assertEquals(entries.size(), hashes(collection).size(), "one item per entry of " + collection);
            long inPrompt = entries.stream().filter(prompt::contains).count();
            assertTrue(inPrompt < entries.size(), inPrompt + " of " + entries.size() + " entries are in the prompt:\n" + prompt);
            assertClean("Asking about the archive");
        }

        /**
         * As {@link StUi#assertClean}, except for the Data Bank dialog's probes of ST's Fandom scraper plugin, which
         * ST answers 404 as well when the plugin is not installed (ST: public/scripts/scrapers.js, FandomScraper).
         */
        private void assertClean(String step) {
            List<Browser.FailedResponse> failed = page.failedResponses().stream()
                    .filter(r -> !(r.status() == 404 && r.url().contains("/api/plugins/fandom/probe"))).toList();
            List<Browser.ConsoleError> errors = page.consoleErrors().stream()
                    .filter(e -> !("browser".equals(e.source()) && e.text().contains("/api/plugins/fandom/probe"))).toList();
            assertTrue(failed.isEmpty() && errors.isEmpty(), step + " was not clean:\n" + page.report());
        }

        private void send(String text) {
            int reply = ++replies;
            page.type("#send_textarea", text);
            page.click("#send_but");
            page.waitFor(CONTEXT + ".chat.at(-1).mes === " + jsString(MockCompletionServer.replyText(reply))
                    + " && !$('#mes_stop').is(':visible')", STEP_TIMEOUT);
            page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
        }

        /** Every message text of the last completion request the backend received. */
        private String prompt() {
            StringBuilder text = new StringBuilder();
            for (JsonNode message : mock.lastCall("/v1/chat/completions").json().get("messages")) {
                text.append(message.path("content").asText()).append('\n');
            }
            return text.toString();
        }

        /** What {@code /api/vector/list} holds for the collection, asked as ST's extension asks. */
        private List<Long> hashes(String collectionId) {
            JsonNode list = page.eval("fetch('/api/vector/list', {method: 'POST', headers: " + CONTEXT + ".getRequestHeaders(),"
                    + " body: JSON.stringify({collectionId: " + jsString(collectionId) + ", source: 'transformers'})})"
                    + ".then(async r => r.ok ? r.json() : 'HTTP ' + r.status + ' ' + await r.text())");
            assertTrue(list.isArray(), "/api/vector/list: " + list);
            List<Long> hashes = new ArrayList<>();
            list.forEach(hash -> hashes.add(hash.asLong()));
            return hashes;
        }

        /** Waits until the collection holds that many items. */
        private void awaitHashes(String collectionId, int count) {
            long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
            int held;
            while ((held = hashes(collectionId).size()) != count) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(collectionId + " holds " + held + " items, not " + count + "\n" + page.report());
                }
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP_TIMEOUT);
            }
        }

        private static final String TOASTS = "[...document.querySelectorAll('#toast-container .toast')].map(t => t.textContent).join('\\n')";

        private static int number(String text, String regex) {
            Matcher matcher = Pattern.compile(regex).matcher(text);
            assertTrue(matcher.find(), regex + " in " + text);
            return Integer.parseInt(matcher.group(1));
        }
    }
}
