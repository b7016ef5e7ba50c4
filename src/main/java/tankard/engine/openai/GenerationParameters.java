package tankard.engine.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.engine.macro.Macros;
import tankard.engine.prompt.Generation;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.tokenizer.Tokenizer;
import tankard.tokenizer.Tokenizers;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The body ST's frontend posts to {@code /api/backends/chat-completions/generate} (ST: public/scripts/openai.js,
 * createGenerationParameters, called by sendOpenAIRequest). Tool definitions are not sent: the server has no
 * function tools registered. Values ST leaves undefined are left out, as JSON.stringify does.
 */
final class GenerationParameters {
    private static final Set<String> GPT_SOURCES = Set.of(OaiSettings.OPENAI, OaiSettings.AZURE_OPENAI,
            OaiSettings.OPENROUTER);
    private static final Set<String> SEED_SOURCES = Set.of(OaiSettings.OPENAI, OaiSettings.AZURE_OPENAI,
            OaiSettings.OPENROUTER, "mistralai", OaiSettings.CUSTOM, "cohere", "groq", "electronhub", "nanogpt", "xai",
            "pollinations", "aimlapi", OaiSettings.VERTEXAI, OaiSettings.MAKERSUITE, "chutes");
    private static final Set<String> PROXY_SOURCES = Set.of(OaiSettings.CLAUDE, OaiSettings.OPENAI, "mistralai",
            OaiSettings.MAKERSUITE, OaiSettings.VERTEXAI, OaiSettings.DEEPSEEK, "xai", "zai", "moonshot");
    private static final Set<String> LOGPROBS_SOURCES = Set.of(OaiSettings.OPENAI, OaiSettings.AZURE_OPENAI,
            OaiSettings.CUSTOM, OaiSettings.DEEPSEEK, "xai", "aimlapi", "chutes");
    private static final Set<String> LOGIT_BIAS_SOURCES = Set.of(OaiSettings.OPENAI, OaiSettings.AZURE_OPENAI,
            OaiSettings.OPENROUTER, "electronhub", "chutes", OaiSettings.CUSTOM);
    private static final Set<String> MULTISWIPE_SOURCES = Set.of(OaiSettings.OPENAI, OaiSettings.AZURE_OPENAI,
            OaiSettings.CUSTOM, "xai", "aimlapi", "moonshot");
    private static final Set<String> REASONING_EFFORT_SOURCES = Set.of(OaiSettings.OPENAI, OaiSettings.AZURE_OPENAI,
            OaiSettings.CUSTOM, "xai", "aimlapi", OaiSettings.OPENROUTER, "pollinations", "perplexity", "cometapi",
            "electronhub", "chutes", OaiSettings.DEEPSEEK);
    /** ST's {@code openai_max_stop_strings}. */
    private static final int MAX_STOP_STRINGS = 4;

    private final OaiSettings settings;
    private final Generation generation;
    private final String model;
    private final String type;
    private final Macros macros;

    private GenerationParameters(OaiSettings settings, Generation generation) {
        this.settings = settings;
        this.generation = generation;
        this.model = settings.model();
        this.type = generation.action().stName();
        this.macros = generation.macros();
    }

    /** createGenerationParameters(oai_settings, getChatCompletionModel(), type, messages). */
    static ObjectNode create(OaiSettings settings, Generation generation, ArrayNode messages, List<String> groupNames,
                             String tokenizerModel) {
        return new GenerationParameters(settings, generation).create(messages, groupNames, tokenizerModel);
    }

