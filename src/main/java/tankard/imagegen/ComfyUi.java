package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * A ComfyUI server at the user's {@code url}: its node choices from {@code /object_info}, and a workflow run to
 * its first image (ST: src/endpoints/stable-diffusion.js, the {@code comfy} router). Workflow files are
 * {@link tankard.comfy.ComfyWorkflowFeature}'s.
 */
public final class ComfyUi {
    static final String SERVICE = "ComfyUI";
    /** How often the history is asked whether the run has finished, as ST does. */
    private static final long POLL_MILLIS = 100;

    private final ImageCalls calls;

    ComfyUi(ImageCalls calls) {
        this.calls = calls;
    }

    /** Succeeds when the system stats can be read. */
    public CompletionStage<Void> ping(JsonNode body) {
        return calls.send(SERVICE, get(ImageServerUrls.joined(ImageServerUrls.base(body), "/system_stats")))
                .thenApply(answer -> null);
    }

    public CompletionStage<JsonNode> samplers(JsonNode body) {
        return objectInfo(body).thenApply(info -> choices(info, "KSampler", "sampler_name", true));
    }

    public CompletionStage<JsonNode> schedulers(JsonNode body) {
        return objectInfo(body).thenApply(info -> choices(info, "KSampler", "scheduler", true));
    }

    public CompletionStage<JsonNode> vaes(JsonNode body) {
        return objectInfo(body).thenApply(info -> choices(info, "VAELoader", "vae_name", true));
    }

    /**
     * Checkpoints, UNets and (with the GGUF loader installed) GGUF UNets as {@code [{value, text}]}, the text
     * without the file's extension and with spaces for underscores.
     */
    public CompletionStage<ArrayNode> models(JsonNode body) {
        return objectInfo(body).thenApply(info -> {
            ArrayNode models = JsJson.array();
            addModels(models, choices(info, "CheckpointLoaderSimple", "ckpt_name", false), "");
            addModels(models, choices(info, "UNETLoader", "unet_name", false), "UNet: ");
            addModels(models, choices(info, "UnetLoaderGGUF", "unet_name", false), "GGUF: ");
            return models;
        });
    }

    private static void addModels(ArrayNode models, ArrayNode names, String label) {
        names.forEach(name -> models.addObject().put("value", name.asText())
                .put("text", (label + name.asText()).replaceFirst("\\.[^.]*$", "").replace('_', ' ')));
    }

    /**
     * Queues the body's {@code prompt} (the text of {@code {"prompt": workflow}}), waits for the run in the
     * history, and answers its first image (or animation) as the JSON {@code {format, data}}, data base64. When the
     * browser leaves before the run has finished, ComfyUI is told to interrupt it and the waiting stops.
     */
    public CompletionStage<byte[]> generate(JsonNode body, HttpServerResponse browser) {
        URI base = ImageServerUrls.base(body);
        JsonNode prompt = body.get("prompt");
        if (prompt == null || !prompt.isTextual()) {
            throw Refusal.badRequest("prompt must be the workflow request, as a JSON string");
        }
        Run run = new Run(base, ImageServerUrls.basicAuth(body));
        browser.closeHandler(v -> run.browserLeft());
        if (browser.closed()) {
            run.browserLeft();
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "text/plain;charset=UTF-8");
        return calls.send(SERVICE, new UpstreamRequest(HttpMethod.POST, ImageServerUrls.joined(base, "/prompt"), headers,
                        Buffer.buffer(prompt.textValue())))
                .thenCompose(queued -> run.finished(promptId(queued)))
                .thenApply(ComfyUi::firstImage)
                .thenCompose(image -> calls.send(SERVICE, get(viewUrl(base, image)))
                        .thenCompose(file -> calls.onWorker(() -> imageJson(format(image), file.body()))));
    }

    /** One queued run: the wait for its history entry, and the interrupt if the browser leaves first. */
    private final class Run {
        private final URI base;
        private final MultiMap auth;
        private final AtomicBoolean finished = new AtomicBoolean();
        private final AtomicBoolean browserGone = new AtomicBoolean();

        Run(URI base, MultiMap auth) {
            this.base = base;
            this.auth = auth;
        }

        void browserLeft() {
            if (browserGone.compareAndSet(false, true) && !finished.get()) {
                calls.fire(new UpstreamRequest(HttpMethod.POST, ImageServerUrls.joined(base, "/interrupt"), auth, null));
            }
        }

