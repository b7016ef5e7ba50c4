package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.CpuUse;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 20,000-message chat in Tankard's own UI (public/js/chat.js): the page holds a window of messages however far
 * back the user scrolls, reaches the oldest message and comes back to the newest, and a message's controls act on
 * that message after earlier pages were read. How long opening takes (the server's first chat, and again from the
 * character list) and the tasks and frames over 50 ms while scrolling are measured and written to
 * {@code target/ui/long-chat.txt} (figures, not assertions: speed is not asserted in tests), with the requests of
 * the first open and what the machine's processes spent of its processors while scrolling (a busy machine lengthens
 * the page's tasks).
 */
class TankardUiLongChatTest {
    private static final Duration STEP = OwnUi.STEP;
    private static final int MESSAGES = Integer.getInteger("longChat.messages", 20_000);
    private static final String CHAT = "Wren - long";
    private static final String LINK = "#/chat?avatar=default_Wren.png&file=" + CHAT.replace(" ", "%20");
    /** The page's elements at most: a window of messages, not the chat. */
    private static final int MAX_NODES = 3_000;

    private static void writeChat(TestServer server) {
        List<String> lines = new ArrayList<>(List.of("{\"user_name\":\"User\",\"character_name\":\"Wren\","
                + "\"create_date\":\"2026-12-01@10h00m00s000ms\",\"chat_metadata\":{}}"));
        for (int i = 0; i < MESSAGES; i++) {
            boolean user = i % 2 == 1;
            lines.add(JsJson.compact(JsJson.object().put("name", user ? "User" : "Wren").put("is_user", user)
                    .put("is_system", false).put("send_date", "2026-12-01T10:00:00.000Z")
                    .put("mes", "Message number " + i + ": the *bees* hum by the river gate, and the lantern "
                            + "is lit again at dusk.")));
        }
        server.files().write("chats/default_Wren/" + CHAT + ".jsonl", String.join("\n", lines));
    }

    /** Scrolls the message list toward one end until `done` holds; answers the tasks and frames over 50 ms and the most elements. */
    private static JsonNode scroll(Browser.Page page, String toward, String done) {
        return page.eval("(async () => {"
                // tasks and frames (Chromium's long animation frames: a frame's tasks, style, layout and paint) over 50 ms
                // and when each long frame began, in seconds from the start of the scroll
                + " const over = { longtask: [0, { duration: 0 }], 'long-animation-frame': [0, { duration: 0 }] };"
                + " const start = performance.now(); const slowAt = [];"
                + " const observers = Object.keys(over).map((type) => { const observer = new PerformanceObserver((list) => {"
                + "   for (const e of list.getEntries()) { over[type][0]++; if (e.duration > over[type][1].duration) over[type][1] = e;"
                + "     if (type === 'long-animation-frame') slowAt.push(Math.round((e.startTime - start) / 100) / 10); } });"
                + "   observer.observe({ type }); return observer; });"
                + " const box = document.getElementById('messages'); let most = 0;"
                + " for (let i = 0; i < 20000 && !(" + done + "); i++) {"
                + "   box.scrollTop = " + toward + ";"
                + "   await new Promise((resolve) => setTimeout(resolve, 10));"
                + "   most = Math.max(most, document.getElementsByTagName('*').length); }"
                + " await new Promise((resolve) => setTimeout(resolve, 100)); observers.forEach((o) => o.disconnect());"
                + " return { done: !!(" + done + "), ms: performance.now() - start, most,"
                + "   long: over.longtask[0], longest: over.longtask[1].duration, slowFrames: over['long-animation-frame'][0], slowAt,"
                // the slowest frame's parts: its scripts (with the style and layout they forced) and its rendering
                + "   slowest: ((f) => ({ ms: f.duration, scripts: (f.scripts ?? []).reduce((sum, s) => sum + s.duration, 0),"
                + "     forced: (f.scripts ?? []).reduce((sum, s) => sum + s.forcedStyleAndLayoutDuration, 0),"
                + "     rendering: f.renderStart ? f.startTime + f.duration - f.renderStart : 0 }))(over['long-animation-frame'][1]),"
                + "   shown: document.querySelectorAll('#messages article').length,"
                + "   first: document.querySelector('#messages article')?.dataset.index }; })()");
    }

