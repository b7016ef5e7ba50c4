package tankard.engine.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.engine.macro.Macros;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.tokenizer.Tokenizer;
import tankard.tokenizer.Tokenizers;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The body ST's frontend posts to {@code /api/backends/text-completions/generate} (public/scripts/textgen-settings.js,
 * getTextGenGenerationData and createTextGenGenerationData), as {@code JSON.stringify} leaves it: keys whose value is
 * undefined are absent.
 */
final class TextGenRequest {
    private static final Set<String> TEXTGEN_TOKENIZERS = Set.of("ooba", "tabby", "koboldcpp", "llamacpp", "vllm",
            "aphrodite");
    /** The backends the dynamic temperature block shows for (index.html, dynatemp_block_ooba's data-tg-type). */
    private static final Set<String> DYNATEMP_TYPES = Set.of("ooba", "mancer", "koboldcpp", "tabby", "llamacpp",
            "aphrodite");
    private static final Pattern LEADING_INTEGER = Pattern.compile("^[\\s\\ufeff]*([+-]?\\d+)");
    private static final Set<Integer> ENCODE_TOKENIZERS = Set.of(3, 7, 8, 12, 13, 14, 15, 16, 19, 17, 18);

    /** What the request needs from the prompt being built. */
    record Inputs(String prompt, JsonNode maxTokens, JsonNode maxContext, boolean isImpersonate, boolean isContinue,
                  String type, List<String> stoppingStrings, String connectedModel, JsonNode guidanceScale,
                  String negativePrompt) {
    }

    /** A JavaScript object literal: insertion order, a null value is undefined (left out when serialized). */
    private static final class JsObject {
        final Map<String, JsonNode> values = new LinkedHashMap<>();

        JsObject put(String key, JsonNode value) {
            values.put(key, value);
            return this;
        }

        JsonNode get(String key) {
            return values.get(key);
        }

        void assign(JsObject other) {
            values.putAll(other.values);
        }

        ObjectNode toJson() {
            ObjectNode json = JsJson.object();
            values.forEach((key, value) -> {
                if (value != null) {
                    json.set(key, value);
                }
            });
            return json;
        }
    }

    private TextGenRequest() {
    }

    /** ST: getTextGenModel: the model the settings name for the backend, or null (undefined). */
    static String model(ObjectNode settings) {
        String type = Js.string(settings.get("type"));
        if (type.equals("huggingface")) {
            return "tgi";
        }
        String key = switch (type) {
            case "ooba" -> "custom_model";
            case "generic", "mancer", "togetherai", "infermaticai", "dreamgen", "openrouter", "vllm", "aphrodite",
                 "ollama", "featherless", "tabby", "llamacpp" -> type + "_model";
            default -> null;
        };
        if (key == null) {
            return null;
        }
        JsonNode value = settings.get(key);
        // these backends send a model only when one is named
        boolean optional = Set.of("ooba", "generic", "tabby", "llamacpp").contains(type);
        if (optional && !Js.truthy(value) || Js.isUndefined(value) || value.isNull()) {
            return null;
        }
        return Js.string(value);
    }

