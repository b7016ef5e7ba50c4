package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.backend.common.SecretReader;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * Cohere's v2 chat API (ST's sendCohereRequest, src/endpoints/backends/chat-completions.js): messages with names
 * folded into the text, Cohere's own stream relayed as is, its answer returned as it came; the v1 model list for
 * status.
 */
final class CohereSource implements ChatCompletionSource {
    static final String SECRET = "api_key_cohere";
    static final String API = "https://api.cohere.ai";

    private final String placeholder;

    /** @param placeholder config promptPlaceholder, the turn sent for an empty prompt */
    CohereSource(String placeholder) {
        this.placeholder = placeholder;
    }

    @Override
    public String id() {
        return "cohere";
    }

    @Override
    public SourceStep generate(ObjectNode body, SecretReader secrets) {
        String key = DedicatedSenders.secret(body, secrets, SECRET);
        if (key.isEmpty()) {
            return SourceStep.badRequest();
        }
        return DedicatedSenders.guarded(this, () -> call(body, key));
    }

    private UpstreamRequest call(ObjectNode body, String key) {
        ObjectNode out = JsJson.object().put("stream", Js.truthy(body.get("stream")));
        DedicatedSenders.copy(body, "model", out, "model");
        out.set("messages", convert(body.path("messages"), PromptNames.of(body), placeholder));
        DedicatedSenders.copy(body, "temperature", out, "temperature");
        DedicatedSenders.copy(body, "max_tokens", out, "max_tokens");
        DedicatedSenders.copy(body, "top_k", out, "k");
        DedicatedSenders.copy(body, "top_p", out, "p");
        DedicatedSenders.copy(body, "seed", out, "seed");
        DedicatedSenders.copy(body, "stop", out, "stop_sequences");
        DedicatedSenders.copy(body, "frequency_penalty", out, "frequency_penalty");
        DedicatedSenders.copy(body, "presence_penalty", out, "presence_penalty");
        out.putArray("documents");
        ArrayNode tools = out.putArray("tools");
        JsonNode given = body.path("tools");
        if (given.isArray()) {
            given.forEach(tool -> {
                JsonNode copy = tool.deepCopy();
                JsonNode parameters = copy.path("function").path("parameters");
                if (parameters.isObject() && Js.truthy(parameters.get("$schema"))) {
                    ((ObjectNode) parameters).remove("$schema");
                }
                tools.add(copy);
            });
        }
        if (Js.string(body.get("model")).endsWith("08-2024")) {
            out.put("safety_mode", "OFF");
        }
        JsonNode schema = body.get("json_schema");
        if (Js.truthy(schema)) {
            ObjectNode format = out.putObject("response_format").put("type", "json_schema");
            DedicatedSenders.copy(schema, "value", format, "schema");
        }
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .set("Content-Type", "application/json")
                .set("Authorization", "Bearer " + key);
        return UpstreamRequest.post(API + "/v2/chat", headers, out);
    }

    /**
     * ST's convertCohereMessages (src/prompt-converters.js): a placeholder turn for an empty prompt; a tool-calling
     * turn takes the assistant text before it (or says which tools it calls); names folded into the text.
     */
    static ArrayNode convert(JsonNode input, PromptNames names, String placeholder) {
        List<ObjectNode> messages = new ArrayList<>();
        input.forEach(message -> messages.add((ObjectNode) message.deepCopy()));
        if (messages.isEmpty()) {
            messages.add(JsJson.object().put("role", "user").put("content", placeholder));
        }
        // ST splices while iterating, so the message after a merged one is skipped; kept as is
        for (int index = 0; index < messages.size(); index++) {
            ObjectNode message = messages.get(index);
            JsonNode toolCalls = message.get("tool_calls");
            if (toolCalls != null && toolCalls.isArray()) {
                if (index > 0 && "assistant".equals(Js.string(messages.get(index - 1).get("role")))) {
                    copyContent(messages.get(index - 1), message);
                    messages.remove(index - 1);
                } else {
                    List<String> called = new ArrayList<>();
                    toolCalls.forEach(call -> {
                        JsonNode name = call.path("function").get("name");
                        called.add(name == null || name.isNull() ? "" : Js.string(name));
                    });
                    message.put("content", "I'm going to call a tool for that: " + String.join(", ", called));
                }
            }
            JsonNode name = message.get("name");
            if (Js.truthy(name)) {
                String speaker = Js.string(name);
                boolean system = "system".equals(Js.string(message.get("role")));
                if (system) {
                    names.prefixExample(message);
                } else {
                    String content = Js.string(message.get("content"));
                    if (!content.startsWith(speaker + ": ")) {
                        message.put("content", speaker + ": " + content);
                    }
                }
                message.remove("name");
            }
        }
        ArrayNode out = JsJson.array();
        messages.forEach(out::add);
        return out;
    }

    private static void copyContent(ObjectNode from, ObjectNode to) {
        if (from.has("content")) {
            to.set("content", from.get("content"));
        } else {
            to.remove("content");
        }
    }

    @Override
    public SourceStep models(ObjectNode body, SecretReader secrets) {
        String key = DedicatedSenders.secret(body, secrets, SECRET);
        return key.isEmpty() ? SourceStep.badRequest()
                : new SourceStep.Call(OpenAiCompatible.models(API + "/v1", key, MultiMap.caseInsensitiveMultiMap()));
    }

    @Override
    public JsonAnswer completion(UpstreamClient.Fetched answer) {
        JsonNode json = JsJson.tryParse(answer.body().getBytes());
        if (!answer.ok()) {
            return new JsonAnswer(500, json == null || json.isNull() ? JsonAnswer.errorTrue() : json);
        }
        return json == null ? failure(null) : JsonAnswer.ok(json);
    }

    @Override
    public JsonAnswer failure(Throwable failure) {
        return JsonAnswer.ok(JsonAnswer.errorTrue());
    }
}