    @Test
    void aTwentyThousandMessageChatScrollsToItsStartAndBackWithAWindowOfMessagesInThePage() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            writeChat(session.server());
            Browser.Page page = OwnUi.openLibrary(session);
            // as a user picks a chat from the library shown: its pictures in, the server idle
            page.waitFor("[...document.images].every((image) => image.complete)", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            double open = open(page); // the server's first chat: its code runs for the first time
            String openRequests = requestsOfOpening(page, open);
            page.waitFor("document.querySelectorAll('#messages article').length > 0", STEP);
            assertTrue(text(page, "#messages article:last-of-type .text").contains("Message number " + (MESSAGES - 1) + ":"));
            // as a user starts scrolling once the chat is in: its side panels read and drawn (the open is measured above)
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);

            CpuUse cpu = CpuUse.now();
            JsonNode back = scroll(page, "0", "document.querySelector('#messages [data-index=\"0\"]')"
                    + " && !document.getElementById('older')");
            assertTrue(back.path("done").asBoolean(), "the oldest message is reached: " + back);
            assertTrue(text(page, "#messages article:first-of-type .text").startsWith("Message number 0:"),
                    "the chat's first message at the top");
            assertTrue(back.path("most").asInt() <= MAX_NODES, "a window of messages in the page: " + back);
            StUi.withScreenshot(page, "tankard-long-chat-oldest", () -> {
                page.click("#messages article:first-of-type button[aria-label='Edit']");
                page.waitFor("document.querySelector('#editText') !== null", STEP);
                assertTrue(page.eval("document.querySelector('#editText').value").asText().startsWith("Message number 0:"),
                        "the control edits its own message after 100 earlier pages were read");
            });
            page.press("Escape");
            page.waitFor("document.querySelector('#editText') === null", STEP);

            JsonNode forth = scroll(page, "box.scrollHeight", "document.querySelector('#messages [data-index=\""
                    + (MESSAGES - 1) + "\"]')");
            assertTrue(forth.path("done").asBoolean(), "the newest message is reached again: " + forth);
            assertTrue(forth.path("most").asInt() <= MAX_NODES, "a window of messages in the page: " + forth);
            String used = cpu.since();
            assertFalse(page.eval("document.querySelector('#messages [data-index=\"0\"]') !== null").asBoolean(),
                    "the oldest ones left the page");
            assertEquals(0, page.consoleErrors().size(), page.report());

            double[] reopened = new double[5]; // from the character list again, as a user goes back to a chat
            for (int i = 0; i < reopened.length; i++) {
                page.eval("location.hash = '#/characters'");
                page.waitFor("document.getElementById('messages') === null", STEP);
                reopened[i] = open(page);
            }
            java.util.Arrays.sort(reopened);