    static ObjectNode build(TextSettings text, Macros macros, Tokenizers tokenizers, Inputs in) {
        ObjectNode s = text.textgen;
        String type = Js.string(s.get("type"));
        boolean ooba = type.equals("ooba");
        String model = model(s);
        boolean canMultiSwipe = !in.isContinue() && !in.isImpersonate() && !in.type().equals("quiet");
        boolean dynatemp = Js.truthy(s.get("dynatemp")) && DYNATEMP_TYPES.contains(type);
        Tokenizer idTokenizer = idTokenizer(text, tokenizers, in.connectedModel());
        TokenBans bans = tokenBans(s, macros, idTokenizer);
        JsonNode jsonSchema = jsonSchema(s);
        boolean probabilities = text.flag("request_token_probabilities", false);
        JsonNode seed = nonNegative(s.get("seed")) ? s.get("seed") : null;
        JsonNode temperature = dynatemp ? number((num(s.get("min_temp")) + num(s.get("max_temp"))) / 2) : s.get("temp");
        List<String> stops = in.stoppingStrings();
        JsonNode dryBreakers = replaceMacrosInList(s.get("dry_sequence_breakers"), macros);

        JsObject params = new JsObject()
                .put("prompt", TextNode.valueOf(in.prompt()))
                .put("model", model == null ? null : TextNode.valueOf(model))
                .put("max_new_tokens", in.maxTokens())
                .put("max_tokens", in.maxTokens())
                .put("logprobs", probabilities ? number(type.equals("vllm") || type.equals("infermaticai") ? 5 : 10) : null)
                .put("temperature", temperature)
                .put("top_p", s.get("top_p"))
                .put("typical_p", s.get("typical_p"))
                .put("typical", s.get("typical_p"))
                .put("sampler_seed", seed)
                .put("min_p", s.get("min_p"))
                .put("repetition_penalty", s.get("rep_pen"))
                .put("frequency_penalty", s.get("freq_pen"))
                .put("presence_penalty", s.get("presence_pen"))
                .put("top_k", s.get("top_k"))
                .put("skew", s.get("skew"))
                .put("min_length", ooba ? s.get("min_length") : null)
                .put("minimum_message_content_tokens", type.equals("dreamgen") ? s.get("min_length") : null)
                .put("min_tokens", s.get("min_length"))
                .put("num_beams", ooba ? s.get("num_beams") : null)
                .put("length_penalty", ooba ? s.get("length_penalty") : null)
                .put("early_stopping", ooba ? s.get("early_stopping") : null)
                .put("add_bos_token", s.get("add_bos_token"))
                .put("dynamic_temperature", dynatemp ? BooleanNode.TRUE : null)
                .put("dynatemp_low", dynatemp ? s.get("min_temp") : null)
                .put("dynatemp_high", dynatemp ? s.get("max_temp") : null)
                .put("dynatemp_range", dynatemp ? number((num(s.get("max_temp")) - num(s.get("min_temp"))) / 2) : null)
                .put("dynatemp_exponent", dynatemp ? s.get("dynatemp_exponent") : null)
                .put("smoothing_factor", s.get("smoothing_factor"))
                .put("smoothing_curve", s.get("smoothing_curve"))
                .put("dry_allowed_length", s.get("dry_allowed_length"))
                .put("dry_multiplier", s.get("dry_multiplier"))
                .put("dry_base", s.get("dry_base"))
                .put("dry_sequence_breakers", dryBreakers)
                .put("dry_penalty_last_n", s.get("dry_penalty_last_n"))
                .put("max_tokens_second", s.get("max_tokens_second"))
                .put("sampler_priority", ooba ? s.get("sampler_priority") : null)
                .put("samplers", type.equals("llamacpp") ? s.get("samplers") : null)
                .put("stopping_strings", strings(stops))
                .put("stop", strings(stops))
                .put("truncation_length", in.maxContext())
                .put("ban_eos_token", s.get("ban_eos_token"))
                .put("skip_special_tokens", s.get("skip_special_tokens"))
                .put("include_reasoning", s.get("include_reasoning"))
                .put("top_a", s.get("top_a"))
                .put("tfs", s.get("tfs"))
                .put("epsilon_cutoff", ooba || type.equals("mancer") ? s.get("epsilon_cutoff") : null)
                .put("eta_cutoff", ooba || type.equals("mancer") ? s.get("eta_cutoff") : null)
                .put("mirostat_mode", s.get("mirostat_mode"))
                .put("mirostat_tau", s.get("mirostat_tau"))
                .put("mirostat_eta", s.get("mirostat_eta"))
                .put("custom_token_bans", type.equals("aphrodite") || type.equals("mancer")
                        ? intArray(bans.tokens()) : TextNode.valueOf(bans.tokens()))
                .put("banned_strings", strings(bans.strings()))
                .put("api_type", s.get("type"))
                .put("api_server", server(s, type))
                .put("sampler_order", type.equals("koboldcpp") ? s.get("sampler_order") : null)
                .put("xtc_threshold", s.get("xtc_threshold"))
                .put("xtc_probability", s.get("xtc_probability"))
                .put("nsigma", s.get("nsigma"))
                .put("top_n_sigma", s.get("nsigma"))
                .put("min_keep", s.get("min_keep"))
                .put("adaptive_target", s.get("adaptive_target"))
                .put("adaptive_decay", s.get("adaptive_decay"));

        JsonNode guidance = in.guidanceScale() != null && !in.guidanceScale().isNull() ? in.guidanceScale()
                : Js.coalesce(s.get("guidance_scale"), number(1));
        String negativePrompt = in.negativePrompt() != null ? in.negativePrompt()
                : macros.substitute(stringOrEmpty(s.get("negative_prompt")));
        JsObject nonAphrodite = new JsObject()
                .put("rep_pen", s.get("rep_pen"))
                .put("rep_pen_range", s.get("rep_pen_range"))
                .put("repetition_decay", type.equals("tabby") ? s.get("rep_pen_decay") : null)
                .put("repetition_penalty_range", s.get("rep_pen_range"))
                .put("encoder_repetition_penalty", ooba ? s.get("encoder_rep_pen") : null)
                .put("no_repeat_ngram_size", ooba ? s.get("no_repeat_ngram_size") : null)
                .put("penalty_alpha", ooba ? s.get("penalty_alpha") : null)
                .put("temperature_last", ooba || type.equals("aphrodite") || type.equals("tabby")
                        ? s.get("temperature_last") : null)
                .put("speculative_ngram", type.equals("tabby") ? s.get("speculative_ngram") : null)
                .put("do_sample", ooba ? s.get("do_sample") : null)
                .put("seed", seed)
                .put("guidance_scale", guidance)
                .put("negative_prompt", TextNode.valueOf(negativePrompt))
                .put("grammar_string", Js.truthy(s.get("grammar_string")) ? s.get("grammar_string") : null)
                .put("json_schema", type.equals("tabby") || type.equals("llamacpp") ? jsonSchema : null)
                .put("repeat_penalty", s.get("rep_pen"))
                .put("repeat_last_n", s.get("rep_pen_range"))
                .put("n_predict", in.maxTokens())
                .put("num_predict", in.maxTokens())
                .put("num_ctx", in.maxContext())
                .put("mirostat", s.get("mirostat_mode"))
                .put("ignore_eos", s.get("ban_eos_token"))
                .put("n_probs", probabilities ? number(10) : null)
                .put("rep_pen_slope", s.get("rep_pen_slope"));
        JsObject vllm = new JsObject()
                .put("n", canMultiSwipe ? s.get("n") : number(1))
                .put("ignore_eos", s.get("ignore_eos_token"))
                .put("spaces_between_special_tokens", s.get("spaces_between_special_tokens"))
                .put("seed", seed);
        JsObject aphrodite = aphroditeParams(s, seed, temperature, stops, bans, jsonSchema, dynatemp, canMultiSwipe);

        if (type.equals("openrouter")) {
            params.put("provider", s.get("openrouter_providers"));
            params.put("quantizations", s.get("openrouter_quantizations"));
            params.put("allow_fallbacks", s.get("openrouter_allow_fallbacks"));
        }
        if (type.equals("koboldcpp")) {
            params.put("grammar", Js.truthy(s.get("grammar_string")) ? s.get("grammar_string") : null);
            params.put("grammar_retain_state",
                    Js.truthy(s.get("grammar_string")) && in.isContinue() ? BooleanNode.TRUE : null);
            params.put("trim_stop", BooleanNode.TRUE);
            params.put("dry_sequence_breakers", parseSequenceBreakers(dryBreakers));
        }
        if (type.equals("huggingface")) {
            params.put("top_p", number(Math.min(Math.max(num(params.get("top_p")), 0.0), 0.999)));
            params.put("stop", strings(stops.subList(0, Math.min(4, stops.size()))));
            nonAphrodite.put("seed", nonNegative(s.get("seed")) ? s.get("seed")
                    : number(Math.floor(Math.random() * Math.pow(2, 32))));
        }
        if (type.equals("mancer")) {
            params.put("n", canMultiSwipe ? s.get("n") : number(1));
            params.put("epsilon_cutoff", number(num(params.get("epsilon_cutoff")) / 1000));
            params.put("eta_cutoff", number(num(params.get("eta_cutoff")) / 1000));
            params.put("dynatemp_mode", number(params.get("dynamic_temperature") != null ? 1 : 0));
            params.put("dynatemp_min", params.get("dynatemp_low"));
            params.put("dynatemp_max", params.get("dynatemp_high"));
            params.values.remove("dynatemp_low");
            params.values.remove("dynatemp_high");
            params.put("dry_sequence_breakers", parseSequenceBreakers(dryBreakers));
        }
        if (type.equals("tabby") || type.equals("llamacpp")) {
            params.put("n", canMultiSwipe ? s.get("n") : number(1));
        }
        switch (type) {
            case "vllm", "infermaticai" -> params.assign(vllm);
            case "aphrodite" -> params.assign(aphrodite);
            default -> params.assign(nonAphrodite);
        }
        JsonNode logitBias = s.get("logit_bias");
        TreeMap<Long, JsonNode> bias = new TreeMap<>();
        if (logitBias != null && logitBias.isArray() && logitBias.size() > 0) {
            bias = logitBias(logitBias, idTokenizer);
            ObjectNode biasObject = JsJson.object();
            bias.forEach((id, value) -> biasObject.set(Long.toString(id), value));
            params.put("logit_bias", biasObject);
        }
        if (type.equals("llamacpp") || type.equals("ollama")) {
            ArrayNode biasArray = JsJson.array();
            bias.forEach((id, value) -> biasArray.addArray().add(integer(id)).add(value));
            for (long id : toIntArray(bans.tokens())) {
                biasArray.addArray().add(integer(id)).add(false);
            }
            JsonNode breakers = parseSequenceBreakers(dryBreakers);
            params.put("logit_bias", biasArray);
            params.put("grammar", s.get("grammar_string"));
            params.put("cache_prompt", BooleanNode.TRUE);
            params.put("dry_sequence_breakers", breakers);
            if (breakers == null || !breakers.isArray() || breakers.isEmpty()) {
                params.values.remove("dry_sequence_breakers");
            }
        }
        if (type.equals("llamacpp") || type.equals("aphrodite")) {
            if (jsonSchema != null) {
                params.values.remove("grammar_string");
                params.values.remove("grammar");
                params.values.remove("guided_grammar");
            } else {
                params.values.remove("json_schema");
                params.values.remove("guided_json");
            }
        }
        // ST: generateTextGenWithStreaming sets it on the body it posts
        if (Js.truthy(s.get("streaming")) && !in.type().equals("quiet")) {
            params.put("stream", BooleanNode.TRUE);
        }
        return params.toJson();
    }