    private ObjectNode create(ArrayNode messages, List<String> groupNames, String tokenizerModel) {
        String source = settings.source();
        String modelText = model == null ? "" : model;
        boolean isO1 = GPT_SOURCES.contains(source) && (modelText.equals("o1-2024-12-17") || modelText.equals("o1"));
        boolean stream = settings.truthy("stream_openai") && !isO1;
        boolean canMultiSwipe = greaterThan(settings.get("n"), 1)
                && !List.of("quiet", "impersonate", "continue").contains(type) && MULTISWIPE_SOURCES.contains(source);

        ObjectNode data = JsJson.object();
        data.put("type", type);
        data.set("messages", messages);
        data.set("model", model == null ? NullNode.instance : TextNode.valueOf(model));
        data.set("temperature", number("temp_openai"));
        data.set("frequency_penalty", number("freq_pen_openai"));
        data.set("presence_penalty", number("pres_pen_openai"));
        data.set("top_p", number("top_p_openai"));
        data.set("max_tokens", settings.get("openai_max_tokens"));
        data.put("stream", stream);
        JsonNode logitBias = logitBias(tokenizerModel);
        if (logitBias != null) {
            data.set("logit_bias", logitBias);
        }
        data.set("stop", stoppingStrings(MAX_STOP_STRINGS));
        data.set("chat_completion_source", settings.get("chat_completion_source"));
        if (canMultiSwipe) {
            data.set("n", settings.get("n"));
        }
        data.put("user_name", generation.name1());
        data.put("char_name", generation.name2());
        ArrayNode names = data.putArray("group_names");
        groupNames.forEach(names::add);
        data.put("include_reasoning", settings.truthy("show_thoughts"));
        String reasoningEffort = reasoningEffort();
        if (reasoningEffort != null) {
            data.put("reasoning_effort", reasoningEffort);
        }
        data.put("enable_web_search", settings.truthy("enable_web_search"));
        data.put("request_images", settings.truthy("request_images"));
        data.put("request_image_resolution", settings.string("request_image_resolution"));
        data.put("request_image_aspect_ratio", settings.string("request_image_aspect_ratio"));
        data.set("custom_prompt_post_processing", settings.get("custom_prompt_post_processing"));
        if (!settings.string("verbosity").equals("auto")) {
            data.set("verbosity", settings.get("verbosity"));
        }

        if (source.equals(OaiSettings.AZURE_OPENAI)) {
            copy(data, "azure_base_url", "azure_deployment_name", "azure_api_version");
            if (Pattern.compile("^gpt-[34]").matcher(modelText).find()) {
                data.remove("reasoning_effort");
            }
        }
        if (data.get("stop").isEmpty()) {
            data.remove("stop");
        }
        if (settings.truthy("reverse_proxy") && PROXY_SOURCES.contains(source)) {
            copy(data, "reverse_proxy", "proxy_password");
        }
        if (Js.truthy(PowerUser.get(generation, "request_token_probabilities")) && LOGPROBS_SOURCES.contains(source)) {
            data.put("logprobs", 5);
        }
        if (GPT_SOURCES.contains(source) && modelText.contains("gpt") && modelText.contains("vision")) {
            data.remove(List.of("logit_bias", "stop", "logprobs"));
        }
        if (GPT_SOURCES.contains(source) && Pattern.compile("gpt-4.5").matcher(modelText).find()) {
            data.remove("logprobs");
        }
        sourceParameters(data, source, modelText);
        if (SEED_SOURCES.contains(source) && atLeast(settings.get("seed"), 0)) {
            data.set("seed", settings.get("seed"));
        }
        reasoningModelParameters(data, source, modelText);
        return data;
    }

