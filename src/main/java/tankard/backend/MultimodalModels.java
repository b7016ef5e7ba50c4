package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import tankard.http.Reply;
import tankard.http.Request;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * {@code POST /multimodal-models/{source}} (st-backends.md §2.9): the ids of a provider's models that take
 * images, read from its model list; {@code []} without a key or when the provider says no, a bare 500 when the
 * call fails.
 */
final class MultimodalModels {
    /** One provider's list: where, with which key (null: none), the models in it, which take images, their id. */
    private record Lister(Function<ObjectNode, String> url, String secret, String listField, Predicate<JsonNode> vision,
                          String idField) {
    }

    private static final Map<String, Lister> LISTERS = Map.of(
            "pollinations", new Lister(body -> "https://gen.pollinations.ai/models", null, null,
                    model -> contains(model.path("input_modalities"), "image"), "name"),
            "aimlapi", new Lister(body -> "https://api.aimlapi.com/v1/models", null, "data",
                    model -> contains(model.path("features"), "openai/chat-completion.vision"), "id"),
            "nanogpt", new Lister(body -> "https://nano-gpt.com/api/v1/models?detailed=true", null, "data",
                    model -> Js.truthy(model.path("capabilities").get("vision")), "id"),
            "electronhub", new Lister(body -> "https://api.electronhub.ai/v1/models", null, "data",
                    model -> Js.truthy(model.path("metadata").get("vision")), "id"),
            "chutes", new Lister(body -> "https://llm.chutes.ai/v1/models", SecretKeys.CHUTES, "data",
                    model -> contains(model.path("input_modalities"), "image"), "id"),
            "mistral", new Lister(body -> "https://api.mistral.ai/v1/models", SecretKeys.MISTRALAI, "data",
                    model -> Js.truthy(model.path("capabilities").get("vision")), "id"),
            "xai", new Lister(body -> "https://api.x.ai/v1/language-models", SecretKeys.XAI, "models",
                    model -> contains(model.path("input_modalities"), "image"), "id"),
            "moonshot", new Lister(body -> "https://api.moonshot.ai/v1/models", SecretKeys.MOONSHOT, "data",
                    model -> Js.truthy(model.get("supports_image_in")), "id"),
            "workers_ai", new Lister(MultimodalModels::workersAiModels, SecretKeys.WORKERS_AI, "result",
                    model -> hasVisionProperty(model.path("properties")), "name"));
    /** xAI does not list it as taking images, but it does. */
    private static final String GROK_4 = "grok-4-0709";

    private final SecretStore secrets;
    private final UpstreamClient upstream;

    MultimodalModels(SecretStore secrets, UpstreamClient upstream) {
        this.secrets = secrets;
        this.upstream = upstream;
    }

    void answer(Request request) {
        RoutingContext ctx = request.ctx();
        HttpServerResponse response = ctx.response();
        String source = ctx.pathParam("source");
        Lister lister = LISTERS.get(source);
        if (lister == null) {
            ctx.next();
            return;
        }
        Proxying.worker(ctx, () -> {
            JsonNode body = request.body();
            String key = lister.secret() == null ? null : secrets.read(request.dirs(), lister.secret());
            String url = lister.url().apply(body.isObject() ? (ObjectNode) body : JsJson.object());
            if (lister.secret() != null && (key == null || key.isEmpty()) || url == null) {
                throw new Proxying.Answered(Reply.json(JsJson.array()));
            }
            MultiMap headers = MultiMap.caseInsensitiveMultiMap();
            if (key != null) {
                headers.set("Authorization", "Bearer " + key);
            }
            return new UpstreamRequest(HttpMethod.GET, url, headers, null);
        }).compose(call -> upstream.fetch(call, response))
                .compose(answer -> answer.ok()
                        ? Proxying.worker(ctx, () -> Reply.json(visionModels(source, lister, JsJson.parse(answer.body().getBytes()))))
                        : Future.succeededFuture(Reply.json(JsJson.array())))
                .onSuccess(reply -> reply.writeTo(response))
                .onFailure(e -> Proxying.fail(response, e, Reply.status(500)));
    }

    private static ArrayNode visionModels(String source, Lister lister, JsonNode answer) {
        JsonNode models = lister.listField() == null ? answer : answer.path(lister.listField());
        ArrayNode ids = JsJson.array();
        for (JsonNode model : models) {
            if (model.isObject() && lister.vision().test(model)) {
                ids.add(Js.coalesce(model.get(lister.idField()), JsJson.tree(null)));
            }
        }
        if ("xai".equals(source) && !contains(ids, GROK_4)) {
            ids.add(GROK_4);
        }
        return ids;
    }

    /** Workers AI's model search of the body's account; null without one. */
    private static String workersAiModels(ObjectNode body) {
        String account = ChatCompletionSources.workersAiAccount(body);
        return account == null ? null : ChatCompletionSources.WORKERS_AI + "/" + account
                + "/ai/models/search?task=Text+Generation&per_page=1000";
    }

    private static boolean contains(JsonNode list, String value) {
        for (JsonNode item : list) {
            if (value.equals(item.textValue())) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasVisionProperty(JsonNode properties) {
        for (JsonNode property : properties) {
            if ("vision".equals(property.path("property_id").textValue()) && "true".equals(property.path("value").textValue())) {
                return true;
            }
        }
        return false;
    }
}
