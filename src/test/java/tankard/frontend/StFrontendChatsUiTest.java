package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;

/**
 * ST's "Manage chat files" dialog against Tankard in a real browser: it lists a character's chats (search),
 * filters them by message text, renames, exports and deletes one; its Backups view lists, shows, restores
 * and deletes a chat backup. Needs an ST install: run with
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendChatsUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendChatsUiTest {
    private static final Duration STEP_TIMEOUT = StUi.STEP_TIMEOUT;
    private static final String BLOCKS = "#select_chat_div .select_chat_block_wrapper";
    private static final String OLD_TALE = "{\"chat_metadata\":{\"integrity\":\"0c0ffee0-0000-4000-8000-000000000001\"},"
            + "\"user_name\":\"unused\",\"character_name\":\"unused\"}\n"
            + "{\"name\":\"Keeper\",\"is_user\":false,\"send_date\":\"2025-01-02T10:00:00.000Z\",\"mes\":\"The lighthouse is dark tonight.\",\"extra\":{}}";

    private static final String BACKUP = "chat_keeper_20250102-100000.jsonl";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void manageChatFilesListsSearchesRenamesExportsAndDeletes() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.boot(page);
            String avatar = firstCharacter(page);
            UserFiles files = server.files();
            String folder = "chats/" + avatar.substring(0, avatar.lastIndexOf('.'));
            openCharacter(page, avatar, files, folder);
            files.write(folder + "/Old tale.jsonl", OLD_TALE);
            String backup = "backups/" + BACKUP;
            files.write(backup, OLD_TALE);

            StUi.withScreenshot(page, "st-chats-1-list", () -> {
                page.click("#options_button");
                page.click("#option_select_chat");
                awaitBlocks(page, 2);
            });
            StUi.withScreenshot(page, "st-chats-2-search", () -> {
                page.type("#select_chat_search", "LIGHTHOUSE dark");
                awaitBlocks(page, 1);
                assertEquals("Old tale", page.eval("document.querySelector('" + BLOCKS + " .select_chat_block_filename').textContent").asText());
                page.eval("$('#select_chat_search').val('').trigger('input'), true");
                awaitBlocks(page, 2);
            });
            StUi.withScreenshot(page, "st-chats-3-rename", () -> {
                int before = page.responses().size();
                page.click(block("Old tale") + " .renameChatButton");
                page.awaitVisible("dialog[open] .popup-input");
                page.eval("document.querySelector('dialog[open] .popup-input').value = '', true");
                page.type("dialog[open] .popup-input", "New tale");
                page.click("dialog[open] .popup-button-ok");
                assertEquals(200, page.awaitResponse(before, r -> StUi.hasPath(r, "/api/chats/rename"), STEP_TIMEOUT).status());
                page.waitFor("document.querySelector(" + jsString(block("New tale")) + ") !== null", STEP_TIMEOUT);
                assertFalse(files.exists(folder + "/Old tale.jsonl"));
                assertEquals(OLD_TALE, files.read(folder + "/New tale.jsonl"), "renamed byte for byte");
            });
            StUi.withScreenshot(page, "st-chats-4-export", () -> {
                int before = page.responses().size();
                page.click(block("New tale") + " .exportChatButton");
                Browser.Response export = page.awaitResponse(before, r -> StUi.hasPath(r, "/api/chats/export"), STEP_TIMEOUT);
                assertEquals(200, export.status());
                JsonNode text = page.eval("fetch('/api/chats/export', {method: 'POST', headers: SillyTavern.getContext()"
                        + ".getRequestHeaders(), body: JSON.stringify({avatar_url: " + jsString(avatar) + ", file: 'New tale.jsonl',"
                        + " exportfilename: 'New tale.txt', format: 'txt'})}).then(r => r.json())");
                assertEquals("Keeper: The lighthouse is dark tonight.\n\n", text.path("result").asText(), JsJson.compact(text));
            });
            StUi.withScreenshot(page, "st-chats-5-delete", () -> {
                int before = page.responses().size();
                page.click(block("New tale") + " .PastChat_cross");
                page.awaitVisible("dialog[open] .popup-button-ok");
                page.click("dialog[open] .popup-button-ok");
                assertEquals(200, page.awaitResponse(before, r -> StUi.hasPath(r, "/api/chats/delete"), STEP_TIMEOUT).status());
                page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
                assertFalse(files.exists(folder + "/New tale.jsonl"));
                assertEquals(1, files.chatNames(folder).size(), "the character's own chat is kept");
                StUi.assertClean(page, "Managing chat files");
            });
            browseBackups(page, files, folder, backup);
        }
    }

    /** The Backups view of the same dialog: lists a backup, shows it, restores it as a new chat, deletes it. */
    private static void browseBackups(Browser.Page page, UserFiles files, String folder, String backup) {
        String item = "[data-test-backup]";
        StUi.withScreenshot(page, "st-chats-6-backups", () -> {
            page.click("button.menu_button:has(.fa-box-open)");
            markBackup(page);
            String info = page.eval("document.querySelector('" + item + " .chatBackupsListItemInfo').textContent").asText();
            assertTrue(info.endsWith("(" + OLD_TALE.length() + "B, 1 💬)"), info);
            assertTrue(page.eval("document.querySelectorAll('.chatBackupsListItem').length").asInt() >= 2,
                    "the backup of the greeting chat is listed too");
        });
        StUi.withScreenshot(page, "st-chats-7-backup-view", () -> {
            page.click(item + " .fa-eye");
            page.awaitVisible("dialog[open] textarea");
            String text = page.eval("document.querySelector('dialog[open] textarea').value").asText();
            assertTrue(text.startsWith("Keeper [") && text.endsWith("]\nThe lighthouse is dark tonight."), text);
            page.click("dialog[open] .popup-button-ok");
            page.waitFor("document.querySelector('dialog[open]') === null", STEP_TIMEOUT);
        });
        StUi.withScreenshot(page, "st-chats-8-backup-restore", () -> {
            int before = page.responses().size();
            page.click(item + " .fa-rotate-left");
            assertEquals(200, page.awaitResponse(before, r -> StUi.hasPath(r, "/api/backups/chat/download"), STEP_TIMEOUT).status());
            assertEquals(200, page.awaitResponse(before, r -> StUi.hasPath(r, "/api/chats/import"), STEP_TIMEOUT).status());
            page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
            assertEquals(2, files.chatNames(folder).size(), "restored as a new chat of the character");
            awaitBlocks(page, 2);
        });
        StUi.withScreenshot(page, "st-chats-9-backup-delete", () -> {
            markBackup(page); // the restore refreshed the list
            int before = page.responses().size();
            page.click(item + " .fa-trash");
            page.awaitVisible("dialog[open] .popup-button-ok");
            page.click("dialog[open] .popup-button-ok");
            assertEquals(200, page.awaitResponse(before, r -> StUi.hasPath(r, "/api/backups/chat/delete"), STEP_TIMEOUT).status());
            page.waitFor("document.querySelector('" + item + "') === null", STEP_TIMEOUT);
            assertFalse(files.exists(backup));
            StUi.assertClean(page, "Browsing chat backups");
        });
    }

    /** Waits for the backup's entry in the Backups list and marks it {@code data-test-backup}. */
    private static void markBackup(Browser.Page page) {
        page.waitFor("(() => { const e = [...document.querySelectorAll('.chatBackupsListItem')].find(e =>"
                + " e.querySelector('.chatBackupsListItemName').textContent === " + jsString(BACKUP) + ");"
                + " e?.setAttribute('data-test-backup', ''); return !!e; })()", STEP_TIMEOUT);
    }

    /** The avatar of the first character in the character list. */
    private static String firstCharacter(Browser.Page page) {
        StUi.openDrawer(page, "rightNavHolder");
        String title = page.eval("document.querySelector('#rm_print_characters_block .character_select .avatar').title").asText();
        return title.substring(title.lastIndexOf("File: ") + "File: ".length());
    }

    /** Opens the character; ST saves its first chat with the greeting. */
    private static void openCharacter(Browser.Page page, String avatar, UserFiles files, String folder) {
        StUi.withScreenshot(page, "st-chats-0-open", () -> {
            page.click("#rm_print_characters_block .character_select:has(.avatar[title$=" + jsString("File: " + avatar) + "])");
            page.waitFor("document.querySelector('#chat .mes[mesid=\"0\"]') !== null", STEP_TIMEOUT);
            page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
            assertEquals(1, files.chatNames(folder).size(), "the first chat was saved");
        });
    }

    private static void awaitBlocks(Browser.Page page, int count) {
        page.waitFor("document.querySelectorAll(" + jsString(BLOCKS) + ").length === " + count, STEP_TIMEOUT);
    }

    /** The dialog's entry for a chat, found by its file name (without extension). */
    private static String block(String chat) {
        return ".select_chat_block_wrapper:has(.select_chat_block[file_name=" + jsString(chat) + "])";
    }

}
