package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.util.concurrent.CompletionStage;

/** Electron Hub's image models (ST: src/endpoints/stable-diffusion.js, the electronhub router). */
public final class ElectronHub {
    static final String SERVICE = "Electron Hub";
    private static final String API = "https://api.electronhub.ai/v1";
    private static final String GENERATIONS = "/v1/images/generations";

    private final ImageCalls calls;

    ElectronHub(ImageCalls calls) {
        this.calls = calls;
    }

    /** The models that serve image generations, each as listed with {@code value} (its id) and {@code text} (its name). */
    public CompletionStage<ArrayNode> models(String user) {
        String key = calls.key(user, SecretKeys.ELECTRONHUB, SERVICE);
        return calls.json(SERVICE, UpstreamRequest.get(API + "/models", headers(key))).thenApply(answer -> {
            JsonNode list = answer.path("data");
            if (!list.isArray()) {
                throw Refusal.failed(SERVICE + " answered a model list without its data");
            }
            ArrayNode models = JsJson.array();
            list.forEach(model -> {
                if (servesGenerations(model)) {
                    ObjectNode entry = models.addObject().setAll((ObjectNode) model);
                    entry.set("value", model.get("id"));
                    entry.set("text", model.get("name"));
                }
            });
            return models;
        });
    }

    private static boolean servesGenerations(JsonNode model) {
        for (JsonNode endpoint : model.path("endpoints")) {
            if (GENERATIONS.equals(endpoint.textValue())) {
                return true;
            }
        }
        return false;
    }

    /** One image of the model, with the size and quality when given, as {@code {image: base64}}. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.ELECTRONHUB, SERVICE);
        ObjectNode payload = JsJson.object();
        if (body.has("model")) {
            payload.set("model", body.get("model"));
        }
        if (body.has("prompt")) {
            payload.set("prompt", body.get("prompt"));
        }
        payload.put("response_format", "b64_json");
        for (String field : new String[]{"size", "quality"}) {
            if (Js.truthy(body.get(field))) {
                payload.set(field, body.get(field));
            }
        }
        return calls.json(SERVICE, UpstreamRequest.post(API + "/images/generations", headers(key), payload))
                .thenApply(answer -> JsJson.object().put("image", ImageCalls.firstB64Json(SERVICE, answer)));
    }

    /** The sizes the model offers, as {@code {sizes}}; the model's page needs no key. */
    public CompletionStage<ObjectNode> sizes(JsonNode body) {
        String model = ImageServerUrls.modelPath(body);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");
        return calls.json(SERVICE, UpstreamRequest.get(API + "/models/" + model, headers)).thenApply(answer -> {
            JsonNode sizes = answer.get("sizes");
            if (!Js.truthy(sizes)) {
                throw Refusal.failed(SERVICE + " lists no sizes for " + body.get("model").textValue());
            }
            ObjectNode out = JsJson.object();
            out.set("sizes", sizes);
            return out;
        });
    }

    private static MultiMap headers(String key) {
        return ImageCalls.bearer(key).add("Content-Type", "application/json");
    }
}
