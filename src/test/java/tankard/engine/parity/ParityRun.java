package tankard.engine.parity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.testing.TextCompletionProtocols;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;


/**
 * One parity scenario from end to end: a Tankard serving ST's frontend over the scenario's user data and a mock
 * backend; Tankard's {@code /api/tankard/prompt} asked for the chat as it stands; ST's frontend booted in a browser
 * whose clock stands at {@link #NOW}, the chat opened and the action done in it; the body it posted to the generate
 * route written to {@code target/parity/<scenario>.json} (with the scenario's user data under
 * {@code target/parity/<scenario>.data/}) and compared with Tankard's.
 */
public final class ParityRun {
    /** The fixed clock of every scenario: the browser's and the one Tankard's route is given. */
    public static final Instant NOW = Instant.parse("2026-03-14T15:09:26Z");
    public static final Path CAPTURES = Path.of(System.getProperty("user.dir"), "target", "parity");
    private static final Duration BOOT_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(40);
    private static final Duration QUIET = Duration.ofSeconds(2);
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String APP_READY = """
            (() => {
                const st = globalThis.SillyTavern?.getContext?.();
                if (st && !window.parityAppReady) {
                    window.parityAppReady = 'waiting';
                    st.eventSource.on(st.eventTypes.APP_READY, () => window.parityAppReady = 'ready');
                }
                return window.parityAppReady === 'ready';
            })()""";

    /** What the user does in the open chat. */
    public enum Action {
        SEND("send"), REGENERATE("regenerate"), SWIPE("swipe"), CONTINUE("continue"), IMPERSONATE("impersonate");

        final String routeName;

        Action(String routeName) {
            this.routeName = routeName;
        }
    }

    /**
     * The chat a scenario opens: a character's (by avatar file) or a group's, where {@code avatar} names the member
     * ST's group activation picks to speak (Tankard's route is told who speaks).
     */
    public record Target(String avatar, String groupId, String fileName) {
        public static Target character(String avatar, String fileName) {
            return new Target(avatar, null, fileName);
        }

        public static Target group(String groupId, String fileName, String speaker) {
            return new Target(speaker, groupId, fileName);
        }

        ObjectNode routeBody() {
            ObjectNode body = JsJson.object().put("avatar_url", avatar);
            if (groupId != null) {
                body.put("group_id", groupId);
            }
            return body.put("file_name", fileName);
        }
    }

    /**
     * A scenario: its name (the capture's file name), the user data it writes (given the ST install and the mock),
     * the chat it opens (with that many messages) and the action, with the typed text for a send; {@code prepare}
     * runs in the open chat before the action.
     */
    public record Scenario(String name, BiFunction<Path, MockCompletionServer, UserData> data, Target target,
                           Action action, String typed, int messagesBefore, Consumer<ParityBrowser.Tab> prepare) {
        public Scenario(String name, BiFunction<Path, MockCompletionServer, UserData> data, Target target,
                        Action action, String typed, int messagesBefore) {
            this(name, data, target, action, typed, messagesBefore, tab -> { });
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** What Tankard's route answered (null body when it did not answer 200). */
    private record RouteAnswer(int status, JsonNode body, String text) {
        static RouteAnswer of(HttpResponse<Buffer> response) {
            String text = response.bodyAsString();
            JsonNode json = response.statusCode() == 200 ? JsJson.tryParse(response.bodyAsBuffer().getBytes()) : null;
            return new RouteAnswer(response.statusCode(), json, text);
        }
    }

    private ParityRun() {
    }

    /**
     * Runs the scenario: the capture is written whatever Tankard's route answers; then ST's body is compared with
     * Tankard's for the chat as it was before the action and, after a send, with a regenerate of the chat ST saved.
     */
    public static void run(Path stDir, ParityBrowser browser, Scenario scenario) throws IOException {
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), "skipContentCheck: false\n");
        try (TestServer server = TestServer.startIn(work, "--frontend", stDir.resolve("public").toString());
             MockCompletionServer mock = MockCompletionServer.start(server.vertx)) {
            TextCompletionProtocols.install(mock);
            UserData data = scenario.data().apply(stDir, mock);
            data.writeTo(server.files());
            Path copy = CAPTURES.resolve(scenario.name() + ".data");
            TestServer.deleteTree(copy);
            data.copyTo(copy);
            TestServer.Client client = server.client();
            RouteAnswer[] before = new RouteAnswer[1];
            ParityBrowser.Generation captured;
            try (ParityBrowser.Tab tab = browser.open(NOW)) {
                try {
                    captured = captureInSt(tab, server.url("/"), scenario, () -> before[0] =
                            askTankard(client, scenario.target(), scenario.action(), scenario.typed()));
                } catch (RuntimeException | Error e) {
                    screenshot(tab, scenario.name(), e);
                    throw e;
                }
            }
            writeCapture(scenario.name(), captured);
            writeTankards(scenario.name(), "", before[0]);
            List<String> failures = new ArrayList<>();
            difference(scenario.action().routeName + " on the chat before", captured, before[0]).ifPresent(failures::add);
            if (scenario.action() == Action.SEND) {
                RouteAnswer after = askTankard(client, scenario.target(), Action.REGENERATE, "");
                writeTankards(scenario.name(), ".regenerate", after);
                difference("regenerate on the chat ST saved", asRegenerate(captured, scenario.target()), after)
                        .ifPresent(failures::add);
            }
            if (!failures.isEmpty()) {
                throw new AssertionError(scenario.name() + ": " + String.join("\n\n", failures));
            }
        } finally {
            TestServer.deleteTree(work);
        }
    }

