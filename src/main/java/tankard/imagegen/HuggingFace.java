package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.util.concurrent.CompletionStage;

/** Hugging Face's inference API for text-to-image models (ST: src/endpoints/stable-diffusion.js, the huggingface router). */
public final class HuggingFace {
    static final String SERVICE = "Hugging Face";
    private static final String API = "https://api-inference.huggingface.co/models/";

    private final ImageCalls calls;

    HuggingFace(ImageCalls calls) {
        this.calls = calls;
    }

    /** The body's {@code prompt} drawn by its {@code model}, as {@code {image: base64}}. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.HUGGINGFACE, SERVICE);
        String model = ImageServerUrls.modelPath(body);
        ObjectNode payload = JsJson.object();
        if (body.hasNonNull("prompt")) {
            payload.set("inputs", body.get("prompt"));
        }
        return calls.base64(SERVICE, UpstreamRequest.post(API + model,
                        ImageCalls.bearer(key).add("Content-Type", "application/json"), payload))
                .thenApply(image -> JsJson.object().put("image", image));
    }
}
