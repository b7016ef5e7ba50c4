package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.SecretReader;
import tankard.config.TankardConfig;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Claude through Anthropic's Messages API (ST's sendClaudeRequest, src/endpoints/backends/chat-completions.js): the
 * converted
 * prompt, tools, thinking and caching as ST sends them; streams relayed as Anthropic sends them; a non-streamed
 * answer wrapped in OpenAI's shape with the original content blocks beside it. No model list (400, as ST).
 */
final class ClaudeSource implements ChatCompletionSource {
    static final String SECRET = "api_key_claude";
    private static final String API = "https://api.anthropic.com/v1";
    private static final Pattern THINKING = Pattern.compile(
            "^claude-(3-7|opus-4|sonnet-4|haiku-4-5|opus-4-5|opus-4-6|sonnet-4-6|opus-4-7)");
    private static final Pattern WEB_SEARCH = Pattern.compile(
            "^claude-(3-5|3-7|opus-4|sonnet-4|haiku-4-5|opus-4-5|opus-4-6|sonnet-4-6|opus-4-7)");
    private static final Pattern LIMITED_SAMPLING = Pattern.compile(
            "^claude-(opus-4-1|sonnet-4-5|haiku-4-5|opus-4-5|opus-4-6|sonnet-4-6)");
    private static final Pattern VERBOSITY = Pattern.compile("^claude-(opus-4-5|opus-4-6|sonnet-4-6|opus-4-7)");
    private static final Pattern NO_PREFILL = Pattern.compile("^claude-(opus-4-6|sonnet-4-6|opus-4-7)");
    private static final Pattern ALWAYS_ADAPTIVE = Pattern.compile("^claude-(opus-4-7)");
    private static final Pattern ADAPTIVE_IF_ENABLED = Pattern.compile("^claude-(opus-4-6|sonnet-4-6)");
    private static final int MIN_THINKING_TOKENS = 1024;

    /** ST's {@code claude.*} config. */
    record Settings(boolean systemPromptCache, int cachingAtDepth, boolean extendedTtl, boolean adaptiveThinking) {
        static Settings of(TankardConfig.ChatSettings chat) {
            return new Settings(chat.claudeSystemPromptCache(), chat.claudeCachingAtDepth(), chat.claudeExtendedTtl(),
                    chat.claudeAdaptiveThinking());
        }

        String ttl() {
            return extendedTtl ? "1h" : "5m";
        }
    }

    private final Settings settings;
    private final String placeholder;

    /** @param placeholder config promptPlaceholder, for a prompt that is all system prompt */
    ClaudeSource(Settings settings, String placeholder) {
        this.settings = settings;
        this.placeholder = placeholder;
    }

    @Override
    public String id() {
        return "claude";
    }

    @Override
    public SourceStep generate(ObjectNode body, SecretReader secrets) {
        String apiUrl = DedicatedSenders.baseUrl(body, API);
        JsonNode apiKey = DedicatedSenders.apiKey(body, secrets, SECRET);
        if (!Js.truthy(apiKey)) {
            return SourceStep.badRequest();
        }
        String key = Js.string(apiKey);
        List<String> betas = new ArrayList<>(List.of("output-128k-2025-02-19", "context-1m-2025-08-07"));
        return DedicatedSenders.guarded(this, () -> call(apiUrl, key, requestBody(body, betas), betas));
    }