            String figures = String.format("A %,d-message chat in Tankard's UI: opened in %.0f ms (the server's first"
                            + " chat; %s), again in %.0f ms (median of %d); scrolled to the oldest message in %.1f s (%s;"
                            + " at most %d elements in the page, %d messages shown); back to the newest in %.1f s (%s; at"
                            + " most %d elements); load average %s; while scrolling, %s%n",
                    MESSAGES, open, openRequests, reopened[reopened.length / 2], reopened.length,
                    back.path("ms").asDouble() / 1000, overFifty(back), back.path("most").asInt(), back.path("shown").asInt(),
                    forth.path("ms").asDouble() / 1000, overFifty(forth), forth.path("most").asInt(),
                    Files.readString(Path.of("/proc/loadavg")).split(" ")[0], used);
            Path report = Path.of("target", "ui", "long-chat.txt");
            Files.createDirectories(report.getParent());
            Files.writeString(report, figures);
            System.out.print(figures);
        }
    }

    @Test
    void aViewTooTallForTheMessagesFirstDrawnFillsWithEarlierOnesUntilItCanScrollToThem() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            List<String> lines = new ArrayList<>(List.of("{\"user_name\":\"User\",\"character_name\":\"Wren\",\"chat_metadata\":{}}"));
            for (int i = 0; i < 400; i++) { // one short line each: the first messages drawn do not fill the view
                lines.add(JsJson.compact(JsJson.object().put("name", "Wren").put("is_user", false)
                        .put("send_date", "2026-12-01T10:00:00.000Z").put("mes", "m" + i)));
            }
            session.server().files().write("chats/default_Wren/" + CHAT + ".jsonl", String.join("\n", lines));
            Browser.Page page = OwnUi.openLibrary(session);
            page.setViewport(1280, 6000); // taller than the first window of messages drawn
            page.eval("location.hash = " + OwnUi.js(LINK));
            page.waitFor("(() => { const box = document.getElementById('messages');"
                    + " return box && box.scrollHeight - box.clientHeight > 300; })()", STEP);
            assertTrue(scroll(page, "0", "document.querySelector('#messages [data-index=\"0\"]')"
                    + " && !document.getElementById('older')").path("done").asBoolean());
            assertEquals("m0", text(page, "#messages article:first-of-type .text").trim(),
                    "scrolling up from a filled view reaches the first message");
        }
    }

    /** Opens the long chat from where the page is; answers the time until its first message is drawn. */
    private static double open(Browser.Page page) {
        return page.eval("new Promise((resolve) => { const start = performance.now(); window.openedAt = start;"
                + " location.hash = " + OwnUi.js(LINK) + ";"
                + " const check = () => document.querySelector('#messages article') ? resolve(performance.now() - start)"
                + "   : requestAnimationFrame(check); requestAnimationFrame(check); })").asDouble();
    }

    /** "characters/get 61 ms, chats/tail 70 ms": the requests of the last open that ended before its first message. */
    private static String requestsOfOpening(Browser.Page page, double open) {
        return page.eval("performance.getEntriesByType('resource').filter((r) => r.startTime >= window.openedAt"
                + "   && r.responseEnd <= window.openedAt + " + open + ")"
                + " .map((r) => `${new URL(r.name).pathname.replace(/^\\/api\\/(tankard\\/)?/, '')} ${Math.round(r.duration)} ms`)"
                + " .join(', ')").asText();
    }

    /**
     * "0 tasks over 50 ms, 0 frames over 50 ms" of a scroll, with the longest of each when there are some, when the
     * long frames began, and what the slowest frame spent on scripts (the style and layout they forced among it) and
     * on rendering: the rest of a frame is other tasks, or waiting for the processor.
     */
    private static String overFifty(JsonNode scroll) {
        JsonNode slowest = scroll.path("slowest");
        List<String> slowAt = new ArrayList<>();
        scroll.path("slowAt").forEach((seconds) -> slowAt.add(seconds.asText()));
        String frameParts = slowest.path("ms").asDouble() > 0 ? String.format(" (at %s s of the scroll; the longest %.0f ms:"
                        + " scripts %.0f ms, of which forced style and layout %.0f; rendering %.0f)", String.join(", ", slowAt),
                slowest.path("ms").asDouble(),
                slowest.path("scripts").asDouble(), slowest.path("forced").asDouble(), slowest.path("rendering").asDouble()) : "";
        return String.format("%d tasks over 50 ms%s, %d frames over 50 ms%s", scroll.path("long").asInt(),
                longest(scroll.path("longest")), scroll.path("slowFrames").asInt(), frameParts);
    }

    private static String longest(JsonNode ms) {
        return ms.asDouble() > 0 ? String.format(" (the longest %.0f ms)", ms.asDouble()) : "";
    }

    private static String text(Browser.Page page, String selector) {
        return page.eval("document.querySelector(" + OwnUi.js(selector) + ")?.textContent ?? ''").asText();
    }
}
