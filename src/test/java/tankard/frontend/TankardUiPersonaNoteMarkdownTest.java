package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.Fixtures;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tankard's own UI for daily jobs: messages rendered as Markdown and sanitized, personas (created with an image,
 * picked, edited) and a chat's author's note, stored where ST stores them so that the server's engine puts them
 * into the backend's request.
 */
class TankardUiPersonaNoteMarkdownTest {
    private static final Duration STEP = OwnUi.STEP;
    private static final String CHAT = "Wren - daily";
    private static final String CHAT_PATH = "chats/default_Wren/" + CHAT + ".jsonl";
    private static final String HEADER = "{\"user_name\":\"User\",\"character_name\":\"Wren\",\"create_date\":\"2026-12-01@10h00m00s000ms\","
            + "\"chat_metadata\":{\"integrity\":\"5e0c1c52-7d4c-4b0e-9a59-2c1d0c3f6a11\"}}";

    private static final String CHAT_SHOWN = "document.querySelectorAll('#messages article').length > 0"
            + " && [...document.querySelectorAll('img')].every(i => i.complete)";

    private static String message(String name, boolean user, String text) {
        return "{\"name\":" + JsJson.compact(JsJson.tree(name)) + ",\"is_user\":" + user + ",\"is_system\":false,"
                + "\"send_date\":\"2026-12-01T10:00:00.000Z\",\"mes\":" + JsJson.compact(JsJson.tree(text)) + ",\"extra\":{}}";
    }

    /** Wren's chat CHAT: the header and the given lines. */
    private static void writeChat(TestServer server, String... lines) {
        server.files().write(CHAT_PATH, String.join("\n", HEADER, String.join("\n", lines)));
    }

    /** Opens CHAT, its images loaded (a request still open when the page goes would count as busy for good). */
    private static void openChat(OwnUi.Session session) {
        session.page().navigate(session.server().url("/#/chat?avatar=default_Wren.png&file=" + CHAT.replace(" ", "%20")));
        OwnUi.boot(session.page());
        session.page().waitFor(CHAT_SHOWN, STEP);
    }

    /** Connected to the mock (the settings the engine reads). */
    private static void connect(OwnUi.Session session) {
        session.page().navigate(session.server().url("/#/connection"));
        OwnUi.boot(session.page());
        OwnUi.connect(session.page(), session.mock());
    }

    /** A send in CHAT through the server's engine, as the UI's generation asks it; answers the backend's request. */
    private static JsonNode engineSend(OwnUi.Session session, String text) {
        return engineSend(session, CHAT, text);
    }

    /** The same in another chat of Wren's. */
    private static JsonNode engineSend(OwnUi.Session session, String chat, String text) {
        String answer = session.page().eval("(async () => {"
                + " const token = (await (await fetch('/csrf-token')).json()).token;"
                + " const r = await fetch('/api/tankard/generate', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': token},"
                + "   body: JSON.stringify({avatar_url: 'default_Wren.png', file_name: " + OwnUi.js(chat) + ", action: 'send', text: " + OwnUi.js(text) + "})});"
                + " return r.status + ' ' + (await r.text()).slice(0, 300); })()").asText();
        assertTrue(answer.startsWith("200"), "the engine answered: " + answer);
        return session.mock().lastCall("/v1/chat/completions").json();
    }

    private static List<JsonNode> lines(TestServer server) {
        return server.files().read(CHAT_PATH).lines().map(JsJson::parse).toList();
    }

    @Test
    void messagesRenderMarkdownAndCodeBlocksAndNoScriptInThemRuns() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            Browser.Page page = session.page();
            String reply = String.join("\n",
                    "Here it is:", "", "```js", "const tag = '<b>not bold</b>';", "```", "",
                    "**bold** and *soft*, `inline <i>code</i>`", "",
                    "<img src=\"data:,\" onerror=\"window.pwned = 'img'\"><script>window.pwned = 'script'</script>",
                    "[link](javascript:window.pwned='md') <a href=\"javascript:window.pwned='a'\">a</a>"
                            + " <svg><animate onbegin=\"window.pwned='svg'\" attributeName=\"x\" dur=\"1s\"/></svg>",
                    "<details open><summary>kept</summary>plain HTML stays</details>");
            // without a "<": markdown-it's own HTML, not sanitized again (markdown.js); a link still gets the hook's target
            String noTag = "&lt;script&gt;window.pwned = 'entity'&lt;/script&gt; ![pic](javascript:window.pwned='image')"
                    + " **plain** and https://example.com";
            writeChat(session.server(), message("Wren", false, noTag), message("User", true, "Show me the code"),
                    message("Wren", false, reply));

