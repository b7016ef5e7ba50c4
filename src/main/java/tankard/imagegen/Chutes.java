package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.util.JsLocale;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** Chutes' diffusion models (ST: src/endpoints/stable-diffusion.js, the chutes router). */
public final class Chutes {
    static final String SERVICE = "Chutes";
    private static final String MODELS = "https://api.chutes.ai/chutes/?template=diffusion&include_public=true&limit=999";
    private static final String GENERATE = "https://image.chutes.ai/generate";

    private final ImageCalls calls;

    Chutes(ImageCalls calls) {
        this.calls = calls;
    }

    /** The diffusion chutes as {@code [{value: name, text: name}]}, sorted by name. */
    public CompletionStage<ArrayNode> models(String user) {
        String key = calls.key(user, SecretKeys.CHUTES, SERVICE);
        return calls.json(SERVICE, UpstreamRequest.get(MODELS, ImageCalls.bearer(key).add("Content-Type", "application/json")))
                .thenApply(answer -> {
                    JsonNode items = answer.path("items");
                    if (!items.isArray()) {
                        throw Refusal.failed(SERVICE + " answered without its list of items");
                    }
                    List<String> names = new ArrayList<>();
                    items.forEach(item -> names.add(item.path("name").asText("")));
                    names.sort(JsLocale::compare);
                    ArrayNode models = JsJson.array();
                    names.forEach(name -> models.addObject().put("value", name).put("text", name));
                    return models;
                });
    }

    /** One image, as {@code {image: base64}}; unset sizes, guidance and steps take ST's defaults. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.CHUTES, SERVICE);
        ObjectNode payload = JsJson.object();
        copy(body, "model", payload);
        copy(body, "prompt", payload);
        copy(body, "negative_prompt", payload);
        payload.set("guidance_scale", Js.or(body.get("guidance_scale"), JsJson.tree(7)));
        payload.set("width", Js.or(body.get("width"), JsJson.tree(1024)));
        payload.set("height", Js.or(body.get("height"), JsJson.tree(1024)));
        payload.set("num_inference_steps", Js.or(body.get("steps"), JsJson.tree(10)));
        return calls.base64(SERVICE, UpstreamRequest.post(GENERATE,
                        ImageCalls.bearer(key).add("Content-Type", "application/json"), payload))
                .thenApply(image -> JsJson.object().put("image", image));
    }

    /** The field as JSON.stringify keeps it: left out when undefined. */
    private static void copy(JsonNode body, String field, ObjectNode payload) {
        if (body.has(field)) {
            payload.set(field, body.get(field));
        }
    }
}
