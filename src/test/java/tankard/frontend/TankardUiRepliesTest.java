package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Replies in Tankard's own UI through the server's engine ({@code POST /api/tankard/generate}): the hint to connect
 * first, a send before connecting that says why it failed and can be retried, the badge after a reload and when a
 * reply fails, a reply cut off by a dying backend, continue, impersonate and regenerate after the user's own
 * message (buttons and ST's keys), a bad import, and toasts that keep clear of Send. Screenshots in target/ui/.
 */
class TankardUiRepliesTest {
    private static final Duration STEP = OwnUi.STEP;
    private static final String WREN = ".card[data-avatar='default_Wren.png']";
    private static final String LAST_TEXT = "document.querySelector('#messages article:last-of-type .text').textContent";

    private static String text(Browser.Page page, String script) {
        return page.eval(script).asText();
    }

    private static List<JsonNode> lines(UserFiles files) {
        return files.read(files.chatPaths().get(0)).lines().map(JsJson::parse).toList();
    }

    /** The user's settings.json with a change, saved through the settings route as ST's frontend saves it. */
    private static void changeSettings(TestServer server, java.util.function.Consumer<ObjectNode> change) {
        ObjectNode settings = (ObjectNode) JsJson.parse(JsJson.parse(server.client().post("/api/settings/get", "{}").body()
                .getBytes()).path("settings").asText().getBytes());
        change.accept(settings);
        assertEquals(200, server.client().post("/api/settings/save", settings.toString()).statusCode());
    }

    /** A port nothing listens on. */
    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void openWren(Browser.Page page) {
        page.click("a[data-nav='characters']");
        page.waitFor("document.querySelector(" + OwnUi.js(WREN) + ") !== null", STEP);
        page.click(WREN);
        page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
    }

    private static Browser.Page connectAndOpenWren(OwnUi.Session session) {
        Browser.Page page = session.page();
        page.navigate(session.server().url("/#/connection"));
        OwnUi.boot(page);
        OwnUi.connect(page, session.mock());
        openWren(page);
        return page;
    }

    private static void send(Browser.Page page, String text) {
        page.type("#input", text);
        page.click("#send");
    }

    /** Whether two elements' boxes overlap on the screen. */
    private static boolean overlap(Browser.Page page, String a, String b) {
        return page.eval("(() => { const r = document.querySelector(" + OwnUi.js(a) + ").getBoundingClientRect();"
                + " const s = document.querySelector(" + OwnUi.js(b) + ").getBoundingClientRect();"
                + " return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom; })()").asBoolean();
    }

    @Test
    void aFreshUserIsAskedToConnectFirstAndASendThatFailsSaysWhyKeepsTheMessageAndRetries() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            // a fresh user's settings name KoboldCpp on 127.0.0.1:5001; here a port surely closed, firstRun kept
            String unreachable = "http://127.0.0.1:" + closedPort();
            changeSettings(server, s -> ((ObjectNode) s.with("textgenerationwebui_settings").with("server_urls"))
                    .put("koboldcpp", unreachable));
            Browser.Page page = OwnUi.openLibrary(session);
            StUi.withScreenshot(page, "tankard-replies-1-connect-hint", () -> {
                assertFalse(page.eval("document.querySelector('#connectHint').hidden").asBoolean(), "the hint shows");
                assertTrue(text(page, "document.querySelector('#connectHint').textContent").contains("connect one"));
                assertEquals("not connected", text(page, "document.querySelector('#connectionBadge').textContent"));
            });
            // a settings save that is not a connection (a persona, a preset) leaves the user not connected
            page.eval("import('/js/state.js').then(async ({ state, saveSettings }) => { state.settings.temp = 0.5;"
                    + " await saveSettings(); })");
            assertTrue(JsJson.parse(JsJson.parse(server.client().post("/api/settings/get", "{}").body().getBytes())
                    .path("settings").asText().getBytes()).path("firstRun").asBoolean(), "firstRun kept by a save");
            page.reload();
            OwnUi.boot(page);
            assertFalse(page.eval("document.querySelector('#connectHint').hidden").asBoolean(), "the hint still shows");

            StUi.withScreenshot(page, "tankard-replies-2-send-refused", () -> {
                openWren(page);
                send(page, "Is anyone there?");
                page.waitFor("document.querySelector('#replyFailed') !== null && !document.querySelector('#messages article.streaming')", STEP);
                String failure = text(page, "document.querySelector('#replyFailed').textContent");
                assertTrue(failure.contains("Connection refused"), "the real reason: " + failure);
                String toasts = text(page, "document.getElementById('toasts').textContent");
                assertTrue(toasts.contains("Connection refused") && !toasts.contains("true"), toasts);
                assertEquals("Is anyone there?", text(page, LAST_TEXT), "the message stays");
                assertTrue(page.eval("document.querySelector('#messages article:last-of-type').classList.contains('user')").asBoolean());
                assertTrue(text(page, "document.querySelector('#connectionBadge').textContent").endsWith("offline"));
                assertTrue(page.eval("document.querySelector('#connectionBadge').classList.contains('offline')").asBoolean());
                assertFalse(overlap(page, "#toasts .toast.error", "#send"), "the error toast keeps clear of Send");
            });
            List<JsonNode> kept = lines(server.files());
            assertEquals("Is anyone there?", kept.get(kept.size() - 1).path("mes").asText(), "saved by the engine");
            StUi.withScreenshot(page, "tankard-replies-3-toast-on-a-phone", () -> {
                page.setViewport(390, 844);
                assertFalse(overlap(page, "#toasts .toast.error", "#send"), "on a phone too");
            });
            page.setViewport(1280, 800);

            changeSettings(server, s -> {
                s.put("main_api", "openai");
                ((ObjectNode) s.with("oai_settings")).put("chat_completion_source", "custom")
                        .put("custom_url", session.mock().baseUrl()).put("custom_model", MockCompletionServer.MODEL);
            });
            StUi.withScreenshot(page, "tankard-replies-4-retried", () -> {
                page.click("#retry");
                page.waitFor("document.querySelectorAll('#messages article').length === 3"
                        + " && !document.querySelector('#messages article.streaming') && !document.querySelector('#replyFailed')", STEP);
                assertEquals("Mock reply 1.", text(page, LAST_TEXT));
                assertTrue(page.eval("document.querySelector('#connectionBadge').classList.contains('ok')").asBoolean());
                assertTrue(page.eval("document.querySelector('#connectHint').hidden").asBoolean(), "a backend answered");
            });
            List<String> said = lines(server.files()).stream().skip(2).map(line -> line.path("mes").asText()).toList();
            assertEquals(List.of("Is anyone there?", "Mock reply 1."), said, "the retry replied to the kept message");
        }
    }

    @Test
    void theBadgeTurnsGreenAfterAReloadAndSaysOfflineWhenAReplyFails() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            Browser.Page page = connectAndOpenWren(session);
            StUi.withScreenshot(page, "tankard-replies-5-badge-after-reload", () -> {
                page.reload();
                OwnUi.boot(page);
                page.waitFor("document.querySelector('#connectionBadge').classList.contains('ok')", STEP);
                assertTrue(page.eval("document.querySelector('#connectHint').hidden").asBoolean());
            });
            session.mock().onCompletion(request -> request.connection().close());
            StUi.withScreenshot(page, "tankard-replies-6-badge-offline", () -> {
                page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
                send(page, "Still there?");
                page.waitFor("document.querySelector('#replyFailed') !== null", STEP);
                assertTrue(text(page, "document.querySelector('#connectionBadge').textContent").endsWith("offline"));
                assertFalse(page.eval("document.querySelector('#connectionBadge').classList.contains('ok')").asBoolean());
            });
        }
    }

    @Test
    void aReplyCutOffByADyingBackendIsMarkedAndStaysMarked() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = connectAndOpenWren(session);
            session.mock().onCompletion(request -> {
                request.response().setChunked(true).putHeader("Content-Type", "text/event-stream");
                request.response().write(MockCompletionServer.deltaEvent("The road runs "));
                request.response().write(MockCompletionServer.deltaEvent("east, past the"));
                server.vertx.setTimer(300, t -> request.connection().close()); // the backend dies mid-reply
            });
            StUi.withScreenshot(page, "tankard-replies-7-cut-off", () -> {
                send(page, "Where does the road go?");
                page.waitFor("document.querySelector('#replyFailed') !== null && !document.querySelector('#messages article.streaming')", STEP);
                assertTrue(text(page, "document.querySelector('#replyFailed').textContent")
                        .contains("stopped before the reply was complete"));
                assertEquals("The road runs east, past the", text(page, LAST_TEXT), "what came is kept");
                assertEquals("", text(page, "document.querySelector('#input').value"), "the question is in the chat, not back in the box");
                assertTrue(text(page, "document.querySelector('#messages article:last-of-type .cut')?.textContent ?? ''")
                        .contains("stopped before the reply was complete"), "and marked");
            });
            JsonNode reply = lines(server.files()).get(3);
            assertTrue(reply.at("/extra/tankard_cut_off").asText().contains("stopped before the reply was complete"), reply.toString());
            StUi.withScreenshot(page, "tankard-replies-8-cut-off-reloaded", () -> {
                page.reload();
                OwnUi.boot(page);
                page.waitFor("document.querySelector('#messages article:last-of-type .cut') !== null", STEP);
            });
        }
    }

    @Test
    void continueImpersonateAndRegenerateAfterTheUsersOwnMessageByButtonAndKey() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            MockCompletionServer mock = session.mock();
            AtomicInteger n = new AtomicInteger();
            mock.onCompletion(request -> {
                int call = n.incrementAndGet();
                // the third call is the impersonation: the model names the user and goes on as Wren, which ST cleans off
                String said = call == 3 ? "User: A room for the night.\nWren: Of course." : "Reply " + call + ".";
                request.response().setChunked(true).putHeader("Content-Type", "text/event-stream")
                        .end(MockCompletionServer.deltaEvent(said) + "data: [DONE]\n\n");
            });
            Browser.Page page = connectAndOpenWren(session);
            int opened = page.responses().size();
            for (String id : List.of("regenerate", "continue", "impersonate")) {
                assertTrue(page.eval("(() => { const b = document.getElementById(" + OwnUi.js(id) + ");"
                        + " return b.tagName === 'BUTTON' && b.offsetWidth > 0 && b.textContent.length > 0; })()").asBoolean(), id);
            }
            page.press("#send", "Tab");
            assertEquals("regenerate", text(page, "document.activeElement.id"), "the actions follow Send in the keyboard's order");

            send(page, "Tell me of the roads.");
            page.waitFor("document.querySelectorAll('#messages article').length === 3 && !document.querySelector('#messages article.streaming')", STEP);
            assertEquals("Reply 1.", text(page, LAST_TEXT));

            StUi.withScreenshot(page, "tankard-replies-9-continue", () -> {
                page.press("#input", "Alt+Enter"); // ST's key for continue
                page.waitFor(LAST_TEXT + ".includes('Reply 2.') && !document.querySelector('#messages article.streaming')", STEP);
                assertTrue(text(page, LAST_TEXT).startsWith("Reply 1."), text(page, LAST_TEXT));
            });
            assertEquals(4, lines(server.files()).size(), "a continue adds to the reply");
            assertTrue(lines(server.files()).get(3).path("mes").asText().contains("Reply 2."));

            StUi.withScreenshot(page, "tankard-replies-10-impersonate", () -> {
                page.press("#impersonate", "Enter");
                page.waitFor("document.querySelector('#input').value === 'A room for the night.' && !document.querySelector('#stop:not([hidden])')", STEP);
            });
            assertEquals(4, lines(server.files()).size(), "an impersonation saves nothing");
            page.type("#input", "");

            page.click("#messages article:last-of-type [aria-label='Delete']");
            page.click("dialog button[value='delete']");
            page.waitFor("document.querySelectorAll('#messages article').length === 2", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            StUi.withScreenshot(page, "tankard-replies-11-regenerate-after-own-message", () -> {
                assertTrue(page.eval("document.querySelector(\"#messages article.user [aria-label='Reply']\") !== null").asBoolean(),
                        "the user's last message offers a reply");
                page.press("#input", "Control+Enter"); // ST's key for regenerate
                page.waitFor("document.querySelectorAll('#messages article').length === 3 && !document.querySelector('#messages article.streaming')", STEP);
                assertEquals("Reply 4.", text(page, LAST_TEXT));
            });
            List<String> said = lines(server.files()).stream().skip(2).map(line -> line.path("mes").asText()).toList();
            assertEquals(List.of("Tell me of the roads.", "Reply 4."), said);
            assertTrue(mock.lastCall("/v1/chat/completions").json().path("messages").toString().contains("Tell me of the roads."));

            page.click("#regenerate");
            page.waitFor(LAST_TEXT + " === 'Reply 5.' && !document.querySelector('#messages article.streaming')", STEP);
            assertEquals(4, lines(server.files()).size(), "a regenerate of a reply replaces it");
            List<String> asked = page.responses().subList(opened, page.responses().size()).stream()
                    .map(r -> r.url().replaceFirst("^https?://[^/]+", "")).toList();
            assertEquals(5, asked.stream().filter(url -> url.equals("/api/tankard/generate")).count(), asked.toString());
            assertTrue(asked.stream().noneMatch(url -> url.startsWith("/api/backends/") || url.equals("/api/chats/save")
                            || url.startsWith("/api/worldinfo/")),
                    "no prompt built in the browser, no chat uploaded whole: " + asked);
            StUi.assertClean(page, "The page");
        }
    }

    @Test
    void aBadImportSaysTheServersReason() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            Browser.Page page = OwnUi.openLibrary(session);
            Path file = Files.createTempDirectory("tankard-import").resolve("notacard.png");
            Files.writeString(file, "This is not a PNG.");
            StUi.withScreenshot(page, "tankard-replies-12-bad-import", () -> {
                page.chooseFiles(() -> page.click("#importButton"), file);
                page.waitFor("document.getElementById('toasts').textContent.includes('notacard.png')", STEP);
                String toast = text(page, "document.getElementById('toasts').textContent");
                assertTrue(toast.startsWith("Cannot import") && !toast.contains("true"), toast);
            });
        }
    }
}
