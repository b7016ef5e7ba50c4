package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ST's Chat Translation extension through ST's own frontend on Tankard: a message translated with LibreTranslate,
 * the instance a mock that checks what it gets (ST: public/scripts/extensions/translate/index.js). Needs an ST
 * install: {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendTranslateUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendTranslateUiTest {
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String TRANSLATION = "Bonjour, voyageur.";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void aMessageIsTranslatedWithLibreTranslate() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             Browser browser = Browser.launch()) {
            mock.route("/libre/translate", request -> request.response().putHeader("Content-Type", "application/json")
                    .end("{\"translatedText\":\"" + TRANSLATION + "\"}"));
            StUi.writeChatSettings(stDir, server.files(), mock, false);
            StUi.changeSettings(server.files(), settings -> {
                ((ObjectNode) settings.get("extension_settings")).set("translate", JsJson.object()
                        .put("provider", "libre").put("target_language", "fr").put("auto_mode", "none"));
            });
            server.client().post("/api/secrets/write", "{\"key\":\"libre_url\",\"value\":\"" + mock.origin() + "/libre/translate\"}");
            server.client().post("/api/secrets/write", "{\"key\":\"libre\",\"value\":\"libre-key\"}");

            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-translate-1-open", () -> {
                StUi.boot(page);
                StUi.openDrawer(page, "rightNavHolder");
                page.click("#rm_print_characters_block .character_select");
                page.waitFor(CONTEXT + ".chat.length === 1", StUi.STEP_TIMEOUT);
                StUi.closeDrawer(page, "rightNavHolder");
            });
            String greeting = page.eval(CONTEXT + ".chat[0].mes").asText();
            StUi.withScreenshot(page, "st-translate-2-translated", () -> {
                page.eval("document.querySelector('#chat .mes[mesid=\"0\"] .mes_translate').click()");
                page.waitFor(CONTEXT + ".chat[0].extra?.display_text === " + OwnUi.js(TRANSLATION), StUi.STEP_TIMEOUT);
                page.waitFor("$('#chat .mes[mesid=\"0\"] .mes_text').text().includes('Bonjour')", StUi.STEP_TIMEOUT);
                page.waitForNetworkIdle(StUi.QUIET, StUi.STEP_TIMEOUT);
            });
            JsonNode sent = mock.lastCall("/libre/translate").json();
            assertEquals("fr", sent.path("target").asText());
            assertEquals("libre-key", sent.path("api_key").asText());
            assertTrue(greeting.contains(sent.path("q").asText().substring(0, 20)), "the message's own text: " + sent);
            StUi.assertClean(page, "Translating");
        }
    }
}
