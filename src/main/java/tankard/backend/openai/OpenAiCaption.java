package tankard.backend.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.AttributionHeaders;
import tankard.backend.common.Urls;
import tankard.backend.common.YamlParams;
import tankard.backend.common.JsonFields;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.RequestOverrides;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Image captioning through an OpenAI-shaped chat API for ST's Image Captioning extension: the prompt and the image
 * (a data URL) in one user message, the caption from the answer (ST: src/endpoints/openai.js, /caption-image).
 */
public final class OpenAiCaption {
    private static final String SERVICE = "The captioning API";
    private static final Pattern VIDEO = Pattern.compile("data:video/\\w+;base64,");

    /**
     * How ST calls one {@code api}.
     *
     * @param secret           its key's name; null: none
     * @param keyUnlessProxied whether a reverse proxy takes the key's place (its password instead)
     * @param url              the chat URL from the body
     * @param beatsProxy       whether that URL wins over a reverse proxy (ST sets it after the proxy's)
     */
    private record Api(String secret, boolean keyUnlessProxied, Function<JsonNode, String> url, boolean beatsProxy) {
        static Api fixed(String secret, String url) {
            return new Api(secret, false, body -> url, true);
        }
    }

    private static final Map<String, Api> APIS = Map.ofEntries(
            Map.entry("openai", proxiable(SecretKeys.OPENAI, true, body -> "https://api.openai.com/v1")),
            Map.entry("openrouter", proxiable(SecretKeys.OPENROUTER, false, body -> "https://openrouter.ai/api/v1")),
            Map.entry("moonshot", proxiable(SecretKeys.MOONSHOT, true, body -> "https://api.moonshot.ai/v1")),
            Map.entry("zai", proxiable(SecretKeys.ZAI, true, body -> "coding".equals(Js.string(body.get("zai_endpoint")))
                    ? "https://api.z.ai/api/coding/paas/v4" : "https://api.z.ai/api/paas/v4")),
            Map.entry("xai", new Api(SecretKeys.XAI, true, body -> "https://api.x.ai/v1/chat/completions", true)),
            Map.entry("mistral", new Api(SecretKeys.MISTRALAI, true, body -> "https://api.mistral.ai/v1/chat/completions", true)),
            Map.entry("custom", new Api(SecretKeys.CUSTOM, false, body -> server(body) + "/chat/completions", true)),
            Map.entry("ooba", local(SecretKeys.OOBA)),
            Map.entry("koboldcpp", local(SecretKeys.KOBOLDCPP)),
            Map.entry("llamacpp", local(SecretKeys.LLAMACPP)),
            Map.entry("vllm", local(SecretKeys.VLLM)),
            Map.entry("aimlapi", Api.fixed(SecretKeys.AIMLAPI, "https://api.aimlapi.com/v1/chat/completions")),
            Map.entry("groq", Api.fixed(SecretKeys.GROQ, "https://api.groq.com/openai/v1/chat/completions")),
            Map.entry("cohere", Api.fixed(SecretKeys.COHERE, "https://api.cohere.ai/v2/chat")),
            Map.entry("pollinations", Api.fixed(SecretKeys.POLLINATIONS, "https://gen.pollinations.ai/v1/chat/completions")),
            Map.entry("nanogpt", Api.fixed(SecretKeys.NANOGPT, "https://nano-gpt.com/api/v1/chat/completions")),
            Map.entry("chutes", Api.fixed(SecretKeys.CHUTES, "https://llm.chutes.ai/v1/chat/completions")),
            Map.entry("electronhub", Api.fixed(SecretKeys.ELECTRONHUB, "https://api.electronhub.ai/v1/chat/completions")),
            Map.entry("workers_ai", new Api(SecretKeys.WORKERS_AI, false,
                    body -> ModelLists.workersAi(body) + "/ai/v1/chat/completions", true)));

    /** The servers that need no key. */
    private static final Set<String> KEYLESS = Set.of("custom", "ooba", "koboldcpp", "vllm", "llamacpp");

    private final SecretStore secrets;
    private final ServiceCalls calls;
    private final RequestOverrides overrides;

    public OpenAiCaption(SecretStore secrets, ServiceCalls calls, RequestOverrides overrides) {
        this.secrets = secrets;
        this.calls = calls;
        this.overrides = overrides;
    }

