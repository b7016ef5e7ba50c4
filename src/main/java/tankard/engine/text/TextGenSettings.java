package tankard.engine.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * ST's {@code textgenerationwebui_settings} as loadTextGenSettings leaves them (public/scripts/textgen-settings.js):
 * the defaults with settings.json's {@code textgenerationwebui_settings} assigned over them, the sampler order
 * lists completed, and the legacy server and Mancer keys applied.
 */
final class TextGenSettings {
    static final List<String> LLAMACPP_DEFAULT_ORDER = List.of("penalties", "dry", "top_n_sigma", "top_k", "typ_p",
            "top_p", "min_p", "xtc", "temperature", "adaptive_p");
    static final List<String> OOBA_DEFAULT_ORDER = List.of("repetition_penalty", "presence_penalty",
            "frequency_penalty", "dry", "temperature", "dynamic_temperature", "quadratic_sampling", "top_n_sigma",
            "top_k", "top_p", "typical_p", "epsilon_cutoff", "eta_cutoff", "tfs", "top_a", "min_p", "adaptive_p",
            "mirostat", "xtc", "encoder_repetition_penalty", "no_repeat_ngram");
    static final List<String> APHRODITE_DEFAULT_ORDER = List.of("dry", "penalties", "no_repeat_ngram", "temperature",
            "top_nsigma", "top_p_top_k", "top_a", "min_p", "tfs", "eta_cutoff", "epsilon_cutoff", "typical_p",
            "quadratic", "xtc");
    private static final List<String> SERVER_TYPES = List.of("ooba", "vllm", "aphrodite", "tabby", "koboldcpp",
            "llamacpp", "ollama", "huggingface", "generic");

    private TextGenSettings() {
    }

