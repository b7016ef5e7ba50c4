package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.summarize.SummaryOfSummaries;
import tankard.summarize.onnx.BartModel;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;

/**
 * Issue 6's acceptance in a real browser, on the real pipeline: ST's Summarize extension with its source on Extras,
 * pointed at the Extras-compatible module server that Tankard starts itself ({@code --enable-modules=summarize
 * --summarization-model <folder>}) with the tiny BART export the ONNX tests use (a 62-token window), so the summary
 * goes ST's frontend → Tankard's Extras port → summary of summaries → BART on ONNX Runtime → {@code extra.memory}.
 * ST 1.18 cannot "Summarize now" with Extras (it only warns "Force summarization is not supported for Extras API"):
 * with Extras it summarizes by itself after a reply once the chat before it holds as many GPT-2 tokens as the
 * main API's prompt budget (ST: public/scripts/extensions/memory/index.js, summarizeChatExtras). So two long messages
 * are sent, the second reply sets it off, and the summary must show in the extension's textarea and be saved in the
 * chat file where ST puts it: on the message before the last. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendSummarizeUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendSummarizeUiTest {
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final Path TINY = Path.of("src/test/resources/summarize/tiny-bart").toAbsolutePath();
    /** Records the texts ST's frontend sends to the module, to compute the summary they must get. */
    private static final String RECORD_SUMMARIZE_REQUESTS = """
            (() => {
                window.tankardSummarizeTexts = [];
                const fetch = window.fetch;
                window.fetch = function (url, init) {
                    if (String(url).endsWith('/api/summarize')) {
                        window.tankardSummarizeTexts.push(JSON.parse(init.body).text);
                    }
                    return fetch.apply(this, arguments);
                };
                return true;
            })()""";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void extrasSummarizesTheChatAndTheSummaryIsShownAndSaved() throws Exception {
        try (TestServer server = StUi.startTankard(stDir, "--enable-modules=summarize",
                "--summarization-model", TINY.toString(), "--extras-port", "0");
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             Browser browser = Browser.launch()) {
            StUi.writeChatSettings(stDir, server.files(), mock, false);
            pointExtrasAt(server.files(), "http://127.0.0.1:" + server.tankard.extrasPort());

            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-summarize-1-connected", () -> {
                StUi.boot(page);
                page.waitFor("$('#extensions_status').text() === 'Connected to API'", StUi.STEP_TIMEOUT);
                page.eval(RECORD_SUMMARIZE_REQUESTS);
                StUi.openDrawer(page, "rightNavHolder");
                page.click("#rm_print_characters_block .character_select");
                page.waitFor(CONTEXT + ".chat.length === 1", StUi.STEP_TIMEOUT);
                StUi.closeDrawer(page, "rightNavHolder");
            });
            StUi.withScreenshot(page, "st-summarize-2-first-message", () -> {
                send(page, story("river", 2000), 1);
                assertEquals(0, page.eval("window.tankardSummarizeTexts.length").asInt(), "too little text yet for ST to summarize");
            });
            StUi.withScreenshot(page, "st-summarize-3-summarized", () -> {
                send(page, story("mountain", 2000), 2);
                page.waitFor("$('#memory_contents').val() !== ''", StUi.STEP_TIMEOUT);
                StUi.openDrawer(page, "extensions-settings-button");
                page.click("#memory_settings .inline-drawer-icon");
                page.waitFor("$('#memory_contents').is(':visible')", StUi.STEP_TIMEOUT);
            });

            JsonNode texts = page.eval("window.tankardSummarizeTexts");
            assertEquals(1, texts.size(), "one summary: " + texts);
            String text = texts.get(0).asText();
            assertTrue(text.contains("Tester:\nThe mountain") && text.contains("Tester:\nThe river"), text);
            String summary = page.eval("$('#memory_contents').val()").asText();
            // the tiny model's own output for that text (generation is deterministic), through summary of summaries
            try (BartModel model = BartModel.load(TINY)) {
                assertTrue(model.countTokens(text) > model.inputWindow() * 10, "a summary of summaries: "
                        + model.countTokens(text) + " tokens");
                String expected = new SummaryOfSummaries(model).summarize(text);
                assertFalse(expected.isBlank());
                assertEquals(expected, summary);
            }
            // ST saves the summary on the message before the last: here the second long message
            JsonNode saved = awaitSavedMemory(server.files(), summary);
            assertTrue(saved.path("is_user").asBoolean() && saved.path("mes").asText().startsWith("The mountain"), saved.toString());
            StUi.assertClean(page, "Summarizing");
        }
    }

    /** ST's Extras URL at Tankard's module server, connecting on boot; the Summarize source is Extras by default. */
    private static void pointExtrasAt(UserFiles files, String url) {
        StUi.changeSettings(files, settings -> {
            ObjectNode extensions = (ObjectNode) settings.get("extension_settings");
            extensions.put("apiUrl", url).put("autoConnect", true);
            ((ObjectNode) extensions.get("memory")).put("source", "extras");
        });
    }

    private static void send(Browser.Page page, String text, int reply) {
        page.type("#send_textarea", text);
        page.click("#send_but");
        page.waitFor(CONTEXT + ".chat.at(-1).mes === " + jsString(MockCompletionServer.replyText(reply))
                + " && !$('#mes_stop').is(':visible')", StUi.STEP_TIMEOUT);
        page.waitForNetworkIdle(StUi.QUIET, StUi.STEP_TIMEOUT);
    }

    /** About {@code words} words in sentences and paragraphs, each word about one GPT-2 token. */
    private static String story(String subject, int words) {
        // mostly words the tiny model knows, so its summaries are made of words rather than <unk>
        String[] vocabulary = ("the " + subject + " was quiet and the cat sat on the mat and the dog ran to the park "
                + "while a big red bird sang in the old tree all day and the rain fell").split(" ");
        StringBuilder text = new StringBuilder("The " + subject);
        for (int i = 2; i <= words; i++) {
            text.append(i % 97 == 0 ? ".\n\n" : i % 13 == 0 ? ". " : " ").append(vocabulary[i % vocabulary.length]);
        }
        return text.append('.').toString();
    }

    /** The saved chat's message that carries the summary, once the debounced chat save has written it. */
    private static JsonNode awaitSavedMemory(UserFiles files, String summary) {
        long deadline = System.nanoTime() + StUi.STEP_TIMEOUT.toNanos();
        List<JsonNode> messages = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            messages = savedMessages(files);
            if (messages.size() >= 2 && summary.equals(messages.get(messages.size() - 2).path("extra").path("memory").asText(null))) {
                return messages.get(messages.size() - 2);
            }
            sleep();
        }
        throw new AssertionError("no summary saved on the message before the last: " + messages);
    }

    /** The messages of the only chat (its first line is the chat's header). */
    private static List<JsonNode> savedMessages(UserFiles files) {
        List<String> chats = files.chatPaths();
        if (chats.size() != 1) {
            return List.of();
        }
        return files.read(chats.get(0)).lines().skip(1).filter(line -> !line.isBlank()).map(JsJson::parse).toList();
    }

    private static void sleep() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
