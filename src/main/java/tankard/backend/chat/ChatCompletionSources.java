package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.backend.common.YamlParams;
import tankard.config.TankardConfig;
import tankard.config.TankardConfig.ChatSettings;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.secrets.SecretKeys;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static tankard.backend.chat.OpenAiCompatible.SchemaStyle.BARE;
import static tankard.backend.chat.OpenAiCompatible.SchemaStyle.DESCRIBED;
import static tankard.backend.chat.OpenAiCompatible.SchemaStyle.NAMED;
import static tankard.backend.chat.OpenAiCompatible.SchemaStyle.RAW;

/**
 * Every chat completion source Tankard serves, keyed by {@code chat_completion_source} (ST's
 * CHAT_COMPLETION_SOURCES, src/constants.js), with the prompt steps that come before any of them.
 */
public final class ChatCompletionSources {
    private static final Map<String, String> NANOGPT_EFFORT = Map.of("min", "none", "low", "minimal",
            "medium", "low", "high", "medium", "max", "high");
    private static final List<String> GEMINI_HARM_CATEGORIES = List.of("HARM_CATEGORY_HARASSMENT",
            "HARM_CATEGORY_HATE_SPEECH", "HARM_CATEGORY_SEXUALLY_EXPLICIT", "HARM_CATEGORY_DANGEROUS_CONTENT",
            "HARM_CATEGORY_CIVIC_INTEGRITY");

    private static final Pattern CLAUDE_ON_NANOGPT = Pattern.compile("(?:^|/)claude[-_]");

    private final Map<String, ChatCompletionSource> sources;
    private final ChatPrompts prompts;

    /** ST's sources, OpenAI-shaped and native; Vertex AI fetches its token through {@code upstream}. */
    public ChatCompletionSources(TankardConfig config, UpstreamClient upstream) {
        String placeholder = config.backends().promptPlaceholder();
        PromptConverters converters = new PromptConverters(placeholder);
        ChatSettings chat = config.backends().chat();
        List<ChatCompletionSource> all = new ArrayList<>(generic(converters, chat));
        all.addAll(dedicated(converters, chat));
        all.addAll(List.of(new AzureSource(),
                new ClaudeSource(ClaudeSource.Settings.of(chat), placeholder),
                GoogleSource.aiStudio(chat.geminiApiVersion()),
                GoogleSource.vertex(upstream),
                new CohereSource(placeholder)));
        this.sources = all.stream().collect(Collectors.toUnmodifiableMap(ChatCompletionSource::id, Function.identity()));
        this.prompts = new ChatPrompts(converters);
    }

    /** The source of this {@code chat_completion_source}, or null when Tankard has none. */
    public ChatCompletionSource source(String id) {
        return sources.get(id);
    }

    /** The prompt steps before any source. */
    public ChatPrompts prompts() {
        return prompts;
    }

