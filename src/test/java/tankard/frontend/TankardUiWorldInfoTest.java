package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tankard's world info editor (public/js/worldinfo.js): books and entries stored as ST's frontend stores them, and
 * the links (global, the character's, the chat's) that make the server's engine put an entry whose key a message
 * hits into the backend's request.
 */
class TankardUiWorldInfoTest {
    private static final Duration STEP = OwnUi.STEP;
    private static final String CHAT = "Wren - harbour";
    private static final String CHAT_PATH = "chats/default_Wren/" + CHAT + ".jsonl";
    private static final String SAVED = "document.querySelector('#wiStatus')?.textContent === 'All changes saved'";
    // ST 1.18.0 world-info.js newWorldInfoEntryTemplate's keys, and the uid createWorldInfoEntry adds
    private static final Set<String> ST_ENTRY_KEYS = new TreeSet<>(List.of("uid", "key", "keysecondary", "comment", "content",
            "constant", "vectorized", "selective", "selectiveLogic", "addMemo", "order", "position", "disable", "ignoreBudget",
            "excludeRecursion", "preventRecursion", "matchPersonaDescription", "matchCharacterDescription",
            "matchCharacterPersonality", "matchCharacterDepthPrompt", "matchScenario", "matchCreatorNotes",
            "delayUntilRecursion", "probability", "useProbability", "depth", "outletName", "group", "groupOverride",
            "groupWeight", "scanDepth", "caseSensitive", "matchWholeWords", "useGroupScoring", "automationId", "role",
            "sticky", "cooldown", "delay", "triggers"));

    private static void writeChat(TestServer server) {
        server.files().write(CHAT_PATH, String.join("\n",
                "{\"user_name\":\"User\",\"character_name\":\"Wren\",\"create_date\":\"2026-12-01@10h00m00s000ms\","
                        + "\"chat_metadata\":{\"integrity\":\"0d6b2c8e-9a51-4f0e-8d7a-1e2f3a4b5c6d\"}}",
                "{\"name\":\"Wren\",\"is_user\":false,\"is_system\":false,\"send_date\":\"2026-12-01T10:00:00.000Z\","
                        + "\"mes\":\"Welcome to the harbour.\",\"extra\":{}}"));
    }

    /** A session with Wren's chat CHAT, connected to the mock. */
    private static OwnUi.Session connectedWithChat() throws IOException {
        OwnUi.Session session = OwnUi.Session.start("");
        writeChat(session.server());
        session.page().navigate(session.server().url("/#/connection"));
        OwnUi.boot(session.page());
        OwnUi.connect(session.page(), session.mock());
        return session;
    }

    /** A POST from the page to one of the server's routes; answers the JSON reply. */
    private static JsonNode call(Browser.Page page, String path, String body) {
        return JsJson.parse(send(page, path, body));
    }

    /** The same, answering the reply's text. */
    private static String send(Browser.Page page, String path, String body) {
        String answer = page.eval("(async () => {"
                + " const token = (await (await fetch('/csrf-token')).json()).token;"
                + " const r = await fetch(" + OwnUi.js(path) + ", {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': token}, body: " + OwnUi.js(body) + "});"
                + " return r.status + ' ' + await r.text(); })()").asText();
        assertTrue(answer.startsWith("200"), path + " answered: " + answer);
        return answer.substring(4);
    }

    private static JsonNode book(Browser.Page page, String name) {
        return call(page, "/api/worldinfo/get", "{\"name\":" + OwnUi.js(name) + "}");
    }

    /** A send in CHAT through the server's engine; answers the messages of the backend's request. */
    private static String engineSend(OwnUi.Session session, String text) {
        send(session.page(), "/api/tankard/generate", "{\"avatar_url\":\"default_Wren.png\",\"file_name\":" + OwnUi.js(CHAT)
                + ",\"action\":\"send\",\"text\":" + OwnUi.js(text) + "}");
        return JsJson.compact(session.mock().lastCall("/v1/chat/completions").json().path("messages"));
    }

