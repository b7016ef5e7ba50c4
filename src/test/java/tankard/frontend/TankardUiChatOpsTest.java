package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpServerRequest;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;
import tankard.testing.TextCompletionProtocols;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tankard's own UI beyond the first chat: stop, regenerate, delete, branch (the chat's memory: TankardUiMemoryTest);
 * group chats listed and opened; the card editor; the dark theme and a phone-sized window.
 */
class TankardUiChatOpsTest {
    private static final String WREN_CHATS = "chats/default_Wren";
    private static final Duration STEP = OwnUi.STEP;
    private static final String WREN = ".card[data-avatar='default_Wren.png']";

    private static String text(Browser.Page page, String script) {
        return page.eval(script).asText();
    }

    /** The names of Wren's chats, sorted. */
    private static List<String> chats(UserFiles files) {
        return files.chatNames(WREN_CHATS).stream().sorted().toList();
    }

    private static List<JsonNode> lines(UserFiles files, String chat) {
        return files.read(WREN_CHATS + "/" + chat).lines().map(JsJson::parse).toList();
    }

    /** Twenty pieces, 200 ms apart: slow enough to stop. */
    static void slowReply(TestServer server, HttpServerRequest request) {
        request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
        for (int i = 0; i < 20; i++) {
            String piece = "word" + i + " ";
            server.vertx.setTimer(1 + i * 200L, t -> {
                if (!request.response().ended() && !request.response().closed()) {
                    request.response().write(MockCompletionServer.deltaEvent(piece));
                }
            });
        }
        server.vertx.setTimer(4200, t -> {
            if (!request.response().ended() && !request.response().closed()) {
                request.response().end("data: [DONE]\n\n");
            }
        });
    }

    /** Connected to the mock, in a new chat with Wren (her greeting shown). */
    private static Browser.Page openWren(OwnUi.Session session) {
        Browser.Page page = session.page();
        page.navigate(session.server().url("/#/connection"));
        OwnUi.boot(page);
        OwnUi.connect(page, session.mock());
        page.click("a[data-nav='characters']");
        page.waitFor("document.querySelector(" + OwnUi.js(WREN) + ") !== null", STEP);
        page.click(WREN);
        page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
        return page;
    }

    private static void send(Browser.Page page, String text) {
        page.type("#input", text);
        page.click("#send");
    }

    @Test
    void stopRegenerateDeleteAndBranch() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            MockCompletionServer mock = session.mock();
            Browser.Page page = openWren(session);
            String chat = chats(server.files()).get(0);