    /** The sources of ST's generic path (the OpenAI-compatible branches of the {@code /generate} route). */
    private static List<ChatCompletionSource> generic(PromptConverters converters, ChatSettings settings) {
        return List.of(
                new GenericSource(Site.at("openai", SecretKeys.OPENAI, "https://api.openai.com/v1").reverseProxied(),
                        draft -> {
                            draft.params().setAll(OpenAiCompatible.logprobParams(draft.body(), draft.textCompletion()));
                            if (settings.randomizeUserId()) {
                                draft.params().put("user", UUID.randomUUID().toString());
                            }
                            embedAudio(draft.body());
                        }),
                new GenericSource(Site.at("openrouter", SecretKeys.OPENROUTER, "https://openrouter.ai/api/v1")
                        .refererAndTitle(), draft -> openRouter(draft, settings)),
                new GenericSource(Site.at("custom", SecretKeys.CUSTOM, null)
                        .url(body -> Js.string(body.get("custom_url")))
                        .headers(body -> YamlParams.headers(body.get("custom_include_headers"))), new CustomQuirk()),
                new GenericSource(Site.at("perplexity", SecretKeys.PERPLEXITY, "https://api.perplexity.ai").noModels(),
                        draft -> {
                            copyDefined(draft.body(), "reasoning_effort", draft.params());
                            if (draft.body().path("messages").isArray()) {
                                draft.body().set("messages", converters.postProcess(
                                        (ArrayNode) draft.body().get("messages"), "strict", PromptNames.of(draft.body())));
                            }
                            OpenAiCompatible.jsonSchema(draft.body(), draft.params(), BARE);
                        }),
                new GenericSource(Site.at("groq", SecretKeys.GROQ, "https://api.groq.com/openai/v1"),
                        draft -> OpenAiCompatible.jsonSchema(draft.body(), draft.params(), DESCRIBED)),
                new GenericSource(Site.at("fireworks", SecretKeys.FIREWORKS, "https://api.fireworks.ai/inference/v1"),
                        draft -> OpenAiCompatible.jsonSchema(draft.body(), draft.params(), DESCRIBED)),
                new GenericSource(Site.at("nanogpt", SecretKeys.NANOGPT, "https://nano-gpt.com/api/v1")
                        .models(body -> "https://nano-gpt.com/api/v1", "/models?detailed=true"),
                        draft -> nanoGpt(draft, settings)),
                new GenericSource(Site.at("pollinations", SecretKeys.POLLINATIONS, "https://gen.pollinations.ai/v1")
                        .models("https://gen.pollinations.ai/text").modelList(ChatCompletionSources::pollinationsModels),
                        draft -> {
                            copyDefined(draft.body(), "reasoning_effort", draft.params());
                            JsonNode seed = draft.body().get("seed");
                            draft.params().set("seed", seed != null && !seed.isNull() ? seed
                                    : JsJson.tree(ThreadLocalRandom.current().nextInt(99_999_999)));
                            OpenAiCompatible.jsonSchema(draft.body(), draft.params(), BARE);
                        }),
                new GenericSource(Site.at("moonshot", SecretKeys.MOONSHOT, "https://api.moonshot.ai/v1").reverseProxied(),
                        draft -> {
                            thinking(draft.body(), draft.params());
                            if (Js.truthy(draft.body().get("json_schema"))) {
                                OpenAiCompatible.jsonObjectHack(draft.body(), draft.params());
                            } else if (draft.body().path("messages").isArray()) {
                                PromptConverters.markAssistantPrefix((ArrayNode) draft.body().get("messages"), null,
                                        "partial");
                            }
                        }),
                new DisabledSource("cometapi"),
                new GenericSource(Site.at("zai", SecretKeys.ZAI, null).reverseProxied().noModels()
                        .url(body -> "coding".equals(Js.string(body.get("zai_endpoint")))
                                ? "https://api.z.ai/api/coding/paas/v4" : "https://api.z.ai/api/paas/v4")
                        .headers(Map.of("Accept-Language", "en-US,en")),
                        draft -> {
                            thinking(draft.body(), draft.params());
                            OpenAiCompatible.jsonObjectHack(draft.body(), draft.params());
                        }),
                new GenericSource(Site.at("siliconflow", SecretKeys.SILICONFLOW, null)
                        .url(body -> "cn".equals(Js.string(body.get("siliconflow_endpoint")))
                                ? "https://api.siliconflow.cn/v1" : "https://api.siliconflow.com/v1")
                        .models(null, "/models?type=text&sub_type=chat"),
                        draft -> OpenAiCompatible.jsonObjectHack(draft.body(), draft.params())),
                new WorkersAiSource(Site.at("workers_ai", SecretKeys.WORKERS_AI, null)
                        .url(body -> WorkersAiSource.API + "/" + WorkersAiSource.account(body) + "/ai/v1")
                        .models(body -> WorkersAiSource.API + "/" + WorkersAiSource.account(body) + "/ai",
                                "/models/search?task=Text+Generation&per_page=1000"),
                        draft -> {
                            copyDefined(draft.body(), "repetition_penalty", draft.params());
                            OpenAiCompatible.jsonSchema(draft.body(), draft.params(), RAW);
                        }));
    }

