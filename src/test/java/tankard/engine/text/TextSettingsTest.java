package tankard.engine.text;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextSettingsTest {
    @Test
    void anOldContextTemplateGetsTheAnchorsAndTheControlsDefaults() {
        ObjectNode settings = JsJson.object();
        settings.putObject("power_user").putObject("context").put("story_string", "Hi {{description}}\n");
        TextSettings text = TextSettings.of(settings);

        assertEquals("Hi {{#if anchorBefore}}{{anchorBefore}}\n{{/if}}{{description}}"
                + "{{#if anchorAfter}}{{anchorAfter}}\n{{/if}}\n", text.contextText("story_string"));
        assertFalse(text.contextFlag("use_stop_strings"));
        assertTrue(text.contextFlag("names_as_stop_strings"));
        assertEquals(0, text.contextNumber("story_string_position", -1));
        assertEquals(1, text.contextNumber("story_string_depth", -1));
    }

    @Test
    void oldInstructFieldsAreMigrated() {
        ObjectNode settings = JsJson.object();
        settings.putObject("power_user").putObject("instruct").put("enabled", true).put("separator_sequence", "</s>")
                .put("output_suffix", "ignored").put("names", true).put("system_prompt", "Old prompt for {{char}}.");
        TextSettings text = TextSettings.of(settings);

        assertEquals("</s>", text.instructText("output_suffix"));
        assertEquals("always", text.instruct.get("names_behavior").textValue());
        assertFalse(text.instruct.has("separator_sequence"));
        assertEquals("Old prompt for {{char}}.", text.sysprompt.get("content").textValue());
        assertTrue(text.sysprompt.get("enabled").booleanValue());
        assertTrue(text.instructFlag("sequences_as_stop_strings"));
    }

    @Test
    void samplerOrdersGetTheirMissingItems() {
        ObjectNode settings = JsJson.object();
        settings.putObject("textgenerationwebui_settings").putArray("samplers").add("temperature").add("top_k");
        TextSettings text = TextSettings.of(settings);

        assertEquals(JsJson.parse("[\"penalties\",\"dry\",\"top_n_sigma\",\"temperature\",\"typ_p\",\"top_p\","
                + "\"min_p\",\"xtc\",\"top_k\",\"adaptive_p\"]"), text.textgen.get("samplers"));
    }
}
