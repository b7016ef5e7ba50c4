package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Memory a user can see (public/js/memory.js): the summary panel with ST's Summarize controls, vector memory and
 * the prompt inspector, on the server's engine, with what each writes where ST keeps it (extra.memory of a message,
 * extension_settings.memory and .vectors in settings.json) and what reaches the mock backend.
 */
class TankardUiMemoryTest {
    private static final Duration STEP = OwnUi.STEP;
    private static final String CHAT = "Wren - memory";
    private static final String CHAT_PATH = "chats/default_Wren/" + CHAT + ".jsonl";
    private static final String HEADER = "{\"user_name\":\"User\",\"character_name\":\"Wren\",\"create_date\":\"2026-12-01@10h00m00s000ms\","
            + "\"chat_metadata\":{\"integrity\":\"0b7e4d8e-3f0a-4c55-9b1e-6a2f1d9c7e10\"}}";
    /** ST's default summary prompt starts so (memory/index.js defaultPrompt). */
    private static final String ST_PROMPT = "Ignore previous instructions. Summarize the most important facts";
    private static final String KEY_FACT = "I hid the silver key to the cellar under the loose floorboard by the hearth.";
    private static final String IDLE = "!document.querySelector('#messages article.streaming')";

    private static String message(String name, boolean user, String text, String memory) {
        JsonNode extra = memory == null ? JsJson.object() : JsJson.object().put("memory", memory);
        return JsJson.compact(JsJson.object().put("name", name).put("is_user", user).put("is_system", false)
                .put("send_date", "2026-12-01T10:00:00.000Z").put("mes", text).set("extra", extra));
    }

    /** Wren's chat: `count` messages, Wren's first and last, each about something else; a summary on `summaryAt`. */
    private static void writeChat(TestServer server, int count, int summaryAt, String summary) {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        String[] topics = {"The rain keeps falling on the meadow.", "Clouds gather over the hills again.",
                "A cold wind blows through the orchard.", "The sun breaks through the fog.", "Snow settles on the hives."};
        for (int i = 0; i < count; i++) {
            boolean user = i % 2 == 1;
            lines.add(message(user ? "User" : "Wren", user, topics[i % topics.length] + " (" + i + ")", i == summaryAt ? summary : null));
        }
        server.files().write(CHAT_PATH, String.join("\n", lines));
    }

    private static List<JsonNode> lines(TestServer server) {
        return server.files().read(CHAT_PATH).lines().map(JsJson::parse).toList();
    }

    private static JsonNode settings(TestServer server) {
        return JsJson.parse(server.files().read("settings.json"));
    }

    /** Connected to the mock, then in the chat with its messages shown. */
    private static Browser.Page openChat(OwnUi.Session session) {
        Browser.Page page = session.page();
        page.navigate(session.server().url("/#/connection"));
        OwnUi.boot(page);
        OwnUi.connect(page, session.mock());
        page.navigate(session.server().url("/#/chat?avatar=default_Wren.png&file=" + CHAT.replace(" ", "%20")));
        OwnUi.boot(page);
        page.waitFor("document.querySelectorAll('#messages article').length > 0 && document.querySelector('#memory') !== null", STEP);
        return page;
    }

    /** Sets a field as typing would, its change event bubbling as a person's does. */
    private static void setValue(Browser.Page page, String selector, String value) {
        page.eval("{ const f = document.querySelector(" + OwnUi.js(selector) + "); f.value = " + OwnUi.js(value)
                + "; f.dispatchEvent(new Event('input', {bubbles: true})); f.dispatchEvent(new Event('change', {bubbles: true})); }");
    }

    private static void waitForSettings(OwnUi.Session session, String what, java.util.function.Predicate<JsonNode> saved) {
        session.page().waitUntil(() -> saved.test(settings(session.server())), STEP, () -> what + ": " + settings(session.server()));
    }

    /** The summary the engine asked the mock for: the completion calls whose last message is ST's summary prompt. */
    private static long summaryRequests(MockCompletionServer mock) {
        return mock.calls().stream().filter(c -> c.path().equals("/v1/chat/completions")).map(MockCompletionServer.Call::json)
                .filter(body -> {
                    JsonNode messages = body.path("messages");
                    return messages.path(messages.size() - 1).path("content").asText().startsWith(ST_PROMPT);
                }).count();
    }

