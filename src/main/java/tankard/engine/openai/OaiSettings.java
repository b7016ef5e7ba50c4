package tankard.engine.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The chat completion settings as ST's frontend holds them ({@code oai_settings}): settings.json's
 * {@code oai_settings} (or, in old files, the top level) after ST's migrations, each key missing or null taking
 * its default (ST: public/scripts/openai.js, loadOpenAISettings, migrateChatCompletionSettings and
 * default_settings).
 */
final class OaiSettings {
    static final String OPENAI = "openai";
    static final String CLAUDE = "claude";
    static final String OPENROUTER = "openrouter";
    static final String MAKERSUITE = "makersuite";
    static final String VERTEXAI = "vertexai";
    static final String CUSTOM = "custom";
    static final String AZURE_OPENAI = "azure_openai";
    static final String DEEPSEEK = "deepseek";

    /** ST's {@code character_names_behavior}. */
    static final int NAMES_NONE = -1;
    static final int NAMES_DEFAULT = 0;
    static final int NAMES_COMPLETION = 1;
    static final int NAMES_CONTENT = 2;

    private static final String OPENROUTER_WEBSITE_MODEL = "OR_Website";

    private final ObjectNode values;

    private OaiSettings(ObjectNode values) {
        this.values = values;
    }

    /** The settings of a settings.json file. */
    static OaiSettings of(ObjectNode settingsJson) {
        JsonNode saved = Js.coalesce(settingsJson.get("oai_settings"), settingsJson);
        ObjectNode settings = saved.isObject() ? ((ObjectNode) saved).deepCopy() : JsJson.object();
        migrate(settings);
        ObjectNode values = defaults();
        List<String> keys = new ArrayList<>();
        values.fieldNames().forEachRemaining(keys::add);
        for (String key : keys) {
            JsonNode value = settings.get(key);
            if (!Js.isUndefined(value) && !value.isNull()) {
                values.set(key, value);
            }
        }
        return new OaiSettings(values);
    }