    static ObjectNode of(ObjectNode settings) {
        ObjectNode textgen = defaults();
        JsonNode saved = settings.get("textgenerationwebui_settings");
        if (saved != null && saved.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = saved.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = it.next();
                textgen.set(entry.getKey(), entry.getValue().deepCopy());
            }
        }
        JsonNode legacyServer = settings.get("api_server_textgenerationwebui");
        if (legacyServer != null && Js.truthy(legacyServer)) {
            ObjectNode urls = textgen.path("server_urls").isObject() ? (ObjectNode) textgen.get("server_urls")
                    : textgen.putObject("server_urls");
            SERVER_TYPES.forEach(type -> urls.set(type, legacyServer));
        }
        if (Js.truthy(settings.get("api_use_mancer_webui"))) {
            textgen.put("type", "mancer");
        }
        // ST: setSettingByName, for the settings whose value it rewrites
        orderList(textgen, "sampler_priority", OOBA_DEFAULT_ORDER);
        orderList(textgen, "samplers_priorities", APHRODITE_DEFAULT_ORDER);
        orderList(textgen, "samplers", LLAMACPP_DEFAULT_ORDER);
        JsonNode samplerOrder = textgen.get("sampler_order");
        if (samplerOrder != null && !samplerOrder.isNull() && !samplerOrder.isArray()) {
            textgen.set("sampler_order", koboldOrder());
        }
        JsonNode logitBias = textgen.get("logit_bias");
        if (logitBias != null && !logitBias.isNull() && !logitBias.isArray()) {
            textgen.putArray("logit_bias");
        }
        if (textgen.get("extensions") == null || !Js.truthy(textgen.get("extensions"))) {
            textgen.putObject("extensions");
        }
        if (!textgen.has("json_schema")) {
            textgen.putNull("json_schema");
        }
        return textgen;
    }

    /** A saved order list, or the default one, with the default's missing items put in at their places. */
    private static void orderList(ObjectNode textgen, String key, List<String> defaults) {
        JsonNode value = textgen.get(key);
        if (value == null || value.isNull()) {
            return;
        }
        ArrayNode list = value.isArray() ? (ArrayNode) value : JsJson.array();
        if (!value.isArray()) {
            defaults.forEach(list::add);
        }
        for (int index = 0; index < defaults.size(); index++) {
            String item = defaults.get(index);
            boolean present = false;
            for (JsonNode element : list) {
                present |= element.isTextual() && element.textValue().equals(item);
            }
            if (!present) {
                list.insert(Math.min(index, list.size()), item);
            }
        }
        textgen.set(key, list);
    }

    private static ArrayNode koboldOrder() {
        ArrayNode order = JsJson.array();
        for (int id : new int[] {6, 0, 1, 3, 4, 2, 5}) {
            order.add(id);
        }
        return order;
    }

    // ST: public/scripts/textgen-settings.js, textgenerationwebui_settings
    private static ObjectNode defaults() {
        ObjectNode d = JsJson.object();
        d.put("temp", 0.7).put("temperature_last", true).put("top_p", 0.5).put("top_k", 40).put("top_a", 0)
                .put("tfs", 1).put("epsilon_cutoff", 0).put("eta_cutoff", 0).put("typical_p", 1).put("min_p", 0)
                .put("rep_pen", 1.2).put("rep_pen_range", 0).put("rep_pen_decay", 0).put("rep_pen_slope", 1)
                .put("no_repeat_ngram_size", 0).put("penalty_alpha", 0).put("num_beams", 1)
                .put("length_penalty", 1).put("min_length", 0).put("encoder_rep_pen", 1).put("freq_pen", 0)
                .put("presence_pen", 0).put("skew", 0).put("do_sample", true).put("early_stopping", false)
                .put("dynatemp", false).put("min_temp", 0).put("max_temp", 2).put("dynatemp_exponent", 1)
                .put("smoothing_factor", 0).put("smoothing_curve", 1).put("dry_allowed_length", 2)
                .put("dry_multiplier", 0).put("dry_base", 1.75)
                .put("dry_sequence_breakers", "[\"\\n\", \":\", \"\\\"\", \"*\"]").put("dry_penalty_last_n", 0)
                .put("max_tokens_second", 0).put("seed", -1).put("preset", "Default").put("add_bos_token", true);
        d.putArray("stopping_strings");
        d.put("ban_eos_token", false).put("skip_special_tokens", true).put("include_reasoning", true)
                .put("streaming", false).put("mirostat_mode", 0).put("mirostat_tau", 5).put("mirostat_eta", 0.1)
                .put("guidance_scale", 1).put("negative_prompt", "").put("grammar_string", "").putNull("json_schema");
        d.put("json_schema_allow_empty", false).put("banned_tokens", "").put("global_banned_tokens", "")
                .put("send_banned_tokens", true);
        OOBA_DEFAULT_ORDER.forEach(d.putArray("sampler_priority")::add);
        LLAMACPP_DEFAULT_ORDER.forEach(d.putArray("samplers")::add);
        APHRODITE_DEFAULT_ORDER.forEach(d.putArray("samplers_priorities")::add);
        d.put("ignore_eos_token", false).put("spaces_between_special_tokens", true).put("speculative_ngram", false)
                .put("type", "ooba").put("mancer_model", "mytholite").put("togetherai_model", "Gryphe/MythoMax-L2-13b")
                .put("infermaticai_model", "").put("ollama_model", "").put("openrouter_model", "openrouter/auto");
        d.putArray("openrouter_providers");
        d.putArray("openrouter_quantizations");
        d.put("vllm_model", "").put("aphrodite_model", "").put("dreamgen_model", "lucid-v1-extra-large/text")
                .put("tabby_model", "").put("llamacpp_model", "");
        d.set("sampler_order", koboldOrder());
        d.putArray("logit_bias");
        d.put("n", 1);
        d.putObject("server_urls");
        d.put("custom_model", "").put("bypass_status_check", false).put("openrouter_allow_fallbacks", true)
                .put("xtc_threshold", 0.1).put("xtc_probability", 0).put("nsigma", 0).put("min_keep", 0)
                .put("featherless_model", "").put("generic_model", "");
        d.putObject("extensions");
        d.put("adaptive_target", -0.01).put("adaptive_decay", 0.9);
        return d;
    }
}
