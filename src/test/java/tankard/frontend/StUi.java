package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Steps on ST's own frontend that the UI tests share (booting, drawers, clean-page checks, screenshots). */
final class StUi {
    static final Duration BOOT_TIMEOUT = Duration.ofSeconds(60);
    /** Generous: the UI tests share a small machine with other builds, and two browsers run at once in some. */
    static final Duration STEP_TIMEOUT = Duration.ofSeconds(30);
    static final Duration QUIET = Duration.ofSeconds(2);
    /** The text of the chat's last message. */
    static final String LAST_MESSAGE = "(document.querySelector('#chat .last_mes .mes_text')?.textContent ?? '')";
    /** JS: text as a reader sees it, letters and digits only, so markdown, quote styles and spacing do not matter. */
    static final String PLAIN_TEXT = "s => s.replace(/[^\\p{L}\\p{N}]+/gu, ' ').trim()";
    /** JS: ST's context object. */
    static final String CONTEXT = "SillyTavern.getContext()";
    private static final String SETTINGS = "settings.json";
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

    private StUi() {
    }

    /** Tankard serving the ST install's frontend, seeding new users from its default content as ST does. */
    static TestServer startTankard(Path stDir, String... flags) throws IOException {
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), "skipContentCheck: false\n");
        List<String> all = new ArrayList<>(List.of("--frontend", stDir.resolve("public").toString()));
        all.addAll(List.of(flags));
        return TestServer.startIn(work, all.toArray(String[]::new));
    }

    /** Tankard serving the ST install's frontend on a data root another server (Tankard's own UI) wrote. */
    static TestServer startStFrontendOn(Path stDir, Path dataRoot) throws IOException {
        return TestServer.startIn(TestServer.tempDir(), "--dataRoot", dataRoot.toString(), "--frontend",
                stDir.resolve("public").toString());
    }

    /** Waits for the end of ST's boot (answering the first-run dialog), its splash and the saves that follow. */
    static void boot(Browser.Page page) {
        page.waitFor(APP_READY + " || " + ONBOARDING, BOOT_TIMEOUT);
        if (page.eval(ONBOARDING).asBoolean()) {
            page.type("dialog[open] .popup-input", "Tester");
            page.click("dialog[open] .popup-button-ok");
            page.waitFor(APP_READY, BOOT_TIMEOUT);
        }
        page.waitFor("document.getElementById('preloader') === null", STEP_TIMEOUT);
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
    }

    /** Opens the character of that avatar file from the character list and waits for its new chat. */
    static void openCharacter(Browser.Page page, String avatar) {
        openDrawer(page, "rightNavHolder");
        page.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: " + avatar + "\"])");
        page.waitFor(CONTEXT + ".chat.length === 1 && " + CONTEXT + ".characterId !== undefined", STEP_TIMEOUT);
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        closeDrawer(page, "rightNavHolder");
    }

    /** Types a message and sends it. */
    static void send(Browser.Page page, String text) {
        page.type("#send_textarea", text);
        page.click("#send_but");
    }

    /** Waits until the last message is the reply, the generation is over and the chat is saved. */
    static void awaitReply(Browser.Page page, String reply) {
        page.waitFor(CONTEXT + ".chat.at(-1).mes === " + Browser.jsString(reply)
                + " && !$('#mes_stop').is(':visible') && (" + PLAIN_TEXT + ")($('#chat .last_mes .mes_text').text()) === ("
                + PLAIN_TEXT + ")(" + Browser.jsString(reply) + ")", STEP_TIMEOUT);
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
    }

    /**
     * Opens one of the top bar's drawers (the {@code .drawer} with that id) and waits for the end of its
     * opening transition: a click into a drawer that is still growing can miss.
     */
    static void openDrawer(Browser.Page page, String id) {
        toggleDrawer(page, id, true);
    }

    static void closeDrawer(Browser.Page page, String id) {
        toggleDrawer(page, id, false);
    }

    private static void toggleDrawer(Browser.Page page, String id, boolean open) {
        if (page.eval("document.querySelector('#" + id + " > .drawer-content').classList.contains('openDrawer') === " + open).asBoolean()) {
            return;
        }
        page.click("#" + id + " > .drawer-toggle");
        page.waitFor("(d => d.classList.contains('openDrawer') === " + open + " && d.getAnimations({subtree: true})"
                + ".every(a => a.playState !== 'running' || a.effect.getTiming().iterations === Infinity))"
                + "(document.querySelector('#" + id + " > .drawer-content'))", STEP_TIMEOUT);
    }

    /**
     * The user's settings before the first boot: ST's defaults with the first-run questions answered and the
     * main API set to Chat Completion, custom source, at the mock backend. Content seeding keeps an existing file.
     */
    static void writeChatSettings(Path stDir, UserFiles files, MockCompletionServer mock, boolean stream) {
        try {
            ObjectNode settings = (ObjectNode) JsJson.parse(Files.readAllBytes(stDir.resolve("default/content/settings.json")));
            settings.put("firstRun", false).put("username", "Tester").put("main_api", "openai");
            ((ObjectNode) settings.get("power_user")).put("auto_connect", true); // connects (/status) on boot
            ObjectNode oai = (ObjectNode) settings.get("oai_settings");
            oai.put("chat_completion_source", "custom").put("custom_url", mock.baseUrl())
                    .put("custom_model", MockCompletionServer.MODEL).put("stream_openai", stream);
            files.write(SETTINGS, JsJson.prettyBytes(settings));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Changes the user's settings.json (an extension's settings, say) before the first boot. */
    static void changeSettings(UserFiles files, Consumer<ObjectNode> change) {
        ObjectNode settings = (ObjectNode) JsJson.parse(files.bytes(SETTINGS));
        change.accept(settings);
        files.write(SETTINGS, JsJson.prettyBytes(settings));
    }

    /** The user's settings.json as saved. */
    static JsonNode settings(UserFiles files) {
        return JsJson.parse(files.bytes(SETTINGS));
    }

    /** Whether the response is for an HTTP URL with that path (not for a data: or blob: URL). */
    static boolean hasPath(Browser.Response response, String path) {
        return response.url().startsWith("http") && path.equals(URI.create(response.url()).getPath());
    }

    static void assertClean(Browser.Page page, String step) {
        assertTrue(page.failedResponses().isEmpty() && page.consoleErrors().isEmpty(),
                step + " was not clean:\n" + page.report());
    }

    /** Runs the steps and saves a screenshot either way; a failing step wins over a failing screenshot. */
    static void withScreenshot(Browser.Page page, String name, Runnable steps) {
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
