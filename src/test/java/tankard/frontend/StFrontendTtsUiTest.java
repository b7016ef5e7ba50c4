package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * ST's TTS extension through ST's own frontend on Tankard, with its "OpenAI Compatible" provider at a mock
 * speech endpoint: {@code /speak} sends the text to the endpoint through Tankard and plays what comes back (ST:
 * public/scripts/extensions/tts/openai-compatible.js). The mock answers with the ST install's own silence.mp3, read
 * at test time, so the browser has real audio to play. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendTtsUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendTtsUiTest {
    private static final String CONTEXT = "SillyTavern.getContext()";
    /** Records what the page plays; a refused autoplay is not the test's concern. */
    private static final String RECORD_PLAYS = """
            (() => {
                window.tankardPlayed = [];
                const play = HTMLMediaElement.prototype.play;
                HTMLMediaElement.prototype.play = function () {
                    window.tankardPlayed.push(this.src);
                    return play.apply(this, arguments).catch(() => {});
                };
                return true;
            })()""";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void speakSendsTheTextToTheOpenAiCompatibleEndpointAndPlaysTheAnswer() throws IOException {
        byte[] mp3 = Files.readAllBytes(stDir.resolve("public/sounds/silence.mp3"));
        try (TestServer server = StUi.startTankard(stDir);
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             Browser browser = Browser.launch()) {
            mock.route("/v1/audio/speech", request -> request.response().putHeader("Content-Type", "audio/mpeg").end(Buffer.buffer(mp3)));
            StUi.writeChatSettings(stDir, server.files(), mock, false);
            StUi.changeSettings(server.files(), settings -> {
                ObjectNode provider = JsJson.object().put("provider_endpoint", mock.baseUrl() + "/audio/speech").put("model", "tts-1")
                        .put("speed", 1);
                provider.putArray("available_voices").add("alloy");
                provider.putObject("voiceMap").put("Seraphina", "alloy");
                ObjectNode tts = JsJson.object().put("enabled", true).put("currentProvider", "OpenAI Compatible");
                tts.set("OpenAI Compatible", provider);
                ((ObjectNode) settings.get("extension_settings")).set("tts", tts);
            });

            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-tts-1-open", () -> {
                StUi.boot(page);
                page.eval(RECORD_PLAYS);
                StUi.openDrawer(page, "rightNavHolder");
                page.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: default_Seraphina.png\"])");
                page.waitFor(CONTEXT + ".chat.length === 1", StUi.STEP_TIMEOUT);
                StUi.closeDrawer(page, "rightNavHolder");
            });
            StUi.withScreenshot(page, "st-tts-2-spoken", () -> {
                page.eval(CONTEXT + ".executeSlashCommandsWithOptions('/speak The kettle is on.')");
                // ST plays the answer as a data URL of the bytes the endpoint gave
                page.waitFor("window.tankardPlayed.includes('data:audio/mpeg;base64," + Base64.getEncoder().encodeToString(mp3) + "')",
                        StUi.STEP_TIMEOUT);
            });
            JsonNode sent = mock.lastCall("/v1/audio/speech").json();
            assertEquals("The kettle is on.", sent.path("input").asText());
            assertEquals("alloy", sent.path("voice").asText());
            assertEquals("tts-1", sent.path("model").asText());
            StUi.assertClean(page, "Speaking");
        }
    }
}
