package tankard.backend.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.UpstreamJson;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The model lists of the vector storage's and TTS extension's providers: ElectronHub's models and the embedding
 * models of Chutes, NanoGPT, SiliconFlow and Workers AI (ST: src/endpoints/openai.js, /electronhub/models and
 * the {@code /models/embedding} routes). Each answers the provider's list as the frontend reads it.
 */
public final class ModelLists {
    private static final String CLOUDFLARE_ACCOUNTS = "https://api.cloudflare.com/client/v4/accounts";

    private final SecretStore secrets;
    private final UpstreamJson upstream;

    public ModelLists(SecretStore secrets, UpstreamJson upstream) {
        this.secrets = secrets;
        this.upstream = upstream;
    }

    /** ElectronHub's models ({@code data}, [] when it has none). */
    public CompletionStage<JsonNode> electronHub(String user) {
        return list(user, SecretKeys.ELECTRONHUB, "ElectronHub", "https://api.electronhub.ai/v1/models",
                json -> json.path("data").isArray() ? json.get("data") : JsJson.array());
    }

    public CompletionStage<JsonNode> chutesEmbedding(String user) {
        return list(user, SecretKeys.CHUTES, "Chutes",
                "https://api.chutes.ai/chutes/?template=embedding&include_public=true&limit=999", json -> array(json, "items"));
    }

    public CompletionStage<JsonNode> nanoGptEmbedding(String user) {
        return list(user, SecretKeys.NANOGPT, "NanoGPT", "https://nano-gpt.com/api/v1/embedding-models",
                json -> array(json, "data"));
    }

    /** {@code {siliconflow_endpoint}}: "cn" lists the Chinese site's models. */
    public CompletionStage<JsonNode> siliconFlowEmbedding(String user, JsonNode body) {
        String site = "cn".equals(Js.string(body.get("siliconflow_endpoint"))) ? "https://api.siliconflow.cn"
                : "https://api.siliconflow.com";
        return list(user, SecretKeys.SILICONFLOW, "SiliconFlow", site + "/v1/models?type=text&sub_type=embedding",
                json -> array(json, "data"));
    }

    /** {@code {workers_ai_account_id}} → the account's embedding models, each with its name as id. */
    public CompletionStage<JsonNode> workersAiEmbedding(String user, JsonNode body) {
        String key = Keys.required(secrets, user, SecretKeys.WORKERS_AI, "Workers AI");
        String url = workersAi(body) + "/ai/models/search?task=Text+Embeddings&per_page=100";
        return get(key, "Workers AI", url, json -> {
            ArrayNode models = JsJson.array();
            array(json, "result").forEach(model -> models.add(model.isObject()
                    ? ((ObjectNode) model.deepCopy()).set("id", model.get("name")) : model));
            return models;
        });
    }

    /** The body's Cloudflare account (trimmed, URL-encoded) as its API's base; 400 without one. */
    static String workersAi(JsonNode body) {
        JsonNode id = body.get("workers_ai_account_id");
        String account = Js.truthy(id) ? Js.trim(Js.string(id)) : "";
        if (account.isEmpty()) {
            throw Refusal.badRequest("Cloudflare Workers AI Account ID is required");
        }
        return CLOUDFLARE_ACCOUNTS + "/" + Urls.encodeUriComponent(account);
    }

    private CompletionStage<JsonNode> list(String user, String secret, String service, String url,
                                           Function<JsonNode, JsonNode> models) {
        return get(Keys.required(secrets, user, secret, service), service, url, models);
    }

    /** GETs the list with the key as Bearer; an error answer is ST's 500, quoted. */
    private CompletionStage<JsonNode> get(String key, String service, String url, Function<JsonNode, JsonNode> models) {
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + key)
                .add("Accept-Encoding", "identity");
        return upstream.call(UpstreamRequest.get(url, headers), service).toCompletionStage().thenApply(answer -> {
            if (!answer.ok()) {
                throw Refusal.failed(service + " answered " + answer.status()
                        + (answer.json() == null ? "" : ": " + JsJson.compact(answer.json())));
            }
            if (answer.json() == null) {
                throw Refusal.failed(service + " answered something that is not JSON");
            }
            return models.apply(answer.json());
        });
    }

    /** The answer's list, which must be there (ST's 500 otherwise). */
    private static JsonNode array(JsonNode json, String field) {
        if (!json.path(field).isArray()) {
            throw Refusal.failed("The model list has no " + field);
        }
        return json.get(field);
    }
}
