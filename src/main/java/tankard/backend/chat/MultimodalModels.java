package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.SecretReader;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The ids of a provider's models that take images, read from its model list, for
 * {@code POST /multimodal-models/{source}} (the multimodalModels router of ST's
 * src/endpoints/backends/chat-completions.js).
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

    private MultimodalModels() {
    }

    /** Whether Tankard lists the vision models of this source (the route does not answer for others). */
    static boolean lists(String source) {
        return LISTERS.containsKey(source);
    }

    /** The source's model-list call, or null when there is none to make (no key, no account): the answer is []. */
    static UpstreamRequest call(String source, ObjectNode body, SecretReader secrets) {
        Lister lister = LISTERS.get(source);
        String key = lister.secret() == null ? null : secrets.read(lister.secret(), null);
        String url = lister.url().apply(body);
        if (lister.secret() != null && (key == null || key.isEmpty()) || url == null) {
            return null;
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        if (key != null) {
            headers.set("Authorization", "Bearer " + key);
        }
        return UpstreamRequest.get(url, headers);
    }

    /** The ids of the models in the source's list that take images. */
    static ArrayNode visionModels(String source, JsonNode answer) {
        Lister lister = LISTERS.get(source);
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
        String account = WorkersAiSource.account(body);
        return account == null ? null : WorkersAiSource.API + "/" + account
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