    private static JsonNode settings(TestServer server) {
        return JsJson.parse(server.files().bytes("settings.json"));
    }

    /** Makes a book with the dialog's name (also for StFrontendOwnUiWorldInfoInterchangeTest). */
    static void newBook(Browser.Page page, String name) {
        page.click("#wiNewBook");
        page.waitFor("document.querySelector('dialog[open] #wiBookName') !== null", STEP);
        page.eval("document.querySelector('#wiBookName').value = " + OwnUi.js(name));
        page.click("dialog button[value='ok']");
        page.waitFor("document.querySelector('#wiBook')?.value === " + OwnUi.js(name) + " && document.querySelector('#wiEntries') !== null", STEP);
    }

    /** Ticks or unticks one of the links and waits for the toast that says it was saved. */
    static void tick(Browser.Page page, String box, String toast) {
        page.click(box);
        page.waitFor("document.getElementById('toasts').textContent.includes(" + OwnUi.js(toast) + ")", STEP);
    }

    /** Adds an entry to the open book and types its title, keys and content. */
    static void newEntry(Browser.Page page, String title, String keys, String content) {
        page.click("#wiNewEntry");
        page.waitFor("document.activeElement?.id === 'wiTitle'", STEP);
        page.type("#wiTitle", title);
        page.type("#wiKeys", keys);
        page.type("#wiContent", content);
    }

    private static void fill(Browser.Page page, String selector, String text) {
        page.eval("document.querySelector(" + OwnUi.js(selector) + ").value = ''");
        page.type(selector, text);
    }

