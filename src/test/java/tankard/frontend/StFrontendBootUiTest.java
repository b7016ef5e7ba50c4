package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.TestServer;
import tankard.user.FileAccountStore;
import tankard.user.Passwords;
import tankard.user.User;

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
 * The unmodified SillyTavern frontend boots against Tankard in a real browser. Needs an ST install, which
 * cannot be part of the repository: run it locally with {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test
 * -Dtest=StFrontendBootUiTest}. Each run starts from a fresh data root that the server seeds from the
 * install's default content; screenshots go to {@code target/ui/}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendBootUiTest {
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(15);
    private static final Path SCREENSHOTS = Path.of(System.getProperty("user.dir"), "target", "ui");

    /**
     * True once ST's firstLoadInit has finished: it ends by emitting APP_READY, an event that ST's emitter
     * replays to listeners added later, so listening after the fact still answers.
     */
    private static final String APP_READY = """
            (() => {
                const st = globalThis.SillyTavern?.getContext?.();
                if (st && !window.tankardAppReady) {
                    window.tankardAppReady = 'waiting';
                    st.eventSource.on(st.eventTypes.APP_READY, () => window.tankardAppReady = 'ready');
                }
                return window.tankardAppReady === 'ready';
            })()""";
    /** A fresh user's settings have firstRun: boot then waits in a dialog that asks for the user's name. */
    private static final String ONBOARDING = "document.querySelector('dialog[open] .onboarding') !== null";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void bootsWithTheDefaultUser() throws IOException {
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), "skipContentCheck: false\n");
        try (TestServer server = TestServer.startIn(work, "--frontend", stDir.resolve("public").toString());
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            bootAndCheck(page, "st-default-user");
        }
    }

    @Test
    void logsInThroughTheLoginPageThenBoots() throws IOException {
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), "enableUserAccounts: true\nskipContentCheck: false\n");
        // Two accounts, so the login page lists them instead of logging the only user in automatically.
        var accounts = new FileAccountStore(work.resolve("data").resolve("_storage"));
        String salt = Passwords.newSalt();
        long now = System.currentTimeMillis();
        accounts.save(new User("alice", "Alice", now, Passwords.hash("wonderland", salt), salt, true, true));
        accounts.save(new User("bob", "Bob", now + 1, "", "", false, true));

        try (TestServer server = TestServer.startIn(work, "--frontend", stDir.resolve("public").toString());
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            withScreenshot(page, "st-login", () -> {
                assertEquals("/login", page.eval("location.pathname").asText());
                page.waitFor("document.querySelectorAll('#userList .userSelect').length === 2", STEP_TIMEOUT);
                int alice = page.eval("[...document.querySelectorAll('#userList .userHandle')]"
                        + ".findIndex(e => e.textContent === 'alice')").asInt();
                assertTrue(alice >= 0, "alice is not listed");
                page.click("#userList .userSelect:nth-child(" + (alice + 1) + ")");
                page.waitFor("document.querySelector('#passwordEntryBlock').style.display !== 'none'", STEP_TIMEOUT);
                page.type("#userPassword", "wonderland");
                page.click("#loginButton");
                page.waitFor("location.pathname === '/'", STEP_TIMEOUT);
            });
            bootAndCheck(page, "st-accounts-alice");
            assertEquals("alice", page.eval("fetch('/api/users/me').then(r => r.json()).then(u => u.handle)").asText());
        }
    }

    /** Waits for the end of ST's boot (answering the first-run dialog), then checks it went cleanly. */
    private void bootAndCheck(Browser.Page page, String screenshot) throws IOException {
        List<String> characters = defaultCharacterAvatars();
        withScreenshot(page, screenshot, () -> {
            page.waitFor(APP_READY + " || " + ONBOARDING, BOOT_TIMEOUT);
            if (page.eval(ONBOARDING).asBoolean()) {
                page.type("dialog[open] .popup-input", "Tester");
                page.click("dialog[open] .popup-button-ok");
                page.waitFor(APP_READY, BOOT_TIMEOUT);
            }
            // The splash that covers the page until boot completes; then the debounced saves that follow boot.
            page.waitFor("document.getElementById('preloader') === null", STEP_TIMEOUT);
            page.waitForNetworkIdle(Duration.ofSeconds(2), STEP_TIMEOUT);
            assertFalse(characters.isEmpty(), "the ST install lists no default character");
            for (String avatar : characters) {
                assertTrue(page.eval("document.querySelector('#rm_print_characters_block .avatar[title$=\"File: "
                        + avatar + "\"]') !== null").asBoolean(), avatar + " is not listed\n" + page.report());
            }
            assertTrue(page.failedResponses().isEmpty() && page.consoleErrors().isEmpty(),
                    "Boot was not clean:\n" + page.report());
        });
    }

    /** The avatar file names of the characters in the install's default content (what a new user gets). */
    private List<String> defaultCharacterAvatars() throws IOException {
        JsonNode index = JsJson.parse(Files.readAllBytes(stDir.resolve("default/content/index.json")));
        List<String> avatars = new ArrayList<>();
        for (JsonNode item : index) {
            if ("character".equals(item.path("type").asText())) {
                avatars.add(Path.of(item.path("filename").asText()).getFileName().toString());
            }
        }
        return avatars;
    }

    /** Runs the steps and saves a screenshot either way; a failing step wins over a failing screenshot. */
    private static void withScreenshot(Browser.Page page, String name, Runnable steps) {
        Path file = SCREENSHOTS.resolve(name + ".png");
        try {
            steps.run();
        } catch (RuntimeException | Error e) {
            try {
                page.screenshot(file);
            } catch (RuntimeException screenshotFailure) {
                e.addSuppressed(screenshotFailure);
            }
            throw e;
        }
        page.screenshot(file);
    }
}
