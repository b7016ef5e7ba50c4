package tankard.backend.openrouter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import tankard.backend.common.AttributionHeaders;
import tankard.backend.common.UpstreamJson;
import tankard.backend.common.Urls;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;
import tankard.util.JsLocale;
import tankard.util.MimeTypes;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenRouter's own API beside chat completions (ST's src/endpoints/openrouter.js): a model's providers, the model
 * lists by modality, the user's credits, and image generation through its chat endpoint. Blocking parts (the key
 * from disk) run on the caller's worker; the calls themselves hold no thread.
 */
public final class OpenRouterService {
    static final String API = "https://openrouter.ai/api/v1";
    private static final String NAME = "OpenRouter";
    private static final Pattern DATA_URL = Pattern.compile("^data:(.*);base64,(.*)$");

    private final SecretStore secrets;
    private final UpstreamJson upstream;

    public OpenRouterService(SecretStore secrets, UpstreamJson upstream) {
        this.secrets = secrets;
        this.upstream = upstream;
    }

    /** A model list ST offers: the models taking {@code input} and giving {@code output}, each as {@code shape}. */
    enum ModelList {
        MULTIMODAL("image", "text", m -> m.get("id")),
        EMBEDDING("text", "embeddings", m -> idAnd(m, "id", "name", m.get("name"))),
        IMAGE("text", "image", m -> idAnd(m, "value", "text", Js.truthy(m.get("name")) ? m.get("name") : m.get("id")));

        final String input;
        final String output;
        final Function<JsonNode, JsonNode> shape;

        ModelList(String input, String output, Function<JsonNode, JsonNode> shape) {
            this.input = input;
            this.output = output;
            this.shape = shape;
        }

        /** The model's id under {@code idName} and {@code label} under {@code labelName}, each left out when absent. */
        private static JsonNode idAnd(JsonNode model, String idName, String labelName, JsonNode label) {
            ObjectNode shaped = JsJson.object();
            if (model.get("id") != null) {
                shaped.set(idName, model.get("id"));
            }
            if (label != null) {
                shaped.set(labelName, label);
            }
            return shaped;
        }
    }

    /** {@code /models/providers}: the provider names serving {@code body.model}; [] when OpenRouter says no. */
    Future<JsonNode> providers(JsonNode body) {
        String url = API + "/models/" + modelPath(body.get("model")) + "/endpoints";
        return upstream.call(UpstreamRequest.get(url, accept()), NAME).map(answer -> {
            ArrayNode names = JsJson.array();
            if (answer.ok() && answer.json() != null) {
                JsonNode endpoints = answer.json().path("data").path("endpoints");
                for (JsonNode endpoint : endpoints.isArray() ? endpoints : JsJson.array()) {
                    names.add(endpoint.get("provider_name")); // absent: null, as JSON.stringify writes undefined
                }
            }
            return names;
        });
    }

