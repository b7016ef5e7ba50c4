package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.Fixtures;
import tankard.testing.TestServer;
import tankard.testing.TextCompletionProtocols;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tankard's own settings page (#/settings): the generation settings of the connection in use and ST's presets,
 * stored where and as ST's frontend stores them, reaching the backend's request when the user sends; the chat
 * background; the page at phone width and by keyboard.
 */
class TankardUiSettingsTest {
    private static final Duration STEP = OwnUi.STEP;
    private static final String WREN = "default_Wren.png";
    private static final String CHAT = "Wren - settings";
    private static final String REPLIED = "document.querySelectorAll('#messages article').length === %d"
            + " && !document.querySelector('#messages article.streaming') && !document.querySelector('#send').disabled";

    private static JsonNode settings(TestServer server) {
        return StUi.settings(server.files());
    }

    /** Wren's chat CHAT: an old message of about 1,500 tokens, then Wren's greeting. */
    private static void writeChat(TestServer server) {
        String old = "OLDEST " + "the road was long and the rain fell on it ".repeat(150);
        server.files().write("chats/default_Wren/" + CHAT + ".jsonl", String.join("\n",
                "{\"user_name\":\"User\",\"character_name\":\"Wren\",\"create_date\":\"2026-12-01@10h00m00s000ms\",\"chat_metadata\":{}}",
                message("User", true, old), message("Wren", false, "Welcome in, traveller.")));
    }

    private static String message(String name, boolean user, String text) {
        return "{\"name\":" + OwnUi.js(name) + ",\"is_user\":" + user + ",\"is_system\":false,"
                + "\"send_date\":\"2026-12-01T10:00:00.000Z\",\"mes\":" + OwnUi.js(text) + ",\"extra\":{}}";
    }

    /** Opens CHAT and sends the text from the message box; waits for the reply. */
    private static void sendInChat(OwnUi.Session session, String text, int messagesAfter) {
        Browser.Page page = session.page();
        page.navigate(session.server().url("/#/chat?avatar=" + WREN + "&file=" + CHAT.replace(" ", "%20")));
        OwnUi.boot(page);
        page.waitFor("document.querySelectorAll('#messages article').length > 0", STEP);
        page.type("#input", text);
        page.click("#send");
        page.waitFor(REPLIED.formatted(messagesAfter), STEP);
    }

    private static void openSettings(Browser.Page page, String ready) {
        page.click("a[data-nav='settings']");
        page.waitFor(ready, STEP);
    }

    /** Save as… with a name, the dialog answered by Enter in its field. */
    private static void saveAs(Browser.Page page, String button, String name) {
        page.click(button);
        page.waitFor("document.querySelector('dialog[open] #presetName') !== null", STEP);
        page.type("#presetName", name);
        page.press("#presetName", "Enter");
        page.waitFor("document.getElementById('toasts').textContent.includes(" + OwnUi.js("Saved " + name) + ")", STEP);
    }

    private static void delete(Browser.Page page, String button) {
        page.click(button);
        page.click("dialog button[value='delete']");
        page.waitFor("document.getElementById('toasts').textContent.includes('Deleted')", STEP);
        page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
    }

    @Test
    void chatCompletionSettingsAndPresetsAreStoredAsStStoresThemAndReachTheBackendOnSend() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = session.page();
            StUi.changeSettings(server.files(), s -> {
                s.put("unknown_to_tankard", "kept");
                ((ObjectNode) s.with("oai_settings")).put("unknown_oai_key", 7);
            });
            writeChat(server);
            OwnUi.connected(session);