            AtomicBoolean slow = new AtomicBoolean(true);
            mock.onCompletion(request -> {
                if (slow.get()) {
                    slowReply(server, request);
                } else {
                    request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                            .write(MockCompletionServer.deltaEvent("A second telling."));
                    request.response().end("data: [DONE]\n\n");
                }
            });
            StUi.withScreenshot(page, "tankard-ops-1-stop", () -> {
                send(page, "Tell me a long story");
                page.waitFor("(document.querySelector('#messages article.streaming .text')?.textContent ?? '').includes('word2')", STEP);
                page.click("#stop");
                page.waitFor("document.querySelector('#messages article.streaming') === null && !document.querySelector('#send').hidden", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            String stopped = lines(server.files(), chat).get(3).path("mes").asText();
            assertTrue(stopped.startsWith("word0 word1 word2") && !stopped.contains("word19"), "kept as far as it came: " + stopped);

            slow.set(false);
            StUi.withScreenshot(page, "tankard-ops-2-regenerate", () -> {
                page.click("#messages article:last-of-type [aria-label='Regenerate']");
                page.waitFor("document.querySelector('#messages article:last-of-type .text').textContent === 'A second telling.'"
                        + " && !document.querySelector('#messages article.streaming')", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            assertEquals("A second telling.", lines(server.files(), chat).get(3).path("mes").asText());

            StUi.withScreenshot(page, "tankard-ops-3-delete", () -> {
                page.click("#messages article.user [aria-label='Delete']");
                page.click("dialog button[value='delete']");
                page.waitFor("document.querySelectorAll('#messages article').length === 2", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            List<JsonNode> kept = lines(server.files(), chat);
            assertEquals(3, kept.size(), "the header, the greeting and the reply: " + kept);
            assertEquals("A second telling.", kept.get(2).path("mes").asText());

            StUi.withScreenshot(page, "tankard-ops-4-branch", () -> {
                page.click("#messages article:first-of-type [aria-label='Branch']");
                page.waitFor("location.hash.includes('Branch')", STEP);
                page.waitFor("document.querySelectorAll('#chatList li').length === 2 && document.querySelectorAll('#messages article').length === 1", STEP);
            });
            List<String> all = chats(server.files());
            assertEquals(2, all.size());
            String branch = all.stream().filter(name -> name.contains(" - Branch #1")).findFirst().orElseThrow();
            List<JsonNode> branched = lines(server.files(), branch);
            assertEquals(2, branched.size(), "the header and the greeting: " + branched);
            assertEquals(chat.replace(".jsonl", ""),
                    branched.get(0).path("chat_metadata").path("main_chat").asText(), "as ST marks a branch");
            StUi.assertClean(page, "The page");
        }
    }

    @Test
    void aMessageSentAfterAnotherTabAddedOneGoesAfterItAndBothAreShown() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = openWren(session);
            String chat = chats(server.files()).get(0);
            session.mock().onCompletion(request -> {
                request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                        .write(MockCompletionServer.deltaEvent("Welcome back."));
                request.response().end("data: [DONE]\n\n");
            });
            // another tab or device adds a message to the chat this page shows
            String path = WREN_CHATS + "/" + chat;
            server.files().write(path, server.files().read(path)
                    + "\n{\"name\":\"User\",\"is_user\":true,\"is_system\":false,\"send_date\":\"2026-12-05T22:00:00.000Z\",\"mes\":\"From the other tab\",\"extra\":{}}");

            StUi.withScreenshot(page, "tankard-ops-sent-after-another-tab", () -> {
                send(page, "Typed here");
                page.waitFor("document.querySelectorAll('#messages article').length === 4"
                        + " && !document.querySelector('#messages article.streaming')", STEP);
            });
            // the engine appends at the chat's end as it is on the server (docs/engine.md), never over it
            List<String> said = lines(server.files(), chat).stream().skip(2).map(line -> line.path("mes").asText()).toList();
            assertEquals(List.of("From the other tab", "Typed here", "Welcome back."), said);
            assertEquals(List.of("From the other tab", "Typed here", "Welcome back."),
                    JsJson.MAPPER.convertValue(page.eval("[...document.querySelectorAll('#messages article .text')].slice(1).map(t => t.textContent)"), List.class),
                    "the page shows the chat as saved");
            assertEquals("", text(page, "document.querySelector('#input').value"));
            StUi.assertClean(page, "The page");
        }
    }

    @Test
    void aLorebookEntryWhoseKeyIsMentionedGoesIntoThePrompt() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            assertEquals(200, server.client().post("/api/worldinfo/edit", "{\"name\":\"River lore\",\"data\":{\"entries\":{"
                    + "\"0\":{\"uid\":0,\"key\":[\"ferry\"],\"content\":\"The ferryman takes only silver.\",\"order\":100,\"position\":0},"
                    + "\"1\":{\"uid\":1,\"key\":[\"dragon\"],\"content\":\"Dragons sleep under the hill.\",\"order\":100,\"position\":0}}}}").statusCode());
            assertEquals(200, server.client().post("/api/characters/merge-attributes",
                    "{\"avatar\":\"default_Wren.png\",\"data\":{\"extensions\":{\"world\":\"River lore\"}}}").statusCode());
            Browser.Page page = openWren(session);
            send(page, "Who runs the ferry?");
            page.waitFor("document.querySelectorAll('#messages article').length === 3 && !document.querySelector('#messages article.streaming')", STEP);
            String prompt = session.mock().lastCall("/v1/chat/completions").json().path("messages").toString();
            assertTrue(prompt.contains("The ferryman takes only silver."), "the entry whose key was mentioned: " + prompt);
            assertTrue(!prompt.contains("Dragons sleep under the hill."), "not the other: " + prompt);
            StUi.assertClean(page, "The page");
        }
    }

    @Test
    void aTextCompletionBackendGetsThePromptInTheUsersInstructTemplate() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TextCompletionProtocols.install(session.mock());
            TestServer server = session.server();
            ObjectNode settings = (ObjectNode) JsJson.parse(JsJson.parse(server.client().post("/api/settings/get", "{}").body().getBytes())
                    .path("settings").asText().getBytes());
            ((ObjectNode) settings.with("power_user")).set("instruct", JsJson.parse(("{\"enabled\":true,\"input_sequence\":\"<|im_start|>user\","
                    + "\"input_suffix\":\"<|im_end|>\\n\",\"output_sequence\":\"<|im_start|>assistant\",\"output_suffix\":\"<|im_end|>\\n\","
                    + "\"stop_sequence\":\"<|im_end|>\",\"wrap\":true,\"names_behavior\":\"none\"}").getBytes()));
            assertEquals(200, server.client().post("/api/settings/save", settings.toString()).statusCode());
            Browser.Page page = session.page();
            page.navigate(server.url("/#/connection"));
            OwnUi.boot(page);
            OwnUi.connectText(page, session.mock(), "llamacpp");
            page.navigate(server.url("/#/chat?avatar=default_Wren.png"));
            page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
            send(page, "Who keeps the inn?");
            page.waitFor("document.querySelectorAll('#messages article').length === 3 && !document.querySelector('#messages article.streaming')", STEP);
            assertEquals("Text reply 1.", text(page, "document.querySelector('#messages article:last-of-type .text').textContent"));
            JsonNode sent = session.mock().lastCall("/completion").json();
            String prompt = sent.path("prompt").asText();
            assertTrue(prompt.contains("<|im_start|>user\nWho keeps the inn?<|im_end|>\n"), prompt);
            assertTrue(prompt.endsWith("<|im_start|>assistant\n"), prompt);
            assertTrue(sent.path("stopping_strings").toString().contains("<|im_end|>"), "the template's stop sequence: " + sent);
            StUi.assertClean(page, "The page");
        }
    }

    @Test
    void groupChatsAreListedAndOpenToContinue() {
        try (TestServer server = TestServer.startIn(OwnUi.work("")); Browser browser = Browser.launch()) {
            String id = JsJson.parse(server.client().post("/api/groups/create",
                    "{\"name\":\"Hearth\",\"members\":[\"default_Wren.png\"]}").body().getBytes()).path("id").asText();
            assertEquals(200, server.client().post("/api/chats/group/save", "{\"id\":\"" + id + "\",\"chat\":["
                    + "{\"chat_metadata\":{},\"user_name\":\"unused\",\"character_name\":\"unused\"},"
                    + "{\"name\":\"Wren\",\"is_user\":false,\"is_system\":false,\"send_date\":\"2026-01-01T00:00:00.000Z\",\"mes\":\"Welcome, all of you.\",\"extra\":{}}]}").statusCode());
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/#/chat"));
            StUi.withScreenshot(page, "tankard-ops-7-group", () -> {
                OwnUi.boot(page);
                page.waitFor("document.querySelector('#groupChats a') !== null", STEP);
                page.click("#groupChats a");
                page.waitFor("document.querySelector('#messages article .text')?.textContent === 'Welcome, all of you.'", STEP);
                assertFalse(page.eval("document.querySelector('#input').disabled").asBoolean(), "continued here (TankardUiGroupTest)");
                assertEquals("Message Hearth", page.eval("document.querySelector('#input').placeholder").asText());
            });
            StUi.assertClean(page, "The page");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aNewCardIsCreatedAndEditedThenTheDarkThemeAndAPhoneWindow() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = OwnUi.openLibrary(session);
            StUi.withScreenshot(page, "tankard-ops-8-new-card", () -> {
                page.click("button:has-text('+ New')");
                page.type("#cardForm [name='name']", "Bramble");
                page.type("#cardForm [name='description']", "A hedge witch.");
                page.type("#cardForm [name='first_mes']", "Mind the nettles.");
                page.type("#cardForm [name='tags']", "witch, forest");
                page.click("dialog button[value='save']");
                page.waitFor("document.querySelector('.card[data-avatar=\"Bramble.png\"]') !== null", STEP);
            });
            JsonNode card = JsJson.parse(server.client().post("/api/characters/get", "{\"avatar_url\":\"Bramble.png\"}").body().getBytes());
            assertEquals("A hedge witch.", card.path("data").path("description").asText());
            assertEquals("[\"witch\",\"forest\"]", card.path("data").path("tags").toString());

            StUi.withScreenshot(page, "tankard-ops-9-edit-card", () -> {
                page.eval("document.querySelector('.card[data-avatar=\"Bramble.png\"]').dispatchEvent(new MouseEvent('contextmenu', {bubbles: true}))");
                page.click("dialog button[value='edit']");
                page.waitFor("document.querySelector('#cardForm [name=\"description\"]')?.value === 'A hedge witch.'", STEP);
                page.eval("document.querySelector('#cardForm [name=\"description\"]').value = 'A hedge witch of the old wood.'");
                page.click("dialog button[value='save']");
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            card = JsJson.parse(server.client().post("/api/characters/get", "{\"avatar_url\":\"Bramble.png\"}").body().getBytes());
            assertEquals("A hedge witch of the old wood.", card.path("data").path("description").asText());
            assertEquals("A hedge witch of the old wood.", card.path("description").asText());
            assertEquals("Mind the nettles.", card.path("data").path("first_mes").asText(), "untouched fields stay");

            StUi.withScreenshot(page, "tankard-ops-10-dark-phone", () -> {
                String before = text(page, "document.documentElement.dataset.theme");
                page.click("#themeToggle");
                String after = text(page, "document.documentElement.dataset.theme");
                assertTrue(!before.equals(after));
                page.setViewport(390, 844);
                page.reload();
                OwnUi.boot(page);
                assertEquals(after, text(page, "document.documentElement.dataset.theme"), "the theme is kept");
                page.waitFor("document.querySelector('.card') !== null", STEP);
                assertTrue(page.eval("document.documentElement.scrollWidth <= 390").asBoolean(), "nothing wider than the phone");
                page.click(WREN);
                page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
                assertTrue(page.eval("(() => { const a = document.querySelector('.chat aside').getBoundingClientRect();"
                        + " const m = document.querySelector('#messages').getBoundingClientRect(); return a.bottom <= m.top + 1 && m.width > 350; })()").asBoolean(),
                        "on a phone the chats sit above the messages, which take the width");
            });
            StUi.assertClean(page, "The page");
        }
    }
}
