package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/** Black Forest Labs' FLUX API (ST: src/endpoints/stable-diffusion.js, the bfl router). */
public final class Bfl {
    static final String SERVICE = "BFL";
    private static final String API = "https://api.bfl.ml/v1/";
    /** ST's wait before each check of the task, and how many checks it makes. */
    private static final long POLL_MILLIS = 2500;
    private static final int MAX_CHECKS = 100;
    /** The aspect ratios the Ultra models take lie between 9:21 and 21:9. */
    private static final double MIN_ASPECT = 9.0 / 21;
    private static final double MAX_ASPECT = 21.0 / 9;

    private final ImageCalls calls;

    Bfl(ImageCalls calls) {
        this.calls = calls;
    }

    /**
     * The prompt drawn by the body's {@code model} (an Ultra model given the closest aspect ratio instead of a size,
     * steps and guidance; a Pro 1.1 model without steps and guidance), as {@code {image: base64}}.
     */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.BFL, SERVICE);
        String model = ImageServerUrls.modelPath(body);
        ObjectNode payload = JsJson.object();
        for (String field : List.of("prompt", "steps", "guidance", "width", "height", "prompt_upsampling")) {
            if (body.has(field)) {
                payload.set(field, body.get(field));
            }
        }
        payload.set("seed", body.hasNonNull("seed") ? body.get("seed") : JsJson.tree(null));
        payload.put("safety_tolerance", 6).put("output_format", "jpeg"); // the least strict
        if (model.endsWith("-ultra")) {
            payload.put("aspect_ratio", closestAspectRatio(body));
            payload.remove(List.of("steps", "guidance", "width", "height", "prompt_upsampling"));
        }
        if (model.endsWith("-pro-1.1")) {
            payload.remove(List.of("steps", "guidance"));
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json").add("x-key", key);
        return calls.json(SERVICE, UpstreamRequest.post(API + model, headers, payload))
                .thenCompose(task -> calls.poll(SERVICE, n -> POLL_MILLIS, MAX_CHECKS, () -> false,
                        () -> result(task.path("id").asText())))
                .thenCompose(sample -> calls.base64(SERVICE, UpstreamRequest.get(sample, MultiMap.caseInsensitiveMultiMap())))
                .thenApply(image -> JsJson.object().put("image", image));
    }

    /** The URL of the task's image once it is ready. */
    private CompletionStage<Optional<String>> result(String id) {
        UpstreamRequest check = UpstreamRequest.get(API + "get_result?id=" + Urls.encodeUriComponent(id),
                MultiMap.caseInsensitiveMultiMap());
        return calls.json(SERVICE, check).thenApply(status -> switch (status.path("status").asText()) {
            case "Pending" -> Optional.empty();
            case "Ready" -> Optional.of(ServiceCalls.text(SERVICE, status.path("result").get("sample"), "the image's URL"));
            default -> throw Refusal.failed(SERVICE + " failed to generate image: " + JsJson.compact(status));
        });
    }

    /** The body's size as a ratio such as "16:9", brought within what the Ultra models take. */
    private static String closestAspectRatio(JsonNode body) {
        int width = body.path("width").asInt();
        int height = body.path("height").asInt();
        if (width <= 0 || height <= 0) {
            throw Refusal.badRequest("width and height must be positive whole numbers");
        }
        double aspect = (double) width / height;
        if (aspect < MIN_ASPECT) {
            return ratio(width, (int) Math.round(width / MIN_ASPECT));
        }
        if (aspect > MAX_ASPECT) {
            return ratio((int) Math.round(height * MAX_ASPECT), height);
        }
        return ratio(width, height);
    }

    private static String ratio(int width, int height) {
        int divisor = gcd(width, height);
        return width / divisor + ":" + height / divisor;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
