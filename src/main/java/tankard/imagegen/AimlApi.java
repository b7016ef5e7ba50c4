package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.AttributionHeaders;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** AI/ML API's image models (ST: src/endpoints/stable-diffusion.js, the aimlapi router). */
public final class AimlApi {
    static final String SERVICE = "AI/ML API";
    private static final String API = "https://api.aimlapi.com/v1";
    /** Image models that do not draw from a prompt. */
    private static final Set<String> NOT_TEXT_TO_IMAGE = Set.of("triposr", "flux/dev/image-to-image");

    private final ImageCalls calls;

    AimlApi(ImageCalls calls) {
        this.calls = calls;
    }

    /** The image models as {@code {data: [{value: id, text: name or id}]}}. */
    public CompletionStage<ObjectNode> models(String user) {
        String key = calls.key(user, SecretKeys.AIMLAPI, SERVICE);
        return calls.json(SERVICE, UpstreamRequest.get(API + "/models", ImageCalls.bearer(key))).thenApply(answer -> {
            ArrayNode models = JsJson.array();
            answer.path("data").forEach(model -> {
                String id = model.path("id").asText();
                if ("image".equals(model.path("type").asText()) && !NOT_TEXT_TO_IMAGE.contains(id)) {
                    String name = model.path("info").path("name").asText("");
                    models.addObject().put("value", id).put("text", name.isEmpty() ? id : name);
                }
            });
            ObjectNode out = JsJson.object();
            out.set("data", models);
            return out;
        });
    }

    /** The body sent on as it is; the first image (base64, or downloaded from its URL) as {@code {format: "png", data}}. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.AIMLAPI, SERVICE);
        MultiMap headers = AttributionHeaders.addTo(ImageCalls.bearer(key).add("Content-Type", "application/json"));
        return calls.json(SERVICE, UpstreamRequest.post(API + "/images/generations", headers, body)).thenCompose(answer -> {
            JsonNode image = answer.path("images").isArray() ? answer.path("images").path(0) : answer.path("data").path(0);
            if (!image.isObject()) {
                throw Refusal.failed(SERVICE + " returned no image");
            }
            String base64 = image.path("b64_json").asText(image.path("base64").asText(""));
            if (!base64.isEmpty()) {
                return CompletableFuture.completedFuture(base64);
            }
            String url = image.path("url").asText("");
            if (url.isEmpty()) {
                throw Refusal.failed(SERVICE + " answered an image in a form Tankard does not know");
            }
            return calls.base64(SERVICE, UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap()));
        }).thenApply(base64 -> JsJson.object().put("format", "png").put("data", base64));
    }
}