    private static JsObject aphroditeParams(ObjectNode s, JsonNode seed, JsonNode temperature, List<String> stops,
                                            TokenBans bans, JsonNode jsonSchema, boolean dynatemp,
                                            boolean canMultiSwipe) {
        boolean customPriorities = !sameStrings(s.get("samplers_priorities"), TextGenSettings.APHRODITE_DEFAULT_ORDER);
        return new JsObject()
                .put("n", canMultiSwipe ? s.get("n") : number(1))
                .put("frequency_penalty", s.get("freq_pen"))
                .put("presence_penalty", s.get("presence_pen"))
                .put("repetition_penalty", s.get("rep_pen"))
                .put("seed", seed)
                .put("stop", strings(stops))
                .put("temperature", temperature)
                .put("temperature_last", s.get("temperature_last"))
                .put("top_p", s.get("top_p"))
                .put("top_k", s.get("top_k"))
                .put("top_a", s.get("top_a"))
                .put("min_p", s.get("min_p"))
                .put("tfs", s.get("tfs"))
                .put("eta_cutoff", s.get("eta_cutoff"))
                .put("epsilon_cutoff", s.get("epsilon_cutoff"))
                .put("typical_p", s.get("typical_p"))
                .put("smoothing_factor", s.get("smoothing_factor"))
                .put("smoothing_curve", s.get("smoothing_curve"))
                .put("ignore_eos", s.get("ignore_eos_token"))
                .put("min_tokens", s.get("min_length"))
                .put("skip_special_tokens", s.get("skip_special_tokens"))
                .put("spaces_between_special_tokens", s.get("spaces_between_special_tokens"))
                .put("guided_grammar", Js.truthy(s.get("grammar_string")) ? s.get("grammar_string") : null)
                .put("guided_json", jsonSchema)
                .put("early_stopping", BooleanNode.FALSE)
                .put("include_stop_str_in_output", BooleanNode.FALSE)
                .put("dynatemp_min", dynatemp ? s.get("min_temp") : null)
                .put("dynatemp_max", dynatemp ? s.get("max_temp") : null)
                .put("dynatemp_exponent", dynatemp ? s.get("dynatemp_exponent") : null)
                .put("xtc_threshold", s.get("xtc_threshold"))
                .put("xtc_probability", s.get("xtc_probability"))
                .put("nsigma", s.get("nsigma"))
                .put("custom_token_bans", intArray(bans.tokens()))
                .put("no_repeat_ngram_size", s.get("no_repeat_ngram_size"))
                .put("sampler_priority", customPriorities ? s.get("samplers_priorities") : null);
    }

