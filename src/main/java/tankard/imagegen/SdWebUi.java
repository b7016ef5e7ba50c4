package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.net.URI;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.StreamSupport;

/**
 * Stable Diffusion WebUI's API as A1111, Forge and SD.Next serve it, at the user's {@code url} with the optional
 * {@code auth} "user:pass" (ST: src/endpoints/stable-diffusion.js, the top-level {@code /api/sd} routes).
 */
public final class SdWebUi {
    static final String SERVICE = "SD WebUI";
    /** How often and how long set-model waits for the new checkpoint to load, as ST does. */
    private static final int LOAD_CHECKS = 10;
    private static final long LOAD_CHECK_MILLIS = 2000;
    /** SD.Next lists no latent upscalers in its API; ST names them. */
    private static final List<String> SD_NEXT_LATENT_UPSCALERS = List.of("Latent", "Latent (antialiased)",
            "Latent (bicubic)", "Latent (bicubic antialiased)", "Latent (nearest)", "Latent (nearest-exact)");

    private final ImageCalls calls;

    SdWebUi(ImageCalls calls) {
        this.calls = calls;
    }

    /** Succeeds when the options can be read. */
    public CompletionStage<Void> ping(JsonNode body) {
        return get(body, "/sdapi/v1/options").thenApply(answer -> null);
    }

    /** "None" first, then the latent upscale modes, then the other upscalers: ST's order. */
    public CompletionStage<ArrayNode> upscalers(JsonNode body) {
        CompletionStage<List<String>> upscalers = names(body, "/sdapi/v1/upscalers", "name");
        CompletionStage<List<String>> latent = names(body, "/sdapi/v1/latent-upscale-modes", "name");
        return upscalers.thenCombine(latent, SdWebUi::afterFirst);
    }

    public CompletionStage<ArrayNode> sdNextUpscalers(JsonNode body) {
        return names(body, "/sdapi/v1/upscalers", "name").thenApply(names -> afterFirst(names, SD_NEXT_LATENT_UPSCALERS));
    }

    /** The VAE names: A1111's {@code sd-vae}, or Forge's {@code sd-modules} when that fails. */
    public CompletionStage<ArrayNode> vaes(JsonNode body) {
        CompletionStage<JsonNode> auto = json(body, "/sdapi/v1/sd-vae");
        CompletionStage<JsonNode> forge = json(body, "/sdapi/v1/sd-modules");
        return auto.exceptionallyCompose(autoFailed -> forge).thenApply(list -> toArray(field(list, "model_name")));
    }

    public CompletionStage<ArrayNode> samplers(JsonNode body) {
        return names(body, "/sdapi/v1/samplers", "name").thenApply(SdWebUi::toArray);
    }

    public CompletionStage<ArrayNode> schedulers(JsonNode body) {
        return names(body, "/sdapi/v1/schedulers", "name").thenApply(SdWebUi::toArray);
    }

    /** The checkpoints as {@code [{value, text}]}, both their titles. */
    public CompletionStage<ArrayNode> models(JsonNode body) {
        return names(body, "/sdapi/v1/sd-models", "title").thenApply(titles -> {
            ArrayNode models = JsJson.array();
            titles.forEach(title -> models.addObject().put("value", title).put("text", title));
            return models;
        });
    }

    /** The loaded checkpoint's title, empty when the options name none. */
    public CompletionStage<String> currentModel(JsonNode body) {
        return json(body, "/sdapi/v1/options").thenApply(options -> options.path("sd_model_checkpoint").asText(""));
    }

    /** Sets the checkpoint, then waits (as ST does, up to 20 s) until the server is idle again: the model loaded. */
    public CompletionStage<Void> setModel(JsonNode body) {
        URI base = ImageServerUrls.base(body);
        JsonNode model = body.get("model");
        if (model == null || !model.isTextual()) {
            throw Refusal.badRequest("model must be a checkpoint's title");
        }
        ObjectNode options = JsJson.object().put("sd_model_checkpoint", model.textValue());
        MultiMap headers = ImageServerUrls.basicAuth(body).add("Content-Type", "application/json");
        return calls.send(SERVICE, UpstreamRequest.post(ImageServerUrls.withPath(base, "/sdapi/v1/options"), headers, options))
                .thenCompose(set -> waitUntilIdle(body, LOAD_CHECKS));
    }