    /** {@code {api, image, prompt, model, reverse_proxy?, proxy_password?, server_url?, ...}} → the caption. */
    public CompletionStage<String> caption(String user, JsonNode body) {
        String name = Js.string(body.get("api"));
        Api api = APIS.get(name);
        String proxy = Js.truthy(body.get("reverse_proxy")) ? Js.string(body.get("reverse_proxy")) : null;
        if (api == null && proxy == null) {
            throw Refusal.badRequest("Unknown captioning API '" + name + "'");
        }
        String key = key(user, body, api, proxy);
        if (key.isEmpty() && proxy == null && !KEYLESS.contains(name)) {
            throw Refusal.badRequest("No API key is set for " + name);
        }
        if (!body.path("image").isTextual() || body.path("image").textValue().isEmpty()) {
            throw Refusal.badRequest("image is required");
        }
        String url = api == null || proxy != null && !api.beatsProxy() ? proxy + "/chat/completions" : api.url().apply(body);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json")
                .add("Authorization", "Bearer " + key);
        if ("custom".equals(name)) {
            headers.addAll(YamlParams.headers(body.get("custom_include_headers")));
        }
        if ("openrouter".equals(name) || "aimlapi".equals(name)) {
            AttributionHeaders.addTo(headers);
        }
        overrides.apply(headers, url);
        return calls.send(SERVICE, UpstreamRequest.post(url, headers, request(name, body)))
                .thenApply(answer -> {
                    JsonNode json = ServiceCalls.json(SERVICE, answer);
                    JsonNode caption = json.path("choices").path(0).path("message").get("content");
                    if (caption == null || caption.isNull()) {
                        caption = json.path("message").path("content").path(0).get("text");
                    }
                    if (!Js.truthy(caption)) {
                        throw Refusal.failed("No caption found");
                    }
                    return Js.string(caption);
                });
    }

    /** ST's key: the proxy's password where a proxy replaces the key, else the secret. */
    private String key(String user, JsonNode body, Api api, String proxy) {
        if (api != null && !(api.keyUnlessProxied() && proxy != null)) {
            return secrets.read(user, api.secret());
        }
        JsonNode password = body.get("proxy_password");
        return proxy != null && Js.truthy(password) ? Js.string(password) : "";
    }

    /** The chat request: the prompt and image, with each API's own parameters. */
    private static ObjectNode request(String api, JsonNode body) {
        ObjectNode request = JsJson.object();
        JsonFields.copy(body, request, "model");
        ArrayNode content = request.putArray("messages").addObject().put("role", "user").putArray("content");
        JsonFields.copyAs(body, "prompt", content.addObject().put("type", "text"), "text");
        String image = body.path("image").textValue();
        if ("zai".equals(api) && VIDEO.matcher(image).find()) {
            content.addObject().put("type", "video_url").putObject("video_url").put("url", image);
        } else {
            content.addObject().put("type", "image_url").putObject("image_url").put("url", image);
        }
        switch (api) {
            case "custom" -> {
                YamlParams.merge(request, body.get("custom_include_body"));
                YamlParams.exclude(request, body.get("custom_exclude_body"));
            }
            case "ooba" -> {
                request.put("temperature", 0.1);
                ArrayNode messages = request.putArray("messages");
                JsonFields.copyAs(body, "prompt", messages.addObject().put("role", "user"), "content");
                messages.addObject().put("role", "user").<ObjectNode>set("content", JsJson.array()).put("image_url", image);
            }
            case "zai" -> request.put("max_tokens", 4096);
            case "pollinations" -> request.put("seed", ThreadLocalRandom.current().nextLong(1L << 32));
            default -> {
            }
        }
        return request;
    }

    /** An API whose base a reverse proxy replaces. */
    private static Api proxiable(String secret, boolean keyUnlessProxied, Function<JsonNode, String> base) {
        return new Api(secret, keyUnlessProxied, body -> base.apply(body) + "/chat/completions", false);
    }

    private static Api local(String secret) {
        return new Api(secret, false, body -> Urls.trimV1(server(body)) + "/v1/chat/completions", true);
    }

    /** The body's {@code server_url}, which the custom and local servers need. */
    private static String server(JsonNode body) {
        if (!Js.truthy(body.get("server_url"))) {
            throw Refusal.badRequest("server_url is required");
        }
        return Js.string(body.get("server_url"));
    }
}
