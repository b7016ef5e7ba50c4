package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.util.MimeTypes;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;

/** Pollinations' image API (ST: src/endpoints/stable-diffusion.js, the pollinations router). */
public final class Pollinations {
    static final String SERVICE = "Pollinations";
    private static final String API = "https://gen.pollinations.ai/image";
    private static final int RANDOM_SEEDS = 10_000_000;

    private final ImageCalls calls;

    Pollinations(ImageCalls calls) {
        this.calls = calls;
    }

    /** The image models as {@code [{value: name, text: name}]}; the list needs no key. */
    public CompletionStage<ArrayNode> models() {
        return calls.json(SERVICE, UpstreamRequest.get(API + "/models", MultiMap.caseInsensitiveMultiMap())).thenApply(list -> {
            if (!list.isArray()) {
                throw Refusal.failed(SERVICE + " answered a model list that is not a list");
            }
            return ImageCalls.options(list, model -> true, "name", "name");
        });
    }

    /** The prompt drawn (a GET with the prompt in the path), as {@code {image: base64, format}}. */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.POLLINATIONS, SERVICE);
        Map<String, String> query = new LinkedHashMap<>();
        query.put("model", Js.string(body.get("model")));
        query.put("negative_prompt", Js.string(body.get("negative_prompt")));
        JsonNode seed = body.get("seed");
        query.put("seed", seed != null && seed.isNumber() && seed.asDouble() >= 0 ? Js.string(seed)
                : String.valueOf(ThreadLocalRandom.current().nextInt(RANDOM_SEEDS)));
        query.put("width", body.hasNonNull("width") ? Js.string(body.get("width")) : "1024");
        query.put("height", body.hasNonNull("height") ? Js.string(body.get("height")) : "1024");
        if (Js.truthy(body.get("enhance"))) {
            query.put("enhance", "true");
        }
        // URLSearchParams' form encoding
        String url = API + "/" + Urls.encodeUriComponent(Js.string(body.get("prompt"))) + "?" + query.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return calls.send(SERVICE, UpstreamRequest.get(url, ImageCalls.bearer(key))).thenCompose(answer -> {
            String format = MimeTypes.imageExtension(answer.contentType());
            return calls.base64(answer.body()).thenApply(image ->
                    JsJson.object().put("image", image).put("format", format == null ? "jpg" : format));
        });
    }
}