    /** ST's dedicated senders for OpenAI-shaped APIs. */
    private static List<ChatCompletionSource> dedicated(PromptConverters converters, ChatSettings settings) {
        return List.of(
                new DedicatedSource(Site.at("mistralai", SecretKeys.MISTRALAI, "https://api.mistral.ai/v1").reverseProxied(),
                        false, (body, params) -> {
                            body.set("messages", body.path("messages").isArray()
                                    ? PromptConverters.mistral((ArrayNode) body.get("messages"), PromptNames.of(body),
                                            settings.mistralPrefix())
                                    : JsJson.array());
                            OpenAiCompatible.tools(body, params);
                            OpenAiCompatible.jsonSchema(body, params, DESCRIBED);
                        }, body -> {
                            JsonNode seed = body.get("seed");
                            JsonNode stop = body.path("stop");
                            return JsObject.copy(body, "model", "messages", "temperature", "top_p",
                                            "frequency_penalty", "presence_penalty", "max_tokens", "stream", "safe_prompt")
                                    .put("random_seed", seed != null && seed.isNumber() && seed.doubleValue() == -1 ? null : seed)
                                    .put("stop", stop.isArray() && !stop.isEmpty() ? stop : null);
                        }),
                new DedicatedSource(Site.at("deepseek", SecretKeys.DEEPSEEK, "https://api.deepseek.com/beta").reverseProxied()
                        .models("https://api.deepseek.com"), true, (body, params) -> {
                            OpenAiCompatible.topLogprobs(body, params);
                            OpenAiCompatible.tools(body, params);
                            params.path("tools").forEach(ChatCompletionSources::dropEmptyRequired);
                            OpenAiCompatible.jsonObjectHack(body, params);
                            if (body.path("messages").isArray() && ChatPrompts.objects(body.get("messages"))) {
                                ArrayNode messages = converters.postProcess((ArrayNode) body.get("messages"),
                                        "semi_tools", PromptNames.of(body));
                                PromptConverters.markAssistantPrefix(messages, params.get("tools"), "prefix");
                                messages.forEach(message -> {
                                    if (message.path("tool_calls").isArray() && !message.has("reasoning_content")) {
                                        ((ObjectNode) message).put("reasoning_content", "");
                                    }
                                });
                                body.set("messages", messages);
                            }
                            if (Js.truthy(body.get("include_reasoning")) && Js.truthy(body.get("reasoning_effort"))) {
                                params.set("reasoning_effort", body.get("reasoning_effort"));
                            }
                        }, body -> JsObject.copy(body, "messages", "model", "temperature", "max_tokens", "stream",
                                "presence_penalty", "frequency_penalty", "top_p", "stop", "seed")
                                .put("thinking", thinkingOf(body))),
                new DedicatedSource(Site.at("xai", SecretKeys.XAI, "https://api.x.ai/v1").reverseProxied(), true,
                        (body, params) -> {
                            OpenAiCompatible.topLogprobs(body, params);
                            OpenAiCompatible.tools(body, params);
                            OpenAiCompatible.stop(body, params);
                            if (Js.truthy(body.get("reasoning_effort"))) {
                                params.put("reasoning_effort",
                                        "high".equals(Js.string(body.get("reasoning_effort"))) ? "high" : "low");
                            }
                            OpenAiCompatible.jsonSchema(body, params, NAMED);
                            body.set("messages", body.path("messages").isArray()
                                    ? PromptConverters.xai((ArrayNode) body.get("messages"), PromptNames.of(body))
                                    : JsJson.array());
                        }, body -> JsObject.copy(body, "messages", "model", "temperature", "max_tokens",
                                "max_completion_tokens", "stream", "presence_penalty", "frequency_penalty", "top_p",
                                "seed", "n")),
                new DedicatedSource(Site.at("aimlapi", SecretKeys.AIMLAPI, "https://api.aimlapi.com/v1").refererAndTitle(),
                        false, (body, params) -> {
                            OpenAiCompatible.topLogprobs(body, params);
                            OpenAiCompatible.tools(body, params);
                            OpenAiCompatible.stop(body, params);
                            copyTruthy(body, "reasoning_effort", params);
                            OpenAiCompatible.jsonSchema(body, params, DESCRIBED);
                        }, body -> JsObject.copy(body, "messages", "model", "temperature", "max_tokens", "stream",
                                "presence_penalty", "frequency_penalty", "top_p", "seed", "n")),
                new DedicatedSource(Site.at("electronhub", SecretKeys.ELECTRONHUB, "https://api.electronhub.ai/v1"),
                        false, (body, params) -> {
                            if (Js.truthy(body.get("enable_web_search"))) {
                                params.put("web_search", true);
                            }
                            OpenAiCompatible.tools(body, params);
                            copyTruthy(body, "reasoning_effort", params);
                            OpenAiCompatible.jsonSchema(body, params, DESCRIBED);
                            if (body.path("messages").isArray() && Js.string(body.get("model")).startsWith("claude-")) {
                                PromptCaching.markForClaude((ArrayNode) body.get("messages"), settings);
                            }
                        }, body -> JsObject.copy(body, "messages", "model", "temperature", "max_tokens", "stream",
                                "presence_penalty", "frequency_penalty", "top_p", "top_k", "logit_bias", "seed")),
                new DedicatedSource(Site.at("chutes", SecretKeys.CHUTES, "https://llm.chutes.ai/v1")
                        .modelList(ChatCompletionSources::chutesModels), false, (body, params) -> {
                            OpenAiCompatible.tools(body, params);
                            OpenAiCompatible.topLogprobs(body, params);
                            OpenAiCompatible.jsonSchema(body, params, DESCRIBED);
                        }, body -> JsObject.copy(body, "messages", "model", "temperature", "max_tokens", "stream",
                                "presence_penalty", "frequency_penalty", "repetition_penalty", "min_p", "top_p", "top_k",
                                "seed", "stop", "reasoning_effort", "logit_bias")),
                new DedicatedSource(Site.at("minimax", SecretKeys.MINIMAX, null).noModels()
                        .url(body -> "cn".equals(Js.string(body.get("minimax_endpoint")))
                                ? "https://api.minimaxi.com/v1" : "https://api.minimax.io/v1"), false,
                        (body, params) -> {
                            if (body.path("messages").isArray() && ChatPrompts.objects(body.get("messages"))) {
                                body.set("messages", converters.postProcess((ArrayNode) body.get("messages"),
                                        "merge_tools", PromptNames.of(body)));
                            }
                            OpenAiCompatible.tools(body, params);
                        }, body -> JsObject.copy(body, "messages", "model", "temperature", "max_tokens", "stream",
                                "top_p", "stop").put("max_tokens", minimaxMaxTokens(body))),
                new DedicatedSource(Site.at("ai21", SecretKeys.AI21, "https://api.ai21.com/studio/v1").noModels()
                        .headers(Map.of("accept", "application/json")), false, (body, params) -> {
                            OpenAiCompatible.jsonObjectHack(body, params);
                            body.set("messages", body.path("messages").isArray()
                                    ? converters.ai21((ArrayNode) body.get("messages"), PromptNames.of(body))
                                    : JsJson.array());
                        }, body -> JsObject.copy(body, "messages", "model", "max_tokens", "temperature", "top_p", "stop",
                                "stream", "tools")));
    }