            StUi.withScreenshot(page, "tankard-settings-chat-completion", () -> {
                openSettings(page, "document.querySelector('#openaiPreset') !== null");
                assertEquals("Default", page.eval("document.querySelector('#openaiPreset').value").asText(), "ST's preset in use");
                OwnUi.enter(page, "#genTemperature", "0.35");
                OwnUi.enter(page, "#genMaxTokens", "123");
                // the other samplers ST shows for a custom source, folded away as in ST
                assertEquals(List.of("sampler_freq_pen_openai", "sampler_pres_pen_openai", "sampler_seed"), samplers(page),
                        "ST's data-source: no top K, min P, top A or repetition penalty for a custom source");
                page.click("#moreSamplers summary");
                OwnUi.enter(page, "#sampler_freq_pen_openai", "0.4");
                OwnUi.enter(page, "#sampler_pres_pen_openai", "-0.25");
                OwnUi.enter(page, "#sampler_seed", "1234");
                assertTrue(page.eval("document.querySelector('#moreSamplers').open").asBoolean(), "still open after the saves");
                saveAs(page, "#openaiPresetSaveAs", "Tavern Calm");
            });
            JsonNode preset = JsJson.parse(server.files().bytes("OpenAI Settings/Tavern Calm.json"));
            assertEquals(0.35, preset.path("temperature").asDouble(), "under ST's preset key: " + preset);
            assertEquals(123, preset.path("openai_max_tokens").asInt());
            assertTrue(preset.has("prompt_order") && preset.has("stream_openai"), "the whole preset, as ST's getChatCompletionPreset makes it");
            assertEquals("custom", preset.path("chat_completion_source").asText(), "the connection too, as ST saves it");
            assertEquals(0.4, preset.path("frequency_penalty").asDouble(), "ST's preset keys for the samplers");
            assertEquals(-0.25, preset.path("presence_penalty").asDouble());
            assertEquals(1234, preset.path("seed").asInt());
            assertEquals(0.4, settings(server).path("oai_settings").path("freq_pen_openai").asDouble(), "and ST's settings keys");

            // another temperature, then the preset picked again: its values come back, as ST's onSettingsPresetChange
            OwnUi.enter(page, "#genTemperature", "1.5");
            assertEquals(1.5, settings(server).path("oai_settings").path("temp_openai").asDouble());
            OwnUi.enter(page, "#genTemperature", "9");
            page.waitFor("document.getElementById('toasts').textContent.includes('Temperature: a number from 0 to 2')", STEP);
            assertEquals("1.5", page.eval("document.querySelector('#genTemperature').value").asText(), "a value out of range is refused");
            assertEquals(1.5, settings(server).path("oai_settings").path("temp_openai").asDouble(), "and not saved");
            // ST binds presets to the connection unless told not to: Default (made for OpenAI) switches the source
            OwnUi.choose(page, "#openaiPreset", "Default");
            page.waitFor("document.querySelector('#genTemperature').value !== '1.5'", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals("openai", settings(server).path("oai_settings").path("chat_completion_source").asText(),
                    "as ST's onSettingsPresetChange with bind_preset_to_connection (ST's default)");
            OwnUi.choose(page, "#openaiPreset", "Tavern Calm");
            page.waitFor("document.querySelector('#genTemperature').value === '0.35'", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            JsonNode oai = settings(server).path("oai_settings");
            assertEquals("Tavern Calm", oai.path("preset_settings_openai").asText());
            assertEquals(0.35, oai.path("temp_openai").asDouble());
            assertEquals(123, oai.path("openai_max_tokens").asInt());
            assertEquals("custom", oai.path("chat_completion_source").asText(), "Tavern Calm's connection back");
            assertEquals(session.mock().baseUrl(), oai.path("custom_url").asText());

            sendInChat(session, "A warm seat, please.", 4);
            JsonNode sent = session.mock().lastCall("/v1/chat/completions").json();
            assertEquals(0.35, sent.path("temperature").asDouble(), "the temperature picked: " + sent);
            assertEquals(123, sent.path("max_tokens").asInt(), "the response length picked");
            assertTrue(sent.toString().contains("OLDEST"), "the old message fits the default context");
            assertTrue(sent.path("stream").asBoolean(), "streamed, as the settings say");
            assertEquals(0.4, sent.path("frequency_penalty").asDouble(), "the samplers picked: " + sent);
            assertEquals(-0.25, sent.path("presence_penalty").asDouble());
            assertEquals(1234, sent.path("seed").asInt());

            // a smaller context leaves the old message out; streaming off asks for a whole reply
            openSettings(page, "document.querySelector('#genContext') !== null");
            OwnUi.enter(page, "#genContext", "1024");
            page.click("#genStream");
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            sendInChat(session, "And a mug of cider.", 6);
            sent = session.mock().lastCall("/v1/chat/completions").json();
            assertFalse(sent.toString().contains("OLDEST"), "the context size leaves it out: " + sent);
            assertTrue(sent.toString().contains("And a mug of cider."));
            assertFalse(sent.path("stream").asBoolean(), "not streamed");

            openSettings(page, "document.querySelector('#openaiPreset') !== null");
            page.click("#bindPresetToConnection");
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            delete(page, "#openaiPresetDelete");
            assertFalse(server.files().exists("OpenAI Settings/Tavern Calm.json"), "the file is deleted");
            assertEquals("Default", page.eval("document.querySelector('#openaiPreset').value").asText(), "the first one left is picked, as in ST");
            JsonNode after = settings(server);
            assertEquals("Default", after.path("oai_settings").path("preset_settings_openai").asText());
            assertFalse(after.path("oai_settings").path("bind_preset_to_connection").asBoolean(true));
            assertEquals("custom", after.path("oai_settings").path("chat_completion_source").asText(), "unbound: the connection stays");
            assertEquals("kept", after.path("unknown_to_tankard").asText(), "keys the UI does not know survive");
            assertEquals(7, after.path("oai_settings").path("unknown_oai_key").asInt());
            StUi.assertClean(page, "The settings page");
        }
    }