    /** ST: getTextGenServer. */
    private static JsonNode server(ObjectNode s, String type) {
        String fixed = switch (type) {
            case "featherless" -> "https://api.featherless.ai/v1";
            case "mancer" -> "https://neuro.mancer.tech";
            case "togetherai" -> "https://api.together.xyz";
            case "infermaticai" -> "https://api.totalgpt.ai";
            case "dreamgen" -> "https://dreamgen.com";
            case "openrouter" -> "https://openrouter.ai/api";
            default -> null;
        };
        if (fixed != null) {
            return TextNode.valueOf(fixed);
        }
        JsonNode url = s.path("server_urls").get(type);
        return url == null || url.isNull() ? TextNode.valueOf("") : url;
    }

    /** ST: the json_schema the settings send, or null. */
    private static JsonNode jsonSchema(ObjectNode s) {
        JsonNode schema = s.get("json_schema");
        if (schema == null || !schema.isObject()) {
            return null;
        }
        return Js.truthy(s.get("json_schema_allow_empty")) || !schema.isEmpty() ? schema : null;
    }

    private record TokenBans(String tokens, List<String> strings) {
    }

    /** ST: getCustomTokenBans (the ban list macros fill is not kept across prompts: empty here). */
    private static TokenBans tokenBans(ObjectNode s, Macros macros, Tokenizer tokenizer) {
        String banned = stringOrEmpty(s.get("banned_tokens"));
        String global = stringOrEmpty(s.get("global_banned_tokens"));
        if (!Js.truthy(s.get("send_banned_tokens")) || banned.isEmpty() && global.isEmpty()) {
            return new TokenBans("", List.of());
        }
        LinkedHashSet<String> lines = new LinkedHashSet<>();
        for (String line : (banned + "\n" + global).split("\n", -1)) {
            if (!line.isEmpty()) {
                lines.add(line);
            }
        }
        LinkedHashSet<String> tokens = new LinkedHashSet<>();
        List<String> strings = new ArrayList<>();
        for (String raw : lines) {
            String line = macros.substitute(raw);
            if (line.startsWith("[") && line.endsWith("]")) {
                JsonNode ids = JsJson.tryParse(line.getBytes(StandardCharsets.UTF_8));
                if (ids != null && ids.isArray() && allIntegers(ids)) {
                    ids.forEach(id -> tokens.add(JsJson.jsNumber(id.doubleValue())));
                }
            } else if (line.startsWith("\"") && line.endsWith("\"") && line.length() >= 1) {
                strings.add(line.length() >= 2 ? line.substring(1, line.length() - 1) : "");
            } else {
                for (int id : textTokens(tokenizer, line)) {
                    tokens.add(Integer.toString(id));
                }
            }
        }
        return new TokenBans(String.join(",", tokens), strings);
    }