    /** The parameters particular to a source. */
    private void sourceParameters(ObjectNode data, String source, String modelText) {
        switch (source) {
            case OaiSettings.CLAUDE -> {
                data.set("top_k", number("top_k_openai"));
                data.set("use_sysprompt", settings.get("use_sysprompt"));
                data.set("stop", stoppingStrings(0));
                if (!type.equals("quiet") && !(generation.isContinue() && settings.truthy("continue_prefill"))) {
                    data.put("assistant_prefill", macros.substitute(settings.string(
                            generation.isImpersonate() ? "assistant_impersonation" : "assistant_prefill")));
                }
            }
            case OaiSettings.OPENROUTER -> {
                data.set("top_k", number("top_k_openai"));
                data.set("min_p", number("min_p_openai"));
                data.set("repetition_penalty", number("repetition_penalty_openai"));
                data.set("top_a", number("top_a_openai"));
                data.set("use_fallback", settings.get("openrouter_use_fallback"));
                data.set("provider", settings.get("openrouter_providers"));
                data.set("quantizations", settings.get("openrouter_quantizations"));
                data.set("allow_fallbacks", settings.get("openrouter_allow_fallbacks"));
                data.set("middleout", settings.get("openrouter_middleout"));
            }
            case "nanogpt" -> {
                copy(data, "nanogpt_provider", "nanogpt_payg_override");
                data.set("top_k", number("top_k_openai"));
                data.set("min_p", number("min_p_openai"));
                data.set("repetition_penalty", number("repetition_penalty_openai"));
                data.set("top_a", number("top_a_openai"));
            }
            case OaiSettings.MAKERSUITE, OaiSettings.VERTEXAI -> {
                data.set("top_k", number("top_k_openai"));
                ArrayNode stop = JsJson.array();
                for (JsonNode string : stoppingStrings(5)) {
                    int length = string.textValue().length();
                    if (length >= 1 && length <= 16) {
                        stop.add(string);
                    }
                }
                data.set("stop", stop);
                data.set("use_sysprompt", settings.get("use_sysprompt"));
                if (source.equals(OaiSettings.VERTEXAI)) {
                    copy(data, "vertexai_auth_mode", "vertexai_region", "vertexai_express_project_id");
                }
            }
            case "mistralai" -> {
                data.put("safe_prompt", false);
                data.set("stop", stoppingStrings(0));
            }
            case OaiSettings.CUSTOM -> copy(data, "custom_url", "custom_include_body", "custom_exclude_body",
                    "custom_include_headers");
            case "cohere" -> {
                data.set("top_p", clamp(number("top_p_openai"), 0.01, 0.99));
                data.set("top_k", number("top_k_openai"));
                data.set("frequency_penalty", clamp(number("freq_pen_openai"), 0, 1));
                data.set("presence_penalty", clamp(number("pres_pen_openai"), 0, 1));
                data.set("stop", stoppingStrings(5));
            }
            case "perplexity" -> {
                data.set("top_k", number("top_k_openai"));
                data.remove("stop");
            }
            case "groq" -> data.remove(List.of("logprobs", "logit_bias", "top_logprobs", "n"));
            case OaiSettings.DEEPSEEK -> {
                if (!Js.truthy(data.get("top_p"))) {
                    data.set("top_p", numberNode(Math.ulp(1.0)));
                }
            }
            case "xai" -> {
                if (modelText.contains("grok-3-mini")) {
                    data.remove(List.of("presence_penalty", "frequency_penalty", "stop"));
                } else {
                    data.remove("reasoning_effort");
                }
                if (modelText.contains("grok-4") || modelText.contains("grok-code")) {
                    data.remove(List.of("presence_penalty", "frequency_penalty"));
                    if (!modelText.contains("grok-4-fast-non-reasoning")) {
                        data.remove("stop");
                    }
                }
            }
            case "electronhub" -> data.set("top_k", number("top_k_openai"));
            case "chutes" -> {
                data.set("min_p", number("min_p_openai"));
                if (greaterThan(settings.get("top_k_openai"), 0)) {
                    data.set("top_k", number("top_k_openai"));
                } else {
                    data.remove("top_k");
                }
                data.set("repetition_penalty", number("repetition_penalty_openai"));
                data.set("stop", stoppingStrings(0));
            }
            case "zai" -> {
                if (!Js.truthy(data.get("top_p"))) {
                    data.put("top_p", 0.01);
                }
                data.set("stop", stoppingStrings(1));
                data.set("zai_endpoint", Js.or(settings.get("zai_endpoint"), TextNode.valueOf("common")));
                data.remove(List.of("presence_penalty", "frequency_penalty"));
            }
            case "siliconflow" -> data.set("siliconflow_endpoint",
                    Js.or(settings.get("siliconflow_endpoint"), TextNode.valueOf("global")));
            case "minimax" -> {
                data.set("minimax_endpoint",
                        Js.or(settings.get("minimax_endpoint"), TextNode.valueOf("global")));
                JsonNode temperature = data.get("temperature");
                if (temperature != null && temperature.isNumber()) {
                    data.set("temperature", clamp(temperature, Math.ulp(1.0), 1.0));
                }
            }
            case "workers_ai" -> {
                copy(data, "workers_ai_account_id");
                if (greaterThan(settings.get("top_k_openai"), 0)) {
                    data.set("top_k", numberNode(Math.min(number("top_k_openai").doubleValue(), 50)));
                }
                data.set("repetition_penalty", number("repetition_penalty_openai"));
                if (atLeast(settings.get("seed"), 1)) {
                    data.set("seed", number("seed"));
                }
                data.set("top_p", max(number("top_p_openai"), 0.001));
                data.remove(List.of("n", "logit_bias"));
            }
            case "moonshot" -> {
                if (Pattern.compile("kimi-k2.5").matcher(modelText).find()) {
                    data.remove(List.of("temperature", "top_p", "frequency_penalty", "presence_penalty"));
                }
            }
            default -> {
            }
        }
    }

