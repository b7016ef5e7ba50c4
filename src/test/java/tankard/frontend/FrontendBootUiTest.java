package tankard.frontend;

import org.junit.jupiter.api.Test;
import tankard.testing.Browser;
import tankard.testing.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tankard's own placeholder UI ({@code public/} of this repository) boots in a real browser. */
class FrontendBootUiTest {
    @Test
    void ownFrontendConnectsToTheServer() {
        Path work = TestServer.tempDir();
        copyTree(Path.of(System.getProperty("user.dir"), "public"), work.resolve("public"));
        try (TestServer server = TestServer.startIn(work); Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            page.waitFor("document.querySelector('#status').dataset.ready === 'true'", Duration.ofSeconds(15));

            assertEquals("Tankard", page.eval("document.title").asText());
            assertEquals(200, page.eval("fetch('/csrf-token').then(r => r.status)").asInt());
            assertEquals(200, page.eval("fetch('/version').then(r => r.status)").asInt());
            assertTrue(page.failedResponses().isEmpty() && page.consoleErrors().isEmpty(), page.report());
            String status = page.eval("document.querySelector('#status').textContent").asText();
            assertTrue(status.matches("Connected: speaks SillyTavern 1\\.18\\.0, \\d+ character\\(s\\)\\."), status);
        }
    }

    private static void copyTree(Path from, Path to) {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path source : (Iterable<Path>) walk::iterator) {
                Files.copy(source, to.resolve(from.relativize(source).toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