    @Test
    void textCompletionSettingsTemplatesAndSystemPromptReachTheBackendOnSend() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TextCompletionProtocols.install(session.mock());
            TestServer server = session.server();
            Browser.Page page = session.page();
            StUi.changeSettings(server.files(), s -> ((ObjectNode) s.with("textgenerationwebui_settings")).remove("top_k"));
            writeChat(server);
            page.navigate(server.url("/#/connection"));
            OwnUi.boot(page);
            OwnUi.connectText(page, session.mock(), "llamacpp");

            StUi.withScreenshot(page, "tankard-settings-text-completion", () -> {
                openSettings(page, "document.querySelector('#instructPreset') !== null");
                assertEquals("Balanced", page.eval("document.querySelector('#textgenerationwebuiPreset').value").asText());
                OwnUi.enter(page, "#genTemperature", "0.42");
                OwnUi.enter(page, "#genMaxTokens", "77");
                OwnUi.enter(page, "#genContext", "16384");
                List<String> shown = samplers(page);
                assertTrue(shown.containsAll(List.of("sampler_top_k", "sampler_min_p", "sampler_rep_pen", "sampler_rep_pen_range",
                        "sampler_dry_multiplier", "sampler_xtc_probability", "sampler_mirostat_mode", "sampler_seed")), "llama.cpp's: " + shown);
                assertFalse(shown.contains("sampler_top_a") || shown.contains("sampler_tfs") || shown.contains("sampler_num_beams"),
                        "ST hides top A, TFS and beams for llama.cpp: " + shown);
                assertEquals("40", page.eval("document.querySelector('#sampler_top_k').value").asText(), "ST's default where the settings have none");
                page.click("#moreSamplers summary");
                for (String[] entry : new String[][] {{"top_k", "12"}, {"min_p", "0.07"}, {"rep_pen", "1.15"}, {"rep_pen_range", "256"},
                        {"dry_multiplier", "0.8"}, {"xtc_probability", "0.5"}, {"mirostat_mode", "2"}, {"seed", "42"}}) {
                    OwnUi.enter(page, "#sampler_" + entry[0], entry[1]);
                }
                page.click("#sampler_ban_eos_token");
                page.click("#instructEnabled");
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
                OwnUi.choose(page, "#instructPreset", "Alpaca");
                page.waitFor("document.querySelector('#instructPreset').value === 'Alpaca'", STEP);
                OwnUi.choose(page, "#syspromptPreset", "Assistant");
                page.waitFor("document.querySelector('#syspromptPreset').value === 'Assistant'", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
                saveAs(page, "#textgenerationwebuiPresetSaveAs", "Hearthside");
            });
            JsonNode preset = JsJson.parse(server.files().bytes("TextGen Settings/Hearthside.json"));
            assertEquals(0.42, preset.path("temp").asDouble(), "as ST's getPresetSettings: " + preset);
            assertEquals(77, preset.path("genamt").asInt());
            assertTrue(preset.has("max_length"));
            assertFalse(preset.has("server_urls") || preset.has("type") || preset.has("streaming"), "no connection keys, as in ST");
            assertEquals(12, preset.path("top_k").asInt(), "the samplers under ST's keys");
            assertEquals(0.8, preset.path("dry_multiplier").asDouble());
            assertTrue(preset.path("ban_eos_token").asBoolean());
            assertFalse(preset.has("seed"), "ST keeps the seed out of presets (getPresetSettings)");
            assertEquals(42, settings(server).path("textgenerationwebui_settings").path("seed").asInt());

            JsonNode powerUser = settings(server).path("power_user");
            assertTrue(powerUser.path("instruct").path("enabled").asBoolean());
            assertEquals("Alpaca", powerUser.path("instruct").path("preset").asText());
            assertEquals("### Instruction:", powerUser.path("instruct").path("input_sequence").asText(), "the template's sequences copied in");
            assertEquals("Assistant", powerUser.path("sysprompt").path("name").asText());
            assertTrue(powerUser.path("sysprompt").path("content").asText().startsWith("You are {{char}}, a knowledgeable"));
            assertEquals(77, settings(server).path("amount_gen").asInt(), "where ST keeps the response length");
            assertEquals(16384, settings(server).path("max_context").asInt());
            assertTrue(powerUser.path("max_context_unlocked").asBoolean(), "past 8192, ST's slider unlocked, as ST needs it");
            assertEquals(16384, preset.path("max_length").asInt());

            sendInChat(session, "Is the kettle on?", 4);
            JsonNode sent = session.mock().lastCall("/completion").json();
            String prompt = sent.path("prompt").asText();
            assertEquals(0.42, sent.path("temperature").asDouble(), "the temperature picked: " + sent);
            assertEquals(77, sent.path("n_predict").asInt(), "the response length picked");
            assertEquals(12, sent.path("top_k").asInt(), "the samplers picked: " + sent);
            assertEquals(0.07, sent.path("min_p").asDouble());
            assertEquals(1.15, sent.path("repeat_penalty").asDouble());
            assertEquals(256, sent.path("repeat_last_n").asInt());
            assertEquals(0.8, sent.path("dry_multiplier").asDouble());
            assertEquals(0.5, sent.path("xtc_probability").asDouble());
            assertEquals(2, sent.path("mirostat").asInt());
            assertEquals(42, sent.path("seed").asInt());
            assertTrue(sent.path("ignore_eos").asBoolean(), "ban EOS, as llama.cpp's ignore_eos");
            assertTrue(prompt.contains("### Instruction:\nIs the kettle on?"), "the instruct template picked: " + prompt);
            assertTrue(prompt.endsWith("### Response:\n"), prompt);
            assertTrue(prompt.contains("You are Wren, a knowledgeable and friendly assistant."), "the system prompt picked: " + prompt);

            // templates are saved and deleted where ST keeps them
            openSettings(page, "document.querySelector('#instructPreset') !== null");
            saveAs(page, "#instructPresetSaveAs", "My Alpaca");
            JsonNode template = JsJson.parse(server.files().bytes("instruct/My Alpaca.json"));
            assertEquals("My Alpaca", template.path("name").asText());
            assertEquals("### Response:", template.path("output_sequence").asText());
            assertFalse(template.has("enabled") || template.has("preset"), "as ST's getPresetSettings leaves them out: " + template);
            delete(page, "#instructPresetDelete");
            assertFalse(server.files().exists("instruct/My Alpaca.json"));
            StUi.assertClean(page, "The settings page");
        }
    }

    @Test
    void presetFilesAreImportedAndExportedAsStDoesAndAShippedDefaultIsRestored() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = OwnUi.connected(session);
            page.eval(OwnUi.CAPTURE_DOWNLOADS);
            Path night = TestServer.tempDir().resolve("Night Owl.json");
            Files.writeString(night, "{\"temperature\": 0.6, \"frequency_penalty\": 0.3, \"openai_max_tokens\": 99,"
                    + " \"chat_completion_source\": \"custom\", \"custom_url\": \"http://proxy.example/v1\"}");
            openSettings(page, "document.querySelector('#openaiPresetImport') !== null");

            // a chat completion preset with an endpoint in it: ST asks whether to keep it (openai.js sensitiveFields)
            page.chooseFiles(() -> page.click("#openaiPresetImport"), night);
            page.waitFor("document.querySelector('dialog[open]')?.textContent.includes('custom_url')", STEP);
            page.click("dialog[open] button[value='remove']");
            page.waitFor("document.getElementById('toasts').textContent.includes('Imported Night Owl')", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            JsonNode imported = JsJson.parse(server.files().bytes("OpenAI Settings/Night Owl.json"));
            assertEquals(0.6, imported.path("temperature").asDouble(), "named by its file, as ST's onPresetImportFileChange: " + imported);
            assertFalse(imported.has("custom_url"), "the endpoint removed, as asked");
            JsonNode oai = settings(server).path("oai_settings");
            assertEquals("Night Owl", oai.path("preset_settings_openai").asText(), "and picked");
            assertEquals(0.3, oai.path("freq_pen_openai").asDouble());
            assertEquals(99, oai.path("openai_max_tokens").asInt());
            assertEquals(session.mock().baseUrl(), oai.path("custom_url").asText(), "the connection's own URL kept");
            assertEquals("0.6", page.eval("document.querySelector('#genTemperature').value").asText());

            // the same name again: overwritten only when confirmed
            Files.writeString(night, "{\"temperature\": 1.9}");
            page.chooseFiles(() -> page.click("#openaiPresetImport"), night);
            page.waitFor("document.querySelector('dialog[open]')?.textContent.includes('Night Owl exists')", STEP);
            page.click("dialog[open] button[value='']");
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals(0.6, JsJson.parse(server.files().bytes("OpenAI Settings/Night Owl.json")).path("temperature").asDouble(),
                    "not overwritten");
            Path broken = TestServer.tempDir().resolve("broken.json");
            Files.writeString(broken, "{ not json");
            page.chooseFiles(() -> page.click("#openaiPresetImport"), broken);
            page.waitFor("document.getElementById('toasts').textContent.includes('Cannot import broken.json: not a preset file')", STEP);
            assertFalse(server.files().exists("OpenAI Settings/broken.json"));

            // exported as ST exports it: the saved preset, without the connection unless asked
            page.click("#openaiPresetExport");
            page.waitFor("document.querySelector('dialog[open] #exportConnection') !== null", STEP);
            page.click("dialog[open] button[value='export']");
            Map.Entry<String, byte[]> exported = OwnUi.download(page, 0);
            assertEquals("Night Owl.json", exported.getKey());
            JsonNode file = JsJson.parse(exported.getValue());
            assertEquals(0.6, file.path("temperature").asDouble(), "the saved preset: " + file);
            assertFalse(file.has("chat_completion_source"), "no connection data, ST's default answer");

            // text completion: Balanced saved over, then restored from the shipped default (POST /api/presets/restore)
            TextCompletionProtocols.install(session.mock());
            page.navigate(server.url("/#/connection"));
            OwnUi.connectText(page, session.mock(), "llamacpp");
            String shipped = server.files().read("TextGen Settings/Balanced.json");
            double shippedTemp = JsJson.parse(shipped).path("temp").asDouble();
            StUi.withScreenshot(page, "tankard-settings-preset-files", () -> {
                openSettings(page, "document.querySelector('#textgenerationwebuiPresetRestore') !== null");
                OwnUi.choose(page, "#textgenerationwebuiPreset", "Balanced");
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
                OwnUi.enter(page, "#genTemperature", "1.77");
                page.click("#textgenerationwebuiPresetSave");
                page.waitFor("document.getElementById('toasts').textContent.includes('Saved Balanced')", STEP);
                assertEquals(1.77, JsJson.parse(server.files().bytes("TextGen Settings/Balanced.json")).path("temp").asDouble());
                page.click("#textgenerationwebuiPresetRestore");
                page.waitFor("document.querySelector('dialog[open]')?.textContent.includes('shipped settings back')", STEP);
            });
            page.click("dialog[open] button[value='restore']");
            page.waitFor("document.getElementById('toasts').textContent.includes('Restored Balanced')", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals(shippedTemp, JsJson.parse(server.files().bytes("TextGen Settings/Balanced.json")).path("temp").asDouble(),
                    "the shipped file back");
            assertEquals(shippedTemp, settings(server).path("textgenerationwebui_settings").path("temp").asDouble(), "and picked");

            // a template file: named by its name, saved in instruct/ and picked
            Path template = TestServer.tempDir().resolve("hearth-template.json");
            Files.writeString(template, "{\"name\": \"Hearth\", \"input_sequence\": \"<<you>>\", \"output_sequence\": \"<<wren>>\"}");
            page.chooseFiles(() -> page.click("#instructPresetImport"), template);
            page.waitFor("document.getElementById('toasts').textContent.includes('Imported Hearth')", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals("<<you>>", JsJson.parse(server.files().bytes("instruct/Hearth.json")).path("input_sequence").asText());
            JsonNode instruct = settings(server).path("power_user").path("instruct");
            assertEquals("Hearth", instruct.path("preset").asText());
            assertEquals("<<wren>>", instruct.path("output_sequence").asText());
            // a template not shipped is picked again as saved
            page.click("#instructPresetRestore");
            page.waitFor("document.querySelector('dialog[open]')?.textContent.includes('not a shipped default')", STEP);
            page.click("dialog[open] button[value='restore']");
            page.waitFor("document.getElementById('toasts').textContent.includes('Restored Hearth')", STEP);
            page.click("#instructPresetExport");
            Map.Entry<String, byte[]> exportedTemplate = OwnUi.download(page, 1);
            assertEquals("Hearth.json", exportedTemplate.getKey());
            JsonNode templateFile = JsJson.parse(exportedTemplate.getValue());
            assertEquals("Hearth", templateFile.path("name").asText(), "as ST's getPresetSettings: " + templateFile);
            assertEquals("<<you>>", templateFile.path("input_sequence").asText());
            StUi.assertClean(page, "The settings page");
        }
    }

    @Test
    void aBackgroundIsUploadedPickedShownBehindTheChatAndDeleted() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            Browser.Page page = OwnUi.openLibrary(session);
            Path image = TestServer.tempDir().resolve("hearth fire.png");
            Files.write(image, Fixtures.plainPng());
            openSettings(page, "document.querySelectorAll('#backgroundList li[data-name]').length >= 2");
            assertEquals("true", page.eval("document.querySelector('#backgroundList li[data-name=\"tankard-dusk-road.png\"] .pick')"
                    + ".getAttribute('aria-pressed')").asText(), "the one in settings.json is shown picked");

            page.setInputFiles("#backgroundUpload", image);
            page.waitFor("document.querySelector('#backgroundList li.current')?.dataset.name === 'hearth fire.png'", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertTrue(server.files().exists("backgrounds/hearth fire.png"), "uploaded into backgrounds/");
            JsonNode background = settings(server).path("background");
            assertEquals("hearth fire.png", background.path("name").asText());
            assertEquals("url(\"backgrounds/hearth%20fire.png\")", background.path("url").asText(), "as ST's setBackground writes it");
            assertEquals("classic", background.path("fitting").asText(), "ST's other keys are kept");

            StUi.withScreenshot(page, "tankard-settings-background-chat", () -> {
                page.navigate(server.url("/#/chat?avatar=" + WREN));
                page.waitFor("document.querySelectorAll('#messages article').length > 0", STEP);
                String shown = page.eval("getComputedStyle(document.querySelector('.chat .thread')).backgroundImage").asText();
                assertTrue(shown.contains("/backgrounds/hearth%20fire.png"), "behind the chat: " + shown);
                assertEquals(200, page.eval("fetch('/backgrounds/hearth%20fire.png').then(r => r.status)").asInt(), "and it loads");
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            // a chat ST locked to a background (chat_metadata.custom_background) shows that one
            server.files().write("chats/default_Wren/Wren - locked.jsonl", "{\"user_name\":\"User\",\"character_name\":\"Wren\","
                    + "\"create_date\":\"2026-12-01@10h00m00s000ms\",\"chat_metadata\":{\"custom_background\":"
                    + OwnUi.js("url(\"backgrounds/tankard-common-room.png\")") + "}}\n" + message("Wren", false, "Locked in."));
            page.navigate(server.url("/#/chat?avatar=" + WREN + "&file=Wren%20-%20locked"));
            page.waitFor("document.querySelector('#messages article .text')?.textContent === 'Locked in.'", STEP);
            String locked = page.eval("getComputedStyle(document.querySelector('.chat .thread')).backgroundImage").asText();
            assertTrue(locked.contains("/backgrounds/tankard-common-room.png"), "the chat's own: " + locked);

            openSettings(page, "document.querySelector('#backgroundList li[data-name=\"hearth fire.png\"]') !== null");
            delete(page, "#backgroundList button[aria-label='Delete hearth fire.png']");
            page.waitFor("document.querySelector('#backgroundList li[data-name=\"hearth fire.png\"]') === null", STEP);
            assertFalse(server.files().exists("backgrounds/hearth fire.png"), "deleted from backgrounds/");
            assertEquals("__transparent.png", settings(server).path("background").path("name").asText(), "ST's default in its place");

            page.click("#backgroundList button[aria-label='Use tankard-common-room.png']");
            page.waitFor("document.querySelector('#backgroundList li.current')?.dataset.name === 'tankard-common-room.png'", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals("url(\"backgrounds/tankard-common-room.png\")", settings(server).path("background").path("url").asText());
            StUi.assertClean(page, "The settings page");
        }
    }

    @Test
    void atPhoneWidthTheSettingsFitEveryControlIsLabelledLargeEnoughAndReachableByKeyboard() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            Browser.Page page = session.page();
            page.setViewport(390, 844);
            OwnUi.connected(session);
            StUi.withScreenshot(page, "tankard-settings-phone", () -> {
                openSettings(page, "document.querySelectorAll('#backgroundList li[data-name] img').length >= 2"
                        + " && [...document.querySelectorAll('#backgroundList img')].every(i => i.complete)");
                assertFitsAPhoneAndEveryControlIsNamed(page);
            });

            // by keyboard alone: Tab reaches every control in order, and Enter on a background picks it
            page.eval("document.querySelector('#generationSettings').closest('main').focus()");
            List<String> reached = new java.util.ArrayList<>();
            for (int i = 0; i < 40; i++) {
                page.press("Tab");
                reached.add(page.eval("document.activeElement.id || document.activeElement.getAttribute('aria-label') || ''").asText());
            }
            for (String control : List.of("openaiPreset", "openaiPresetSaveAs", "bindPresetToConnection", "genTemperature", "genTopP", "genMaxTokens", "genContext",
                    "genStream", "Use tankard-common-room.png", "Delete tankard-common-room.png")) {
                assertTrue(reached.contains(control), control + " by Tab: " + reached);
            }
            page.eval("document.querySelector(\"#backgroundList button[aria-label='Use tankard-common-room.png']\").focus()");
            page.press("Enter");
            page.waitFor("document.querySelector('#backgroundList li.current')?.dataset.name === 'tankard-common-room.png'", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals("tankard-common-room.png", settings(session.server()).path("background").path("name").asText());

            // the text completion page too, its template pickers and switches used by keyboard
            TextCompletionProtocols.install(session.mock());
            page.navigate(session.server().url("/#/connection"));
            OwnUi.connectText(page, session.mock(), "llamacpp");
            StUi.withScreenshot(page, "tankard-settings-phone-text-completion", () -> {
                openSettings(page, "document.querySelector('#instructPreset') !== null"
                        + " && [...document.querySelectorAll('#backgroundList img')].every(i => i.complete)");
                page.click("#moreSamplers summary");
                assertFitsAPhoneAndEveryControlIsNamed(page);
                page.eval("document.querySelector('#instructEnabled').focus()");
                page.press("Space");
                page.waitFor("document.querySelector('#instructEnabled').checked", STEP);
                page.eval("document.querySelector('#instructPreset').focus()");
                String before = page.eval("document.querySelector('#instructPreset').value").asText();
                page.press("ArrowDown");
                page.waitFor("document.querySelector('#instructPreset').value !== " + OwnUi.js(before)
                        + " && document.activeElement.id === 'instructPreset'", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            JsonNode instruct = settings(session.server()).path("power_user").path("instruct");
            assertTrue(instruct.path("enabled").asBoolean(), "Space turned instruct mode on");
            assertEquals(page.eval("document.querySelector('#instructPreset').value").asText(), instruct.path("preset").asText(),
                    "the arrow key picked the next template, and the focus stayed on its picker");
            StUi.assertClean(page, "The settings page");
        }
    }

    /** The ids of the "More samplers" fields, in order. */
    private static List<String> samplers(Browser.Page page) {
        return names(page, "[...document.querySelectorAll('#moreSamplers input')].map(i => i.id)");
    }

    /** No overflow at 390 px; every control named (label, aria-label or text) and at least 44 px each way. */
    private static void assertFitsAPhoneAndEveryControlIsNamed(Browser.Page page) {
        page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
        assertTrue(page.eval("document.documentElement.scrollWidth <= 390").asBoolean(), "nothing wider than the phone");
        String controls = "[...document.querySelectorAll('#view input, #view select, #view button')].filter(c => c.getClientRects().length)";
        List<String> unlabelled = names(page, controls + ".filter(c => !(c.labels?.length && c.labels[0].textContent.trim())"
                + " && !c.getAttribute('aria-label') && !c.textContent.trim()).map(c => c.id || c.outerHTML.slice(0, 60))");
        assertEquals(List.of(), unlabelled, "every control has a name");
        List<String> small = names(page, controls + ".map(c => c.type === 'checkbox' ? c.closest('label') : c)"
                + ".filter(c => { const r = c.getBoundingClientRect(); return r.height < 44 || r.width < 44 || r.right > 390; })"
                + ".map(c => c.id || c.textContent.trim() || c.outerHTML.slice(0, 60))");
        assertEquals(List.of(), small, "touch targets of 44 px at least, all within the width");
    }

    private static List<String> names(Browser.Page page, String script) {
        List<String> out = new java.util.ArrayList<>();
        page.eval(script).forEach(n -> out.add(n.asText()));
        return out;
    }
}