    /** OpenRouter's branch: routing, sampler extras, reasoning, signatures, media. */
    private static void openRouter(GenericSource.Draft draft, ChatSettings settings) {
        ObjectNode body = draft.body();
        ObjectNode params = draft.params();
        String middleout = Js.string(body.get("middleout"));
        if ("on".equals(middleout)) {
            params.set("transforms", JsJson.array().add("middle-out"));
        } else if ("off".equals(middleout)) {
            params.set("transforms", JsJson.array());
        }
        ArrayNode plugins = params.putArray("plugins");
        if (Js.truthy(body.get("enable_web_search"))) {
            plugins.addObject().put("id", "web");
        }
        ObjectNode reasoning = params.putObject("reasoning").put("exclude", !Js.truthy(body.get("include_reasoning")));
        copyDefined(body, "min_p", params);
        copyDefined(body, "top_a", params);
        copyDefined(body, "repetition_penalty", params);
        JsonNode providers = body.path("provider");
        if (providers.isArray() && !providers.isEmpty()) {
            params.putObject("provider").set("allow_fallbacks", Js.coalesce(body.get("allow_fallbacks"), JsJson.tree(true)));
            ((ObjectNode) params.get("provider")).set("order", providers);
        }
        JsonNode quantizations = body.path("quantizations");
        if (quantizations.isArray() && !quantizations.isEmpty()) {
            (params.has("provider") ? (ObjectNode) params.get("provider") : params.putObject("provider"))
                    .set("quantizations", quantizations);
        }
        if (Js.truthy(body.get("use_fallback"))) {
            params.put("route", "fallback");
        }
        if (Js.truthy(body.get("reasoning_effort"))) {
            reasoning.set("effort", body.get("reasoning_effort"));
        }
        copyTruthy(body, "verbosity", params);
        OpenAiCompatible.jsonSchema(body, params, NAMED);
        String model = Js.string(body.get("model"));
        if (body.path("messages").isArray()) {
            embedAudio(body);
            OpenRouterSignatures.add((ArrayNode) body.get("messages"), model, settings.thoughtSignatures());
            if (model.startsWith("anthropic/claude")) {
                PromptCaching.markForClaude((ArrayNode) body.get("messages"), settings);
            }
        }
        if (model.contains("google/gemini")) {
            ArrayNode safety = params.putArray("safety_settings");
            GEMINI_HARM_CATEGORIES.forEach(category -> safety.addObject().put("category", category).put("threshold", "OFF"));
        }
    }