    /** ST: calculateLogitBias (public/scripts/logit-bias.js, getLogitBiasListResult): token id → bias. */
    private static TreeMap<Long, JsonNode> logitBias(JsonNode entries, Tokenizer tokenizer) {
        TreeMap<Long, JsonNode> result = new TreeMap<>();
        for (JsonNode entry : entries) {
            JsonNode textNode = entry.get("text");
            if (textNode == null || !textNode.isTextual() || textNode.textValue().isEmpty()) {
                continue;
            }
            String text = Js.trim(textNode.textValue());
            if (text.isEmpty()) {
                continue;
            }
            JsonNode value = entry.has("value") ? entry.get("value") : null;
            List<Long> ids = new ArrayList<>();
            if (text.startsWith("{") && text.endsWith("}") && text.length() >= 2) {
                for (int id : textTokens(tokenizer, text.substring(1, text.length() - 1))) {
                    ids.add((long) id);
                }
            } else if (text.startsWith("[") && text.endsWith("]")) {
                JsonNode parsed = JsJson.tryParse(text.getBytes(StandardCharsets.UTF_8));
                if (parsed != null && parsed.isArray() && allIntegers(parsed)) {
                    parsed.forEach(id -> ids.add(id.longValue()));
                }
            } else {
                for (int id : textTokens(tokenizer, " " + text)) {
                    ids.add((long) id);
                }
            }
            for (long id : ids) {
                // a key left undefined when the entry has no value is dropped by JSON.stringify
                if (value == null) {
                    result.remove(id);
                } else {
                    result.put(id, value);
                }
            }
        }
        return result;
    }