    @Test
    void anEntryMadeInTheEditorIsStoredAsStStoresItAndOnceTheBookIsGlobalItsContentReachesTheBackend() throws IOException {
        try (OwnUi.Session session = connectedWithChat()) {
            TestServer server = session.server();
            Browser.Page page = session.page();

            page.click("a[data-nav='worldinfo']");
            page.waitFor("document.querySelector('#wiEmpty') !== null", STEP);
            newBook(page, "Harbour Lore");
            assertEquals("{\"entries\":{}}", JsJson.compact(book(page, "Harbour Lore")), "ST's createNewWorldInfo template");

            StUi.withScreenshot(page, "tankard-worldinfo-entry", () -> {
                newEntry(page, "The lighthouse", "lighthouse, beacon, /lamps{1,2}/i", "The lighthouse keeper of {{char}}'s harbour is named Orla.");
                page.type("#wiSecondary", "storm");
                OwnUi.choose(page, "#wiLogic", "0");
                assertTrue(page.eval("document.querySelector('#wiDepth').closest('label').hidden").asBoolean(), "no depth before a depth position");
                OwnUi.choose(page, "#wiPosition", "4:1");
                assertFalse(page.eval("document.querySelector('#wiDepth').closest('label').hidden").asBoolean());
                fill(page, "#wiDepth", "1");
                fill(page, "#wiOrder", "50");
                fill(page, "#wiProbability", "100");
                page.waitFor(SAVED, STEP);
            });
            assertEquals("The lighthouse lighthouse, beacon, /lamps{1,2}/i", page.eval("document.querySelector('#wiEntries li[data-uid=\"0\"] button').innerText.replace(/\\s+/g, ' ')").asText(),
                    "the row shows the title and keys as typed");
            long saves = page.responses().stream().filter(r -> r.url().endsWith("/api/worldinfo/edit")).count();
            assertTrue(saves <= 3, "the typing did not save the book per keystroke: " + saves + " saves");

            JsonNode entry = book(page, "Harbour Lore").path("entries").path("0");
            Set<String> keys = new TreeSet<>();
            entry.fieldNames().forEachRemaining(keys::add);
            assertEquals(ST_ENTRY_KEYS, keys, "the fields of ST's new entry: " + entry);
            assertEquals(0, entry.path("uid").asInt());
            assertEquals("[\"lighthouse\",\"beacon\",\"/lamps{1,2}/i\"]", JsJson.compact(entry.path("key")), "a regex kept whole, as ST splits keys");
            assertEquals("[\"storm\"]", JsJson.compact(entry.path("keysecondary")));
            assertEquals("The lighthouse", entry.path("comment").asText());
            assertEquals("The lighthouse keeper of {{char}}'s harbour is named Orla.", entry.path("content").asText());
            assertEquals(4, entry.path("position").asInt(), "@depth");
            assertEquals(1, entry.path("role").asInt(), "as the user");
            assertEquals(1, entry.path("depth").asInt());
            assertEquals(50, entry.path("order").asInt());
            assertEquals(0, entry.path("selectiveLogic").asInt());
            assertTrue(entry.path("selective").asBoolean() && entry.path("useProbability").asBoolean()
                    && !entry.path("constant").asBoolean() && !entry.path("disable").asBoolean(), "ST's defaults: " + entry);
            assertEquals(100, entry.path("groupWeight").asInt());
            assertTrue(entry.path("sticky").isNull() && entry.path("scanDepth").isNull(), "ST's null defaults: " + entry);

            assertFalse(engineSend(session, "Is the lighthouse lit in this storm?").contains("Orla"),
                    "a book linked nowhere is not read");
            tick(page, "#wiGlobal", "Linked: every chat");
            JsonNode worldInfoSettings = settings(server).path("world_info_settings");
            assertEquals("[\"Harbour Lore\"]", JsJson.compact(worldInfoSettings.path("world_info").path("globalSelect")));
            assertEquals(2, worldInfoSettings.path("world_info_depth").asInt(), "the other world info settings stay");
            assertTrue(settings(server).has("power_user"), "the rest of settings.json stays");

            String request = engineSend(session, "Is the beacon lit in this storm?");
            assertTrue(request.contains("The lighthouse keeper of Wren's harbour is named Orla."), "the entry, its macro filled: " + request);
            assertFalse(engineSend(session, "Is the beacon lit tonight?").contains("Orla"),
                    "AND ANY: without a secondary key the entry stays out");

            // the activation settings every book is scanned with, where ST keeps them
            page.click("#wiActivation summary");
            tick(page, "#wiSet_case_sensitive", "Activation settings saved");
            page.eval("{ const depth = document.querySelector('#wiSet_depth'); depth.value = '1'; depth.dispatchEvent(new Event('change')); }");
            page.waitFor("document.querySelectorAll('#toasts .toast').length >= 2 && [...document.querySelectorAll('#toasts .toast')]"
                    + ".filter((t) => t.textContent === 'Activation settings saved').length === 2", STEP);
            worldInfoSettings = settings(server).path("world_info_settings");
            assertTrue(worldInfoSettings.path("world_info_case_sensitive").asBoolean());
            assertEquals(1, worldInfoSettings.path("world_info_depth").asInt(), "only the last message is scanned");
            assertEquals(25, worldInfoSettings.path("world_info_budget").asInt(), "the others stay");
            assertEquals("[\"Harbour Lore\"]", JsJson.compact(worldInfoSettings.path("world_info").path("globalSelect")));
            assertFalse(engineSend(session, "Is the BEACON lit in this STORM?").contains("Orla"), "case-sensitive keys, as set");

            // the strategy, disable and delete reach the file too
            page.click("#wiEntries li[data-uid='0'] button.entry");
            page.waitFor("document.querySelector('#wiEntryForm') === null", STEP);
            page.click("#wiEntries li[data-uid='0'] button.entry");
            page.waitFor("document.querySelector('#wiStrategy') !== null", STEP);
            OwnUi.choose(page, "#wiStrategy", "constant");
            page.click("#wiDisabled");
            page.click("#wiEntryForm details.more summary");
            fill(page, "#wiScanDepth", "3");
            OwnUi.choose(page, "#wiCaseSensitive", "true");
            // saved in two goes, each sent late: "All changes saved" must wait for the second too
            OwnUi.sendLate(page, "/api/worldinfo/edit", 1500);
            page.click("#wiSave");
            page.click("#wiExcludeRecursion");
            fill(page, "#wiGroup", "lights");
            fill(page, "#wiSticky", "2");
            page.click("#wiSave");
            page.waitFor(SAVED, STEP);
            assertEquals("The lighthouse constant off", page.eval("document.querySelector('#wiEntries li[data-uid=\"0\"] button').innerText.replace(/\\s+/g, ' ')").asText());
            entry = book(page, "Harbour Lore").path("entries").path("0");
            assertTrue(entry.path("constant").asBoolean() && !entry.path("vectorized").asBoolean() && entry.path("disable").asBoolean(), entry.toString());
            assertEquals(3, entry.path("scanDepth").asInt());
            assertTrue(entry.path("caseSensitive").asBoolean() && entry.path("matchWholeWords").isNull(), "set, and left to the global setting: " + entry);
            assertTrue(entry.path("excludeRecursion").asBoolean() && !entry.path("preventRecursion").asBoolean(), entry.toString());
            assertEquals("lights", entry.path("group").asText());
            assertEquals(2, entry.path("sticky").asInt());
            assertTrue(entry.path("cooldown").isNull(), "an empty timed effect stays null: " + entry);
            assertFalse(engineSend(session, "Is the beacon lit in this storm?").contains("Orla"), "a disabled entry stays out");
            page.click("#wiDeleteEntry");
            page.click("dialog button[value='delete']");
            page.waitFor("document.querySelectorAll('#wiEntries li').length === 0 && " + SAVED, STEP);
            assertEquals("{}", JsJson.compact(book(page, "Harbour Lore").path("entries")), "the entry is gone from the file");
            StUi.assertClean(page, "The entry steps");
        }
    }

