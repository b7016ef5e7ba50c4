package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.util.concurrent.CompletionStage;

/** NanoGPT's image models (ST: src/endpoints/stable-diffusion.js, the nanogpt router). */
public final class NanoGpt {
    static final String SERVICE = "NanoGPT";
    private static final String API = "https://nano-gpt.com/api";

    private final ImageCalls calls;

    NanoGpt(ImageCalls calls) {
        this.calls = calls;
    }

    /** The image models as {@code [{value: model, text: name}]}. */
    public CompletionStage<ArrayNode> models(String user) {
        String key = calls.key(user, SecretKeys.NANOGPT, SERVICE);
        return calls.json(SERVICE, UpstreamRequest.get(API + "/models", headers(key))).thenApply(answer -> {
            JsonNode image = answer.path("models").path("image");
            if (!image.isObject()) {
                throw Refusal.failed(SERVICE + " answered a model list without its image models");
            }
            return ImageCalls.options(image, model -> true, "model", "name");
        });
    }

    /** The body sent on as it is; the answer's first image as {@code {image: base64}}. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.NANOGPT, SERVICE);
        return calls.json(SERVICE, UpstreamRequest.post(API + "/generate-image", headers(key), body))
                .thenApply(answer -> JsJson.object().put("image", ImageCalls.firstB64Json(SERVICE, answer)));
    }

    private static MultiMap headers(String key) {
        return MultiMap.caseInsensitiveMultiMap().add("x-api-key", key).add("Content-Type", "application/json");
    }
}
