package tankard.testing;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The UI harness itself: what it records is what UI tests rely on to fail. */
class BrowserTest {
    @Test
    void recordsFailedResponsesConsoleErrorsAndExceptions() throws Exception {
        try (TestServer server = TestServer.start(); Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            assertEquals("Tankard test", page.eval("document.title").asText());
            assertTrue(page.failedResponses().isEmpty(), page.report());

            assertEquals(404, page.eval("fetch('/api/nothing-here').then(r => r.status)").asInt());
            eventually(() -> page.failedResponses().contains(
                    new Browser.FailedResponse("GET", server.url("/api/nothing-here"), 404)), page);

            page.eval("console.error('boom', 42)");
            page.eval("setTimeout(() => { throw new Error('kaboom'); })");
            eventually(() -> page.consoleErrors().contains(new Browser.ConsoleError("console", "boom 42")), page);
            eventually(() -> page.consoleErrors().stream()
                    .anyMatch(e -> e.source().equals("exception") && e.text().contains("kaboom")), page);

            assertEquals(4, page.eval("const three = 3; three + 1").asInt(), "a script's value is its last statement's");
            page.eval("setTimeout(() => window.later = {ready: true}, 200)");
            page.waitFor("window.later.ready", Duration.ofSeconds(5)); // throws until then
            IllegalStateException jsError = assertThrows(IllegalStateException.class, () -> page.eval("null.x"));
            assertTrue(jsError.getMessage().contains("TypeError"), jsError.getMessage());
            assertThrows(AssertionError.class, () -> page.waitFor("false", Duration.ofMillis(300)));

            Path png = server.workDir.resolve("shot.png");
            page.screenshot(png);
            byte[] magic = new byte[]{(byte) 0x89, 'P', 'N', 'G'};
            byte[] head = new byte[4];
            System.arraycopy(Files.readAllBytes(png), 0, head, 0, 4);
            assertArrayEquals(magic, head);
        }
    }

    @Test
    void typesAndClicksLikeAUser() {
        try (TestServer server = TestServer.start(); Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            page.eval("document.body.innerHTML = '<input id=name><button id=go"
                    + " onclick=\"document.title = document.getElementById(`name`).value\">Go</button>'");
            page.type("#name", "Seraphine");
            page.click("#go");
            page.waitFor("document.title === 'Seraphine'", Duration.ofSeconds(5));

            page.eval("document.body.insertAdjacentHTML('beforeend',"
                    + " '<div style=\"position: fixed; inset: 0; background: white\"></div>')");
            AssertionError covered = assertThrows(AssertionError.class, () -> page.click("#go"));
            assertTrue(covered.getMessage().contains("intercepts pointer events"), covered.getMessage());
            AssertionError hidden = assertThrows(AssertionError.class, () -> page.awaitVisible("#go"));
            assertTrue(hidden.getMessage().contains("intercepts pointer events"), hidden.getMessage());
        }
    }

    @Test
    void recordsEveryResponseAcrossReloads() {
        try (TestServer server = TestServer.start(); Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            Browser.Response document = new Browser.Response("GET", server.url("/"), 200, "text/html");
            eventually(() -> page.responses().contains(document), page);

            page.eval("window.marker = 1");
            page.reload();
            assertTrue(page.eval("window.marker === undefined").asBoolean(), "the page was not reloaded");
            eventually(() -> page.responses().stream().filter(document::equals).count() == 2, page);

            int before = page.responses().size();
            page.eval("fetch('/api/nothing-here')");
            Browser.Response missing = page.awaitResponse(before,
                    r -> r.url().endsWith("/api/nothing-here"), Duration.ofSeconds(5));
            assertEquals(404, missing.status());
            assertThrows(AssertionError.class, () -> page.awaitResponse(before, r -> r.status() == 201, Duration.ofMillis(300)));
        }
    }

    /** Events arrive asynchronously to command answers: wait a moment for them. */
    private static void eventually(BooleanSupplier condition, Browser.Page page) {
        page.waitUntil(condition, Duration.ofSeconds(5), () -> "not recorded");
    }
}