            StUi.withScreenshot(page, "tankard-markdown", () -> {
                openChat(session);
                page.waitFor("document.querySelector('#messages pre code') !== null", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP);
            });
            String bot = "document.querySelector('#messages article:last-of-type .text')";
            assertEquals("const tag = '<b>not bold</b>';\n", page.eval(bot + ".querySelector('pre code').textContent").asText(),
                    "the code block is code, its HTML shown as text");
            assertEquals("language-js", page.eval(bot + ".querySelector('pre code').className").asText());
            assertEquals("inline <i>code</i>", page.eval(bot + ".querySelector(':not(pre) > code').textContent").asText());
            assertEquals("bold", page.eval(bot + ".querySelector('strong').textContent").asText());
            assertEquals("soft", page.eval(bot + ".querySelector('em').textContent").asText());
            assertEquals("kept", page.eval(bot + ".querySelector('details summary').textContent").asText(),
                    "harmless HTML renders, as in ST");
            assertTrue(page.eval(bot + ".querySelector('img') !== null").asBoolean(), "the image stays, without its handler");

            String first = "document.querySelector('#messages article:first-of-type .text')";
            assertTrue(page.eval(first + ".textContent").asText().startsWith("<script>window.pwned = 'entity'</script>"),
                    "an escaped tag is text");
            assertEquals("plain", page.eval(first + ".querySelector('strong').textContent").asText());
            assertEquals(0, page.eval(first + ".querySelectorAll('img, script').length").asInt(), "no image of a javascript: address");
            assertEquals("_blank", page.eval(first + ".querySelector('a[href=\"https://example.com\"]').target").asText(),
                    "a bare address is a link that opens in a tab of its own");