    @Test
    void aBookImportedFromTheChatLinksToTheChatAndTheCharacterAndIsRenamedExportedAndDeletedWithItsLinks() throws IOException {
        try (OwnUi.Session session = connectedWithChat()) {
            TestServer server = session.server();
            Browser.Page page = session.page();
            Path file = TestServer.tempDir().resolve("Sea Tales.json");
            Files.writeString(file, "{\"entries\":{\"0\":{\"uid\":0,\"key\":[\"kraken\"],\"keysecondary\":[],\"comment\":\"Kraken\","
                    + "\"content\":\"The kraken sleeps under the pier.\",\"constant\":false,\"selective\":true,\"order\":100,\"position\":1,"
                    + "\"disable\":false,\"probability\":100,\"useProbability\":true,\"depth\":4}}}");

            page.navigate(server.url("/#/chat?avatar=default_Wren.png&file=" + CHAT.replace(" ", "%20")));
            OwnUi.boot(page);
            page.waitFor("document.querySelector('#lorebooks') !== null", STEP);
            page.click("#lorebooks");
            page.waitFor("document.querySelector('#wiEmpty') !== null", STEP);
            page.setInputFiles("#wiImport", file);
            page.waitFor("document.querySelector('#wiBook')?.value === 'Sea Tales' && document.querySelectorAll('#wiEntries li').length === 1", STEP);
            assertEquals("The kraken sleeps under the pier.", book(page, "Sea Tales").path("entries").path("0").path("content").asText());
            assertFalse(engineSend(session, "Tell me of the kraken.").contains("under the pier"), "not linked yet");

            tick(page, "#wiChat", "Linked: this chat");
            assertEquals("Sea Tales", JsJson.parse(server.files().read(CHAT_PATH).lines().findFirst().orElseThrow())
                    .path("chat_metadata").path("world_info").asText(), "ST's chat_metadata.world_info");
            assertTrue(engineSend(session, "Tell me of the kraken.").contains("The kraken sleeps under the pier."), "the chat's lorebook is read");
            tick(page, "#wiChat", "Unlinked: this chat");
            assertFalse(engineSend(session, "Tell me of the kraken.").contains("under the pier"), "unlinked from the chat");
            assertFalse(JsJson.parse(server.files().read(CHAT_PATH).lines().findFirst().orElseThrow()).path("chat_metadata").has("world_info"),
                    "unlinked as ST unlinks: the key deleted");

            tick(page, "#wiCharacterExtra", "Linked: an extra of Wren");
            assertEquals("[{\"name\":\"default_Wren\",\"extraBooks\":[\"Sea Tales\"]}]",
                    JsJson.compact(settings(server).at("/world_info_settings/world_info/charLore")), "ST's charLore");
            assertTrue(engineSend(session, "Tell me of the kraken.").contains("The kraken sleeps under the pier."), "an extra lorebook is read");
            tick(page, "#wiCharacterExtra", "Unlinked: an extra of Wren");
            assertEquals("[]", JsJson.compact(settings(server).at("/world_info_settings/world_info/charLore")), "no item left for Wren");
            assertFalse(engineSend(session, "Tell me of the kraken.").contains("under the pier"), "unlinked as an extra");

            tick(page, "#wiPersona", "Linked: your persona");
            assertEquals("Sea Tales", settings(server).at("/power_user/persona_description_lorebook").asText(), "ST's persona lorebook");
            assertTrue(engineSend(session, "Tell me of the kraken.").contains("The kraken sleeps under the pier."), "the persona's lorebook is read");
            tick(page, "#wiPersona", "Unlinked: your persona");
            assertEquals("", settings(server).at("/power_user/persona_description_lorebook").asText());

            StUi.withScreenshot(page, "tankard-worldinfo-links", () -> {
                tick(page, "#wiCharacter", "Linked: Wren");
            });
            assertEquals("Sea Tales", card(page).path("data").path("extensions").path("world").asText(), "ST's data.extensions.world");
            assertTrue(engineSend(session, "Tell me of the kraken.").contains("The kraken sleeps under the pier."), "the character's lorebook is read");

            tick(page, "#wiGlobal", "Linked: every chat");
            page.click("#wiPersona");
            page.waitFor("document.querySelector('#wiPersona').checked && !document.querySelector('#wiPersona').disabled", STEP);
            page.click("#wiRename");
            page.waitFor("document.querySelector('dialog[open] #wiBookName') !== null", STEP);
            page.eval("document.querySelector('#wiBookName').value = 'Deep Sea Tales'");
            page.click("dialog button[value='ok']");
            page.waitFor("document.querySelector('dialog[open] button[value=\"relink\"]') !== null", STEP);
            assertTrue(page.eval("document.querySelector('dialog[open] p').textContent").asText().contains("Wren"), "ST asks to relink the characters");
            page.click("dialog button[value='relink']");
            page.waitFor("document.querySelector('#wiBook')?.value === 'Deep Sea Tales' && document.querySelectorAll('#wiEntries li').length === 1", STEP);
            List<String> names = new ArrayList<>();
            call(page, "/api/worldinfo/list", "{}").forEach(b -> names.add(b.path("file_id").asText()));
            assertEquals(List.of("Deep Sea Tales"), names, "saved under the new name, the old deleted");
            assertEquals("The kraken sleeps under the pier.", book(page, "Deep Sea Tales").path("entries").path("0").path("content").asText());
            assertEquals("Deep Sea Tales", card(page).path("data").path("extensions").path("world").asText(), "the character's link follows");
            assertEquals("[\"Deep Sea Tales\"]", JsJson.compact(settings(server).path("world_info_settings").path("world_info").path("globalSelect")),
                    "the global link follows");
            assertEquals("Deep Sea Tales", settings(server).at("/power_user/persona_description_lorebook").asText(), "the persona's link follows");
            assertTrue(page.eval("['#wiGlobal', '#wiCharacter', '#wiPersona'].every((s) => document.querySelector(s).checked)").asBoolean());

            page.eval("window.exported = null; { const make = URL.createObjectURL; URL.createObjectURL = (blob) => { blob.text().then((t) => { window.exported = t; }); return make(blob); }; }"
                    + " HTMLAnchorElement.prototype.click = function () { window.exportedName = this.download; };");
            page.click("#wiExport");
            page.waitFor("window.exported !== null", STEP);
            assertEquals("Deep Sea Tales.json", page.eval("window.exportedName").asText());
            assertEquals(JsJson.compact(book(page, "Deep Sea Tales")), JsJson.compact(JsJson.parse(page.eval("window.exported").asText())),
                    "the export is the book as stored");

            page.click("#wiDuplicate");
            page.waitFor("document.querySelector('dialog[open] #wiBookName')?.value === 'Deep Sea Tales (1)'", STEP);
            page.click("dialog button[value='ok']");
            page.waitFor("document.querySelector('#wiBook')?.value === 'Deep Sea Tales (1)' && document.querySelectorAll('#wiEntries li').length === 1", STEP);
            assertEquals(JsJson.compact(book(page, "Deep Sea Tales")), JsJson.compact(book(page, "Deep Sea Tales (1)")), "a copy of the book");
            page.click("#wiDelete");
            page.click("dialog button[value='delete']");
            page.waitFor("document.querySelector('#wiBook')?.value === 'Deep Sea Tales' && document.querySelector('#wiGlobal').checked", STEP);
            assertEquals("[\"Deep Sea Tales\"]", JsJson.compact(settings(server).path("world_info_settings").path("world_info").path("globalSelect")),
                    "deleting the copy leaves the original's links");

            StUi.withScreenshot(page, "tankard-worldinfo-phone", () -> {
                page.setViewport(390, 844);
                page.eval("document.getElementById('toasts').replaceChildren()");
                page.click("#wiEntries li[data-uid='0'] button.entry");
                page.waitFor("document.querySelector('#wiContent') !== null", STEP);
                page.eval("document.querySelector('.page').scrollTop = 0"); // the screenshot shows the books and links
                assertTrue(page.eval("document.documentElement.scrollWidth <= 390"
                        + " && [...document.querySelectorAll('.worldinfo button, .worldinfo input, .worldinfo select, .worldinfo textarea')]"
                        + ".filter((e) => e.offsetParent !== null).every((e) => e.getBoundingClientRect().right <= 390)").asBoolean(),
                        "nothing wider than the phone");
                String small = page.eval("[...document.querySelectorAll('.worldinfo button, .worldinfo select, .worldinfo input:not([type=checkbox]), .worldinfo label.check')]"
                        + ".filter((e) => e.offsetParent !== null && e.getBoundingClientRect().height < 44).map((e) => e.id || e.textContent).join(', ')").asText();
                assertEquals("", small, "touch targets of 44 px");
                String unlabelled = page.eval("[...document.querySelectorAll('.worldinfo input, .worldinfo select, .worldinfo textarea, .worldinfo button')]"
                        + ".filter((e) => !e.hidden && !(e.labels?.length || e.textContent.trim() || e.getAttribute('aria-label'))).map((e) => e.id).join(', ')").asText();
                assertEquals("", unlabelled, "every control is labelled");
            });
            page.setViewport(1280, 800);

            page.click("#wiDelete");
            page.click("dialog button[value='delete']");
            page.waitFor("document.querySelector('#wiEmpty') !== null", STEP);
            assertEquals(0, call(page, "/api/worldinfo/list", "{}").size(), "the book is deleted");
            assertFalse(server.files().exists("worlds/Deep Sea Tales.json"));
            assertEquals("[]", JsJson.compact(settings(server).path("world_info_settings").path("world_info").path("globalSelect")),
                    "no global link to a deleted book");
            assertEquals("", settings(server).at("/power_user/persona_description_lorebook").asText(), "nor a persona's, as ST's deleteWorldInfo");
            StUi.assertClean(page, "The link steps");

            Path notABook = TestServer.tempDir().resolve("notes.json");
            Files.writeString(notABook, "{\"title\":\"no entries here\"}");
            page.setInputFiles("#wiImport", notABook);
            page.waitFor("document.getElementById('toasts').textContent.includes('Cannot import notes.json: Is not a valid world info file')", STEP);
            assertEquals(0, call(page, "/api/worldinfo/list", "{}").size(), "nothing imported");
        }
    }

