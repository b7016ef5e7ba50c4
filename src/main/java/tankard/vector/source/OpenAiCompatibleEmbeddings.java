package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import tankard.backend.common.AttributionHeaders;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The hosted OpenAI-compatible embedding APIs: {@code POST {url}/embeddings} with {@code {input, model}} and the
 * user's key as Bearer, the vectors in {@code data[].embedding} (ST: src/vectors/openai-vectors.js, SOURCES and
 * getOpenAIBatchVector; the model of each from src/endpoints/vectors.js, getSourceSettings).
 */
final class OpenAiCompatibleEmbeddings {
    private OpenAiCompatibleEmbeddings() {
    }

    /**
     * One provider of ST's table.
     *
     * @param api     its name in messages
     * @param secret  the secrets.json key of its API key
     * @param url     its base URL; null for one the request gives (Workers AI's account)
     * @param scope   the model scope of a request, which is also the model asked for (ST's sourceSettings.model)
     * @param model   ST's default model, asked for when the scope is empty
     * @param urlOf   the base URL a request gives instead of {@code url} (ST's urlOverride), or null for none
     * @param attribution whether OpenRouter's Referer and Title go with the key
     * @param nullModel   whether the body's {@code model} is null (Chutes, whose model is in the host)
     */
    private record Provider(String api, String secret, String url, Function<EmbeddingCall, String> scope,
                            String model, Function<EmbeddingCall, String> urlOf, boolean attribution,
                            boolean nullModel) {
        Provider(String api, String secret, String url, Function<EmbeddingCall, String> scope, String model) {
            this(api, secret, url, scope, model, call -> null, false, false);
        }

        Provider urlOf(Function<EmbeddingCall, String> fromBody) {
            return new Provider(api, secret, url, scope, model, fromBody, attribution, nullModel);
        }

        /** OpenRouter's Referer and Title on every call. */
        Provider attributed() {
            return new Provider(api, secret, url, scope, model, urlOf, true, nullModel);
        }

        /** Chutes: the model is in the host, the body's {@code model} is null. */
        Provider modelInHost() {
            return new Provider(api, secret, url, scope, model, urlOf, attribution, true);
        }
    }

    /** ST's {@code String(request.body.model)}. */
    private static Function<EmbeddingCall, String> model() {
        return call -> call.string("model");
    }

    /** ST's {@code String(request.body.model || fallback)}. */
    private static Function<EmbeddingCall, String> model(String fallback) {
        return call -> call.string("model", fallback);
    }

    private static final List<Map.Entry<String, Provider>> PROVIDERS = List.of(
            Map.entry("togetherai", new Provider("Together AI", SecretKeys.TOGETHERAI, "https://api.together.xyz/v1",
                    model(), "togethercomputer/m2-bert-80M-32k-retrieval")),
            Map.entry("mistral", new Provider("Mistral AI", SecretKeys.MISTRALAI, "https://api.mistral.ai/v1",
                    call -> "mistral-embed", "mistral-embed")),
            Map.entry("openai", new Provider("OpenAI", SecretKeys.OPENAI, "https://api.openai.com/v1",
                    model(), "text-embedding-ada-002")),
            Map.entry("electronhub", new Provider("Electron Hub", SecretKeys.ELECTRONHUB,
                    "https://api.electronhub.ai/v1", model("text-embedding-3-small"), "text-embedding-3-small")),
            // String(request.body.model) || default: "undefined" when absent, the default only for ""
            Map.entry("openrouter", new Provider("OpenRouter", SecretKeys.OPENROUTER, "https://openrouter.ai/api/v1",
                    call -> orDefault(call.string("model"), "openai/text-embedding-3-large"),
                    "openai/text-embedding-3-large").attributed()),
            Map.entry("chutes", new Provider("Chutes", SecretKeys.CHUTES, "https://{{MODEL}}.chutes.ai/v1",
                    model("chutes-qwen-qwen3-embedding-8b"), "chutes-qwen-qwen3-embedding-8b").modelInHost()),
            Map.entry("nanogpt", new Provider("NanoGPT", SecretKeys.NANOGPT, "https://nano-gpt.com/api/v1",
                    model("text-embedding-3-small"), "text-embedding-3-small")),
            Map.entry("siliconflow", new Provider("SiliconFlow", SecretKeys.SILICONFLOW,
                    "https://api.siliconflow.com/v1", model("Qwen/Qwen3-Embedding-0.6B"), "Qwen/Qwen3-Embedding-0.6B")
                    .urlOf(call -> "cn".equals(call.body().path("siliconflow_endpoint").textValue())
                            ? "https://api.siliconflow.cn/v1" : null)),
            Map.entry("workers_ai", new Provider("Workers AI", SecretKeys.WORKERS_AI, null,
                    model("@cf/baai/bge-m3"), "@cf/baai/bge-m3").urlOf(OpenAiCompatibleEmbeddings::workersAiUrl)));

    /** The sources by ST's names. */
    static Map<String, EmbeddingSource> all(UpstreamClient client, SecretStore secrets) {
        Map<String, EmbeddingSource> sources = new LinkedHashMap<>();
        PROVIDERS.forEach(entry -> sources.put(entry.getKey(), source(client, secrets, entry.getValue())));
        return sources;
    }

    private static EmbeddingSource source(UpstreamClient client, SecretStore secrets, Provider provider) {
        return new RemoteSource(client, body -> provider.scope().apply(new EmbeddingCall(null, body)),
                (call, query) -> {
                    String key = RemoteSource.key(secrets, call, provider.secret(), provider.api());
                    String model = orDefault(provider.scope().apply(call), provider.model());
                    String override = provider.urlOf().apply(call);
                    String url = override != null ? override
                            : provider.url() == null ? null : provider.url().replace("{{MODEL}}", model);
                    if (url == null) {
                        throw Refusal.badRequest(provider.api() + " needs the account ID "
                                + "(workers_ai_account_id) for its URL");
                    }
                    MultiMap headers = RemoteSource.bearer(key);
                    if (provider.attribution()) {
                        AttributionHeaders.addTo(headers);
                    }
                    return Future.succeededFuture(new RemoteSource.Upstream(provider.api(), url + "/embeddings",
                            headers, texts -> body(texts, provider.nullModel() ? null : model),
                            RemoteSource::openAiData, "data"));
                });
    }

    /** {@code {input, model}} (Chutes: model null). */
    static ObjectNode body(List<String> texts, String model) {
        ObjectNode body = JsJson.object();
        texts.forEach(body.putArray("input")::add);
        return model == null ? body.putNull("model") : body.put("model", model);
    }

    /** Workers AI's account URL (ST: vectors.js, getSourceSettings); null without an account. */
    private static String workersAiUrl(EmbeddingCall call) {
        JsonNode id = call.body().get("workers_ai_account_id");
        String account = EmbeddingCall.truthy(id) ? call.string("workers_ai_account_id").strip() : "";
        return account.isEmpty() ? null
                : "https://api.cloudflare.com/client/v4/accounts/" + Urls.encodeUriComponent(account) + "/ai/v1";
    }

    private static String orDefault(String value, String fallback) {
        return value.isEmpty() ? fallback : value;
    }
}