    /** NanoGPT's branch: provider and billing headers, web search by model suffix, its reasoning names. */
    private static void nanoGpt(GenericSource.Draft draft, ChatSettings settings) {
        ObjectNode body = draft.body();
        ObjectNode params = draft.params();
        if (Js.truthy(body.get("nanogpt_provider"))) {
            draft.headers().set("X-Provider", Js.string(body.get("nanogpt_provider")));
        }
        if (Js.truthy(body.get("nanogpt_payg_override"))) {
            draft.headers().set("X-Billing-Mode", "paygo");
            params.put("billing_mode", "paygo");
        }
        String model = Js.string(body.get("model"));
        if (Js.truthy(body.get("enable_web_search")) && !model.endsWith(":online")) {
            body.put("model", model + ":online");
        }
        copyDefined(body, "min_p", params);
        copyDefined(body, "top_a", params);
        copyDefined(body, "repetition_penalty", params);
        if (Js.truthy(body.get("reasoning_effort"))) {
            ObjectNode reasoning = params.putObject("reasoning");
            String effort = NANOGPT_EFFORT.get(Js.string(body.get("reasoning_effort")));
            if (effort != null) {
                reasoning.put("effort", effort);
            }
        }
        if (settings.claudeSystemPromptCache() && CLAUDE_ON_NANOGPT.matcher(Js.string(body.get("model"))).find()) {
            params.putObject("cache_control").put("enabled", true).put("ttl", settings.claudeCacheTtl());
        }
    }

    /** The custom source's YAML: extra body fields merged in, then excluded keys taken out of the final body. */
    private static final class CustomQuirk implements GenericSource.Quirk {
        @Override
        public void apply(GenericSource.Draft draft) {
            draft.params().setAll(OpenAiCompatible.logprobParams(draft.body(), draft.textCompletion()));
            YamlParams.merge(draft.params(), draft.body().get("custom_include_body"));
            embedAudio(draft.body());
            OpenAiCompatible.jsonSchema(draft.body(), draft.params(), NAMED);
        }

