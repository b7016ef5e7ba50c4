package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpServerRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.Fixtures;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ST's Image Generation extension through ST's own frontend on Tankard, with the A1111 (SD WebUI) source at a mock
 * that answers as the WebUI does and checks what it gets: {@code /imagine} makes an image message in the chat
 * (ST: public/scripts/extensions/stable-diffusion/index.js). Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendImageGenUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendImageGenUiTest {
    private static final String CONTEXT = "SillyTavern.getContext()";
    /** The WebUI's API is at its root: ST replaces the URL's path with each API path. */
    private static final String WEBUI = "";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    private static void json(HttpServerRequest request, String body) {
        request.response().putHeader("Content-Type", "application/json").end(body);
    }

    /** The WebUI's own API, as far as ST's extension asks for it. */
    private static void webUi(MockCompletionServer mock, String png) {
        mock.route(WEBUI + "/internal/ping", request -> json(request, "{}"));
        mock.route(WEBUI + "/sdapi/v1/options", request -> json(request, "{\"sd_model_checkpoint\":\"mock.safetensors\",\"sd_vae\":\"None\"}"));
        mock.route(WEBUI + "/sdapi/v1/sd-models", request -> json(request, "[{\"title\":\"mock.safetensors\",\"model_name\":\"mock\"}]"));
        mock.route(WEBUI + "/sdapi/v1/samplers", request -> json(request, "[{\"name\":\"Euler a\"}]"));
        mock.route(WEBUI + "/sdapi/v1/schedulers", request -> json(request, "[{\"name\":\"automatic\",\"label\":\"Automatic\"}]"));
        mock.route(WEBUI + "/sdapi/v1/upscalers", request -> json(request, "[{\"name\":\"None\"}]"));
        mock.route(WEBUI + "/sdapi/v1/latent-upscale-modes", request -> json(request, "[]"));
        mock.route(WEBUI + "/sdapi/v1/sd-vae", request -> json(request, "[]"));
        mock.route(WEBUI + "/sdapi/v1/txt2img", request -> json(request, "{\"images\":[\"" + png + "\"],\"parameters\":{},\"info\":\"{}\"}"));
    }

    @Test
    void imagineMakesAnImageMessageWithTheWebUisPicture() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             MockCompletionServer mock = MockCompletionServer.start(server.vertx);
             Browser browser = Browser.launch()) {
            byte[] picture = Fixtures.plainPng();
            webUi(mock, Base64.getEncoder().encodeToString(picture));
            StUi.writeChatSettings(stDir, server.files(), mock, false);
            StUi.changeSettings(server.files(), settings -> {
                ((ObjectNode) settings.get("extension_settings")).set("sd", JsJson.object()
                        .put("source", "auto").put("auto_url", mock.origin() + WEBUI).put("auto_auth", "user:pass"));
            });

            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-imagegen-1-open", () -> {
                StUi.boot(page);
                StUi.openDrawer(page, "rightNavHolder");
                page.click("#rm_print_characters_block .character_select");
                page.waitFor(CONTEXT + ".chat.length === 1", StUi.STEP_TIMEOUT);
                StUi.closeDrawer(page, "rightNavHolder");
            });
            StUi.withScreenshot(page, "st-imagegen-2-imagined", () -> {
                page.eval(CONTEXT + ".executeSlashCommandsWithOptions('/imagine a red fox by the river')");
                page.waitFor(CONTEXT + ".chat.some(m => m.extra?.media?.length > 0)", StUi.STEP_TIMEOUT);
                page.waitFor("document.querySelector('#chat .mes .mes_img') !== null", StUi.STEP_TIMEOUT);
                page.waitForNetworkIdle(StUi.QUIET, StUi.STEP_TIMEOUT);
            });
            MockCompletionServer.Call call = mock.lastCall(WEBUI + "/sdapi/v1/txt2img");
            JsonNode sent = call.json();
            assertTrue(sent.path("prompt").asText().contains("a red fox by the river"), sent.toString());
            assertEquals("Basic " + Base64.getEncoder().encodeToString("user:pass".getBytes()), call.headers().get("Authorization"));
            // the picture ST saved for the message is the one the WebUI made
            String url = page.eval(CONTEXT + ".chat.find(m => m.extra?.media?.length > 0).extra.media[0].url").asText();
            assertTrue(url.startsWith("/user/images/"), url);
            String saved = java.net.URLDecoder.decode(url.substring(1), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(java.util.Arrays.equals(picture, server.files().bytes(saved)), "the saved image is the WebUI's");
            StUi.assertClean(page, "Imagining");
        }
    }
}
