package tankard.engine.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TextGenRequestTest {
    private static TextPromptFixture fixture(String type) {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.textgen.put("type", type).put("temp", 0.8).put("top_p", 0.9).put("rep_pen", 1.1)
                .put("rep_pen_range", 1024).put("seed", -1).put("dry_sequence_breakers", "[\"\\n\", \":\", \"{{char}}\"]")
                .put("banned_tokens", "[42, 7]\n\"forbidden words\"");
        fixture.textgen.putObject("server_urls").put("koboldcpp", "http://127.0.0.1:5001")
                .put("llamacpp", "http://127.0.0.1:8080").put("ooba", "http://127.0.0.1:5000");
        return fixture;
    }

    private static ObjectNode request(TextPromptFixture fixture) {
        return fixture.build().request();
    }

    @Test
    void koboldcppGetsItsSamplerOrderTrimStopAndParsedSequenceBreakers() {
        ObjectNode body = request(fixture("koboldcpp"));

        assertEquals("koboldcpp", body.get("api_type").textValue());
        assertEquals("http://127.0.0.1:5001", body.get("api_server").textValue());
        assertEquals(200, body.get("max_new_tokens").intValue());
        assertEquals(200, body.get("max_tokens").intValue());
        assertEquals(200, body.get("n_predict").intValue());
        assertEquals(4096, body.get("truncation_length").intValue());
        assertEquals(4096, body.get("num_ctx").intValue());
        assertEquals(0.8, body.get("temperature").doubleValue());
        assertEquals(1.1, body.get("rep_pen").doubleValue());
        assertEquals(1024, body.get("repetition_penalty_range").intValue());
        assertEquals(JsJson.parse("[6,0,1,3,4,2,5]"), body.get("sampler_order"));
        assertTrue(body.get("trim_stop").booleanValue());
        assertEquals(JsJson.parse("[\"\\n\",\":\",\"Bramble\"]"), body.get("dry_sequence_breakers"));
        assertEquals("42,7", body.get("custom_token_bans").textValue());
        assertEquals(JsJson.parse("[\"forbidden words\"]"), body.get("banned_strings"));
        assertEquals(JsJson.parse("[\"\\nWren:\",\"<END>\"]"), body.get("stopping_strings"));
        assertEquals(body.get("stopping_strings"), body.get("stop"));
        assertEquals(1, body.get("guidance_scale").intValue());
        assertEquals("", body.get("negative_prompt").textValue());
        for (String absent : new String[] {"model", "grammar", "grammar_retain_state", "sampler_seed", "seed",
                "samplers", "sampler_priority", "min_length", "num_beams", "logprobs", "stream", "logit_bias",
                "json_schema", "grammar_string", "dynamic_temperature", "epsilon_cutoff", "n"}) {
            assertFalse(body.has(absent), absent);
        }
        assertTrue(body.get("prompt").textValue().endsWith("Wren: A room, please.\nBramble:"));
    }

    @Test
    void llamacppSendsBansAsLogitBiasPairsAndCachesThePrompt() {
        TextPromptFixture fixture = fixture("llamacpp");
        fixture.textgen.put("llamacpp_model", "Llama-3-8B-Instruct.gguf").put("streaming", true);
        ObjectNode body = request(fixture);

        assertEquals("llamacpp", body.get("api_type").textValue());
        assertEquals("Llama-3-8B-Instruct.gguf", body.get("model").textValue());
        assertEquals("http://127.0.0.1:8080", body.get("api_server").textValue());
        assertEquals(JsJson.parse("[[42,false],[7,false]]"), body.get("logit_bias"));
        assertEquals("", body.get("grammar").textValue());
        assertTrue(body.get("cache_prompt").booleanValue());
        assertEquals(1, body.get("n").intValue());
        assertEquals(TextGenSettings.LLAMACPP_DEFAULT_ORDER.size(), body.get("samplers").size());
        assertEquals(JsJson.parse("[\"\\n\",\":\",\"Bramble\"]"), body.get("dry_sequence_breakers"));
        assertTrue(body.get("stream").booleanValue());
        for (String absent : new String[] {"sampler_order", "trim_stop", "json_schema", "grammar_string",
                "sampler_priority"}) {
            assertFalse(body.has(absent), absent);
        }
    }

    @Test
    void llamacppWithAJsonSchemaDropsTheGrammar() {
        TextPromptFixture fixture = fixture("llamacpp");
        fixture.textgen.put("grammar_string", "root ::= \"yes\"");
        fixture.textgen.putObject("json_schema").put("type", "object");
        ObjectNode body = request(fixture);

        assertEquals(JsJson.parse("{\"type\":\"object\"}"), body.get("json_schema"));
        assertFalse(body.has("grammar"));
        assertFalse(body.has("grammar_string"));
    }

    @Test
    void oobaGetsItsOwnSamplersAndTheBreakersAsText() {
        TextPromptFixture fixture = fixture("ooba");
        fixture.textgen.put("seed", 1234).put("min_length", 5);
        ObjectNode body = request(fixture);

        assertEquals("ooba", body.get("api_type").textValue());
        assertEquals(5, body.get("min_length").intValue());
        assertEquals(1, body.get("num_beams").intValue());
        assertTrue(body.get("do_sample").booleanValue());
        assertTrue(body.get("temperature_last").booleanValue());
        assertEquals(1234, body.get("seed").intValue());
        assertEquals(1234, body.get("sampler_seed").intValue());
        assertEquals(TextGenSettings.OOBA_DEFAULT_ORDER.size(), body.get("sampler_priority").size());
        assertEquals("[\"\\n\",\":\",\"Bramble\"]", body.get("dry_sequence_breakers").textValue());
        assertFalse(body.has("sampler_order"));
        assertFalse(body.has("model"));
    }

    @Test
    void dynamicTemperatureSendsTheMiddleAndTheRange() {
        TextPromptFixture fixture = fixture("koboldcpp");
        fixture.textgen.put("dynatemp", true).put("min_temp", 0.5).put("max_temp", 1.5);
        ObjectNode body = request(fixture);

        JsonNode temperature = body.get("temperature");
        assertTrue(temperature.isIntegralNumber(), "1, as JSON.stringify writes it");
        assertEquals(1, temperature.intValue());
        assertEquals(0.5, body.get("dynatemp_range").doubleValue());
        assertTrue(body.get("dynamic_temperature").booleanValue());
    }

    @Test
    void missingSettingsFallBackToStsDefaults() {
        TextPromptFixture fixture = new TextPromptFixture().greetingAndRequest();
        fixture.settings.remove("textgenerationwebui_settings");
        fixture.settings.remove("max_context");
        ObjectNode body = request(fixture);

        assertEquals("ooba", body.get("api_type").textValue());
        assertEquals(0.7, body.get("temperature").doubleValue());
        assertEquals(2048, body.get("truncation_length").intValue());
        assertEquals("", body.get("api_server").textValue());
    }
}
