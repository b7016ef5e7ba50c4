package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/** Together AI's image models (ST: src/endpoints/stable-diffusion.js, the together router). */
public final class Together {
    static final String SERVICE = "TogetherAI";
    private static final String API = "https://api.together.xyz";
    /** A seed for a negative one: ST's range, which Together's playground keeps to. */
    private static final int RANDOM_SEEDS = 10_000_000;

    private final ImageCalls calls;

    Together(ImageCalls calls) {
        this.calls = calls;
    }

    /** The models of type image, as {@code [{value: id, text: display_name}]}. */
    public CompletionStage<ArrayNode> models(String user) {
        String key = calls.key(user, SecretKeys.TOGETHERAI, SERVICE);
        return calls.json(SERVICE, UpstreamRequest.get(API + "/api/models", ImageCalls.bearer(key))).thenApply(list -> {
            if (!list.isArray()) {
                throw Refusal.failed(SERVICE + " answered a model list that is not a list");
            }
            return ImageCalls.options(list, model -> "image".equals(model.path("type").asText()), "id", "display_name");
        });
    }

    /** One image, as {@code {format: "jpg", data: base64}}; an answer with only its URL is downloaded. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.TOGETHERAI, SERVICE);
        ObjectNode payload = JsJson.object();
        for (String field : new String[]{"prompt", "negative_prompt", "height", "width", "model", "steps"}) {
            if (body.hasNonNull(field)) {
                payload.set(field, body.get(field));
            }
        }
        payload.put("n", 1);
        JsonNode seed = body.get("seed");
        if (seed != null && seed.isNumber() && seed.asDouble() >= 0) {
            payload.set("seed", seed);
        } else {
            payload.put("seed", ThreadLocalRandom.current().nextInt(RANDOM_SEEDS));
        }
        MultiMap headers = ImageCalls.bearer(key).add("Content-Type", "application/json");
        return calls.json(SERVICE, UpstreamRequest.post(API + "/v1/images/generations", headers, payload))
                .thenCompose(answer -> {
                    JsonNode choice = answer.path("data").path(0);
                    String image = choice.path("b64_json").asText("");
                    if (!image.isEmpty()) {
                        return CompletableFuture.completedFuture(image);
                    }
                    String url = choice.path("url").asText("");
                    if (url.isEmpty()) {
                        throw Refusal.failed(SERVICE + " answered without an image");
                    }
                    return calls.base64(SERVICE, UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap()));
                })
                .thenApply(image -> JsJson.object().put("format", "jpg").put("data", image));
    }
}
