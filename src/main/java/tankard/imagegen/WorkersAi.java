package tankard.imagegen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.ServiceCalls;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.util.Arrays;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/** Cloudflare Workers AI's text-to-image models (ST: src/endpoints/stable-diffusion.js, the workersai router). */
public final class WorkersAi {
    static final String SERVICE = "Cloudflare Workers AI";
    private static final String ACCOUNTS = "https://api.cloudflare.com/client/v4/accounts/";
    /** A model name such as {@code @cf/black-forest-labs/flux-1-schnell}: it goes into the path as it is. */
    private static final Pattern MODEL = Pattern.compile("@?[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");

    private final ImageCalls calls;

    WorkersAi(ImageCalls calls) {
        this.calls = calls;
    }

    /** The account's text-to-image models as {@code [{value: name, text: name}]}. */
    public CompletionStage<ArrayNode> models(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.WORKERS_AI, SERVICE);
        String url = account(body) + "/ai/models/search?task=Text-to-Image&per_page=1000";
        return calls.json(SERVICE, UpstreamRequest.get(url, ImageCalls.bearer(key))).thenApply(answer -> {
            if (!answer.path("success").asBoolean() || !answer.path("result").isArray()) {
                throw Refusal.failed(SERVICE + " answered without a model list");
            }
            return ImageCalls.options(answer.path("result"), model -> true, "name", "name");
        });
    }

    /**
     * The model run on the prompt and the settings given (a form for FLUX.2 models, JSON for the others); the image,
     * which comes raw or in a JSON answer, as {@code {format: "png", image: base64}}.
     */
    public CompletionStage<ObjectNode> generate(String user, JsonNode body) {
        String key = calls.key(user, SecretKeys.WORKERS_AI, SERVICE);
        String account = account(body);
        String model = Js.truthy(body.get("model")) ? Js.string(body.get("model")).strip() : "";
        if (model.isEmpty()) {
            throw Refusal.badRequest("model is required");
        }
        if (!MODEL.matcher(model).matches() || Arrays.stream(model.split("/")).anyMatch(p -> p.matches("@?\\.{1,2}"))) {
            throw Refusal.badRequest("model is not a Workers AI model name: " + model);
        }
        ObjectNode payload = JsJson.object();
        if (body.has("prompt")) {
            payload.set("prompt", body.get("prompt"));
        }
        if (Js.truthy(body.get("negative_prompt"))) {
            payload.set("negative_prompt", body.get("negative_prompt"));
        }
        number(body, "width", payload, "width");
        number(body, "height", payload, "height");
        number(body, "steps", payload, "num_steps");
        number(body, "scale", payload, "guidance");
        if (body.path("seed").isNumber() && body.path("seed").asDouble() >= 0) {
            payload.set("seed", body.get("seed"));
        }
        MultiMap headers = ImageCalls.bearer(key);
        Buffer sent;
        if (model.contains("flux-2")) {
            ImageCalls.Form form = ImageCalls.form(payload);
            headers.add("Content-Type", form.contentType());
            sent = form.body();
        } else {
            headers.add("Content-Type", "application/json");
            sent = Buffer.buffer(JsJson.compactBytes(payload));
        }
        return calls.send(SERVICE, new UpstreamRequest(HttpMethod.POST, account + "/ai/run/" + model, headers, sent))
                .thenCompose(answer -> {
                    String type = answer.contentType() == null ? "" : answer.contentType();
                    if (!type.contains("application/json")) {
                        return calls.base64(answer.body()); // the other models answer the image itself
                    }
                    return calls.onWorker(() -> {
                        JsonNode json = ServiceCalls.json(SERVICE, answer);
                        JsonNode image = Js.or(json.path("result").get("image"), json.get("image"));
                        if (!Js.truthy(image)) {
                            throw Refusal.failed(SERVICE + " answered JSON without an image");
                        }
                        return image.asText();
                    });
                })
                .thenApply(image -> JsJson.object().put("format", "png").put("image", image));
    }

    /** The account's API base; the body's {@code account_id} is required. */
    private static String account(JsonNode body) {
        String id = Js.truthy(body.get("account_id")) ? Js.string(body.get("account_id")).strip() : "";
        if (id.isEmpty()) {
            throw Refusal.badRequest("account_id is required");
        }
        return ACCOUNTS + Urls.encodeUriComponent(id);
    }

    /** A setting given (truthy) as JavaScript's {@code Number(value)}. */
    private static void number(JsonNode body, String field, ObjectNode payload, String as) {
        if (Js.truthy(body.get(field))) {
            JsonNode number = Js.number(body.get(field));
            payload.set(as, number == null ? JsJson.tree(null) : number);
        }
    }
}
