package tankard.frontend;

import tankard.testing.FileLayout;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.user.FileAccountStore;
import tankard.user.Passwords;
import tankard.user.User;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.Fixtures;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tankard's own UI ({@code public/} of this repository) in headless Chromium, driven as a newcomer would: a fresh
 * data folder, a connection to an OpenAI-compatible mock, the default character, a streamed chat with swipes and an
 * edit, a reload; a PNG card imported by the file picker; signing in with accounts on. Screenshots in target/ui/.
 */
class TankardUiTest {
    private static final Duration STEP = OwnUi.STEP;

    private static String text(Browser.Page page, String script) {
        return page.eval(script).asText();
    }

    private static String lastMessageText(Browser.Page page) {
        return text(page, "document.querySelector('#messages article:last-of-type .text')?.textContent ?? ''");
    }

    /** The lines of the user's only chat, as a JSON array. */
    private static JsonNode chatLines(UserFiles files) {
        String chat = files.chatPaths().get(0);
        return JsJson.parse("[" + String.join(",", files.read(chat).lines().toList()) + "]");
    }

    @Test
    void aNewcomerConnectsChatsSwipesEditsAndFindsItAllAfterAReload() throws IOException {
        try (TestServer server = TestServer.startIn(OwnUi.work(""));
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             Browser browser = Browser.launch()) {
            // replies stream in five pieces, a little apart, so the test sees them arrive
            int[] replies = {0};
            mock.onCompletion(request -> {
                int n = ++replies[0];
                request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
                String[] pieces = {"Mock ", "reply ", String.valueOf(n), " from ", "the mock."};
                for (int i = 0; i < pieces.length; i++) {
                    String piece = pieces[i];
                    server.vertx.setTimer(1 + i * 150L, t -> request.response().write(MockCompletionServer.deltaEvent(piece)));
                }
                server.vertx.setTimer(1 + pieces.length * 150L, t -> request.response().end("data: [DONE]\n\n"));
            });
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));

            StUi.withScreenshot(page, "tankard-1-library", () -> {
                OwnUi.boot(page);
                page.waitFor("[...document.querySelectorAll('.card img')].some(i => i.complete && i.naturalWidth > 0)", STEP);
                assertEquals("default_Wren.png", text(page, "document.querySelector('.card').dataset.avatar"));
                assertEquals("not connected", text(page, "document.querySelector('#connectionBadge').textContent"));
                assertTrue(!page.eval("document.querySelector('#connectionBadge').classList.contains('ok')").asBoolean(),
                        "a fresh user has no connection that answered");
                assertTrue(!page.eval("document.querySelector('#connectHint').hidden").asBoolean()
                        && text(page, "document.querySelector('#connectHint').textContent").contains("connect one"),
                        "and is asked to connect one first");
            });

            StUi.withScreenshot(page, "tankard-2-connection", () -> {
                page.click("a[data-nav='connection']");
                OwnUi.connect(page, mock, "sk-mock-key");
                assertEquals(MockCompletionServer.MODEL, text(page, "document.querySelector('#connModel').value"));
                assertTrue(page.eval("document.querySelector('#connectionBadge').classList.contains('ok')").asBoolean());
                assertTrue(text(page, "document.querySelector('#connectionBadge').textContent").contains(MockCompletionServer.MODEL));
            });
            JsonNode settings = JsJson.parse(server.files().bytes("settings.json"));
            assertEquals("openai", settings.path("main_api").asText(), "kept where ST keeps it");
            assertEquals("custom", settings.path("oai_settings").path("chat_completion_source").asText());
            assertEquals(mock.baseUrl(), settings.path("oai_settings").path("custom_url").asText());
            assertEquals(MockCompletionServer.MODEL, settings.path("oai_settings").path("custom_model").asText());
            assertTrue(server.files().read("secrets.json").contains("sk-mock-key"), "the key is in the secrets store");
            assertEquals("Bearer sk-mock-key", mock.lastCall("/v1/models").headers().get("Authorization"), "and goes to the backend");

