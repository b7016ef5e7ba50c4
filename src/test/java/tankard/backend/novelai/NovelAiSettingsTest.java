package tankard.backend.novelai;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NovelAiSettingsTest {
    private static JsonNode parameters(String model, String extra) {
        JsonNode request = JsJson.parse("{\"input\":\"Hi\",\"model\":\"" + model + "\"" + extra + "}");
        return NovelAiSettings.body(request, model).get("parameters");
    }

    @Test
    void absentFieldsStayAbsentAndUseStringDefaultsToTrue() {
        String body = JsJson.compact(NovelAiSettings.body(JsJson.parse("{\"input\":\"Hi\","
                + "\"model\":\"llama-3-erato-v1\",\"use_string\":null}"), "llama-3-erato-v1"));
        assertTrue(body.startsWith("{\"input\":\"Hi\",\"model\":\"llama-3-erato-v1\",\"parameters\":{\"use_string\":true,"
                + "\"repetition_penalty_whitelist\":[6,1,11,13,"), body);
        assertEquals("{\"use_string\":false,\"repetition_penalty_whitelist\":null,\"bad_words_ids\":null,"
                + "\"logit_bias_exp\":[]}", JsJson.compact(parameters("euterpe-v2", ",\"use_string\":false")));
    }

    @Test
    void eachModelHasItsBannedSequences() {
        assertEquals(7, parameters("llama-3-erato-v1", "").get("bad_words_ids").size());
        JsonNode hypeBot = parameters("hypebot", "").get("bad_words_ids");
        assertEquals(150, hypeBot.size());
        assertEquals("[2602,834]", hypeBot.get(144).toString());
        assertEquals("[50256]", hypeBot.get(149).toString());
        assertEquals(20, parameters("clio-v1", "").get("bad_words_ids").size());
    }

    @Test
    void emptySequencesAreDroppedAsStDropsThem() {
        // ST splices while iterating: of two empty arrays in a row, the second one stays
        assertEquals("[[],[5]]", parameters("euterpe-v2", ",\"bad_words_ids\":[[],[],[5],[1.5]]")
                .get("bad_words_ids").toString());
        assertEquals("[[5],[6]]", parameters("euterpe-v2", ",\"bad_words_ids\":[[5],[],[6]]")
                .get("bad_words_ids").toString());
    }

    @Test
    void textAdventuresStopAtTheNextPrompt() {
        assertEquals(49405, parameters("kayra-v1", ",\"prefix\":\"theme_textadventure\"").get("eos_token_id").intValue());
        assertEquals(29, parameters("llama-3-erato-v1", ",\"prefix\":\"theme_textadventure\"").get("eos_token_id").intValue());
        assertFalse(parameters("kayra-v1", ",\"prefix\":\"vanilla\"").has("eos_token_id"));
        assertTrue(parameters("kayra-v1", "").get("repetition_penalty_whitelist").isArray());
    }
}
