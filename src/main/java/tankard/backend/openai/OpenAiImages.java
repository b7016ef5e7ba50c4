package tankard.backend.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import tankard.backend.common.Urls;
import tankard.backend.common.JsonFields;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;

/**
 * OpenAI's image and video generation for ST's Image Generation extension (ST: src/endpoints/openai.js,
 * /generate-image and /generate-video). A video is a job, polled until it is done, its MP4 then fetched.
 */
public final class OpenAiImages {
    private static final String SERVICE = "OpenAI";
    private static final String API = "https://api.openai.com/v1";
    /** ST's polls: 30, the first after 5 s, each a second later than the one before. */
    private static final int POLLS = 30;
    private static final long FIRST_POLL_MS = 5_000;
    private static final long POLL_STEP_MS = 1_000;
    /** A generated video runs to a few MB; what is larger is not read. */
    private static final long MAX_VIDEO_BYTES = 100L << 20;

    private final SecretStore secrets;
    private final ServiceCalls calls;
    private final Vertx vertx;

    public OpenAiImages(SecretStore secrets, ServiceCalls calls, Vertx vertx) {
        this.secrets = secrets;
        this.calls = calls;
        this.vertx = vertx;
    }

    /** The body as OpenAI's images request → its answer as it came. */
    public CompletionStage<JsonNode> image(String user, JsonNode body) {
        MultiMap headers = json(headers(key(user)));
        return calls.send(SERVICE, UpstreamRequest.post(API + "/images/generations", headers, body))
                .thenApply(answer -> ServiceCalls.json(SERVICE, answer));
    }

    /**
     * {@code {prompt, model?, size?, seconds?}} → {@code {format: "mp4", data: base64}}; the polling stops when
     * {@code gone} says the browser has left.
     */
    public CompletionStage<JsonNode> video(String user, JsonNode body, BooleanSupplier gone) {
        String key = key(user);
        ObjectNode job = JsJson.object();
        JsonFields.copy(body, job, "prompt");
        job.set("model", orDefault(body.get("model"), "sora-2"));
        job.set("size", orDefault(body.get("size"), "720x1280"));
        job.set("seconds", orDefault(body.get("seconds"), "8"));
        return calls.send(SERVICE, UpstreamRequest.post(API + "/videos", json(headers(key)), job)).thenCompose(answer -> {
            JsonNode id = ServiceCalls.json(SERVICE, answer).get("id");
            if (!Js.truthy(id)) {
                throw Refusal.failed("No video job ID returned");
            }
            return poll(key, Js.string(id), 0, gone);
        });
    }

    private CompletionStage<JsonNode> poll(String key, String id, int attempt, BooleanSupplier gone) {
        if (attempt == POLLS) {
            throw Refusal.failed("Video generation did not finish after " + POLLS + " checks");
        }
        if (gone.getAsBoolean()) {
            throw Refusal.failed("Video generation aborted by client");
        }
        String job = API + "/videos/" + Urls.encodeUriComponent(id);
        return later(FIRST_POLL_MS + attempt * POLL_STEP_MS)
                .thenCompose(v -> calls.send(SERVICE, UpstreamRequest.get(job, headers(key))))
                .thenCompose(answer -> {
                    String status = Js.string(ServiceCalls.json(SERVICE, answer).get("status"));
                    if ("failed".equals(status)) {
                        throw Refusal.failed("Video generation failed");
                    }
                    if (!"completed".equals(status)) {
                        return poll(key, id, attempt + 1, gone);
                    }
                    return calls.send(SERVICE, UpstreamRequest.get(job + "/content", headers(key)), MAX_VIDEO_BYTES)
                            .thenCompose(video -> vertx.executeBlocking(() -> (JsonNode) JsJson.object()
                                    .put("format", "mp4")
                                    .put("data", Base64.getEncoder().encodeToString(video.body().getBytes())), false)
                                    .toCompletionStage());
                });
    }

    private CompletionStage<Void> later(long ms) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        vertx.setTimer(ms, timer -> done.complete(null));
        return done;
    }

    private String key(String user) {
        return Keys.required(secrets, user, SecretKeys.OPENAI, SERVICE);
    }

    private static MultiMap headers(String key) {
        return MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + key);
    }

    private static MultiMap json(MultiMap headers) {
        return headers.add("Content-Type", "application/json");
    }

    /** JavaScript's {@code value || fallback}. */
    private static JsonNode orDefault(JsonNode value, String fallback) {
        return Js.truthy(value) ? value : JsJson.tree(fallback);
    }
}