    private static JsonNode card(Browser.Page page) {
        return call(page, "/api/characters/get", "{\"avatar_url\":\"default_Wren.png\"}");
    }

    @Test
    void aThousandEntryBookOpensAtOnceAndAnEntryFoundBySearchIsEditedAndSaved() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = session.page();
            ObjectNode entries = JsJson.object();
            for (int uid = 0; uid < 1000; uid++) {
                entries.putObject(String.valueOf(uid)).put("uid", uid).put("comment", "Place " + uid)
                        .put("content", "The tale of place " + uid + ". ".repeat(20)).put("order", 100).put("position", 0)
                        .<ObjectNode>set("key", JsJson.array().add("place" + uid).add("spot" + uid));
            }
            ObjectNode big = JsJson.object();
            big.set("entries", entries);
            server.files().write("worlds/Atlas.json", JsJson.compact(big));
            server.files().write("worlds/Small.json", "{\"entries\":{}}");

            page.navigate(server.url("/#/worldinfo?book=Small"));
            OwnUi.boot(page);
            page.waitFor("document.querySelector('#wiBook')?.value === 'Small' && document.querySelector('#wiEntries') !== null", STEP);
            page.eval("window.opened = null; window.started = performance.now();"
                    + " new MutationObserver((changes, observer) => { if (document.querySelectorAll('#wiEntries li').length === 100) {"
                    + " window.opened = performance.now() - window.started; observer.disconnect(); } }).observe(document.body, {childList: true, subtree: true});"
                    + " location.hash = '#/worldinfo?book=Atlas';");
            page.waitFor("window.opened !== null", STEP);
            double millis = page.eval("window.opened").asDouble();
            System.out.printf("A 1,000-entry book (%d bytes) opened in %.0f ms%n", server.files().bytes("worlds/Atlas.json").length, millis);
            assertTrue(millis < 2000, "opened in " + millis + " ms");
            assertEquals("100 shown of 1000", page.eval("document.querySelector('#wiCount').textContent").asText());
            assertTrue(page.eval("document.querySelectorAll('#wiEntries *').length").asInt() < 1000, "collapsed rows, few nodes");
            page.click("#wiMore");
            page.waitFor("document.querySelectorAll('#wiEntries li').length === 200", STEP);

            StUi.withScreenshot(page, "tankard-worldinfo-1000", () -> {
                page.type("#wiSearch", "spot777");
                page.waitFor("document.querySelectorAll('#wiEntries li').length === 1", STEP);
                page.press("#wiEntries li[data-uid='777'] button.entry", "Enter");
                page.waitFor("document.activeElement?.id === 'wiTitle'", STEP); // opened from the keyboard, focus in its form
                page.press("#wiContent", "End");
                page.type("#wiContent", " Its harbour freezes in winter.");
                page.waitFor(SAVED, STEP);
            });
            long saves = page.responses().stream().filter(r -> r.url().endsWith("/api/worldinfo/edit")).count();
            assertEquals(1, saves, "31 keystrokes, one save of the book");
            JsonNode stored = book(page, "Atlas").path("entries");
            assertEquals(1000, stored.size());
            assertTrue(stored.path("777").path("content").asText().endsWith(" Its harbour freezes in winter."));
            assertEquals("Place 776", stored.path("776").path("comment").asText(), "the other entries stay");
            StUi.assertClean(page, "The 1,000-entry book");
        }
    }
}
