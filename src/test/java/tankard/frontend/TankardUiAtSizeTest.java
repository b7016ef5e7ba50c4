package tankard.frontend;

import org.junit.jupiter.api.Test;
import tankard.testing.Browser;
import tankard.testing.Fixtures;
import tankard.testing.TestServer;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tankard's own UI at the sizes ST's frontend cannot take: a library of 20,000 generated cards and a chat of
 * 200 MB. It checks that both work (the first screen, scrolling to the end, the chat's last page, earlier pages on
 * scroll) and records how long they took and what the tab's heap holds (Chrome's {@code performance.memory}) in
 * {@code target/ui/at-size.txt}; the figures are reported, not asserted (timings belong to benchmarks).
 */
class TankardUiAtSizeTest {
    private static final Duration STEP = Duration.ofSeconds(60);
    private static final int CARDS = 20_000;
    private static final long CHAT_BYTES = 200L << 20;

    @Test
    void aLibraryOf20000CardsAndA200MbChatStayUsable() throws IOException {
        Path work = OwnUi.work("");
        Path characters = Files.createDirectories(work.resolve("data/default-user/characters"));
        for (int i = 0; i < CARDS; i++) {
            String name = String.format("Card %05d", i);
            Files.write(characters.resolve(name + ".png"), Fixtures.card("{\"name\":\"" + name + "\",\"description\":\"Card "
                    + i + " of the generated library.\",\"first_mes\":\"Hello.\",\"tags\":[\"tag" + (i % 7) + "\"]}"));
        }
        Path chatFolder = Files.createDirectories(work.resolve("data/default-user/chats/Card 00000"));
        long messages = writeChat(chatFolder.resolve("big.jsonl"));
        List<String> figures = new ArrayList<>();

        try (TestServer server = TestServer.startIn(work); Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            long started = System.nanoTime();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "tankard-at-size-1-library", () -> {
                page.waitFor("document.querySelectorAll('.card').length > 10", STEP);
                figures.add(String.format("library of %,d cards: first screen %d ms after navigation", CARDS + 1, millisSince(started)));
                assertEquals(String.format("%,d characters", CARDS + 1), page.eval("document.querySelector('#libraryCount').textContent").asText());
            });
            StUi.withScreenshot(page, "tankard-at-size-2-library-end", () -> {
                // scroll to the end in steps, as a wheel would, and measure the longest gap between frames
                page.eval("window.__frames = []; (function tick(t) { window.__frames.push(t); if (window.__frames.length < 100000) requestAnimationFrame(tick); })(performance.now())");
                long scrolled = System.nanoTime();
                page.eval("new Promise(done => { const g = document.querySelector('.grid'); let n = 0;"
                        + " const step = () => { g.scrollTop += g.clientHeight; if (++n < 60 && g.scrollTop + g.clientHeight < g.scrollHeight) setTimeout(step, 30); else done(); }; step(); })");
                page.eval("document.querySelector('.grid').scrollTop = document.querySelector('.grid').scrollHeight");
                page.waitFor("document.querySelector('.card[data-avatar=\"default_Wren.png\"]') !== null", STEP); // the last by name
                long gap = page.eval("(() => { const f = window.__frames; let m = 0; for (let i = 1; i < f.length; i++) m = Math.max(m, f[i] - f[i - 1]); return Math.round(m); })()").asLong();
                figures.add(String.format("scrolling the library to its end: %d ms, longest frame gap %d ms, %d cards in the page",
                        millisSince(scrolled), gap, page.eval("document.querySelectorAll('.card').length").asInt()));
                figures.add("tab heap after the library: " + heap(page));
            });

            long opened = System.nanoTime();
            page.navigate(server.url("/#/chat?avatar=" + java.net.URLEncoder.encode("Card 00000.png", StandardCharsets.UTF_8).replace("+", "%20") + "&file=big"));
            StUi.withScreenshot(page, "tankard-at-size-3-chat", () -> {
                page.waitFor("document.querySelector('#messages article:last-of-type .text')?.textContent.startsWith('Message " + (messages - 1) + " ')", STEP);
                figures.add(String.format("chat of %d MB (%,d messages): last page %d ms after navigation", CHAT_BYTES >> 20, messages, millisSince(opened)));
                String firstShown = "Number(document.querySelector('#messages article .text').textContent.split(' ')[1])";
                int before = page.eval(firstShown).asInt();
                long earlier = System.nanoTime();
                for (int i = 0; i < 5; i++) { // five steps back, scrolling up
                    int now = page.eval(firstShown).asInt();
                    page.eval("document.querySelector('#messages').scrollTop = 0");
                    page.waitFor(firstShown + " < " + now, STEP);
                }
                int after = page.eval(firstShown).asInt();
                assertTrue(after < before, "earlier messages came on scrolling up");
                assertTrue(page.eval("[...document.querySelectorAll('#messages article .text')].map((t) =>"
                                + " Number(t.textContent.split(' ')[1])).every((n, i, all) => i === 0 || n === all[i - 1] + 1)").asBoolean(),
                        "the messages shown join without a gap");
                int shown = page.eval("document.querySelectorAll('#messages article').length").asInt();
                figures.add(String.format("five steps back on scrolling up: %d ms (messages %d to %d shown, %d in the page)",
                        millisSince(earlier), after, after + shown - 1, shown));
                figures.add("tab heap with the chat open: " + heap(page));
            });
            StUi.assertClean(page, "The page");
        }
        Path report = Path.of(System.getProperty("user.dir"), "target", "ui", "at-size.txt");
        Files.createDirectories(report.getParent());
        Files.write(report, figures);
        figures.forEach(System.out::println);
    }

    /** A chat of about 200 MB: a header and messages of about 1.3 KB, "Message N ..." in order. */
    private static long writeChat(Path file) throws IOException {
        String filler = "lorem ipsum dolor sit amet ".repeat(45);
        long count = 0;
        long written = 0;
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            String header = "{\"user_name\":\"unused\",\"character_name\":\"unused\",\"chat_metadata\":{\"integrity\":\"at-size\"}}\n";
            out.write(header);
            written += header.length();
            while (written < CHAT_BYTES) {
                boolean user = count % 2 == 0;
                String line = "{\"name\":\"" + (user ? "User" : "Card 00000") + "\",\"is_user\":" + user
                        + ",\"is_system\":false,\"send_date\":\"2026-01-01T00:00:00.000Z\",\"mes\":\"Message " + count + " " + filler
                        + "\",\"extra\":{}}\n";
                out.write(line);
                written += line.length();
                count++;
            }
        }
        return count;
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    /** What the tab's JavaScript heap holds and has taken (Chrome's performance.memory), and its DOM's size. */
    private static String heap(Browser.Page page) {
        return page.eval("`${(performance.memory.usedJSHeapSize / 1048576).toFixed(1)} MB used of "
                + "${(performance.memory.totalJSHeapSize / 1048576).toFixed(1)} MB, ${document.getElementsByTagName('*').length} elements`").asText();
    }
}