    /**
     * A model id as path segments, each encoded: its slashes stay (OpenRouter's ids are {@code author/slug}) but
     * nothing in it can leave the model's path or add a query.
     */
    static String modelPath(JsonNode model) {
        if (model == null || !model.isTextual() || model.textValue().isEmpty()) {
            throw Refusal.badRequest("A model is required");
        }
        List<String> segments = new ArrayList<>();
        for (String segment : model.textValue().split("/", -1)) {
            if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
                throw Refusal.badRequest("Not an OpenRouter model id: " + model.textValue());
            }
            segments.add(Urls.encodeUriComponent(segment));
        }
        return String.join("/", segments);
    }

    /** The {@code list}'s models sorted by id, each in the list's shape; [] when OpenRouter's answer is not a list. */
    Future<JsonNode> models(ModelList list) {
        String url = API + "/models?output_modalities=" + Urls.encodeUriComponent(list.output);
        return upstream.call(UpstreamRequest.get(url, accept()), NAME).map(answer -> {
            JsonNode data = answer.ok() && answer.json() != null ? answer.json().path("data") : null;
            ArrayNode shaped = JsJson.array();
            if (data == null || !data.isArray()) {
                return shaped;
            }
            List<JsonNode> named = new ArrayList<>();
            List<JsonNode> unnamed = new ArrayList<>();
            for (JsonNode model : data) {
                if (offers(model, "input_modalities", list.input) && offers(model, "output_modalities", list.output)) {
                    (model.path("id").isTextual() && !model.path("id").textValue().isEmpty() ? named : unnamed).add(model);
                }
            }
            // ST's sort leaves models without an id in place; here they follow the sorted ones
            named.sort((a, b) -> JsLocale.compare(a.get("id").textValue(), b.get("id").textValue()));
            named.forEach(model -> shaped.add(list.shape.apply(model)));
            unnamed.forEach(model -> shaped.add(list.shape.apply(model)));
            return shaped;
        });
    }

    private static boolean offers(JsonNode model, String modalities, String modality) {
        JsonNode listed = model.path("architecture").path(modalities);
        if (!listed.isArray()) {
            return false;
        }
        for (JsonNode item : listed) {
            if (item.isTextual() && item.textValue().equals(modality)) {
                return true;
            }
        }
        return false;
    }

    /** {@code /credits}: what is left of the user's credits. Blocking (the key). */
    Future<JsonNode> credits(String user) {
        MultiMap headers = accept().set("Authorization", "Bearer " + key(user));
        return upstream.call(UpstreamRequest.get(API + "/credits", headers), NAME).map(answer -> {
            if (!answer.ok() || answer.json() == null) {
                throw Refusal.upstream("OpenRouter's credits request failed with status " + answer.status());
            }
            JsonNode data = answer.json().path("data");
            JsonNode total = orZero(data.get("total_credits"));
            JsonNode usage = orZero(data.get("total_usage"));
            JsonNode remaining = difference(total, usage);
            ObjectNode credits = JsJson.object();
            credits.set("remaining", remaining);
            credits.set("total_credits", total);
            credits.set("total_usage", usage);
            return credits;
        });
    }

    /** {@code x ?? 0}. */
    private static JsonNode orZero(JsonNode value) {
        return value == null || value.isNull() ? JsJson.tree(0) : value;
    }

    /** JavaScript's {@code a - b}: NaN (null in JSON) when either is not a number. */
    private static JsonNode difference(JsonNode a, JsonNode b) {
        JsonNode x = Js.number(a);
        JsonNode y = Js.number(b);
        if (x == null || y == null) {
            return JsJson.object().nullNode();
        }
        return JsJson.parse(JsJson.jsNumber(x.doubleValue() - y.doubleValue()));
    }

    /** {@code /image/generate}: the model's first image for the prompt, as its file extension and base64 data. Blocking (the key). */
    Future<JsonNode> generateImage(String user, JsonNode body) {
        String key = key(user);
        if (!Js.truthy(body.get("model")) || !Js.truthy(body.get("prompt"))) {
            throw Refusal.badRequest("Model and prompt are required");
        }
        ObjectNode call = JsJson.object();
        call.set("model", body.get("model"));
        call.putArray("messages").addObject().put("role", "user").set("content", body.get("prompt"));
        call.putArray("modalities").add("image");
        call.putObject("image_config").set("aspect_ratio",
                Js.truthy(body.get("aspect_ratio")) ? body.get("aspect_ratio") : JsJson.tree("1:1"));
        MultiMap headers = AttributionHeaders.addTo(MultiMap.caseInsensitiveMultiMap())
                .set("Content-Type", "application/json").set("Authorization", "Bearer " + key);
        return upstream.call(UpstreamRequest.post(API + "/chat/completions", headers, call), NAME).map(answer -> {
            if (!answer.ok() || answer.json() == null) {
                throw Refusal.upstream("OpenRouter's image generation failed with status " + answer.status());
            }
            JsonNode url = answer.json().path("choices").path(0).path("message").path("images").path(0)
                    .path("image_url").path("url");
            Matcher image = url.isTextual() ? DATA_URL.matcher(url.textValue()) : null;
            if (image == null || !image.matches() || image.group(1).isEmpty() || image.group(2).isEmpty()) {
                throw Refusal.upstream("OpenRouter's answer has no image");
            }
            return JsJson.object().put("format", extension(image.group(1))).put("image", image.group(2));
        });
    }

    /** mime-types' {@code extension} for the image types a model returns; "png" for any other, as ST's fallback. */
    private static String extension(String mimeType) {
        String extension = MimeTypes.imageExtension(mimeType);
        return extension == null ? "png" : extension;
    }

    private String key(String user) {
        String key = secrets.read(user, SecretKeys.OPENROUTER);
        if (key.isEmpty()) {
            throw Refusal.badRequest("OpenRouter API key not found");
        }
        return key;
    }

    private static MultiMap accept() {
        return MultiMap.caseInsensitiveMultiMap().set("Accept", "application/json");
    }
}