    @Test
    void summarizeNowSendsASummaryRequestShowsTheSummaryAndStoresItInExtraMemory() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            writeChat(server, 7, -1, null);
            Browser.Page page = openChat(session);
            assertEquals("", page.eval("document.querySelector('#summary').value").asText());
            assertTrue(page.eval("document.querySelector('#summarizeNow').disabled").asBoolean(),
                    "with ST's default source (Extras) the server cannot summarize");
            OwnUi.choose(page, "#memorySource", "main");
            waitForSettings(session, "the source saved", s -> s.at("/extension_settings/memory/source").asText().equals("main"));
            assertTrue(settings(server).has("oai_settings"), "every other key of settings.json is kept");

            StUi.withScreenshot(page, "tankard-memory-summarize-now", () -> {
                page.click("#summarizeNow");
                page.waitFor("document.querySelector('#memoryStatus').textContent === 'Summary updated.'", STEP);
            });
            JsonNode sent = session.mock().lastCall("/v1/chat/completions").json().path("messages");
            String prompt = sent.path(sent.size() - 1).path("content").asText();
            assertTrue(prompt.startsWith(ST_PROMPT) && prompt.contains("200 words"), "ST's summary prompt, {{words}} filled: " + prompt);
            assertEquals("Clouds gather over the hills again. (6)", sent.path(sent.size() - 2).path("content").asText(),
                    "classic: the prompt of the last reply, the reply, then the instruction");
            String shown = page.eval("document.querySelector('#summary').value").asText();
            assertEquals("Mock reply 1.", shown);
            assertEquals(shown, lines(server).get(6).path("extra").path("memory").asText(),
                    "kept in extra.memory of the message before the last, as ST's setMemoryContext keeps it");
            assertEquals(8, lines(server).size(), "no message added");
            StUi.assertClean(page, "Summarize now");
        }
    }

    @Test
    void anEditedSummaryIsStoredWithoutUploadingTheChatAndRestorePreviousTakesItOff() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            writeChat(server, 7, 2, "Wren and the user met in the rain.");
            List<JsonNode> before = lines(server);
            Browser.Page page = openChat(session);
            assertEquals("Wren and the user met in the rain.", page.eval("document.querySelector('#summary').value").asText(),
                    "the latest summary before the last message (ST's getLatestMemoryFromChat)");

            int responses = page.responses().size();
            StUi.withScreenshot(page, "tankard-memory-summary-edited", () -> {
                setValue(page, "#summary", "They met in the rain and spoke of the orchard.");
                page.click("#saveSummary");
                page.waitFor("document.querySelector('#memoryStatus').textContent === 'Summary saved.'", STEP);
            });
            List<JsonNode> after = lines(server);
            assertEquals("They met in the rain and spoke of the orchard.", after.get(6).path("extra").path("memory").asText(),
                    "on the message before the last, as ST's onMemoryContentInput");
            for (int i = 0; i < after.size(); i++) {
                if (i != 6) {
                    assertEquals(before.get(i), after.get(i), "line " + i + " is as it was");
                }
            }
            List<String> paths = page.responses().subList(responses, page.responses().size()).stream()
                    .filter(r -> r.method().equals("POST") && r.url().startsWith("http")).map(r -> java.net.URI.create(r.url()).getPath()).toList();
            assertTrue(paths.contains("/api/tankard/chats/tail/save") && !paths.contains("/api/chats/save"),
                    "a tail save, not the chat whole: " + paths);

            page.click("#restoreSummary");
            page.waitFor("document.querySelector('#memoryStatus').textContent === 'Previous summary restored.'", STEP);
            assertEquals("Wren and the user met in the rain.", page.eval("document.querySelector('#summary').value").asText());
            assertTrue(lines(server).get(6).path("extra").path("memory").isMissingNode(), "the edited summary is gone");
            assertEquals("Wren and the user met in the rain.", lines(server).get(3).path("extra").path("memory").asText());
            page.reload();
            OwnUi.boot(page);
            page.waitFor("document.querySelector('#summary')?.value === 'Wren and the user met in the rain.'", STEP);
            StUi.assertClean(page, "Editing the summary");
        }
    }

    @Test
    void pauseStopsAutomaticSummariesAndTheSettingsGoWhereStKeepsThem() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            MockCompletionServer mock = session.mock();
            writeChat(server, 3, -1, null);
            Browser.Page page = openChat(session);
            OwnUi.choose(page, "#memorySource", "main");
            page.click("#summarySettings > summary");
            setValue(page, "#memoryInterval", "1");
            setValue(page, "#memoryTemplate", "[Story so far: {{summary}}]");
            OwnUi.choose(page, "#memoryPosition", "1");
            page.eval("document.querySelector('#memoryPosition').dispatchEvent(new Event('change', {bubbles: true}))");
            setValue(page, "#memoryDepth", "3");
            page.click("#memoryPause");
            waitForSettings(session, "the summary settings saved", s -> s.at("/extension_settings/memory/memoryFrozen").asBoolean()
                    && s.at("/extension_settings/memory/promptInterval").asInt() == 1
                    && s.at("/extension_settings/memory/position").asInt() == 1 && s.at("/extension_settings/memory/depth").asInt() == 3);
            JsonNode memory = settings(server).at("/extension_settings/memory");
            assertEquals("[Story so far: {{summary}}]", memory.path("template").asText());
            assertTrue(memory.path("prompt").asText().startsWith(ST_PROMPT), "ST's defaults filled in: " + memory);

            page.type("#input", "Tell me about the hives.");
            page.click("#send");
            page.waitFor("document.querySelectorAll('#messages article').length === 5 && " + IDLE, STEP);
            page.waitForNetworkIdle(Duration.ofMillis(500), STEP);
            assertEquals(0, summaryRequests(mock), "paused: no summary after the reply");
            assertTrue(lines(server).stream().noneMatch(m -> m.path("extra").has("memory")));

            StUi.withScreenshot(page, "tankard-memory-unpaused", () -> {
                page.click("#memoryPause");
                waitForSettings(session, "unpaused", s -> !s.at("/extension_settings/memory/memoryFrozen").asBoolean());
                page.type("#input", "And the orchard?");
                page.click("#send");
                page.waitFor("document.querySelectorAll('#messages article').length === 7 && " + IDLE, STEP);
                page.waitFor("document.querySelector('#summary').value !== ''", STEP);
            });
            assertEquals(1, summaryRequests(mock), "unpaused: the summary is made after the reply");
            String summary = page.eval("document.querySelector('#summary').value").asText();
            assertEquals(summary, lines(server).get(6).path("extra").path("memory").asText(), "on the message before the last");

            page.type("#input", "Go on.");
            page.click("#send");
            page.waitFor("document.querySelectorAll('#messages article').length === 9 && " + IDLE, STEP);
            JsonNode request = mock.calls().stream().filter(c -> c.path().equals("/v1/chat/completions"))
                    .map(MockCompletionServer.Call::json).filter(b -> b.path("stream").asBoolean()).reduce((a, b) -> b).orElseThrow();
            JsonNode messages = request.path("messages");
            assertTrue(messages.toString().contains("[Story so far: " + summary + "]"),
                    "the summary in its template reaches the backend: " + messages);
            StUi.assertClean(page, "Pause");
        }
    }

    @Test
    void theInspectorsNumbersAreTheRoutesItemization() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            writeChat(server, 9, 4, "The weather turned twice.");
            Browser.Page page = openChat(session);
            JsonNode answer = page.eval("(async () => {"
                    + " const token = (await (await fetch('/csrf-token')).json()).token;"
                    + " const r = await fetch('/api/tankard/prompt', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': token},"
                    + "   body: JSON.stringify({avatar_url: 'default_Wren.png', file_name: " + OwnUi.js(CHAT) + ", action: 'regenerate'})});"
                    + " return await r.json(); })()");
            StUi.withScreenshot(page, "tankard-memory-inspector", () -> {
                page.click("#inspectPrompt");
                page.waitFor("document.querySelector('#promptInspector tbody tr') !== null", STEP);
            });
            JsonNode parts = answer.at("/itemization/parts");
            assertTrue(parts.path("history").asInt() > 0 && parts.path("summary").asInt() > 0, "history and summary itemized: " + parts);
            parts.fields().forEachRemaining(part -> assertEquals(part.getValue().asText(),
                    page.eval("document.querySelector('#promptInspector [data-part=\"" + part.getKey() + "\"] td').textContent").asText(),
                    part.getKey()));
            assertEquals(answer.at("/itemization/total").asText(),
                    page.eval("document.querySelector('#promptInspector [data-part=\"total\"] td').textContent").asText());
            String said = page.eval("document.querySelector('#promptInspector p').textContent").asText();
            assertTrue(said.contains(answer.at("/context/prompt").asText()) && said.contains(answer.at("/context/size").asText()), said);
            assertEquals(answer.path("request"), JsJson.parse(page.eval("document.querySelector('#promptRequest').textContent").asText()),
                    "the raw request, as the route answers it");
            StUi.assertClean(page, "The inspector");
        }
    }

    @Test
    void vectorizeAllFillsTheCollectionAndTheRecallOfTheLastPromptShows() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            List<String> lines = new ArrayList<>(List.of(HEADER));
            for (int i = 0; i < 24; i++) {
                boolean user = i % 2 == 1;
                String text = i == 3 ? KEY_FACT : i == 23 ? "Where did you put the silver key to the cellar?"
                        : "The rain keeps falling on the meadow, day " + i + ".";
                lines.add(message(user ? "User" : "Wren", user, text, null));
            }
            server.files().write(CHAT_PATH, String.join("\n", lines));
            Browser.Page page = openChat(session);
            assertTrue(page.eval("document.querySelector('#vectorizeAll').disabled").asBoolean(), "off until enabled");
            page.click("#vectorsEnabled");
            waitForSettings(session, "enabled", s -> s.at("/extension_settings/vectors/enabled_chats").asBoolean());
            assertEquals("transformers", settings(server).at("/extension_settings/vectors/source").asText());

            StUi.withScreenshot(page, "tankard-memory-vectors", () -> {
                page.click("#vectorizeAll");
                page.waitFor("document.querySelector('#vectorizeProgress').value === 100", Duration.ofSeconds(60));
                page.waitFor("document.querySelector('#vectorStats').textContent.startsWith('24 of 24')", STEP);
                assertEquals(24, server.client().post("/api/vector/list", "{\"source\":\"transformers\",\"collectionId\":"
                        + OwnUi.js(CHAT) + "}").bodyAsJson(List.class).size(), "every message is in the chat's collection");
                page.click("#showRecall");
                page.waitFor("document.querySelector('#recallNote').textContent === 'Recalled into the last prompt:'", STEP);
                page.eval("document.querySelector('#recall').scrollIntoView()");
            });
            assertTrue(page.eval("document.querySelector('#recall').textContent").asText().contains(KEY_FACT),
                    "the early message the last one asks about: " + page.eval("document.querySelector('#recall').textContent"));

            page.click("#purgeVectors");
            page.click("dialog button[value='purge']");
            page.waitFor("document.querySelector('#vectorStats').textContent === 'Purged.'", STEP);
            assertEquals(0, server.client().post("/api/vector/list", "{\"source\":\"transformers\",\"collectionId\":"
                    + OwnUi.js(CHAT) + "}").bodyAsJson(List.class).size(), "purged");
            page.click("#showVectorStats");
            page.waitFor("document.querySelector('#vectorStats').textContent.startsWith('0 of 24')", STEP);
            StUi.assertClean(page, "Vector memory");
        }
    }

    @Test
    void atPhoneWidthThePanelIsACollapsedDrawerWithLabelledControlsOf44Pixels() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            writeChat(session.server(), 5, 2, "A short summary.");
            Browser.Page page = session.page();
            page.setViewport(390, 844);
            openChat(session);
            page.click("#asideToggle"); // the chat's panel, folded on a phone
            assertFalse(page.eval("document.querySelector('#memory').open").asBoolean(), "closed at first on a phone");
            StUi.withScreenshot(page, "tankard-memory-phone", () -> {
                page.click("#memory > summary");
                page.click("#summarySettings > summary");
                page.eval("document.querySelector('#summarizeNow').scrollIntoView()");
            });
            String controls = "[...document.querySelectorAll('#memory summary, #memory button, #memory select, #memory input, #memory textarea')]"
                    + ".filter(c => c.getClientRects().length)";
            assertTrue(page.eval(controls + ".length").asInt() >= 20);
            JsonNode small = page.eval(controls + ".map(c => [c.id || c.textContent, (c.type === 'checkbox' ? c.closest('label') : c).getBoundingClientRect().height])"
                    + ".filter(([, h]) => h < 44)");
            assertEquals(0, small.size(), "touch targets under 44 px: " + small);
            JsonNode unlabelled = page.eval(controls + ".filter(c => !(c.labels?.length || c.getAttribute('aria-label') || c.textContent.trim())).map(c => c.id)");
            assertEquals(0, unlabelled.size(), "controls without a label: " + unlabelled);
            assertTrue(page.eval("document.documentElement.scrollWidth <= 390").asBoolean(), "nothing wider than the phone");
            page.click("#memory > summary");
            assertFalse(page.eval("document.querySelector('#memory').open").asBoolean(), "and it closes again");
            StUi.assertClean(page, "The phone");
        }
    }
}