    /** ST: migrateChatCompletionSettings, the migrations that change what a prompt or request holds. */
    private static void migrate(ObjectNode settings) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        migrate(settings, "names_in_completion", OaiSettings::isTrue, "names_behavior",
                nodes.numberNode(NAMES_COMPLETION));
        migrate(settings, "chat_completion_source", v -> isText(v, "palm"), "chat_completion_source",
                nodes.textNode(MAKERSUITE));
        migrate(settings, "custom_prompt_post_processing", v -> isText(v, "claude"), "custom_prompt_post_processing",
                nodes.textNode("merge"));
        migrate(settings, "ai21_model", v -> matches(v, "^j2-"), "ai21_model", nodes.textNode("jamba-large"));
        migrate(settings, "claude_use_sysprompt", OaiSettings::isTrue, "use_sysprompt", nodes.booleanNode(true));
        migrate(settings, "use_makersuite_sysprompt", OaiSettings::isTrue, "use_sysprompt", nodes.booleanNode(true));
        migrate(settings, "mistralai_model", v -> matches(v, "^(mistral-medium|mistral-small)$"), "mistralai_model",
                nodes.textNode(Js.string(settings.get("mistralai_model")) + "-latest"));
        migrate(settings, "deepseek_model", v -> matches(v, "^deepseek-(chat|reasoner|coder)$"), "deepseek_model",
                nodes.textNode("deepseek-v4-flash"));
        // ST: PromptManager.js, registerPromptManagerMigration: the prompts of settings older than the prompt manager
        if (Js.truthy(settings.get("main_prompt")) || Js.truthy(settings.get("nsfw_prompt"))
                || Js.truthy(settings.get("jailbreak_prompt"))) {
            JsonNode prompts = settings.get("prompts");
            if (prompts == null || !prompts.isArray() || prompts.isEmpty()) {
                settings.set("prompts", PromptManager.defaultPrompts());
            }
            for (String[] legacy : new String[][] {{"main_prompt", "main"}, {"nsfw_prompt", "nsfw"},
                    {"jailbreak_prompt", "jailbreak"}}) {
                if (Js.truthy(settings.get(legacy[0]))) {
                    for (JsonNode prompt : settings.get("prompts")) {
                        if (prompt.isObject() && Js.string(prompt.get("identifier")).equals(legacy[1])) {
                            ((ObjectNode) prompt).set("content", settings.get(legacy[0]));
                            break;
                        }
                    }
                    settings.remove(legacy[0]);
                }
            }
        }
    }

    private static boolean isTrue(JsonNode value) {
        return value.isBoolean() && value.booleanValue();
    }

    private static boolean isText(JsonNode value, String text) {
        return value.isTextual() && value.textValue().equals(text);
    }

    /** {@code regex.test(value)}: the value as a string. */
    private static boolean matches(JsonNode value, String regex) {
        return Pattern.compile(regex).matcher(Js.string(value)).find();
    }

    private static void migrate(ObjectNode settings, String oldKey, Predicate<JsonNode> oldValue,
                                String newKey, JsonNode newValue) {
        if (!settings.has(oldKey)) {
            return;
        }
        if (oldValue.test(settings.get(oldKey))) {
            settings.set(newKey, newValue);
        }
        if (!oldKey.equals(newKey)) {
            settings.remove(oldKey);
        }
    }

    /** ST: openai.js, default_settings (the keys a prompt or request reads). */
    private static ObjectNode defaults() {
        ObjectNode d = JsJson.object();
        d.put("temp_openai", 1.0).put("freq_pen_openai", 0).put("pres_pen_openai", 0).put("top_p_openai", 1.0)
                .put("top_k_openai", 0).put("min_p_openai", 0).put("top_a_openai", 0)
                .put("repetition_penalty_openai", 1).put("stream_openai", false)
                .put("openai_max_context", 4095).put("openai_max_tokens", 300);
        d.set("prompts", PromptManager.defaultPrompts());
        d.putArray("prompt_order");
        d.put("send_if_empty", "")
                .put("impersonation_prompt", "[Write your next reply from the point of view of {{user}}, using the chat"
                        + " history so far as a guideline for the writing style of {{user}}. Don't write as {{char}} or"
                        + " system. Don't describe actions of {{char}}.]")
                .put("new_chat_prompt", "[Start a new Chat]")
                .put("new_group_chat_prompt", "[Start a new group chat. Group members: {{group}}]")
                .put("new_example_chat_prompt", "[Example Chat]")
                .put("continue_nudge_prompt", "[Continue your last message without repeating its original content.]")
                .put("bias_preset_selected", "Default (none)");
        ObjectNode biasPresets = d.putObject("bias_presets");
        biasPresets.putArray("Default (none)");
        ArrayNode antiBond = biasPresets.putArray("Anti-bond");
        for (String text : List.of(" bond", " future", " bonding", " connection")) {
            antiBond.addObject().put("text", text).put("value", text.equals(" connection") ? -25 : -50);
        }
        d.put("wi_format", "{0}")
                .put("group_nudge_prompt", "[Write the next reply only as {{char}}.]")
                .put("scenario_format", "{{scenario}}")
                .put("personality_format", "{{personality}}");
        for (Map.Entry<String, String> model : Map.ofEntries(
                Map.entry("openai_model", "gpt-4-turbo"), Map.entry("claude_model", "claude-sonnet-4-5"),
                Map.entry("google_model", "gemini-2.5-pro"), Map.entry("vertexai_model", "gemini-2.5-pro"),
                Map.entry("ai21_model", "jamba-large"), Map.entry("mistralai_model", "mistral-large-latest"),
                Map.entry("cohere_model", "command-r-plus"), Map.entry("perplexity_model", "sonar-pro"),
                Map.entry("groq_model", "llama-3.3-70b-versatile"),
                Map.entry("chutes_model", "deepseek-ai/DeepSeek-V3-0324"),
                Map.entry("siliconflow_model", "deepseek-ai/DeepSeek-V3"), Map.entry("minimax_model", "MiniMax-M2.7"),
                Map.entry("electronhub_model", "gpt-4o-mini"), Map.entry("nanogpt_model", "gpt-4o-mini"),
                Map.entry("deepseek_model", "deepseek-v4-flash"), Map.entry("aimlapi_model", "chatgpt-4o-latest"),
                Map.entry("xai_model", "grok-3-beta"), Map.entry("pollinations_model", "openai"),
                Map.entry("cometapi_model", "gpt-4o"), Map.entry("moonshot_model", "kimi-latest"),
                Map.entry("fireworks_model", "accounts/fireworks/models/kimi-k2-instruct"),
                Map.entry("zai_model", "glm-4.6"), Map.entry("workers_ai_model", "@cf/meta/llama-3.3-70b-instruct-fp8-fast"),
                Map.entry("azure_openai_model", ""), Map.entry("custom_model", ""),
                Map.entry("openrouter_model", OPENROUTER_WEBSITE_MODEL)).entrySet()) {
            d.put(model.getKey(), model.getValue());
        }
        d.put("siliconflow_endpoint", "global").put("minimax_endpoint", "global").put("zai_endpoint", "common")
                .put("nanogpt_provider", "").put("nanogpt_payg_override", false)
                .put("workers_ai_account_id", "").put("azure_base_url", "").put("azure_deployment_name", "")
                .put("azure_api_version", "2024-02-15-preview")
                .put("custom_url", "").put("custom_include_body", "").put("custom_exclude_body", "")
                .put("custom_include_headers", "")
                .put("openrouter_use_fallback", false);
        d.putArray("openrouter_providers");
        d.putArray("openrouter_quantizations");
        d.put("openrouter_allow_fallbacks", true).put("openrouter_middleout", "on")
                .put("tool_reasoning_mode", "disabled")
                .put("reverse_proxy", "").put("chat_completion_source", OPENAI).put("proxy_password", "")
                .put("assistant_prefill", "").put("assistant_impersonation", "").put("use_sysprompt", false)
                .put("vertexai_auth_mode", "express").put("vertexai_region", "us-central1")
                .put("vertexai_express_project_id", "").put("squash_system_messages", false)
                .put("continue_prefill", false).put("function_calling", false)
                .put("names_behavior", NAMES_DEFAULT).put("continue_postfix", " ")
                .put("custom_prompt_post_processing", "").put("show_thoughts", true)
                .put("reasoning_effort", "auto").put("verbosity", "auto").put("enable_web_search", false)
                .put("request_images", false).put("request_image_aspect_ratio", "")
                .put("request_image_resolution", "").put("seed", -1).put("n", 1);
        return d;
    }

    JsonNode get(String key) {
        return values.get(key);
    }

    /** A setting as JavaScript's {@code String(x)} shows it. */
    String string(String key) {
        return Js.string(values.get(key));
    }

    boolean truthy(String key) {
        return Js.truthy(values.get(key));
    }

    String source() {
        return string("chat_completion_source");
    }

    boolean sourceIs(String source) {
        return source().equals(source);
    }

    ArrayNode prompts() {
        JsonNode prompts = values.get("prompts");
        return prompts.isArray() ? (ArrayNode) prompts : JsJson.array();
    }

    ArrayNode promptOrder() {
        JsonNode order = values.get("prompt_order");
        return order.isArray() ? (ArrayNode) order : JsJson.array();
    }

    /** {@code oai_settings.names_behavior} as the strict comparisons in openai.js see it (a number or nothing). */
    int namesBehavior() {
        JsonNode value = values.get("names_behavior");
        return value.isNumber() && value.doubleValue() == value.intValue() ? value.intValue() : Integer.MIN_VALUE;
    }

    /** ST: openai.js, getChatCompletionModel: the model the request names (null for OpenRouter's website model). */
    String model() {
        return switch (source()) {
            case CLAUDE -> string("claude_model");
            case OPENAI -> string("openai_model");
            case MAKERSUITE -> string("google_model");
            case VERTEXAI -> string("vertexai_model");
            case OPENROUTER -> string("openrouter_model").equals(OPENROUTER_WEBSITE_MODEL) ? null
                    : string("openrouter_model");
            case "ai21" -> string("ai21_model");
            case "mistralai" -> string("mistralai_model");
            case CUSTOM -> string("custom_model");
            case "cohere" -> string("cohere_model");
            case "perplexity" -> string("perplexity_model");
            case "groq" -> string("groq_model");
            case "siliconflow" -> string("siliconflow_model");
            case "minimax" -> string("minimax_model");
            case "electronhub" -> string("electronhub_model");
            case "chutes" -> string("chutes_model");
            case "nanogpt" -> string("nanogpt_model");
            case DEEPSEEK -> string("deepseek_model");
            case "aimlapi" -> string("aimlapi_model");
            case "xai" -> string("xai_model");
            case "pollinations" -> string("pollinations_model");
            case "cometapi" -> string("cometapi_model");
            case "moonshot" -> string("moonshot_model");
            case "fireworks" -> string("fireworks_model");
            case AZURE_OPENAI -> string("azure_openai_model");
            case "zai" -> string("zai_model");
            case "workers_ai" -> string("workers_ai_model");
            default -> "";
        };
    }
}