    /** OpenAI's reasoning models take max_completion_tokens and fewer sampling parameters. */
    private void reasoningModelParameters(ObjectNode data, String source, String modelText) {
        boolean openAi = source.equals(OaiSettings.OPENAI) || source.equals(OaiSettings.AZURE_OPENAI);
        if (openAi && Pattern.compile("^(o1|o3|o4)").matcher(modelText).find()
                || source.equals(OaiSettings.OPENROUTER) && Pattern.compile("^openai/(o1|o3|o4)").matcher(modelText).find()) {
            moveMaxTokens(data);
            data.remove(List.of("logprobs", "top_logprobs", "stop", "logit_bias", "temperature", "top_p",
                    "frequency_penalty", "presence_penalty"));
            if (Pattern.compile("^(openai/)?(o1)").matcher(modelText).find()) {
                for (JsonNode message : data.get("messages")) {
                    if (message.path("role").asText("").equals("system")) {
                        ((ObjectNode) message).put("role", "user");
                    }
                }
                data.remove(List.of("n", "tools", "tool_choice"));
            }
        }
        if (GPT_SOURCES.contains(source) && modelText.contains("gpt-5")) {
            moveMaxTokens(data);
            data.remove(List.of("logprobs", "top_logprobs"));
            if (modelText.contains("gpt-5-chat-latest")) {
                data.remove(List.of("tools", "tool_choice"));
            } else if (Pattern.compile("gpt-5\\.(1|2|3|4)").matcher(modelText).find() && !modelText.contains("chat-latest")
                    && !Js.truthy(data.get("reasoning_effort"))) {
                data.remove(List.of("frequency_penalty", "presence_penalty", "logit_bias", "stop"));
            } else {
                data.remove(List.of("temperature", "top_p", "frequency_penalty", "presence_penalty", "logit_bias",
                        "stop"));
            }
        }
    }

    private static void moveMaxTokens(ObjectNode data) {
        JsonNode maxTokens = data.remove("max_tokens");
        if (maxTokens != null) {
            data.set("max_completion_tokens", maxTokens);
        }
    }

    /** getReasoningEffort: the effort as the source expects it, or null where ST sends none. */
    private String reasoningEffort() {
        String source = settings.source();
        JsonNode setting = settings.get("reasoning_effort");
        String effort = settings.string("reasoning_effort");
        if (!REASONING_EFFORT_SOURCES.contains(source)) {
            return setting.isTextual() ? effort : null;
        }
        String modelText = model == null ? "" : model;
        if (source.equals(OaiSettings.DEEPSEEK)) {
            return switch (effort) {
                case "auto" -> null;
                case "max" -> "max";
                default -> "high";
            };
        }
        if (source.equals(OaiSettings.CUSTOM) && Pattern.compile("^koboldcpp/(.+)$").matcher(modelText).find()) {
            return switch (effort) {
                case "auto" -> null;
                case "min" -> "minimal";
                case "max" -> "xhigh";
                default -> effort;
            };
        }
        String resolved = switch (effort) {
            case "auto" -> null;
            case "min" -> {
                if (source.equals(OaiSettings.OPENROUTER) && !settings.truthy("show_thoughts")) {
                    yield "none";
                }
                if (source.equals(OaiSettings.OPENAI) || source.equals(OaiSettings.AZURE_OPENAI)) {
                    if (Pattern.compile("^gpt-5\\.(4|5)").matcher(modelText).find()) {
                        yield "none";
                    }
                    if (modelText.startsWith("gpt-5")) {
                        yield "min";
                    }
                }
                yield "low";
            }
            case "max" -> "high";
            default -> effort;
        };
        // ElectronHub checks the effort against its model list, which the server does not have.
        return source.equals("electronhub") ? null : resolved;
    }

    /**
     * getCustomStoppingStrings(limit): power_user.custom_stopping_strings (a JSON array; non-empty strings kept,
     * macros substituted when asked), at most {@code limit} of them when it is positive.
     */
    private ArrayNode stoppingStrings(int limit) {
        ArrayNode strings = JsJson.array();
        JsonNode saved = PowerUser.get(generation, "custom_stopping_strings");
        if (!Js.truthy(saved)) {
            return strings;
        }
        JsonNode parsed = JsJson.tryParse(Js.string(saved).getBytes(StandardCharsets.UTF_8));
        if (parsed == null || !parsed.isArray()) {
            return strings;
        }
        JsonNode substitute = PowerUser.get(generation, "custom_stopping_strings_macro");
        boolean macrosOn = Js.isUndefined(substitute) || Js.truthy(substitute);
        for (JsonNode string : parsed) {
            if (string.isTextual() && !string.textValue().isEmpty()) {
                strings.add(macrosOn ? macros.substitute(string.textValue()) : string.textValue());
            }
        }
        while (limit > 0 && strings.size() > limit) {
            strings.remove(strings.size() - 1);
        }
        return strings;
    }

