package tankard.frontend;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.testing.Browser;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;

/**
 * Issue 7's presets acceptance through ST's own frontend: a preset of every kind (chat completion, text
 * completion, KoboldAI, NovelAI, and the instruct, context, system prompt and reasoning templates) is saved
 * with the frontend's "save as" dialog, lands on disk as exactly the JSON ST writes for the posted preset, is
 * still there and selected after a reload, and a switch to another preset survives a reload too. Needs an ST
 * install: {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendPresetsUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendPresetsUiTest {
    /** A preset kind: its API id, user folder, the select listing it and its "save as" button. */
    private record Kind(String apiId, String folder, String select, String saveAs) {
        String name() {
            return "Tankard " + apiId;
        }

        String selectedName() {
            return "$(" + jsString(select) + ").find(':selected').text()";
        }
    }

    private static final List<Kind> KINDS = List.of(
            new Kind("openai", "OpenAI Settings", "#settings_preset_openai", "#new_oai_preset"),
            managed("textgenerationwebui", "TextGen Settings", "#settings_preset_textgenerationwebui"),
            managed("kobold", "KoboldAI Settings", "#settings_preset"),
            managed("novel", "NovelAI Settings", "#settings_preset_novel"),
            managed("instruct", "instruct", "#instruct_presets"),
            managed("context", "context", "#context_presets"),
            managed("sysprompt", "sysprompt", "#sysprompt_select"),
            managed("reasoning", "reasoning", "#reasoning_select"));

    /** Remembers the body of every preset save the page posts, by API id. */
    private static final String RECORD_SAVES = """
            (() => {
                window.tankardSaves = {};
                const fetch = window.fetch;
                window.fetch = (url, options) => {
                    if (url === '/api/presets/save') {
                        window.tankardSaves[JSON.parse(options.body).apiId] = options.body;
                    }
                    return fetch(url, options);
                };
                return true;
            })()""";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    private static Kind managed(String apiId, String folder, String select) {
        return new Kind(apiId, folder, select, "[data-preset-manager-new=\"" + apiId + "\"]");
    }

    @Test
    void presetsOfEveryKindAreSavedSwitchedAndSurviveReloads() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-presets-1-saved", () -> {
                StUi.boot(page);
                page.eval(RECORD_SAVES);
                for (Kind kind : KINDS) {
                    saveAs(page, kind);
                }
            });
            for (Kind kind : KINDS) {
                String posted = page.eval("JSON.stringify(JSON.parse(window.tankardSaves[" + jsString(kind.apiId())
                        + "]).preset, null, 4)").asText();
                assertEquals(posted, server.files().read(presetFile(kind)),
                        kind.apiId() + ": the file holds the posted preset as ST writes it");
            }

            Map<String, String> switchedTo = new HashMap<>();
            StUi.withScreenshot(page, "st-presets-2-reloaded", () -> {
                reload(page);
                for (Kind kind : KINDS) {
                    assertEquals(kind.name(), page.eval(kind.selectedName()).asText(), kind.apiId() + " after a reload");
                    switchedTo.put(kind.apiId(), switchToAnother(page, kind));
                }
                assertCleanButForStatusChecks(page, "Saving and switching presets");
            });

            StUi.withScreenshot(page, "st-presets-3-switched", () -> {
                reload(page);
                for (Kind kind : KINDS) {
                    assertEquals(switchedTo.get(kind.apiId()), page.eval(kind.selectedName()).asText(),
                            kind.apiId() + " keeps the switch after a reload");
                    assertTrue(page.eval("[...document.querySelector(" + jsString(kind.select()) + ").options]"
                            + ".some(o => o.textContent === " + jsString(kind.name()) + ")").asBoolean(),
                            kind.apiId() + " still lists the saved preset");
                }
                assertCleanButForStatusChecks(page, "Reloading after the switch");
            });
            for (Kind kind : KINDS) {
                assertTrue(server.files().exists(presetFile(kind)));
            }
        }
    }

    /** "Save as" with the frontend's name dialog; the new preset ends up selected. */
    private static void saveAs(Browser.Page page, Kind kind) {
        page.eval("$(" + jsString(kind.saveAs()) + ").trigger('click'); true");
        page.waitFor("document.querySelector('dialog[open] .popup-input') !== null", StUi.STEP_TIMEOUT);
        page.type("dialog[open] .popup-input", kind.name());
        page.click("dialog[open] .popup-button-ok");
        page.waitFor(kind.selectedName() + " === " + jsString(kind.name())
                + " && document.querySelector('dialog[open]') === null", StUi.STEP_TIMEOUT);
    }

    /** Picks the first other preset in the list, as choosing it in the select does; returns its name. */
    private static String switchToAnother(Browser.Page page, Kind kind) {
        String other = page.eval("(s => { const o = [...s.options].find(o => o.textContent !== " + jsString(kind.name())
                + " && o.value !== ''); s.value = o.value; $(s).trigger('change'); return o.textContent; })"
                + "(document.querySelector(" + jsString(kind.select()) + "))").asText();
        assertFalse(other.isEmpty());
        assertNotEquals(kind.name(), other);
        page.waitFor(kind.selectedName() + " === " + jsString(other), StUi.STEP_TIMEOUT);
        return other;
    }

    /** Reloads once the page's debounced settings save is out. */
    private static void reload(Browser.Page page) {
        page.waitForNetworkIdle(StUi.QUIET, StUi.STEP_TIMEOUT);
        page.reload();
        StUi.boot(page);
    }

    /**
     * No failed request or console error, except the chat completion status checks: the test connects no
     * backend, so the frontend's check of the default API (no key) is answered 400, as ST answers it, and the
     * reloads abort the check still running.
     */
    private static void assertCleanButForStatusChecks(Browser.Page page, String step) {
        String status = "/api/backends/chat-completions/status";
        boolean clean = page.failedResponses().stream().allMatch(r -> r.url().endsWith(status) && r.status() == 400)
                && page.consoleErrors().stream().allMatch(e -> e.text().equals("AbortReason") || e.text().contains(status));
        assertTrue(clean, step + " was not clean:\n" + page.report());
    }

    /** The preset's path in the user's folder. */
    private static String presetFile(Kind kind) {
        return kind.folder() + "/" + kind.name() + ".json";
    }
}