            assertEquals("undefined", page.eval("typeof window.pwned").asText(), "no payload ran");
            assertFalse(page.eval("[...document.querySelectorAll('#messages *')].some(e => [...e.attributes]"
                    + ".some(a => a.name.startsWith('on') || /^\\s*javascript:/i.test(a.value)))").asBoolean(),
                    "no handler attribute nor javascript: link is left");
            assertEquals(0, page.eval("document.querySelectorAll('#messages script').length").asInt());
            assertEquals("Show me the code", page.eval("document.querySelector('#messages article.user .text').textContent").asText());
            StUi.assertClean(page, "The chat");
        }
    }

    @Test
    void aCreatedAndPickedPersonaIsStoredAsStStoresItAndItsNameAndDescriptionReachTheBackend() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = session.page();
            writeChat(server, message("Wren", false, "Hello, traveller."));
            connect(session);
            Path image = TestServer.tempDir().resolve("ada.png");
            Files.write(image, Fixtures.plainPng());

            page.click("a[data-nav='personas']");
            page.waitFor("document.querySelector('#newPersona') !== null", STEP);
            page.type("#newPersonaName", "Ada Lovelace");
            page.type("#newPersonaDescription", "A mathematician who counts the stars.");
            page.setInputFiles("#newPersonaImage", image);
            page.click("#createPersona");
            page.waitFor("[...document.querySelectorAll('#personaList li b')].some(b => b.textContent === 'Ada Lovelace')", STEP);
            String avatar = page.eval("[...document.querySelectorAll('#personaList li')]"
                    + ".find(li => li.querySelector('b').textContent === 'Ada Lovelace').dataset.avatar").asText();
            assertTrue(server.files().exists("User Avatars/" + avatar), "the image went through /api/avatars/upload: " + avatar);

            StUi.withScreenshot(page, "tankard-personas", () -> {
                page.click("#personaList button[aria-label='Use Ada Lovelace']");
                page.waitFor("document.querySelector('#personaList li:first-child b').textContent === 'Ada Lovelace'"
                        + " && document.querySelector('#personaList li:first-child img')?.complete", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            page.click("#personaList button[aria-label='Edit Ada Lovelace']");
            page.eval("document.querySelector('#personaDescription').value = ''");
            page.type("#personaDescription", "A mathematician who counts the stars, and {{char}}'s old friend.");
            assertTrue(page.eval("document.querySelector('#personaDepth').disabled").asBoolean(), "no depth in the story string");
            OwnUi.choose(page, "#personaPosition", "4");
            page.eval("document.querySelector('#personaDepth').value = '1'");
            page.click("dialog button[value='save']");
            page.waitFor("document.querySelector('#personaList li:first-child p').textContent.includes('old friend')", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);

            JsonNode settings = JsJson.parse(server.files().bytes("settings.json"));
            JsonNode powerUser = settings.path("power_user");
            assertEquals(avatar, settings.path("user_avatar").asText(), "the picked persona, as ST's setUserAvatar keeps it");
            assertEquals("Ada Lovelace", settings.path("username").asText(), "as ST's setUserName keeps it");
            assertEquals("Ada Lovelace", powerUser.path("personas").path(avatar).asText());
            String description = "A mathematician who counts the stars, and {{char}}'s old friend.";
            assertEquals(description, powerUser.path("persona_descriptions").path(avatar).path("description").asText());
            assertEquals(4, powerUser.path("persona_descriptions").path(avatar).path("position").asInt(), "in the chat");
            assertEquals(1, powerUser.path("persona_descriptions").path(avatar).path("depth").asInt());
            assertEquals(0, powerUser.path("persona_descriptions").path(avatar).path("role").asInt());
            assertEquals(description, powerUser.path("persona_description").asText(), "the one in use's, as ST copies it");
            assertEquals(4, powerUser.path("persona_description_position").asInt());
            assertEquals(1, powerUser.path("persona_description_depth").asInt());

            openChat(session);
            assertEquals("You: Ada Lovelace", page.eval("document.querySelector('#persona').textContent").asText());
            // ST's persona lock (chat_metadata.persona) is shown, as the engine speaks as that persona in this chat
            server.files().write(CHAT_PATH, server.files().read(CHAT_PATH).replace("\"integrity\"", "\"persona\":" + OwnUi.js(avatar) + ",\"integrity\""));
            page.reload();
            OwnUi.boot(page);
            page.waitFor(CHAT_SHOWN, STEP);
            assertEquals("You: Ada Lovelace (locked to this chat)", page.eval("document.querySelector('#persona').textContent").asText());
            JsonNode messages = engineSend(session, "Do you remember me?").path("messages");
            String request = JsJson.compact(messages);
            int at = -1;
            for (int i = 0; i < messages.size(); i++) {
                if (messages.get(i).path("content").asText().equals("A mathematician who counts the stars, and Wren's old friend.")) {
                    at = i;
                }
            }
            assertTrue(at > 0, "the description, its macros filled: " + request);
            assertEquals("Do you remember me?", messages.get(at + 1).path("content").asText(), "at depth 1: " + request);
            assertTrue(request.contains("Ada Lovelace"), "the name: " + request);
            List<JsonNode> saved = lines(server);
            assertEquals("Ada Lovelace", saved.get(2).path("name").asText(), "the message is the persona's");

            StUi.withScreenshot(page, "tankard-personas-phone", () -> {
                page.setViewport(390, 844);
                page.click("#persona");
                page.waitFor("document.querySelectorAll('#personaList li').length === 2", STEP); // Ada and user-default.png
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
                assertTrue(page.eval("document.documentElement.scrollWidth <= 390"
                        + " && [...document.querySelectorAll('#personaList button')].every(b => b.getBoundingClientRect().right <= 390)").asBoolean(),
                        "nothing wider than the phone, every button in view");
            });
            page.click("#personaList button[aria-label='Delete [Unnamed Persona]']");
            page.click("dialog button[value='delete']");
            page.waitFor("document.querySelectorAll('#personaList li').length === 1", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertFalse(server.files().exists("User Avatars/user-default.png"), "the image is deleted, as ST's deletePersona does");
            assertEquals(avatar, JsJson.parse(server.files().bytes("settings.json")).path("user_avatar").asText(), "the one in use stays");
            StUi.assertClean(page, "The persona steps");
        }
    }

    /** Opens a chat of Wren's by its name and waits for its messages. */
    private static void openChat(OwnUi.Session session, String chat) {
        session.page().navigate(session.server().url("/#/chat?avatar=default_Wren.png&file=" + chat.replace(" ", "%20")));
        OwnUi.boot(session.page());
        session.page().waitFor(CHAT_SHOWN, STEP);
    }

    private static void usePersona(Browser.Page page, String name) {
        page.click("a[data-nav='personas']");
        page.waitFor("document.querySelector('#personaList') !== null", STEP);
        page.click("#personaList button[aria-label='Use " + name + "']");
        page.waitFor("document.querySelector('#personaList li:first-child b').textContent === " + OwnUi.js(name), STEP);
        page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
    }

    /** The chat page's Lock dialog, the given boxes set, saved. */
    private static void lock(Browser.Page page, String box, boolean on) {
        page.click("#personaLock");
        page.waitFor("document.querySelector('dialog[open] #" + box + "') !== null", STEP);
        if (page.eval("document.querySelector('#" + box + "').checked").asBoolean() != on) {
            page.click("#" + box);
        }
        page.click("dialog[open] button[value='save']");
        page.waitFor("document.getElementById('toasts').textContent.includes('Saved the locks')", STEP);
        page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
    }

    @Test
    void aPersonaIsLockedToAChatAndACharacterAndMadeTheDefaultAsStDoesAndTheEngineSpeaksAsIt() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = session.page();
            writeChat(server, message("Wren", false, "Hello, traveller."));
            server.files().write("chats/default_Wren/Wren - other.jsonl", HEADER + "\n" + message("Wren", false, "Back again?"));
            StUi.changeSettings(server.files(), s -> {
                com.fasterxml.jackson.databind.node.ObjectNode p = s.with("power_user");
                p.with("personas").put("ada.png", "Ada").put("bo.png", "Bo");
                p.with("persona_descriptions").putObject("ada.png").put("description", "Ada keeps the ledgers.").put("position", 0);
                p.with("persona_descriptions").putObject("bo.png").put("description", "Bo tends the fire.").put("position", 0);
            });
            connect(session);
            usePersona(page, "Ada");

            // locked to this chat: chat_metadata.persona, written by the metadata route (the chat does not travel)
            openChat(session);
            StUi.withScreenshot(page, "tankard-persona-lock", () -> {
                page.click("#personaLock");
                page.waitFor("document.querySelector('dialog[open] #lockChat') !== null", STEP);
                page.click("#lockChat");
            });
            page.click("dialog[open] button[value='save']");
            page.waitFor("document.querySelector('#persona').textContent === 'You: Ada (locked to this chat)'", STEP);
            List<JsonNode> saved = lines(server);
            assertEquals("ada.png", saved.get(0).path("chat_metadata").path("persona").asText(), "as ST's lockPersona('chat')");
            assertEquals("5e0c1c52-7d4c-4b0e-9a59-2c1d0c3f6a11", saved.get(0).path("chat_metadata").path("integrity").asText());
            assertEquals("Hello, traveller.", saved.get(1).path("mes").asText(), "the message stays");

            // another persona picked: opening the locked chat speaks as Ada again (ST's loadPersonaForCurrentChat)
            usePersona(page, "Bo");
            openChat(session);
            page.waitFor("document.querySelector('#persona').textContent === 'You: Ada (locked to this chat)'", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals("ada.png", StUi.settings(server.files()).path("user_avatar").asText(), "the chat's persona picked");
            String request = JsJson.compact(engineSend(session, "Who am I?").path("messages"));
            assertTrue(request.contains("Ada keeps the ledgers.") && !request.contains("Bo tends the fire."), request);

            // locked to the character: a connection in Bo's persona_descriptions entry, followed by a chat with no lock
            usePersona(page, "Bo");
            openChat(session, "Wren - other");
            lock(page, "lockCharacter", true);
            JsonNode connections = StUi.settings(server.files()).path("power_user").path("persona_descriptions").path("bo.png").path("connections");
            assertEquals("[{\"type\":\"character\",\"id\":\"default_Wren.png\"}]", JsJson.compact(connections), "as ST keeps connections");
            usePersona(page, "Ada");
            openChat(session, "Wren - other");
            page.waitFor("document.querySelector('#persona').textContent === 'You: Bo'", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals("bo.png", StUi.settings(server.files()).path("user_avatar").asText(), "the character's persona picked");

            // the default persona, set on the personas page, is used where neither lock is
            page.click("a[data-nav='personas']");
            page.waitFor("document.querySelector('#personaList') !== null", STEP);
            StUi.withScreenshot(page, "tankard-personas-default", () -> {
                page.click("#personaList button[aria-label='Default persona: Ada']");
                page.click("dialog[open] button[value='ok']");
                page.waitFor("document.querySelector(\"#personaList button[aria-label='Default persona: Ada']\").getAttribute('aria-pressed') === 'true'"
                        + " && document.querySelector('#personaList li[data-avatar=\"bo.png\"] .connections img')?.complete", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            assertEquals("ada.png", StUi.settings(server.files()).path("power_user").path("default_persona").asText());
            openChat(session, "Wren - other");
            lock(page, "lockCharacter", false);
            assertEquals("[]", JsJson.compact(StUi.settings(server.files()).path("power_user").path("persona_descriptions")
                    .path("bo.png").path("connections")), "unlocked, as ST's unlockPersona('character')");
            page.reload(); // the chat opened again
            OwnUi.boot(page);
            page.waitFor("document.querySelector('#persona').textContent === 'You: Ada'", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals("ada.png", StUi.settings(server.files()).path("user_avatar").asText(), "the default persona picked");
            StUi.assertClean(page, "The persona locks");
        }
    }

    @Test
    void theAuthorsNoteIsKeptInTheChatsMetadataAndReachesTheBackend() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = session.page();
            writeChat(server, message("Wren", false, "Hello, traveller."), message("User", true, "Hi."),
                    message("Wren", false, "What brings you here?"));
            connect(session);
            openChat(session);

            StUi.withScreenshot(page, "tankard-authors-note", () -> {
                page.click("#authorsNote");
                page.waitFor("document.querySelector('dialog[open] #notePrompt') !== null", STEP);
                assertEquals("1", page.eval("document.querySelector('#notePosition').value").asText(), "ST's default: in the chat");
                assertEquals("4", page.eval("document.querySelector('#noteDepth').value").asText());
                page.type("#notePrompt", "[Keep {{char}}'s replies short and spooky.]");
                OwnUi.choose(page, "#notePosition", "1");
                page.eval("document.querySelector('#noteDepth').value = '1'");
                OwnUi.choose(page, "#noteRole", "0");
                page.eval("document.querySelector('#noteInterval').value = '1'");
            });
            page.click("dialog button[value='save']");
            page.waitFor("document.getElementById('toasts').textContent.includes(\"Author's note saved\")", STEP);

            List<JsonNode> saved = lines(server);
            JsonNode metadata = saved.get(0).path("chat_metadata");
            assertEquals("[Keep {{char}}'s replies short and spooky.]", metadata.path("note_prompt").asText());
            assertEquals(1, metadata.path("note_position").asInt());
            assertEquals(1, metadata.path("note_depth").asInt());
            assertEquals(0, metadata.path("note_role").asInt());
            assertEquals(1, metadata.path("note_interval").asInt());
            assertEquals("5e0c1c52-7d4c-4b0e-9a59-2c1d0c3f6a11", metadata.path("integrity").asText(), "the rest of the header stays");
            assertEquals(List.of("Hello, traveller.", "Hi.", "What brings you here?"),
                    saved.stream().skip(1).map(line -> line.path("mes").asText()).toList(), "the messages stay");
            assertTrue(page.responses().stream().noneMatch(r -> r.url().contains("/api/chats/get") || r.url().contains("/api/chats/save")),
                    "the chat did not travel whole: " + page.responses());

            JsonNode messages = engineSend(session, "A room for the night.").path("messages");
            int note = -1;
            for (int i = 0; i < messages.size(); i++) {
                if (messages.get(i).path("content").asText().equals("[Keep Wren's replies short and spooky.]")) {
                    note = i;
                }
            }
            assertTrue(note > 0, "the note is in the request: " + messages);
            assertEquals("system", messages.get(note).path("role").asText());
            assertEquals("A room for the night.", messages.get(note + 1).path("content").asText(),
                    "at depth 1: before the last message: " + messages);

            page.click("#authorsNote");
            page.waitFor("document.querySelector('dialog[open] #notePrompt')?.value === \"[Keep {{char}}'s replies short and spooky.]\"", STEP);
            page.click("dialog button[value='']");
            StUi.assertClean(page, "The author's note steps");
        }
    }

    /** The index of the message whose content is exactly the text, or -1. */
    private static int indexOf(JsonNode messages, String text) {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i).path("content").asText().equals(text)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void theCharactersNoteAndTheNoteDefaultsAreKeptInTheSettingsAsStKeepsThemAndReachTheBackend() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = session.page();
            writeChat(server, message("Wren", false, "Hello, traveller."));
            server.files().write("chats/default_Wren/Wren - fresh.jsonl", HEADER + "\n" + message("Wren", false, "A new day."));
            connect(session);
            openChat(session);

            StUi.withScreenshot(page, "tankard-authors-note-character-defaults", () -> {
                page.click("#authorsNote");
                page.waitFor("document.querySelector('dialog[open] #notePrompt') !== null", STEP);
                page.type("#notePrompt", "[The chat's own note.]");
                page.eval("document.querySelector('#noteDepth').value = '1'");
                page.click("#charaNote summary");
                page.type("#charaNotePrompt", "[{{char}} whispers.]");
                page.click("#charaNoteUse");
                OwnUi.choose(page, "#charaNotePosition", "2");
                page.click("#noteDefaults summary");
                page.type("#noteDefaultPrompt", "[A note for new chats.]");
                page.eval("document.querySelector('#noteDefaultDepth').value = '2'");
                page.eval("document.querySelector('dialog[open]').scrollTop = 1e6");
            });
            page.click("dialog button[value='save']");
            page.waitFor("document.getElementById('toasts').textContent.includes(\"Author's note saved\")", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);

            JsonNode note = StUi.settings(server.files()).path("extension_settings").path("note");
            assertEquals("[{\"name\":\"default_Wren\",\"prompt\":\"[{{char}} whispers.]\",\"useChara\":true,\"position\":2}]",
                    JsJson.compact(note.path("chara")), "as ST's authors-note.js keeps a character's note");
            assertEquals("[A note for new chats.]", note.path("default").asText());
            assertEquals(2, note.path("defaultDepth").asInt());
            assertEquals(1, note.path("defaultPosition").asInt());
            assertEquals("[The chat's own note.]", lines(server).get(0).path("chat_metadata").path("note_prompt").asText());

            // after the chat's note, as the character's note's position says (ST's setFloatingPrompt)
            JsonNode messages = engineSend(session, "Any news?").path("messages");
            int at = indexOf(messages, "[The chat's own note.]\n[Wren whispers.]");
            assertTrue(at > 0, "the chat's note and the character's: " + messages);
            assertEquals("Any news?", messages.get(at + 1).path("content").asText(), "at depth 1");
            // a chat with no note of its own takes the defaults, the character's note still after it
            messages = engineSend(session, "Wren - fresh", "Good morning.").path("messages");
            at = indexOf(messages, "[A note for new chats.]\n[Wren whispers.]");
            assertTrue(at > 0, "the default note: " + messages);
            assertEquals("Good morning.", messages.get(at + 2).path("content").asText(), "at depth 2");

            // the character's note emptied while not used is dropped, as ST drops it
            page.click("#authorsNote");
            page.waitFor("document.querySelector('dialog[open] #charaNotePrompt')?.value === '[{{char}} whispers.]'", STEP);
            assertEquals("[A note for new chats.]", page.eval("document.querySelector('#noteDefaultPrompt').value").asText());
            page.eval("document.querySelector('#charaNote').open = true");
            page.click("#charaNoteUse");
            page.eval("document.querySelector('#charaNotePrompt').value = ''");
            page.click("dialog button[value='save']");
            page.waitFor("document.getElementById('toasts').textContent.split(\"Author's note saved\").length === 3", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals("[]", JsJson.compact(StUi.settings(server.files()).path("extension_settings").path("note").path("chara")));
            StUi.assertClean(page, "The character's note steps");
        }
    }
}