    private static boolean allIntegers(JsonNode ids) {
        for (JsonNode id : ids) {
            if (!id.isNumber() || id.doubleValue() != Math.rint(id.doubleValue())) {
                return false;
            }
        }
        return true;
    }

    /** The token ids the encode route answers: none for an estimating vocabulary. */
    private static int[] textTokens(Tokenizer tokenizer, String text) {
        if (tokenizer == null || tokenizer.estimated()) {
            return new int[0];
        }
        try {
            return tokenizer.encode(text);
        } catch (RuntimeException e) {
            return new int[0];
        }
    }

    /**
     * ST: getTokenizerForTokenIds, with the backend's own tokenizer (API_CURRENT) replaced by the local vocabulary
     * ST's rules pick from the model name.
     */
    private static Tokenizer idTokenizer(TextSettings text, Tokenizers tokenizers,
                                         String connectedModel) {
        String type = Js.string(text.textgen.get("type"));
        int chosen = text.tokenizer();
        String model = TextTokenCounter.modelName(text, connectedModel);
        int id;
        if (TEXTGEN_TOKENIZERS.contains(type)) {
            id = TextTokenCounter.modelMatch(model);
        } else if (ENCODE_TOKENIZERS.contains(chosen)) {
            id = chosen;
        } else if (type.equals("openrouter") || type.equals("dreamgen")) {
            id = TextTokenCounter.bestMatch(type, model);
        } else {
            id = 3;
        }
        return TextTokenCounter.vocabulary(id, tokenizers);
    }

