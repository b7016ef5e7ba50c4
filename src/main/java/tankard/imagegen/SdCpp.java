package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** stable-diffusion.cpp's server at the user's {@code url} (ST: src/endpoints/stable-diffusion.js, the sdcpp router). */
public final class SdCpp {
    static final String SERVICE = "stable-diffusion.cpp server";
    /** The generation fields sent on; the others are not. */
    private static final List<String> FIELDS = List.of("model", "prompt", "negative_prompt", "width", "height", "steps",
            "cfg_scale", "seed", "batch_size", "sampler_name", "scheduler");

    private final ImageCalls calls;

    SdCpp(ImageCalls calls) {
        this.calls = calls;
    }

    /** Succeeds when the generation endpoint answers an OPTIONS request. */
    public CompletionStage<Void> ping(JsonNode body) {
        String url = ImageServerUrls.joined(ImageServerUrls.base(body), "/v1/images/generations");
        return calls.send(SERVICE, new UpstreamRequest(HttpMethod.OPTIONS, url, MultiMap.caseInsensitiveMultiMap(), null))
                .thenApply(answer -> null);
    }

    /** The server's model list, as it answers it. */
    public CompletionStage<JsonNode> models(JsonNode body) {
        String url = ImageServerUrls.joined(ImageServerUrls.base(body), "/v1/models");
        return calls.json(SERVICE, UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap()));
    }

    /**
     * txt2img with the generation fields that have a value, and {@code clip_skip} only above 1 (sd.cpp draws blank
     * images at 1, the default); the answer's JSON is passed on as it is.
     */
    public CompletionStage<byte[]> generate(JsonNode body, HttpServerResponse browser) {
        URI base = ImageServerUrls.base(body);
        ObjectNode payload = JsJson.object();
        for (String field : FIELDS) {
            JsonNode value = body.get(field);
            if (value != null && !value.isNull() && !(value.isTextual() && value.textValue().isEmpty())) {
                payload.set(field, value);
            }
        }
        if (body.path("clip_skip").asDouble(0) > 1) {
            payload.set("clip_skip", body.get("clip_skip"));
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json");
        return calls.send(SERVICE, UpstreamRequest.post(ImageServerUrls.joined(base, "/sdapi/v1/txt2img"), headers, payload), browser,
                () -> { }).thenApply(answer -> answer.body().getBytes());
    }
}