    /**
     * The logit bias of the selected preset: each entry's text tokenized for the tokenizer model (or its ids when
     * it is a JSON array of numbers), as ST's {@code /api/backends/chat-completions/bias} answers; null when none.
     */
    private JsonNode logitBias(String tokenizerModel) {
        String selected = settings.string("bias_preset_selected");
        JsonNode preset = settings.get("bias_presets").path(selected);
        if (!settings.truthy("bias_preset_selected") || !LOGIT_BIAS_SOURCES.contains(settings.source())
                || !preset.isArray() || preset.isEmpty()) {
            return null;
        }
        Tokenizers tokenizers = generation.inputs().tokenizers();
        Tokenizer tokenizer = tokenizers.forCount(tokenizerModel);
        if (tokenizer.estimated() || tokenizer == tokenizers.byId("claude")) {
            return null;
        }
        TreeMap<Long, JsonNode> biases = new TreeMap<>();
        for (JsonNode entry : preset) {
            if (entry == null || !entry.path("text").isTextual() || entry.get("text").textValue().isEmpty()) {
                continue;
            }
            for (long token : biasTokens(entry.get("text").textValue(), tokenizer)) {
                biases.put(token, entry.has("value") ? entry.get("value") : NullNode.instance);
            }
        }
        if (biases.isEmpty()) {
            return null;
        }
        ObjectNode result = JsJson.object();
        biases.forEach((token, value) -> result.set(Long.toString(token), value));
        return result;
    }

    /** A bias entry's ids: the JSON array of numbers it is, or its text's tokens. */
    private static long[] biasTokens(String text, Tokenizer tokenizer) {
        String trimmed = Js.trim(text);
        if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
            JsonNode ids = JsJson.tryParse(trimmed.getBytes(StandardCharsets.UTF_8));
            if (ids != null && ids.isArray()) {
                boolean numbers = true;
                for (JsonNode id : ids) {
                    numbers &= id.isNumber();
                }
                if (numbers) {
                    long[] raw = new long[ids.size()];
                    for (int i = 0; i < raw.length; i++) {
                        raw[i] = (long) ids.get(i).doubleValue() & 0xffffffffL;
                    }
                    return raw;
                }
            }
        }
        return Arrays.stream(tokenizer.encode(text)).mapToLong(id -> id & 0xffffffffL).toArray();
    }

    private void copy(ObjectNode data, String... keys) {
        for (String key : keys) {
            data.set(key, settings.get(key));
        }
    }

    /** {@code Number(setting)}: NaN is sent as null, as JSON.stringify writes it. */
    private JsonNode number(String key) {
        JsonNode number = Js.number(settings.get(key));
        return number == null ? NullNode.instance : number;
    }

    private static JsonNode clamp(JsonNode value, double min, double max) {
        if (!value.isNumber()) {
            return value;
        }
        double clamped = Math.min(Math.max(value.doubleValue(), min), max);
        return clamped == value.doubleValue() ? value : numberNode(clamped);
    }

    private static JsonNode max(JsonNode value, double min) {
        if (!value.isNumber()) {
            return value;
        }
        return value.doubleValue() >= min ? value : numberNode(min);
    }

    /** A computed number as JSON.stringify writes it: integral values without a fraction. */
    private static JsonNode numberNode(double value) {
        return value == Math.rint(value) && Math.abs(value) < 0x1p53
                ? LongNode.valueOf((long) value) : DoubleNode.valueOf(value);
    }

    /** JavaScript's {@code value > limit} for a setting. */
    private static boolean greaterThan(JsonNode value, double limit) {
        JsonNode number = Js.number(value);
        return number != null && number.doubleValue() > limit;
    }

    /** JavaScript's {@code value >= limit} for a setting. */
    private static boolean atLeast(JsonNode value, double limit) {
        JsonNode number = Js.number(value);
        return number != null && number.doubleValue() >= limit;
    }
}