            StUi.withScreenshot(page, "tankard-3-chat", () -> {
                page.click("a[data-nav='characters']");
                page.waitFor("document.querySelector('.card[data-avatar=\"default_Wren.png\"]') !== null", STEP);
                page.click(".card[data-avatar='default_Wren.png']");
                page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP); // the greeting
                assertTrue(page.eval("document.querySelector('#connectHint').hidden").asBoolean(), "connected: no hint");
                page.type("#input", "Where does the road lead?");
                page.eval("document.querySelector('#input').dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}))");
                page.waitFor("document.querySelector('#messages article.streaming') !== null", STEP);
                page.waitFor("(document.querySelector('#messages article.streaming .text')?.textContent ?? '').startsWith('Mock reply')", STEP);
                String partial = lastMessageText(page);
                page.waitFor("document.querySelector('#messages article.streaming') === null", STEP);
                assertEquals("Mock reply 1 from the mock.", lastMessageText(page));
                assertTrue(!partial.equals(lastMessageText(page)), "the reply came piece by piece, not whole: " + partial);
            });
            JsonNode sent = mock.lastCall("/v1/chat/completions").json();
            assertEquals(MockCompletionServer.MODEL, sent.path("model").asText());
            assertTrue(sent.path("stream").asBoolean());
            JsonNode messages = sent.path("messages");
            assertEquals("system", messages.get(0).path("role").asText());
            assertTrue(messages.get(0).path("content").asText().contains("Wren"), "the card is in the prompt");
            assertEquals("Where does the road lead?", messages.get(messages.size() - 1).path("content").asText());

            StUi.withScreenshot(page, "tankard-4-swipes", () -> {
                page.click("#messages article:last-of-type [aria-label='Next swipe']");
                page.waitFor("document.querySelector('#messages article:last-of-type .swipeCount')?.textContent === '2/2'"
                        + " && document.querySelector('#messages article.streaming') === null", STEP);
                assertEquals("Mock reply 2 from the mock.", lastMessageText(page));
                page.click("#messages article:last-of-type [aria-label='Previous swipe']");
                page.waitFor("document.querySelector('#messages article:last-of-type .swipeCount')?.textContent === '1/2'", STEP);
                assertEquals("Mock reply 1 from the mock.", lastMessageText(page));
            });

            StUi.withScreenshot(page, "tankard-5-edit", () -> {
                page.click("#messages article.user [aria-label='Edit']");
                page.waitFor("document.querySelector('#editText') !== null", STEP);
                page.eval("document.querySelector('#editText').value = 'Where does the old road lead?'");
                page.click("dialog button[value='save']");
                page.waitFor("document.querySelector('#messages article.user .text').textContent === 'Where does the old road lead?'", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            JsonNode lines = chatLines(server.files());
            assertEquals(4, lines.size(), "header, greeting, question, reply: " + lines);
            assertEquals("Where does the old road lead?", lines.get(2).path("mes").asText());
            assertEquals("Mock reply 1 from the mock.", lines.get(3).path("mes").asText());
            assertEquals(List.of("Mock reply 1 from the mock.", "Mock reply 2 from the mock."),
                    JsJson.MAPPER.convertValue(lines.get(3).path("swipes"), List.class));

            StUi.withScreenshot(page, "tankard-6-reloaded", () -> {
                page.reload();
                OwnUi.boot(page);
                page.waitFor("document.querySelectorAll('#messages article').length === 3", STEP);
                assertEquals("Where does the old road lead?", text(page, "document.querySelector('#messages article.user .text').textContent"));
                assertEquals("1/2", text(page, "document.querySelector('#messages article:last-of-type .swipeCount').textContent"));
                assertEquals("Mock reply 1 from the mock.", lastMessageText(page));
            });
            StUi.assertClean(page, "The page");
        }
    }

    @Test
    void aPngCardImportedByTheFilePickerJoinsTheLibrary() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = OwnUi.openLibrary(session);
            StUi.withScreenshot(page, "tankard-7-import", () -> {
                assertEquals(1, page.eval("document.querySelectorAll('.card').length").asInt());
                page.chooseFiles(() -> page.click("#importButton"), Fixtures.path("data/basic/default-user/characters/Aria.png").toAbsolutePath());
                page.waitFor("document.querySelector('.card[data-avatar=\"Aria.png\"]') !== null", STEP);
                assertEquals("2 characters", text(page, "document.querySelector('#libraryCount').textContent"));
                page.type("#librarySearch", "ari");
                page.waitFor("document.querySelectorAll('.card').length === 1 && document.querySelector('.card').dataset.avatar === 'Aria.png'", STEP);
            });
            assertTrue(server.files().exists("characters/Aria.png"));
            StUi.assertClean(page, "The page");
        }
    }

    @Test
    @FileLayout
    void withAccountsOnTheUserSignsInFirst() throws IOException {
        Path work = OwnUi.work("enableUserAccounts: true\n");
        var accounts = new FileAccountStore(work.resolve("data").resolve("_storage"));
        String salt = Passwords.newSalt();
        long now = System.currentTimeMillis();
        accounts.save(new User("alice", "Alice", now, Passwords.hash("wonderland", salt), salt, true, true));
        accounts.save(new User("bob", "Bob", now + 1, "", "", false, true));
        try (TestServer server = TestServer.startIn(work); Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "tankard-8-sign-in", () -> {
                page.waitFor("location.pathname === '/login' && document.querySelectorAll('#users button').length === 2", STEP);
                page.eval("[...document.querySelectorAll('#users button')].find(b => b.textContent.includes('alice')).click()");
                page.waitFor("!document.querySelector('#signin').hidden", STEP);
                page.type("#password", "wonderland");
                page.click("#signin button[type='submit']");
                page.waitFor("location.pathname === '/'", STEP);
                OwnUi.boot(page);
                assertTrue(text(page, "document.querySelector('#logout').textContent").contains("Alice"));
                page.waitFor("document.querySelector('.card') !== null", STEP);
            });
            assertEquals("alice", page.eval("fetch('/api/users/me').then(r => r.json()).then(u => u.handle)").asText());
        }
    }
}
