package tankard.frontend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.TestServer;
import tankard.testing.TextCompletionProtocols;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One data folder, two frontends in turn: a chat completion preset, an instruct template and a background picked in
 * Tankard's settings page are ST's in ST's frontend (listed, picked, applied), and the preset and template ST saves
 * show and apply in Tankard's page and reach the backend. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendOwnUiSettingsInterchangeTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendOwnUiSettingsInterchangeTest {
    private static final Duration STEP = Duration.ofSeconds(30);
    private static final String ST_PRESET = "$('#settings_preset_openai').find(':selected').text()";
    private static final String ST_INSTRUCT = "$('#instruct_presets').find(':selected').text()";
    private static final String ST_TEMPERATURE = "Number($('#temp_openai').val())";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    /** ST's "save as" behind that button, with its name dialog. */
    private static void stSaveAs(Browser.Page page, String button, String name) {
        page.eval("$(" + OwnUi.js(button) + ").trigger('click'); true");
        page.waitFor("document.querySelector('dialog[open] .popup-input') !== null", STEP);
        page.type("dialog[open] .popup-input", name);
        page.click("dialog[open] .popup-button-ok");
        page.waitFor("document.querySelector('dialog[open]') === null", STEP);
    }

    /** Sends the text in Wren's chat in Tankard's UI and waits for the reply. */
    private static void sendToWren(Browser.Page page, TestServer ownUi, String text) {
        page.navigate(ownUi.url("/#/chat?avatar=default_Wren.png"));
        page.waitFor("document.querySelectorAll('#messages article').length > 0 && !document.querySelector('#send').disabled", STEP);
        int before = page.eval("document.querySelectorAll('#messages article').length").asInt();
        page.type("#input", text);
        page.click("#send");
        page.waitFor("document.querySelectorAll('#messages article').length === " + (before + 2)
                + " && !document.querySelector('#messages article.streaming') && !document.querySelector('#send').disabled", STEP);
    }

    /** Picks the preset of that name in ST's chat completion preset list, as choosing it does. */
    private static void stPick(Browser.Page page, String name) {
        page.eval("(s => { s.value = [...s.options].find(o => o.textContent === " + OwnUi.js(name) + ").value;"
                + " $(s).trigger('change'); return true; })(document.querySelector('#settings_preset_openai'))");
        page.waitFor(ST_PRESET + " === " + OwnUi.js(name), STEP);
    }

    @Test
    void presetsAndTheBackgroundGoBackAndForthBetweenTankardsUiAndSts() throws IOException {
        Path dataRoot = TestServer.tempDir();
        try (OwnUi.Session session = OwnUi.Session.startOn(dataRoot)) {
            TestServer ownUi = session.server();
            Browser browser = session.browser();
            TextCompletionProtocols.install(session.mock());
            Browser.Page page = OwnUi.connected(session);
            StUi.withScreenshot(page, "interchange-settings-1-tankard-ui", () -> {
                page.navigate(ownUi.url("/#/settings"));
                page.waitFor("document.querySelector('#openaiPreset') !== null", STEP);
                OwnUi.enter(page, "#genTemperature", "0.35");
                OwnUi.enter(page, "#genMaxTokens", "123");
                page.click("#openaiPresetSaveAs");
                page.type("#presetName", "Tavern Calm");
                page.click("dialog button[value='save']");
                page.waitFor("document.querySelector('#openaiPreset').value === 'Tavern Calm'", STEP);
                page.waitFor("document.querySelector('#backgroundList li[data-name=\"tankard-common-room.png\"]') !== null", STEP);
                page.click("#backgroundList button[aria-label='Use tankard-common-room.png']");
                page.waitFor("document.querySelector('#backgroundList li.current')?.dataset.name === 'tankard-common-room.png'", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP);

                // an instruct template, on the text completion page
                page.navigate(ownUi.url("/#/connection"));
                OwnUi.connectText(page, session.mock(), "llamacpp");
                page.navigate(ownUi.url("/#/settings"));
                page.waitFor("document.querySelector('#instructPreset') !== null", STEP);
                OwnUi.enter(page, "#genContext", "16384");
                page.click("#instructEnabled");
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
                OwnUi.choose(page, "#instructPreset", "Alpaca");
                page.waitFor("document.querySelector('#instructPreset').value === 'Alpaca'", STEP);
                page.click("#instructPresetSaveAs");
                page.type("#presetName", "Tankard Alpaca");
                page.click("dialog button[value='save']");
                page.waitFor("document.querySelector('#instructPreset').value === 'Tankard Alpaca'", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP);
            });
            assertTrue(Files.exists(dataRoot.resolve("default-user/OpenAI Settings/Tavern Calm.json")));

            try (TestServer st = StUi.startStFrontendOn(stDir, dataRoot)) {
                Browser.Page stPage = browser.newPage();
                stPage.navigate(st.url("/"));
                StUi.withScreenshot(stPage, "interchange-settings-2-st-frontend", () -> {
                    StUi.boot(stPage);
                    StUi.openDrawer(stPage, "ai-config-button");
                    assertEquals("Tavern Calm", stPage.eval(ST_PRESET).asText(), "ST lists the preset and has it picked");
                    assertEquals(0.35, stPage.eval(ST_TEMPERATURE).asDouble(), "and its temperature");
                    assertEquals(123, stPage.eval("Number($('#openai_max_tokens').val())").asInt());
                    assertTrue(stPage.eval("$('#bg1').css('background-image')").asText().contains("tankard-common-room.png"),
                            "ST shows the background picked in Tankard");

                    // picked in ST, Tankard's preset applies as one of ST's own
                    stPick(stPage, "Default");
                    stPage.waitFor(ST_TEMPERATURE + " !== 0.35", STEP);
                    stPick(stPage, "Tavern Calm");
                    stPage.waitFor(ST_TEMPERATURE + " === 0.35 && Number($('#openai_max_tokens').val()) === 123", STEP);

                    assertEquals("Tankard Alpaca", stPage.eval(ST_INSTRUCT).asText(), "ST has the template made in Tankard picked");
                    assertEquals("### Instruction:", stPage.eval(StUi.CONTEXT + ".powerUserSettings.instruct.input_sequence").asText());
                    assertTrue(stPage.eval(StUi.CONTEXT + ".powerUserSettings.instruct.enabled").asBoolean(), "instruct mode on");
                    assertEquals(16384, stPage.eval("Number($('#max_context').val())").asInt(), "the text completion context, not cut back");

                    // ST saves a preset and a template of its own, with its own "save as"
                    stPage.eval("$('#temp_openai').val(0.6).trigger('input'); true");
                    stSaveAs(stPage, "#new_oai_preset", "ST Brisk");
                    stPage.waitFor(ST_PRESET + " === 'ST Brisk'", STEP);
                    stPage.eval("$('#instruct_presets').val('Vicuna 1.1').trigger('change'); true");
                    stPage.waitFor(StUi.CONTEXT + ".powerUserSettings.instruct.input_sequence === 'USER: '", STEP);
                    stSaveAs(stPage, "[data-preset-manager-new='instruct']", "ST Vicuna");
                    stPage.waitFor(ST_INSTRUCT + " === 'ST Vicuna'", STEP);
                    stPage.waitForNetworkIdle(StUi.QUIET, STEP);
                });
            }
            assertEquals(0.6, JsJson.parse(Files.readAllBytes(dataRoot.resolve("default-user/OpenAI Settings/ST Brisk.json")))
                    .path("temperature").asDouble());

            assertEquals("USER: ", JsJson.parse(Files.readAllBytes(dataRoot.resolve("default-user/instruct/ST Vicuna.json")))
                    .path("input_sequence").asText());

            page.navigate(ownUi.url("/"));
            page.navigate(ownUi.url("/#/settings"));
            page.waitFor("document.querySelector('#instructPreset')?.value === 'ST Vicuna'", STEP);
            assertTrue(page.eval("document.querySelector('#instructEnabled').checked").asBoolean());
            sendToWren(page, ownUi, "Is the kettle on?");
            String prompt = session.mock().lastCall("/completion").json().path("prompt").asText();
            assertTrue(prompt.contains("USER: Is the kettle on?"), "the template ST saved formats Tankard's prompt: " + prompt);

            OwnUi.connected(session);
            page.navigate(ownUi.url("/#/settings"));
            StUi.withScreenshot(page, "interchange-settings-3-tankard-ui-again", () -> {
                page.waitFor("document.querySelector('#openaiPreset')?.value === 'ST Brisk'", STEP);
                assertEquals("0.6", page.eval("document.querySelector('#genTemperature').value").asText(), "ST's values show");
                OwnUi.choose(page, "#openaiPreset", "Tavern Calm");
                page.waitFor("document.querySelector('#genTemperature').value === '0.35'", STEP);
                OwnUi.choose(page, "#openaiPreset", "ST Brisk");
                page.waitFor("document.querySelector('#genTemperature').value === '0.6'", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP);
            });
            sendToWren(page, ownUi, "What is on the fire?");
            assertEquals(0.6, session.mock().lastCall("/v1/chat/completions").json().path("temperature").asDouble(),
                    "the preset ST saved reaches the backend through Tankard's engine");
        } finally {
            TestServer.deleteTree(dataRoot);
        }
    }
}