    private CompletionStage<Void> waitUntilIdle(JsonNode body, int checksLeft) {
        if (checksLeft == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return json(body, "/sdapi/v1/progress").thenCompose(progress -> {
            boolean idle = progress.path("progress").asDouble(-1) == 0.0
                    && progress.path("state").path("job_count").asDouble(-1) == 0;
            return idle ? CompletableFuture.completedFuture(null)
                    : calls.after(LOAD_CHECK_MILLIS).thenCompose(v -> waitUntilIdle(body, checksLeft - 1));
        });
    }

    /**
     * txt2img with the body's generation fields, its answer's JSON passed on as it is. Forge's extra modules are
     * left out for servers that are not Forge, as ST does; when the browser leaves first, the generation is
     * interrupted. The {@code url} and {@code auth} fields are not sent on.
     */
    public CompletionStage<byte[]> generate(JsonNode body, HttpServerResponse browser) {
        URI base = ImageServerUrls.base(body);
        ObjectNode payload = body.isObject() ? ((ObjectNode) body).deepCopy() : JsJson.object();
        payload.remove(List.of("url", "auth"));
        // both laid out here, on the worker: the options' answer picks one
        Buffer asGiven = Buffer.buffer(JsJson.compactBytes(payload));
        Buffer forNonForge = payload.path("override_settings").has("forge_additional_modules")
                ? withoutForgeModules(payload) : asGiven;
        MultiMap headers = ImageServerUrls.basicAuth(body).add("Content-Type", "application/json");
        UpstreamRequest interrupt = new UpstreamRequest(HttpMethod.POST,
                ImageServerUrls.withPath(base, "/sdapi/v1/interrupt"), ImageServerUrls.basicAuth(body), null);
        return isForge(body).thenCompose(forge -> calls.send(SERVICE, new UpstreamRequest(HttpMethod.POST,
                        ImageServerUrls.withPath(base, "/sdapi/v1/txt2img"), headers, forge ? asGiven : forNonForge),
                browser, () -> calls.fire(interrupt)))
                .thenApply(answer -> answer.body().getBytes());
    }

    private static Buffer withoutForgeModules(ObjectNode payload) {
        ObjectNode copy = payload.deepCopy();
        ((ObjectNode) copy.get("override_settings")).remove("forge_additional_modules");
        return Buffer.buffer(JsJson.compactBytes(copy));
    }

    /** Whether the server is Forge (its options have {@code forge_preset}); when they cannot be read, as if it were. */
    private CompletionStage<Boolean> isForge(JsonNode body) {
        return json(body, "/sdapi/v1/options").thenApply(options -> options.has("forge_preset"))
                .exceptionally(unreadable -> true);
    }

    private CompletionStage<UpstreamClient.Fetched> get(JsonNode body, String path) {
        return calls.send(SERVICE, UpstreamRequest.get(ImageServerUrls.withPath(ImageServerUrls.base(body), path),
                ImageServerUrls.basicAuth(body)));
    }

    private CompletionStage<JsonNode> json(JsonNode body, String path) {
        return calls.json(SERVICE, UpstreamRequest.get(ImageServerUrls.withPath(ImageServerUrls.base(body), path),
                ImageServerUrls.basicAuth(body)));
    }

    /** A field of every item of a list the server answers. */
    private CompletionStage<List<String>> names(JsonNode body, String path, String field) {
        return json(body, path).thenApply(list -> field(list, field));
    }

    private static List<String> field(JsonNode list, String field) {
        if (!list.isArray()) {
            throw Refusal.failed(SERVICE + " answered something that is not a list");
        }
        return StreamSupport.stream(list.spliterator(), false)
                .map(item -> item.path(field).asText(null)).toList();
    }

    /** The list with {@code inserted} after its first item ("None"). */
    private static ArrayNode afterFirst(List<String> names, List<String> inserted) {
        ArrayNode out = toArray(names.subList(0, Math.min(1, names.size())));
        inserted.forEach(out::add);
        names.stream().skip(1).forEach(out::add);
        return out;
    }

    private static ArrayNode toArray(List<String> names) {
        ArrayNode out = JsJson.array();
        names.forEach(out::add);
        return out;
    }
}