    /** ST: replaceMacrosInList. */
    private static JsonNode replaceMacrosInList(JsonNode value, Macros macros) {
        if (value == null || !value.isTextual() || value.textValue().isEmpty()) {
            return value;
        }
        String text = value.textValue();
        JsonNode parsed = JsJson.tryParse(text.getBytes(StandardCharsets.UTF_8));
        if (parsed != null && parsed.isArray()) {
            ArrayNode substituted = JsJson.array();
            parsed.forEach(item -> substituted.add(macros.substitute(item.isTextual() ? item.textValue()
                    : Js.truthy(item) ? Js.string(item) : "")));
            return TextNode.valueOf(JsJson.stringifyAsJs(substituted));
        }
        List<String> parts = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            parts.add(macros.substitute(part));
        }
        return TextNode.valueOf(String.join(",", parts));
    }

    /** ST: params.parseSequenceBreakers. */
    private static JsonNode parseSequenceBreakers(JsonNode breakers) {
        if (breakers == null || breakers.isNull()) {
            return null;
        }
        if (breakers.isTextual()) {
            JsonNode parsed = JsJson.tryParse(breakers.textValue().getBytes(StandardCharsets.UTF_8));
            return parsed != null ? parsed : strings(List.of(breakers.textValue().split(",", -1)));
        }
        return breakers; // JSON.parse(String(x)) of a number or boolean gives it back
    }

    private static boolean sameStrings(JsonNode list, List<String> expected) {
        if (list == null || !list.isArray() || list.size() != expected.size()) {
            return false;
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!list.get(i).isTextual() || !list.get(i).textValue().equals(expected.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** ST: toIntArray. */
    private static List<Long> toIntArray(String list) {
        List<Long> ids = new ArrayList<>();
        if (list.isEmpty()) {
            return ids;
        }
        for (String part : list.split(",", -1)) {
            Long id = parseInt(part);
            if (id != null) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** JavaScript's {@code parseInt(text)}: the leading integer, or null for NaN. */
    static Long parseInt(String text) {
        Matcher digits = LEADING_INTEGER.matcher(text);
        return digits.find() ? Long.parseLong(digits.group(1)) : null;
    }

    private static ArrayNode intArray(String list) {
        ArrayNode array = JsJson.array();
        toIntArray(list).forEach(id -> array.add(integer(id)));
        return array;
    }

    private static ArrayNode strings(List<String> values) {
        ArrayNode array = JsJson.array();
        values.forEach(array::add);
        return array;
    }

    private static String stringOrEmpty(JsonNode value) {
        return value == null || value.isNull() ? "" : Js.string(value);
    }

    /** {@code x >= 0} in JavaScript (null is 0, undefined and text that is not a number are NaN). */
    private static boolean nonNegative(JsonNode value) {
        JsonNode number = Js.number(value);
        return number != null && number.doubleValue() >= 0;
    }

    /** JavaScript's arithmetic reading of a value (NaN where it is not a number). */
    private static double num(JsonNode value) {
        JsonNode number = Js.number(value);
        return number == null ? Double.NaN : number.doubleValue();
    }

    /** An integer as a JSON parser reads it back: an int node where it fits, else a long one. */
    static JsonNode integer(long value) {
        return value == (int) value ? IntNode.valueOf((int) value) : LongNode.valueOf(value);
    }

    /** A computed number as JSON.stringify writes it: integral values without a fraction, NaN as null. */
    static JsonNode number(double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return NullNode.getInstance();
        }
        if (value == Math.rint(value) && Math.abs(value) < 9.007199254740992E15) {
            return integer((long) value);
        }
        return DoubleNode.valueOf(value);
    }
}