        /** The run's history entry once it is there. */
        CompletionStage<JsonNode> finished(String promptId) {
            String url = ImageServerUrls.joined(base, "/history/" + encoded(promptId));
            return calls.poll(SERVICE, n -> n == 0 ? 0 : POLL_MILLIS, Integer.MAX_VALUE, browserGone::get,
                    () -> calls.json(SERVICE, get(url)).thenApply(history -> {
                        Optional<JsonNode> item = Optional.ofNullable(history.get(promptId)).filter(it -> !it.isNull());
                        item.ifPresent(it -> finished.set(true));
                        return item;
                    }));
        }
    }

    private static String promptId(UpstreamClient.Fetched queued) {
        String id = ServiceCalls.json(SERVICE, queued).path("prompt_id").asText("");
        if (id.isEmpty()) {
            throw Refusal.failed(SERVICE + " queued the workflow without a prompt_id");
        }
        return id;
    }

    /** The first image of the run's outputs, else its first animation; a failed run fails with the nodes' errors. */
    private static JsonNode firstImage(JsonNode item) {
        if ("error".equals(item.path("status").path("status_str").asText())) {
            String errors = StreamSupport.stream(item.path("status").path("messages").spliterator(), false)
                    .filter(message -> "execution_error".equals(message.path(0).asText()))
                    .map(message -> message.path(1))
                    .map(e -> e.path("node_type").asText() + " [" + e.path("node_id").asText() + "] "
                            + e.path("exception_type").asText() + ": " + e.path("exception_message").asText())
                    .collect(Collectors.joining("\n"));
            throw Refusal.failed((SERVICE + " generation did not succeed.\n\n" + errors).trim());
        }
        for (String kind : List.of("images", "gifs")) {
            for (JsonNode output : item.path("outputs")) {
                JsonNode first = output.path(kind).path(0);
                if (first.isObject()) {
                    return first;
                }
            }
        }
        throw Refusal.failed(SERVICE + " did not return any recognizable outputs.");
    }

    private static String viewUrl(URI base, JsonNode image) {
        return ImageServerUrls.joined(base, "/view") + "?filename=" + encoded(image.path("filename").asText())
                + "&subfolder=" + encoded(image.path("subfolder").asText()) + "&type=" + encoded(image.path("type").asText());
    }

    /** The file's extension, lower case; png when it has none. */
    private static String format(JsonNode image) {
        String name = image.path("filename").asText();
        int dot = name.lastIndexOf('.');
        String extension = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return extension.isEmpty() || extension.contains("/") ? "png" : extension;
    }

    /** {@code {"format": ..., "data": base64}} written straight out: the image may be tens of MB. */
    private static byte[] imageJson(String format, Buffer image) {
        StringBuilder head = new StringBuilder("{\"format\":");
        JsJson.quote(format, head);
        head.append(",\"data\":\"");
        ByteArrayOutputStream out = new ByteArrayOutputStream(image.length() * 4 / 3 + head.length() + 8);
        out.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        out.writeBytes(Base64.getEncoder().encode(image.getBytes()));
        out.writeBytes("\"}".getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** object_info describes every node installed; with many custom nodes it runs to tens of MB. */
    private CompletionStage<JsonNode> objectInfo(JsonNode body) {
        return calls.json(SERVICE, get(ImageServerUrls.joined(ImageServerUrls.base(body), "/object_info")));
    }

    /**
     * The choices of a node's required input: {@code [[choices], {...}]}, or newer ComfyUI's
     * {@code ["COMBO", {"options": [choices]}]}; empty (or a failure when {@code required}) when the node is not there.
     */
    private static ArrayNode choices(JsonNode info, String node, String input, boolean required) {
        JsonNode spec = info.path(node).path("input").path("required").path(input);
        JsonNode list = spec.path(0).isArray() ? spec.path(0) : spec.path(1).path("options");
        if (list.isArray()) {
            return (ArrayNode) list;
        }
        if (required) {
            throw Refusal.failed(SERVICE + " lists no choices of " + node + "'s " + input + " (is the node installed?)");
        }
        return JsJson.array();
    }

    private static UpstreamRequest get(String url) {
        return UpstreamRequest.get(url, MultiMap.caseInsensitiveMultiMap());
    }

    private static String encoded(String value) {
        return Urls.encodeUriComponent(value);
    }
}
