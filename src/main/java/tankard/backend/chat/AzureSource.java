package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import tankard.backend.common.SecretReader;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;
import tankard.secrets.SecretKeys;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Azure OpenAI (ST's sendAzureOpenAIRequest and its branch of the {@code /status} route,
 * src/endpoints/backends/chat-completions.js): the user's resource and deployment, the key in {@code api-key}, only
 * the fields Azure knows, and Azure's own error shapes.
 */
final class AzureSource implements ChatCompletionSource {
    /** The frontend fields sent as they are (ST's AZURE_OPENAI_KEYS). */
    private static final List<String> FIELDS = List.of("messages", "temperature", "frequency_penalty",
            "presence_penalty", "top_p", "max_tokens", "max_completion_tokens", "stream", "logit_bias", "stop", "n",
            "logprobs", "seed", "tools", "tool_choice", "reasoning_effort");
    private static final Map<Integer, String> STATUS_HINTS = Map.of(
            400, "API version may be invalid for this resource.",
            401, "Invalid API key or insufficient permissions.",
            403, "Invalid API key or insufficient permissions.",
            404, "Endpoint URL appears incorrect (404).");
    /** The completion that asks the deployment for its model. */
    private static final String PROBE = "{\"messages\":[{\"role\":\"user\",\"content\":\"Say word Hi\"}],"
            + "\"stream\":false,\"max_completion_tokens\":5}";

    @Override
    public String id() {
        return "azure_openai";
    }

    @Override
    public SourceStep generate(ObjectNode body, SecretReader secrets) {
        String key = key(body, secrets);
        if (incomplete(body, key)) {
            return new SourceStep.Answered(new JsonAnswer(400, JsonAnswer.errorMessage("Azure OpenAI configuration is "
                    + "incomplete. Please provide Base URL, Deployment Name, API Version, and API Key in the "
                    + "connection settings.")));
        }
        ObjectNode out = JsJson.object();
        FIELDS.forEach(field -> OpenAiCompatible.copyIfPresent(body, field, out));
        OpenAiCompatible.jsonSchema(body, out, OpenAiCompatible.SchemaStyle.NAMED);
        JsonNode logprobs = out.get("logprobs");
        if (logprobs != null && logprobs.isNumber() && logprobs.doubleValue() > 0) {
            out.set("top_logprobs", logprobs);
            out.put("logprobs", true);
        }
        String model = Js.string(body.get("model"));
        JsonNode effort = OpenAiCompatible.REASONING_EFFORT_MODELS.contains(model)
                ? OpenAiCompatible.openAiReasoningEffort(model, body.get("reasoning_effort")) : null;
        if (effort == null) {
            out.remove("reasoning_effort");
        } else {
            out.set("reasoning_effort", effort);
        }
        String url = url(body, "/openai/deployments/" + Js.string(body.get("azure_deployment_name")) + "/chat/completions");
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("Content-Type", "application/json").set("api-key", key);
        return new SourceStep.Call(UpstreamRequest.post(url, headers, out));
    }

    /** The resource's model list, a key and version check before the deployment is probed in {@link #status}. */
    @Override
    public SourceStep models(ObjectNode body, SecretReader secrets) {
        String key = key(body, secrets);
        if (incomplete(body, key)) {
            return new SourceStep.Answered(new JsonAnswer(400, JsonAnswer.errorTrue()
                    .put("message", "Azure configuration is incomplete.")));
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("api-key", key).set("Accept", "application/json");
        return new SourceStep.Call(UpstreamRequest.get(url(body, "/openai/models"), headers));
    }

    /**
     * ST's Azure check: the model list must answer (else its status with a hint of what is wrong), then a tiny
     * completion of the deployment tells which model it runs.
     */
    @Override
    public Future<JsonAnswer> status(ObjectNode body, UpstreamRequest models, StatusCalls calls) {
        return calls.fetch(models).compose(list -> {
            if (!list.ok()) {
                int code = list.status();
                String reason = list.head().statusMessage();
                String message = STATUS_HINTS.getOrDefault(code, "Azure Models endpoint error: " + reason);
                return Future.succeededFuture(new JsonAnswer(code, JsonAnswer.errorTrue().put("message", message)));
            }
            String url = url(body, "/openai/deployments/" + Js.string(body.get("azure_deployment_name")) + "/chat/completions");
            MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("api-key", models.headers().get("api-key"))
                    .set("Content-Type", "application/json").set("Accept", "application/json");
            return calls.fetch(new UpstreamRequest(HttpMethod.POST, url, headers, Buffer.buffer(PROBE)))
                    .compose(probe -> calls.worker(() -> {
                        JsonNode answer = JsJson.tryParse(probe.body().getBytes());
                        JsonNode model = answer == null ? null : answer.get("model");
                        ArrayNode data = JsJson.array();
                        if (Js.truthy(model)) {
                            data.addObject().set("id", model);
                        }
                        return JsonAnswer.ok(JsJson.object().set("data", data));
                    }));
        }).otherwise(e -> new JsonAnswer(500, JsonAnswer.errorTrue()
                .put("message", "Failed to connect to the Azure endpoint.")));
    }

    @Override
    public JsonAnswer completion(UpstreamClient.Fetched answer) {
        return CompletionErrors.AZURE.completion(answer);
    }

    @Override
    public JsonAnswer failure(Throwable failure) {
        return CompletionErrors.AZURE.failure(failure);
    }

    private static String key(ObjectNode body, SecretReader secrets) {
        return DedicatedSenders.secret(body, secrets, SecretKeys.AZURE_OPENAI);
    }

    private static boolean incomplete(ObjectNode body, String key) {
        return key == null || key.isEmpty() || !Js.truthy(body.get("azure_base_url"))
                || !Js.truthy(body.get("azure_deployment_name")) || !Js.truthy(body.get("azure_api_version"));
    }

    /** {@code new URL(path, base)} with {@code api-version} set: the path replaces the base's own. */
    private static String url(ObjectNode body, String path) {
        String base = Js.string(body.get("azure_base_url"));
        String origin = base;
        try {
            URI uri = new URI(base);
            if (uri.getScheme() != null && uri.getRawAuthority() != null) {
                origin = uri.getScheme() + "://" + uri.getRawAuthority();
            }
        } catch (java.net.URISyntaxException e) {
            // called as is; the client reports the bad URL
        }
        return origin + path.replace(" ", "%20") + "?api-version="
                + URLEncoder.encode(Js.string(body.get("azure_api_version")), StandardCharsets.UTF_8);
    }
}