    /**
     * ST's body for a send as a regenerate of the saved chat would post it: regenerating drops the reply and builds
     * the same prompt on the same trailing user message; only the body's {@code type}, which names the action,
     * differs, except in a group, whose regenerate ST generates as a normal turn (group-chats.js regenerateGroup).
     */
    private static ParityBrowser.Generation asRegenerate(ParityBrowser.Generation send, Target target) {
        ObjectNode body = (ObjectNode) send.body().deepCopy();
        if (body.has("type") && target.groupId() == null) {
            body.put("type", Action.REGENERATE.routeName);
        }
        return new ParityBrowser.Generation(send.path(), body);
    }

    private static RouteAnswer askTankard(TestServer.Client client, Target target, Action action, String typed) {
        ObjectNode body = target.routeBody().put("action", action.routeName).put("text", typed)
                .put("now", NOW.toString());
        return RouteAnswer.of(client.post("/api/tankard/prompt", JsJson.compact(body)));
    }

    /**
     * Boots ST, opens the chat, prepares it, asks Tankard ({@code askTankard}: the chat and its vector index are
     * then as the action finds them), does the action and returns the first body posted to a generate route.
     */
    private static ParityBrowser.Generation captureInSt(ParityBrowser.Tab tab, String url, Scenario scenario,
                                                        Runnable askTankard) {
        tab.navigate(url);
        tab.waitFor(APP_READY, BOOT_TIMEOUT);
        tab.waitFor("document.getElementById('preloader') === null", STEP_TIMEOUT);
        tab.waitFor(CONTEXT + ".onlineStatus !== 'no_connection'", STEP_TIMEOUT);
        tab.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        openChat(tab, scenario.target(), scenario.messagesBefore());
        scenario.prepare().accept(tab);
        askTankard.run();
        if (!tab.generations().isEmpty()) {
            throw new AssertionError("ST generated before the action: " + tab.generations());
        }
        act(tab, scenario.action(), scenario.typed());
        ParityBrowser.Generation generation = tab.awaitGeneration(1, STEP_TIMEOUT);
        tab.waitFor("!$('#mes_stop').is(':visible')", STEP_TIMEOUT);
        tab.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        return generation;
    }

