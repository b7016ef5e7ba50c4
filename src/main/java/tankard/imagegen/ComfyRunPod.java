package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A ComfyUI worker on a RunPod serverless endpoint at the user's {@code url}, with the RunPod key (ST:
 * src/endpoints/stable-diffusion.js, the comfyRunPod router).
 */
public final class ComfyRunPod {
    static final String SERVICE = "ComfyUI RunPod";
    /** How often the job's status is asked, as ST does. */
    private static final long POLL_MILLIS = 500;
    /** RunPod's job states that will not turn into an output. */
    private static final Set<String> ENDED_WITHOUT_OUTPUT = Set.of("FAILED", "CANCELLED", "TIMED_OUT");

    private final ImageCalls calls;

    ComfyRunPod(ImageCalls calls) {
        this.calls = calls;
    }

    /** Succeeds when the endpoint's health can be read. */
    public CompletionStage<Void> ping(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.COMFY_RUNPOD, SERVICE);
        return calls.send(SERVICE, UpstreamRequest.get(ImageServerUrls.joined(ImageServerUrls.base(body), "/health"),
                ImageCalls.bearer(key))).thenApply(answer -> null);
    }

    /**
     * Runs the workflow of the body's {@code prompt} (the text of {@code {"prompt": workflow}}; a workflow already
     * in RunPod's {@code {input: {workflow}}} is sent as it is) and answers the first image as {@code {format, data}}.
     * When the browser leaves first, the job is cancelled and the polling stops.
     */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body, HttpServerResponse browser) {
        String key = calls.key(user, SecretKeys.COMFY_RUNPOD, SERVICE);
        URI base = ImageServerUrls.base(body);
        JsonNode prompt = body.get("prompt");
        JsonNode request = prompt != null && prompt.isTextual() ? JsJson.tryParse(prompt.textValue().getBytes(
                StandardCharsets.UTF_8)) : null;
        if (request == null || !request.path("prompt").isObject()) {
            throw Refusal.badRequest("prompt must be the workflow request, a JSON string of {\"prompt\": workflow}");
        }
        JsonNode workflow = request.get("prompt");
        JsonNode job = workflow.path("input").hasNonNull("workflow") ? workflow
                : JsJson.object().set("input", JsJson.object().set("workflow", workflow));
        MultiMap headers = ImageCalls.bearer(key).add("Content-Type", "application/json");
        return calls.json(SERVICE, UpstreamRequest.post(ImageServerUrls.joined(base, "/run"), headers, job))
                .thenCompose(queued -> {
                    String id = queued.path("id").asText("");
                    if (id.isEmpty()) {
                        throw Refusal.failed(SERVICE + " queued the job without an id");
                    }
                    return new Job(base, key, id, browser).image();
                })
                .thenApply(image -> {
                    String name = image.path("filename").asText("");
                    int dot = name.lastIndexOf('.');
                    String format = dot < 0 || dot == name.length() - 1 ? "png" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
                    ObjectNode out = JsJson.object().put("format", format);
                    out.set("data", image.get("data"));
                    return out;
                });
    }

    /** One queued job: polled until it has an image, cancelled if the browser leaves first. */
    private final class Job {
        private final URI base;
        private final String key;
        private final String id;
        private final AtomicBoolean finished = new AtomicBoolean();
        private final AtomicBoolean browserGone = new AtomicBoolean();

        Job(URI base, String key, String id, HttpServerResponse browser) {
            this.base = base;
            this.key = key;
            this.id = id;
            browser.closeHandler(v -> browserLeft());
            if (browser.closed()) {
                browserLeft();
            }
        }

        private void browserLeft() {
            if (browserGone.compareAndSet(false, true) && !finished.get()) {
                calls.fire(new UpstreamRequest(HttpMethod.POST, ImageServerUrls.joined(base, "/cancel/" + encoded()),
                        ImageCalls.bearer(key), null));
            }
        }

        CompletionStage<JsonNode> image() {
            UpstreamRequest status = UpstreamRequest.get(ImageServerUrls.joined(base, "/status/" + encoded()), ImageCalls.bearer(key));
            return calls.poll(SERVICE, n -> n == 0 ? 0 : POLL_MILLIS, Integer.MAX_VALUE, browserGone::get,
                    () -> calls.json(SERVICE, status).thenApply(answer -> {
                        JsonNode first = answer.path("output").path("images").path(0);
                        String state = answer.path("status").asText();
                        if (ENDED_WITHOUT_OUTPUT.contains(state)) {
                            finished.set(true);
                            throw Refusal.failed(SERVICE + " job " + state + ": " + JsJson.compact(answer.path("error")));
                        }
                        Optional<JsonNode> image = Optional.of(first).filter(JsonNode::isObject);
                        image.ifPresent(it -> finished.set(true));
                        return image;
                    }));
        }

        private String encoded() {
            return Urls.encodeUriComponent(id);
        }
    }
}
