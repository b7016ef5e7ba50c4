package tankard.frontend;

import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.testing.Browser;
import tankard.testing.GitHttpServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;

/**
 * Issue 7's third-party extension acceptance through ST's own Extensions panel: a tiny extension in a git
 * repository the test makes (served over git's HTTP protocol on loopback) is installed from the "Install
 * extension" dialog by its URL and runs, is updated from "Manage extensions" after a new commit and runs in its
 * new version after a reload, then is deleted; the folder on disk is checked at each step. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendExtensionsUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendExtensionsUiTest {
    private static final Duration STEP_TIMEOUT = StUi.STEP_TIMEOUT;
    private static final String NAME = "tankard-tiny-ext";
    private static final String MANIFEST = """
            {"display_name":"Tankard Tiny","version":"1.0.0","author":"Tester","js":"index.js","loading_order":100}
            """;
    private static final String LOADED = "globalThis.tankardTinyExt";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    private static String script(String version) {
        return LOADED + " = '" + version + "';\n";
    }

    @Test
    void installUpdateAndDeleteAThirdPartyExtension() throws IOException {
        try (GitHttpServer repos = GitHttpServer.start();
             TestServer server = StUi.startTankard(stDir);
             Browser browser = Browser.launch()) {
            Git origin = repos.create(NAME, Map.of("manifest.json", MANIFEST, "index.js", script("v1")));
            Path folder = server.userDir().resolve("extensions").resolve(NAME);
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.boot(page);

            StUi.withScreenshot(page, "st-extensions-1-install", () -> {
                StUi.openDrawer(page, "extensions-settings-button");
                page.click("#third_party_extension_button");
                page.awaitVisible("dialog[open] .popup-input");
                page.type("dialog[open] .popup-input", repos.url(NAME));
                page.click("dialog[open] .popup-button-ok");
                confirm(page, "Are you sure you want to proceed?"); // not an official ST extension
                page.waitFor(LOADED + " === 'v1'", STEP_TIMEOUT);
                assertEquals(script("v1"), read(folder.resolve("index.js")));
                assertEquals(MANIFEST, read(folder.resolve("manifest.json")));
                assertTrue(Files.isDirectory(folder.resolve(".git")));
                page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
                StUi.assertClean(page, "Installing an extension");
            });

            GitHttpServer.commit(origin, Map.of("index.js", script("v2")), "version 2");
            String commit = origin.getRepository().resolve("HEAD").name().substring(0, 7);
            StUi.withScreenshot(page, "st-extensions-2-update", () -> {
                page.click("#extensions_details");
                String update = ".extensions_info .btn_update[data-name=\"/" + NAME + "\"]";
                page.waitFor("document.querySelector(" + jsString(update + ":not(.displayNone)") + ") !== null", STEP_TIMEOUT);
                page.click(update);
                page.waitFor("[...document.querySelectorAll('.toast')].some(t => t.textContent.includes("
                        + jsString(commit) + "))", STEP_TIMEOUT);
                assertEquals(script("v2"), read(folder.resolve("index.js")));
                // the panel reopens and checks versions again: let that finish before the page goes away
                page.waitForNetworkIdle(StUi.QUIET, STEP_TIMEOUT);
            });
            StUi.withScreenshot(page, "st-extensions-3-reloaded", () -> {
                page.reload();
                StUi.boot(page);
                page.waitFor(LOADED + " === 'v2'", STEP_TIMEOUT);
                StUi.assertClean(page, "Updating an extension");
            });

            StUi.withScreenshot(page, "st-extensions-4-delete", () -> {
                StUi.openDrawer(page, "extensions-settings-button");
                page.click("#extensions_details");
                page.click(".extensions_info .btn_delete[data-name=\"/" + NAME + "\"]");
                confirm(page, "Are you sure you want to delete");
                page.waitFor("[...document.querySelectorAll('.toast')].some(t => t.textContent.includes('deleted'))",
                        STEP_TIMEOUT);
                assertFalse(Files.exists(folder));
                // the frontend reloads itself a second after a delete
                page.waitFor("document.readyState === 'complete' && " + LOADED + " === undefined", STEP_TIMEOUT);
                StUi.boot(page);
                assertTrue(page.eval(LOADED + " === undefined").asBoolean());
                StUi.assertClean(page, "Deleting an extension");
            });
        }
    }

    /** Answers yes in the topmost popup once it asks the question. */
    private static void confirm(Browser.Page page, String question) {
        page.waitFor("[...document.querySelectorAll('dialog[open]')].at(-1)?.textContent.includes(" + jsString(question) + ")",
                STEP_TIMEOUT);
        page.click("dialog[open]:last-of-type .popup-button-ok");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
