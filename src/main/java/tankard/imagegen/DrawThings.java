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

/**
 * Draw Things' HTTP API at the user's {@code url}, which speaks A1111's txt2img and tells its settings at {@code /}
 * (ST: src/endpoints/stable-diffusion.js, the drawthings router).
 */
public final class DrawThings {
    static final String SERVICE = "SD DrawThings API";

    private final ImageCalls calls;

    DrawThings(ImageCalls calls) {
        this.calls = calls;
    }

    /** Succeeds when {@code /} answers a HEAD request. */
    public CompletionStage<Void> ping(JsonNode body) {
        String url = ImageServerUrls.withPath(ImageServerUrls.base(body), "/");
        return calls.send(SERVICE, new UpstreamRequest(HttpMethod.HEAD, url, MultiMap.caseInsensitiveMultiMap(), null))
                .thenApply(answer -> null);
    }

    /** A text field of the current settings ({@code model}, {@code upscaler}); empty when they have none. */
    public CompletionStage<String> setting(JsonNode body, String field) {
        String url = ImageServerUrls.withPath(ImageServerUrls.base(body), "/");
        return calls.json(SERVICE, UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap()))
                .thenApply(settings -> settings.path(field).asText(""));
    }

    /** txt2img with the body's fields but {@code url} and {@code auth}; the answer's JSON is passed on as it is. */
    public CompletionStage<byte[]> generate(JsonNode body, HttpServerResponse browser) {
        URI base = ImageServerUrls.base(body);
        ObjectNode payload = body.isObject() ? ((ObjectNode) body).deepCopy() : JsJson.object();
        payload.remove(List.of("url", "auth"));
        MultiMap headers = ImageServerUrls.basicAuth(body).add("Content-Type", "application/json");
        return calls.send(SERVICE, UpstreamRequest.post(ImageServerUrls.withPath(base, "/sdapi/v1/txt2img"), headers, payload), browser,
                () -> { }).thenApply(answer -> answer.body().getBytes());
    }
}
