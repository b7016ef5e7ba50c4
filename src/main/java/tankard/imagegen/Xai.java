package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.util.MimeTypes;

import java.util.concurrent.CompletionStage;

/** xAI's image generations (ST: src/endpoints/stable-diffusion.js, the xai router). */
public final class Xai {
    static final String SERVICE = "xAI";
    private static final String GENERATIONS = "https://api.x.ai/v1/images/generations";

    private final ImageCalls calls;

    Xai(ImageCalls calls) {
        this.calls = calls;
    }

    /** One image as {@code {image: base64, format}}. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.XAI, SERVICE);
        ObjectNode payload = JsJson.object();
        for (String field : new String[]{"prompt", "model", "aspect_ratio", "resolution"}) {
            if (body.has(field)) {
                payload.set(field, body.get(field));
            }
        }
        payload.put("response_format", "b64_json");
        return calls.json(SERVICE, UpstreamRequest.post(GENERATIONS,
                        ImageCalls.bearer(key).add("Content-Type", "application/json"), payload))
                .thenApply(answer -> {
                    String encoded = answer.path("data").path(0).path("b64_json").asText("");
                    if (encoded.isEmpty()) {
                        throw Refusal.failed(SERVICE + " answered without an image");
                    }
                    // plain base64 (a JPEG) or a data URL naming its type
                    int comma = encoded.startsWith("data:") ? encoded.indexOf(";base64,") : -1;
                    String type = comma > "data:".length() ? encoded.substring("data:".length(), comma) : "image/jpeg";
                    String image = comma > "data:".length() ? encoded.substring(comma + ";base64,".length()) : encoded;
                    String format = MimeTypes.imageExtension(type);
                    return JsJson.object().put("image", image).put("format", format == null ? "jpg" : format);
                });
    }
}
