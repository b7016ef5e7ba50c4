package tankard.frontend;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * ST's Character Expressions through ST's own frontend on Tankard with the "Local" classifier: the character's
 * reply is classified by Tankard's ONNX pipeline (the tiny classifier of src/test/resources/classify/) and the
 * matching sprite of ST's default Seraphina is shown (ST: public/scripts/extensions/expressions/index.js).
 * Needs an ST install: {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendExpressionsUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendExpressionsUiTest {
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final Path TINY = Path.of("src/test/resources/classify/tiny-classifier");
    private static final String MODEL = "Tankard/tiny-classifier";
    private static final String REPLY = "I am so happy you are here!";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    /** Tankard with ST's frontend and content, the tiny classifier as the classification model. */
    private TestServer start() throws IOException {
        Path work = TestServer.tempDir();
        Path model = Files.createDirectories(work.resolve("data/_models").resolve(MODEL).resolve("onnx"));
        for (String file : List.of("config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model_quantized.onnx")) {
            Files.copy(TINY.resolve(file), model.getParent().resolve(file));
        }
        Files.writeString(work.resolve("config.yaml"), "skipContentCheck: false\nextensions:\n  models:\n    classification: "
                + MODEL + "\n    autoDownload: false\n");
        return TestServer.startIn(work, "--frontend", stDir.resolve("public").toString());
    }

    @Test
    void theReplysEmotionPicksTheSprite() throws Exception {
        try (TestServer server = start();
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             Browser browser = Browser.launch()) {
            mock.onCompletion(request -> request.response().putHeader("Content-Type", "application/json").end(
                    "{\"id\":\"mock\",\"object\":\"chat.completion\",\"model\":\"mock-model\",\"choices\":[{\"index\":0,"
                            + "\"message\":{\"role\":\"assistant\",\"content\":\"" + REPLY + "\"},\"finish_reason\":\"stop\"}]}"));
            StUi.writeChatSettings(stDir, server.files(), mock, false);
            StUi.changeSettings(server.files(), settings -> {
                ((ObjectNode) settings.get("extension_settings")).set("expressions", JsJson.object().put("api", 0));
            });
            // the model loads on the first request (a 503 meanwhile), as a running server would have it loaded
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (server.client().post("/api/extra/classify", "{\"text\":\"warm\"}").statusCode() != 200) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the classifier did not load");
                }
                Thread.sleep(100);
            }

            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-expressions-1-open", () -> {
                StUi.boot(page);
                StUi.openDrawer(page, "rightNavHolder");
                page.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: default_Seraphina.png\"])");
                page.waitFor(CONTEXT + ".chat.length === 1", StUi.STEP_TIMEOUT);
                StUi.closeDrawer(page, "rightNavHolder");
            });
            StUi.withScreenshot(page, "st-expressions-2-joy", () -> {
                page.type("#send_textarea", "Hello, Seraphina.");
                page.click("#send_but");
                page.waitFor(CONTEXT + ".chat.at(-1).mes === " + OwnUi.js(REPLY), StUi.STEP_TIMEOUT);
                page.waitFor("(document.querySelector('#expression-image')?.getAttribute('src') ?? '').includes('/joy.')",
                        StUi.STEP_TIMEOUT);
                page.waitForNetworkIdle(StUi.QUIET, StUi.STEP_TIMEOUT);
            });
            StUi.assertClean(page, "Classifying");
        }
    }
}