    private static UpstreamRequest call(String apiUrl, String key, ObjectNode out, List<String> betas) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .set("Content-Type", "application/json")
                .set("anthropic-version", "2023-06-01")
                .set("x-api-key", key)
                .set("anthropic-beta", String.join(",", betas));
        return UpstreamRequest.post(apiUrl + "/messages", headers, out);
    }

    /** The Messages API body; the betas it needs are added to {@code betas}. */
    ObjectNode requestBody(ObjectNode body, List<String> betas) {
        String model = Js.string(body.get("model"));
        JsonNode tools = body.path("tools");
        boolean useTools = tools.isArray() && !tools.isEmpty();
        boolean useSystemPrompt = Js.truthy(body.get("use_sysprompt"));
        JsonNode prefill = body.get("assistant_prefill");
        ClaudeMessages.Converted prompt = ClaudeMessages.convert(body.path("messages"),
                Js.truthy(prefill) ? Js.string(prefill) : "", useSystemPrompt, useTools, PromptNames.of(body), placeholder);
        boolean adaptive = ALWAYS_ADAPTIVE.matcher(model).find()
                || settings.adaptiveThinking() && ADAPTIVE_IF_ENABLED.matcher(model).find();
        boolean noSampling = ALWAYS_ADAPTIVE.matcher(model).find();

        ObjectNode out = JsJson.object();
        if (useSystemPrompt) {
            ArrayNode system = prompt.system();
            if (settings.systemPromptCache() && !system.isEmpty()) {
                ((ObjectNode) system.get(system.size() - 1)).set("cache_control", cacheControl());
            }
            out.set("system", system);
        }
        out.set("messages", prompt.messages());
        DedicatedSenders.copy(body, "model", out, "model");
        DedicatedSenders.copy(body, "max_tokens", out, "max_tokens");
        out.set("stop_sequences", body.path("stop").isArray() ? body.get("stop") : JsJson.array());
        DedicatedSenders.copy(body, "temperature", out, "temperature");
        DedicatedSenders.copy(body, "top_p", out, "top_p");
        DedicatedSenders.copy(body, "top_k", out, "top_k");
        DedicatedSenders.copy(body, "stream", out, "stream");

        if (useTools) {
            betas.add("tools-2024-05-16");
            ObjectNode choice = out.putObject("tool_choice");
            DedicatedSenders.copy(body, "tool_choice", choice, "type");
            ArrayNode functions = out.putArray("tools");
            for (JsonNode tool : tools) {
                if ("function".equals(tool.path("type").asText(null))) {
                    JsonNode fn = tool.path("function");
                    ObjectNode function = functions.addObject();
                    DedicatedSenders.copy(fn, "name", function, "name");
                    DedicatedSenders.copy(fn, "description", function, "description");
                    if (fn.has("parameters")) {
                        function.set("input_schema", JsonSchemas.flatten(fn.get("parameters"), id()));
                    }
                }
            }
            if (settings.systemPromptCache() && !functions.isEmpty()) {
                ((ObjectNode) functions.get(functions.size() - 1)).set("cache_control", cacheControl());
            }
        }
        JsonNode schema = body.get("json_schema");
        if (Js.truthy(schema)) {
            ArrayNode all = out.path("tools").isArray() ? (ArrayNode) out.get("tools") : out.putArray("tools");
            ObjectNode jsonTool = all.addObject();
            DedicatedSenders.copy(schema, "name", jsonTool, "name");
            JsonNode description = schema.get("description");
            jsonTool.put("description", Js.truthy(description) ? Js.string(description) : "Well-formed JSON object");
            DedicatedSenders.copy(schema, "value", jsonTool, "input_schema");
            ObjectNode choice = JsJson.object().put("type", "tool");
            DedicatedSenders.copy(schema, "name", choice, "name");
            out.set("tool_choice", choice);
        }
        if (WEB_SEARCH.matcher(model).find() && Js.truthy(body.get("enable_web_search"))) {
            ArrayNode all = JsJson.array();
            all.addObject().put("type", "web_search_20250305").put("name", "web_search");
            if (out.path("tools").isArray()) {
                all.addAll((ArrayNode) out.get("tools"));
            }
            out.set("tools", all);
        }
        if (settings.cachingAtDepth() >= 0) {
            ClaudeMessages.cacheAtDepth(prompt.messages(), settings.cachingAtDepth(), settings.ttl());
        }
        if (settings.systemPromptCache() || settings.cachingAtDepth() >= 0) {
            betas.add("prompt-caching-2024-07-31");
            betas.add("extended-cache-ttl-2025-04-11");
        }
        if (LIMITED_SAMPLING.matcher(model).find()) {
            JsonNode topP = out.get("top_p");
            out.remove(topP != null && topP.isNumber() && topP.doubleValue() < 1 ? "temperature" : "top_p");
        }
        if (noSampling) {
            out.remove(List.of("temperature", "top_p", "top_k"));
        }
        boolean thinking = THINKING.matcher(model).find() && think(body, out, adaptive, noSampling);
        ArrayNode messages = prompt.messages();
        if ((thinking || NO_PREFILL.matcher(model).find()) && !messages.isEmpty()
                && "assistant".equals(Js.string(messages.get(messages.size() - 1).get("role")))) {
            ((ObjectNode) messages.get(messages.size() - 1)).put("role", "user");
        }
        JsonNode verbosity = body.get("verbosity");
        if (VERBOSITY.matcher(model).find() && Js.truthy(verbosity)
                && !Js.truthy(out.path("output_config").get("effort"))) {
            betas.add("effort-2025-11-24");
            outputConfig(out).set("effort", verbosity);
        }
        return out;
    }

    /** Adds the thinking settings for the requested effort (ST's calculateClaudeBudgetTokens); false if none. */
    private static boolean think(ObjectNode body, ObjectNode out, boolean adaptive, boolean noSampling) {
        String effort = body.has("reasoning_effort") ? Js.string(body.get("reasoning_effort")) : null;
        if (adaptive) {
            String level = effort == null ? null : switch (effort) {
                case "min", "low" -> "low";
                case "medium", "high", "max" -> effort;
                default -> null;
            };
            if (level == null) {
                return false;
            }
            ObjectNode thinking = out.putObject("thinking").put("type", "adaptive");
            if (noSampling && Js.truthy(body.get("include_reasoning"))) {
                thinking.put("display", "summarized");
            }
            outputConfig(out).put("effort", level);
            out.remove("top_k");
            return true;
        }
        if ("auto".equals(effort)) {
            return false;
        }
        JsonNode maxNode = out.get("max_tokens");
        double maxTokens = maxNode != null && maxNode.isNumber() ? maxNode.doubleValue() : Double.NaN;
        double budget = effort == null ? 0 : switch (effort) {
            case "min" -> 1024;
            case "low" -> Math.floor(maxTokens * 0.1);
            case "medium" -> Math.floor(maxTokens * 0.25);
            case "high" -> Math.floor(maxTokens * 0.5);
            case "max" -> Math.floor(maxTokens * 0.95);
            default -> 0;
        };
        budget = Math.max(budget, 1024);
        if (!Js.truthy(out.get("stream"))) {
            budget = Math.min(budget, 21333);
        }
        if (Double.isNaN(budget)) {
            return false;
        }
        if (maxTokens <= MIN_THINKING_TOKENS) {
            out.set("max_tokens", JsJson.parse(JsJson.jsNumber(maxTokens + MIN_THINKING_TOKENS)));
        }
        out.putObject("thinking").put("type", "enabled").put("budget_tokens", (long) budget);
        out.remove(List.of("temperature", "top_p", "top_k"));
        return true;
    }

    private static ObjectNode outputConfig(ObjectNode out) {
        return out.path("output_config").isObject() ? (ObjectNode) out.get("output_config")
                : out.putObject("output_config");
    }

    private ObjectNode cacheControl() {
        return JsJson.object().put("type", "ephemeral").put("ttl", settings.ttl());
    }

    @Override
    public SourceStep models(ObjectNode body, SecretReader secrets) {
        return SourceStep.badRequest();
    }

    @Override
    public JsonAnswer completion(UpstreamClient.Fetched answer) {
        JsonNode json = answer.ok() ? JsJson.tryParse(answer.body().getBytes()) : null;
        if (json == null) {
            return JsonAnswer.errorTrue(500);
        }
        JsonNode text = json.path("content").path(0).get("text");
        ObjectNode reply = JsJson.object();
        reply.putArray("choices").addObject().putObject("message")
                .put("content", Js.truthy(text) ? Js.string(text) : "");
        DedicatedSenders.copy(json, "content", reply, "content");
        return JsonAnswer.ok(reply);
    }

    @Override
    public JsonAnswer failure(Throwable failure) {
        return JsonAnswer.errorTrue(500);
    }
}
