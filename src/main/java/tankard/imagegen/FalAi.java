package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.util.JsLocale;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** fal.ai's text-to-image models, run through its queue (ST: src/endpoints/stable-diffusion.js, the falai router). */
public final class FalAi {
    static final String SERVICE = "FAL.AI";
    private static final String MODELS = "https://fal.ai/api/models?categories=text-to-image&page=";
    private static final String QUEUE = "https://queue.fal.run/";
    /** ST's wait before each check of the request, and how many checks it makes. */
    private static final long POLL_MILLIS = 2500;
    private static final int MAX_CHECKS = 100;
    /** A bound on the pages of the model list, far above what fal lists. */
    private static final int MAX_PAGES = 100;
    /** Models whose title names one of these do not draw from a prompt alone. */
    private static final List<String> NOT_TEXT_TO_IMAGE = List.of("inpainting", "control", "upscale", "lora");

    private final ImageCalls calls;

    FalAi(ImageCalls calls) {
        this.calls = calls;
    }

    /** The text-to-image models, page by page, as {@code [{value, text: "title (value)"}]} sorted by title. */
    public CompletionStage<ArrayNode> models() {
        List<JsonNode> models = new ArrayList<>();
        return page(1, models).thenApply(v -> {
            models.sort((a, b) -> JsLocale.compare(a.path("title").asText(), b.path("title").asText()));
            ArrayNode out = JsJson.array();
            for (JsonNode model : models) {
                String url = model.path("modelUrl").asText("");
                int at = url.indexOf("fal-ai/");
                String value = at < 0 ? "undefined" : url.substring(at + "fal-ai/".length()).split("fal-ai/", 2)[0];
                out.addObject().put("value", value).put("text", model.path("title").asText() + " (" + value + ")");
            }
            return out;
        });
    }

    /** Adds the page's models and those of the pages after it (while {@code page + 1 < pages}, as ST reads them). */
    private CompletionStage<Void> page(int page, List<JsonNode> models) {
        return calls.json(SERVICE, UpstreamRequest.get(MODELS + page, MultiMap.caseInsensitiveMultiMap())).thenCompose(answer -> {
            if (!answer.path("items").isArray()) {
                throw Refusal.failed(SERVICE + " answered a model page without its items");
            }
            answer.path("items").forEach(model -> {
                String title = model.path("title").asText("").toLowerCase(Locale.ROOT);
                if (NOT_TEXT_TO_IMAGE.stream().noneMatch(title::contains)) {
                    models.add(model);
                }
            });
            int next = answer.path("page").asInt() + 1;
            return next < answer.path("pages").asInt() && next > page && next <= MAX_PAGES
                    ? page(next, models) : CompletableFuture.completedFuture(null);
        });
    }

    /** The prompt drawn by the model through fal's queue, as {@code {image: base64}}. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.FALAI, SERVICE);
        String model = ImageServerUrls.modelPath(body);
        ObjectNode payload = JsJson.object();
        if (body.has("prompt")) {
            payload.set("prompt", body.get("prompt"));
        }
        ObjectNode size = payload.putObject("image_size");
        copy(body, "width", size, "width");
        copy(body, "height", size, "height");
        copy(body, "steps", payload, "num_inference_steps");
        payload.set("seed", body.hasNonNull("seed") ? body.get("seed") : JsJson.tree(null));
        copy(body, "guidance", payload, "guidance_scale");
        payload.put("enable_safety_checker", false).put("safety_tolerance", 6); // the least strict
        MultiMap headers = auth(key).add("Content-Type", "application/json");
        return calls.json(SERVICE, UpstreamRequest.post(QUEUE + "fal-ai/" + model, headers, payload))
                .thenCompose(queued -> {
                    String statusUrl = queueUrl(queued.path("status_url"));
                    return calls.poll(SERVICE, n -> POLL_MILLIS, MAX_CHECKS, () -> false,
                            () -> calls.json(SERVICE, UpstreamRequest.get(statusUrl, auth(key))).thenApply(FalAi::responseUrl));
                })
                .thenCompose(responseUrl -> calls.json(SERVICE, UpstreamRequest.get(responseUrl, auth(key))))
                .thenCompose(result -> {
                    JsonNode detail = result.get("detail");
                    if (detail != null && !detail.isNull()) {
                        throw Refusal.failed(detail.path(0).path("loc").path(1).asText() + ": " + detail.path(0).path("msg").asText());
                    }
                    String url = result.path("images").path(0).path("url").asText("");
                    if (url.isEmpty()) {
                        throw Refusal.failed(SERVICE + " answered without an image");
                    }
                    // the key goes only to fal's queue; the image's own host is sent none
                    MultiMap imageHeaders = url.startsWith(QUEUE) ? auth(key) : MultiMap.caseInsensitiveMultiMap();
                    return calls.base64(SERVICE, UpstreamRequest.get(url, imageHeaders));
                })
                .thenApply(image -> JsJson.object().put("image", image));
    }

    /** The result's URL once the request has completed. */
    private static Optional<String> responseUrl(JsonNode status) {
        return switch (status.path("status").asText()) {
            case "IN_QUEUE", "IN_PROGRESS" -> Optional.empty();
            case "COMPLETED" -> Optional.of(queueUrl(status.path("response_url")));
            default -> throw Refusal.failed(SERVICE + " failed to generate image: " + JsJson.compact(status));
        };
    }

    /** A URL of fal's queue that the answer gives; the key is sent to no other host. */
    private static String queueUrl(JsonNode url) {
        if (!url.isTextual() || !url.textValue().startsWith(QUEUE)) {
            throw Refusal.failed(SERVICE + " answered a queue URL that is not fal's: " + JsJson.compact(url));
        }
        return url.textValue();
    }

    private static void copy(JsonNode body, String field, ObjectNode to, String as) {
        if (body.has(field)) {
            to.set(as, body.get(field));
        }
    }

    private static MultiMap auth(String key) {
        return MultiMap.caseInsensitiveMultiMap().add("Authorization", "Key " + key);
    }
}
