package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.user.UserDirs;

import java.util.Iterator;
import java.util.Map;
import java.util.UUID;
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
    public CompletionStage<String> generate(UserDirs user, JsonNode body) {
        String key = calls.key(user, SecretKeys.STABILITY, SERVICE);
        String endpoint = ENDPOINTS.get(body.path("model").asText());
        if (endpoint == null) {
            throw Refusal.badRequest("Invalid Stability AI model selected");
        }
        JsonNode payload = body.path("payload");
        if (!payload.isObject()) {
            throw Refusal.badRequest("payload must be an object of form fields");
        }
        String boundary = "----TankardFormBoundary" + UUID.randomUUID().toString().replace("-", "");
        MultiMap headers = ImageCalls.bearer(key).add("Accept", "image/*")
                .add("Content-Type", "multipart/form-data; boundary=" + boundary);
        return calls.base64(SERVICE, new UpstreamRequest(HttpMethod.POST, API + endpoint, headers, form(payload, boundary)));
    }

    /** Each field as FormData appends {@code String(value)}. */
    private static Buffer form(JsonNode payload, String boundary) {
        Buffer form = Buffer.buffer();
        for (Iterator<Map.Entry<String, JsonNode>> fields = payload.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            form.appendString("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + formName(field.getKey())
                    + "\"\r\n\r\n" + Js.string(field.getValue()) + "\r\n");
        }
        return form.appendString("--" + boundary + "--\r\n");
    }

    /** A field name escaped as the HTML form encoding does it. */
    private static String formName(String name) {
        return name.replace("\r", "%0D").replace("\n", "%0A").replace("\"", "%22");
    }
}
