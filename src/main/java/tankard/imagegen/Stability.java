package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import tankard.core.Refusal;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.util.Map;
import java.util.concurrent.CompletionStage;

/** Stability AI's Stable Image API (ST: src/endpoints/stable-diffusion.js, the stability router). */
public final class Stability {
    static final String SERVICE = "Stability AI";
    private static final String API = "https://api.stability.ai/v2beta/stable-image/generate/";
    /** ST's model names and the endpoints that draw them. */
    private static final Map<String, String> ENDPOINTS = Map.of("stable-image-ultra", "ultra",
            "stable-image-core", "core", "stable-diffusion-3", "sd3");

    private final ImageCalls calls;

    Stability(ImageCalls calls) {
        this.calls = calls;
    }

    /** The body's {@code payload} fields sent as a form to the {@code model}'s endpoint; the image in base64. */
    public CompletionStage<String> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.STABILITY, SERVICE);
        String endpoint = ENDPOINTS.get(body.path("model").asText());
        if (endpoint == null) {
            throw Refusal.badRequest("Invalid Stability AI model selected");
        }
        JsonNode payload = body.path("payload");
        if (!payload.isObject()) {
            throw Refusal.badRequest("payload must be an object of form fields");
        }
        ImageCalls.Form form = ImageCalls.form(payload);
        MultiMap headers = ImageCalls.bearer(key).add("Accept", "image/*").add("Content-Type", form.contentType());
        return calls.base64(SERVICE, new UpstreamRequest(HttpMethod.POST, API + endpoint, headers, form.body()));
    }
}