        @Override
        public void finish(ObjectNode body, ObjectNode requestBody) {
            YamlParams.exclude(requestBody, body.get("custom_exclude_body"));
        }
    }

    private static void embedAudio(ObjectNode body) {
        if (body.has("messages")) {
            body.set("messages", OpenAiCompatible.embedAudio(body.get("messages")));
        }
    }

    /** Moonshot's and Z.ai's {@code thinking} switch. */
    private static void thinking(ObjectNode body, ObjectNode params) {
        params.set("thinking", thinkingOf(body));
    }

    private static ObjectNode thinkingOf(ObjectNode body) {
        return JsJson.object().put("type", Js.truthy(body.get("include_reasoning")) ? "enabled" : "disabled");
    }

    /** DeepSeek refuses empty {@code required} lists in tool parameters. */
    private static void dropEmptyRequired(JsonNode tool) {
        JsonNode parameters = tool.path("function").path("parameters");
        if (parameters.isObject() && parameters.path("required").isArray() && parameters.get("required").isEmpty()) {
            ((ObjectNode) parameters).remove("required");
        }
    }

    /** MiniMax's M2-her takes at most 2048 tokens (JavaScript's Math.min: a missing value gives NaN, sent as null). */
    private static JsonNode minimaxMaxTokens(ObjectNode body) {
        JsonNode max = body.get("max_tokens");
        if (!"M2-her".equals(body.path("model").asText(null))) {
            return max;
        }
        if (max == null || !max.isNumber()) {
            return JsJson.tree(null);
        }
        return max.doubleValue() <= 2048 ? max : JsJson.tree(2048);
    }

    /** Pollinations lists a bare array: it becomes {@code {data}} with each model's name as its id. */
    private static JsonNode pollinationsModels(JsonNode upstream) {
        if (!upstream.isArray()) {
            return upstream;
        }
        ArrayNode data = JsJson.array();
        upstream.forEach(model -> data.add(withIdFirst(model, model.get("name"))));
        return JsJson.object().set("data", data);
    }

    /** Chutes: models without id dropped, prompt/completion prices also given as input/output. */
    private static JsonNode chutesModels(JsonNode upstream) {
        if (!upstream.path("data").isArray()) {
            return upstream;
        }
        ArrayNode data = JsJson.array();
        for (JsonNode model : upstream.get("data")) {
            if (!Js.truthy(model.get("id"))) {
                continue;
            }
            JsonNode pricing = model.path("pricing");
            if (pricing.has("prompt") && pricing.has("completion")) {
                ObjectNode copy = ((ObjectNode) model).deepCopy();
                ObjectNode prices = ((ObjectNode) pricing).deepCopy();
                prices.set("input", pricing.get("prompt"));
                prices.set("output", pricing.get("completion"));
                copy.set("pricing", prices);
                data.add(copy);
            } else {
                data.add(model);
            }
        }
        ObjectNode out = ((ObjectNode) upstream).deepCopy();
        out.set("data", data);
        return out;
    }

    /** {@code {id, ...model}}: the id first, overridden by the model's own id if it has one. */
    private static ObjectNode withIdFirst(JsonNode model, JsonNode id) {
        ObjectNode out = JsJson.object();
        if (id != null) {
            out.set("id", id);
        }
        if (model.isObject()) {
            out.setAll((ObjectNode) model);
        }
        return out;
    }

    /** {@code if (body.x !== undefined) params.x = body.x}. */
    private static void copyDefined(ObjectNode body, String field, ObjectNode params) {
        OpenAiCompatible.copyIfPresent(body, field, params);
    }

    /** {@code if (body.x) params.x = body.x}. */
    private static void copyTruthy(ObjectNode body, String field, ObjectNode params) {
        if (Js.truthy(body.get(field))) {
            params.set(field, body.get(field));
        }
    }
}