    private static void openChat(ParityBrowser.Tab tab, Target target, int messages) {
        String open = target.groupId() == null
                ? "(async () => { const c = " + CONTEXT + "; const id = c.characters.findIndex(x => x.avatar === "
                + js(target.avatar()) + "); if (id < 0) throw new Error('no character ' + " + js(target.avatar())
                + "); await c.selectCharacterById(id); return true; })()"
                // a click on the group in the character list (its handler, openGroupById, is not in ST's context)
                : "$('#rm_print_characters_block .group_select[data-grid=\"' + " + js(target.groupId())
                + " + '\"]').first().trigger('click').length === 1";
        if (!tab.eval(open).asBoolean()) {
            throw new AssertionError("ST's page has no entry for " + target);
        }
        tab.waitFor(CONTEXT + ".getCurrentChatId() === " + js(target.fileName()) + " && " + CONTEXT
                + ".chat.length === " + messages + " && document.querySelectorAll('#chat .mes').length === " + messages,
                STEP_TIMEOUT, "[" + CONTEXT + ".getCurrentChatId(), " + CONTEXT + ".chat.length, "
                        + "document.querySelectorAll('#chat .mes').length]");
        tab.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
    }

    /**
     * Vector Storage's "Vectorize All" on the open chat, waited for until its progress line goes: the chat's
     * messages are then in Tankard's vector index, for ST's recall and Tankard's alike.
     */
    public static void vectorizeAll(ParityBrowser.Tab tab) {
        // the progress line is shown or hidden in the closed extensions drawer: its own display tells
        String inProgress = "$('#vectorize_progress').css('display') !== 'none'";
        if (!tab.eval("$('#vectors_vectorize_all').trigger('click'); " + inProgress).asBoolean()) {
            throw new AssertionError("Vectorize All did not start (is the chat setting on?)");
        }
        tab.waitFor("!(" + inProgress + ")", Duration.ofMinutes(3));
        tab.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
    }

    /** Does the action as a user would: the send button, the options menu's items, the last message's swipe arrow. */
    private static void act(ParityBrowser.Tab tab, Action action, String typed) {
        switch (action) {
            case SEND -> {
                tab.type("#send_textarea", typed);
                tab.click("#send_but");
            }
            case REGENERATE -> tab.eval("$('#option_regenerate').trigger('click'); true");
            case CONTINUE -> tab.eval("$('#option_continue').trigger('click'); true");
            case IMPERSONATE -> tab.eval("$('#option_impersonate').trigger('click'); true");
            case SWIPE -> tab.eval("$('#chat .last_mes .swipe_right').trigger('click'); true");
        }
    }

    private static void writeCapture(String name, ParityBrowser.Generation captured) throws IOException {
        Files.createDirectories(CAPTURES);
        ObjectNode file = JsJson.object().put("route", captured.path());
        file.set("request", captured.body());
        Files.write(CAPTURES.resolve(name + ".json"), JsJson.prettyBytes(file));
    }

    /** Tankard's answer beside ST's capture ({@code <scenario>.tankard.json}), to read a failure at leisure. */
    private static void writeTankards(String name, String suffix, RouteAnswer answer) throws IOException {
        JsonNode content = answer.body() != null ? answer.body()
                : JsJson.object().put("status", answer.status()).put("answer", answer.text());
        Files.write(CAPTURES.resolve(name + suffix + ".tankard.json"), JsJson.prettyBytes(content));
    }

    /** How Tankard's answer differs from ST's body, if it does: its status, its route or the first differing path. */
    private static Optional<String> difference(String what, ParityBrowser.Generation st, RouteAnswer tankard) {
        if (tankard.body() == null) {
            return Optional.of(what + ": /api/tankard/prompt answered " + tankard.status() + ": " + tankard.text());
        }
        String route = tankard.body().path("route").asText();
        if (!st.path().equals(route)) {
            return Optional.of(what + ": ST posted to " + st.path() + ", Tankard answers " + route);
        }
        JsonNode request = tankard.body().path("request");
        return JsonDiff.first(st.body(), request).map(difference -> what + ": Tankard's body differs from ST's, "
                + difference + "\n" + JsonDiff.sideBySide(st.body(), request));
    }

    /** A screenshot of the page where a scenario failed; failing to take it is told along with the failure. */
    private static void screenshot(ParityBrowser.Tab tab, String name, Throwable failure) {
        try {
            Files.createDirectories(CAPTURES);
            tab.screenshot(CAPTURES.resolve(name + ".png"));
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private static String js(String s) {
        return JsJson.compact(JsJson.tree(s));
    }
}
