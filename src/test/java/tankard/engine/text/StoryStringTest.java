package tankard.engine.text;

import org.junit.jupiter.api.Test;
import tankard.engine.macro.MacroEnv;
import tankard.engine.macro.Macros;
import tankard.engine.macro.TestMacros;
import tankard.json.JsJson;

import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StoryStringTest {
    private final Macros macros = TestMacros.macros("Wren", "Bramble", JsJson.object(),
            MacroEnv.CardFields.EMPTY, null, JsJson.array(), JsJson.object(), "", ZonedDateTime.now());

    private String render(String template, Map<String, Object> params, boolean instruct, boolean wrap,
                          boolean suffix) {
        return StoryString.render(template, params, macros, "Wren", "Bramble", false, instruct, wrap, suffix);
    }

    @Test
    void ifBlocksRenderWithoutEscapingAndEndWithANewline() {
        Map<String, Object> params = new HashMap<>();
        params.put("description", "A <tall> & \"quiet\" innkeeper.");
        params.put("personality", "");
        params.put("char", "Bramble");
        String out = render("{{#if description}}{{description}}\n{{/if}}{{#if personality}}P: {{personality}}\n{{/if}}"
                + "Talks to {{user}}", params, false, false, false);
        assertEquals("A <tall> & \"quiet\" innkeeper.\nTalks to Wren\n", out);
    }

    @Test
    void standaloneBlockLinesAreRemovedAsHandlebarsJsDoes() {
        Map<String, Object> params = new HashMap<>();
        params.put("scenario", "A storm.");
        String out = render("\n\n{{#if scenario}}\nScenario: {{scenario}}\n{{/if}}\nEnd", params, false, false, false);
        assertEquals("Scenario: A storm.\nEnd\n", out);
    }

    @Test
    void instructWithAStorySuffixGetsNoNewline() {
        Map<String, Object> params = Map.of("system", "Be kind.");
        assertEquals("Be kind.", render("{{system}}", params, true, true, true));
        assertEquals("Be kind.\n", render("{{system}}", params, true, true, false));
        assertEquals("Be kind.", render("{{system}}", params, true, false, false));
    }

    @Test
    void anUndefinedFieldGoesToTheMacros() {
        Map<String, Object> params = new HashMap<>();
        params.put("system", null);
        assertEquals("[Wren]\n", render("{{#if system}}S{{/if}}[{{user}}]", params, false, false, false));
    }
}
