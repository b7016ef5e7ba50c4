package tankard.backend.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * ST's generic OpenAI-compatible path of {@code /generate} and {@code /status}
 * (src/endpoints/backends/chat-completions.js): the request body built from the frontend's fields plus a source's own
 * {@code bodyParams}, the endpoint, the headers, and the parameter helpers the dedicated OpenAI-shaped senders share.
 */
final class OpenAiCompatible {
    /** Models that take a prompt string on {@code /completions} instead of messages (ST's TEXT_COMPLETION_MODELS). */
    private static final Set<String> TEXT_COMPLETION_MODELS = Set.of("gpt-3.5-turbo-instruct",
            "gpt-3.5-turbo-instruct-0914", "text-davinci-003", "text-davinci-002", "text-davinci-001",
            "text-curie-001", "text-babbage-001", "text-ada-001", "code-davinci-002", "code-davinci-001",
            "code-cushman-002", "code-cushman-001", "text-davinci-edit-001", "code-davinci-edit-001",
            "text-embedding-ada-002", "text-similarity-davinci-001", "text-similarity-curie-001",
            "text-similarity-babbage-001", "text-similarity-ada-001", "text-search-davinci-doc-001",
            "text-search-curie-doc-001", "text-search-babbage-doc-001", "text-search-ada-doc-001",
            "code-search-babbage-code-001", "code-search-ada-code-001");
    /** OpenAI models that accept {@code reasoning_effort}. */
    static final Set<String> REASONING_EFFORT_MODELS = Set.of("o1", "o3-mini", "o3-mini-2025-01-31",
            "o4-mini", "o4-mini-2025-04-16", "o3", "o3-2025-04-16", "gpt-5", "gpt-5-2025-08-07", "gpt-5-mini",
            "gpt-5-mini-2025-08-07", "gpt-5-nano", "gpt-5-nano-2025-08-07", "gpt-5.1", "gpt-5.1-2025-11-13",
            "gpt-5.1-chat-latest", "gpt-5.2", "gpt-5.2-2025-12-11", "gpt-5.2-chat-latest", "gpt-5.3-chat-latest",
            "gpt-5.4", "gpt-5.4-2026-03-05", "gpt-5.4-mini", "gpt-5.4-mini-2026-03-17", "gpt-5.4-nano",
            "gpt-5.4-nano-2026-03-17", "gpt-5.5", "gpt-5.5-2026-04-23");
    private static final Map<String, String> FIXED_REASONING_EFFORT = Map.of("gpt-5.3-chat-latest", "medium");
    private static final Map<String, String> REASONING_EFFORT_NAMES = Map.of("min", "minimal");
    private static final Pattern VERBOSITY_MODELS = Pattern.compile("^gpt-5");
    /** The frontend fields copied into the upstream body when present, in ST's order. */
    private static final List<String> COPIED_FIELDS = List.of("model", "temperature", "max_tokens",
            "max_completion_tokens", "stream", "presence_penalty", "frequency_penalty", "top_p", "top_k");

    static final String OPENAI = "openai";
    static final String CUSTOM = "custom";

    private OpenAiCompatible() {
    }

    static boolean isTextCompletion(ObjectNode body) {
        JsonNode model = body.get("model");
        return Js.truthy(model) && model.isTextual() && TEXT_COMPLETION_MODELS.contains(model.textValue())
                || body.path("messages").isTextual();
    }

    /** The {@code logprobs}/{@code top_logprobs} pair as OpenAI's chat API wants it. */
    static ObjectNode logprobParams(ObjectNode body, boolean textCompletion) {
        ObjectNode params = JsJson.object();
        copyIfPresent(body, "logprobs", params);
        JsonNode logprobs = body.get("logprobs");
        if (!textCompletion && logprobs != null && logprobs.isNumber() && logprobs.doubleValue() > 0) {
            params.set("top_logprobs", logprobs);
            params.put("logprobs", true);
        }
        return params;
    }

    /** OpenAI's {@code input_audio} parts for audio given as data URLs (ST's embedOpenRouterMedia, audio only). */
    static JsonNode embedAudio(JsonNode messages) {
        if (!messages.isArray()) {
            return messages;
        }
        ArrayNode copy = (ArrayNode) messages.deepCopy();
        for (JsonNode message : copy) {
            for (JsonNode part : message.path("content")) {
                String url = part.path("audio_url").path("url").asText("");
                if (part.isObject() && "audio_url".equals(part.path("type").asText()) && url.startsWith("data:")) {
                    String[] headerAndData = url.split(",", -1);
                    String mime = headerAndData[0].replaceFirst("^data:([^;]*).*$", "$1");
                    ObjectNode audio = JsJson.object()
                            .put("format", "audio/wav".equals(mime) ? "wav" : "mp3");
                    if (headerAndData.length > 1) {
                        audio.put("data", headerAndData[1]);
                    }
                    ((ObjectNode) part).put("type", "input_audio").set("input_audio", audio);
                    ((ObjectNode) part).remove("audio_url");
                }
            }
        }
        return copy;
    }

    /**
     * The parameters ST adds after the source's own for every generic source: reasoning effort and verbosity
     * (openai and custom only), stop strings, tools and the structured-output format.
     */
    static void addCommonParams(ObjectNode body, ObjectNode params, boolean textCompletion, String source) {
        String model = body.path("model").isTextual() ? body.get("model").textValue() : "";
        JsonNode effort = body.get("reasoning_effort");
        boolean openAiLike = OPENAI.equals(source) || CUSTOM.equals(source);
        boolean customSource = CUSTOM.equals(source);
        if (openAiLike && Js.truthy(effort)) {
            if (REASONING_EFFORT_MODELS.contains(model)) {
                params.set("reasoning_effort", openAiReasoningEffort(model, effort));
            }
            if (customSource && model.matches("^koboldcpp/(.+)$")) {
                params.set("reasoning_effort", effort);
            }
        }
        if (openAiLike && Js.truthy(body.get("verbosity")) && VERBOSITY_MODELS.matcher(model).find()) {
            params.set("verbosity", body.get("verbosity"));
        }
        stop(body, params);
        if (!textCompletion) {
            tools(body, params);
        }
        if (!params.has("response_format")) {
            jsonSchema(body, params, SchemaStyle.NAMED);
        }
    }

    /** OpenAI's effort for its reasoning models: fixed for some, {@code min} renamed, else as given (may be null). */
    static JsonNode openAiReasoningEffort(String model, JsonNode effort) {
        String fixed = FIXED_REASONING_EFFORT.get(model);
        String named = effort != null && effort.isTextual() ? REASONING_EFFORT_NAMES.get(effort.textValue()) : null;
        return fixed != null ? JsJson.tree(fixed) : named != null ? JsJson.tree(named) : effort;
    }

    /** {@code stop} when it is a non-empty list. */
    static void stop(ObjectNode body, ObjectNode params) {
        JsonNode stop = body.path("stop");
        if (stop.isArray() && !stop.isEmpty()) {
            params.set("stop", stop);
        }
    }

    /** {@code tools} and {@code tool_choice} when there are tools. */
    static void tools(ObjectNode body, ObjectNode params) {
        JsonNode tools = body.path("tools");
        if (tools.isArray() && !tools.isEmpty()) {
            params.set("tools", tools);
            copyIfPresent(body, "tool_choice", params);
        }
    }

    /** The dedicated senders' logprobs: {@code top_logprobs: N, logprobs: true} for a positive number. */
    static void topLogprobs(ObjectNode body, ObjectNode params) {
        JsonNode logprobs = body.get("logprobs");
        if (logprobs != null && logprobs.isNumber() && logprobs.doubleValue() > 0) {
            params.set("top_logprobs", logprobs);
            params.put("logprobs", true);
        }
    }

    /** How a source wants the structured-output schema inside {@code response_format}. */
    enum SchemaStyle {
        /** {@code {name, strict, schema}}. */
        NAMED,
        /** {@code {name, description, schema, strict}}. */
        DESCRIBED,
        /** {@code {schema}}. */
        BARE,
        /** The schema itself. */
        RAW
    }

    /** {@code response_format} of type json_schema for the body's {@code json_schema}, if any. */
    static void jsonSchema(ObjectNode body, ObjectNode params, SchemaStyle style) {
        JsonNode schema = body.get("json_schema");
        if (!Js.truthy(schema)) {
            return;
        }
        ObjectNode format = JsJson.object().put("type", "json_schema");
        if (style == SchemaStyle.RAW) {
            copyIfPresent(schema, "value", format, "json_schema");
            params.set("response_format", format);
            return;
        }
        ObjectNode jsonSchema = format.putObject("json_schema");
        JsonNode strict = Js.coalesce(schema.get("strict"), JsJson.tree(true));
        if (style != SchemaStyle.BARE) {
            copyIfPresent(schema, "name", jsonSchema);
        }
        if (style == SchemaStyle.DESCRIBED) {
            copyIfPresent(schema, "description", jsonSchema);
        }
        if (style == SchemaStyle.NAMED) {
            jsonSchema.set("strict", strict);
        }
        copyIfPresent(schema, "value", jsonSchema, "schema");
        if (style == SchemaStyle.DESCRIBED) {
            jsonSchema.set("strict", strict);
        }
        params.set("response_format", format);
    }

    /**
     * ST's json_object hack for sources without JSON schemas: {@code response_format: json_object}, and the schema
     * appended to the messages as a user message.
     */
    static void jsonObjectHack(ObjectNode body, ObjectNode params) {
        JsonNode schema = body.get("json_schema");
        if (!Js.truthy(schema)) {
            return;
        }
        params.set("response_format", JsJson.object().put("type", "json_object"));
        JsonNode value = schema.get("value");
        String text = value == null ? "undefined" : JsJson.pretty(value);
        if (body.path("messages").isArray()) {
            ((ArrayNode) body.get("messages")).addObject().put("role", "user")
                    .put("content", "JSON schema for the response:\n" + text);
        }
    }

    /** The upstream body: the frontend's fields, then the source's parameters over them (ST's object spread). */
    static ObjectNode requestBody(ObjectNode body, ObjectNode params, boolean textCompletion) {
        JsObject out = new JsObject()
                .put("messages", textCompletion ? null : body.get("messages"))
                .put("prompt", textCompletion ? JsJson.tree(textPrompt(body.path("messages"))) : null);
        COPIED_FIELDS.forEach(field -> out.put(field, body.get(field)));
        out.put("stop", textCompletion ? null : body.get("stop"));
        for (String field : List.of("logit_bias", "seed", "n")) {
            out.put(field, body.get(field));
        }
        return out.spread(params).toJson();
    }

    /** {@code POST {base}/chat/completions} (or {@code /completions} for a prompt) with the JSON body. */
    static UpstreamRequest completion(String apiUrl, String apiKey, MultiMap headers, ObjectNode requestBody,
                                      boolean textCompletion) {
        String url = apiUrl + (textCompletion ? "/completions" : "/chat/completions");
        MultiMap all = MultiMap.caseInsensitiveMultiMap()
                .set("Content-Type", "application/json")
                .set("Authorization", "Bearer " + apiKey);
        return UpstreamRequest.post(url, override(all, headers), requestBody);
    }

    /** {@code GET {base}/models} (joined as the url-join package does) with the key and the source's headers. */
    static UpstreamRequest models(String apiUrl, String apiKey, MultiMap headers) {
        return models(apiUrl, apiKey, headers, "/models");
    }

    /** The same at another path under the base ({@code /models?a=b}, say). */
    static UpstreamRequest models(String apiUrl, String apiKey, MultiMap headers, String path) {
        String base = apiUrl == null ? "" : apiUrl.replaceAll("/+$", "");
        MultiMap all = MultiMap.caseInsensitiveMultiMap().set("Authorization", "Bearer " + apiKey);
        return UpstreamRequest.get(base + path, override(all, headers));
    }

    /** ST's generic status answer: the upstream's model list as it is, or its error shape for an error status. */
    static JsonNode modelList(UpstreamClient.Fetched answer) {
        if (!answer.ok()) {
            return JsonAnswer.errorTrue().set("data", JsJson.object().set("data", JsJson.array()));
        }
        return JsJson.parse(answer.body().getBytes());
    }

    /** The source's headers over the base ones, a same-named header replaced (JavaScript's object spread). */
    private static MultiMap override(MultiMap base, MultiMap headers) {
        headers.names().forEach(name -> base.set(name, headers.getAll(name)));
        return base;
    }

    /** ST's convertTextCompletionPrompt: one {@code role: content} line per message, then {@code assistant:}. */
    private static String textPrompt(JsonNode messages) {
        if (messages.isTextual()) {
            return messages.textValue();
        }
        StringBuilder prompt = new StringBuilder();
        for (JsonNode message : messages) {
            String role = Js.string(message.get("role"));
            String content = Js.string(message.get("content"));
            boolean named = message.has("name");
            String speaker = "system".equals(role) ? (named ? Js.string(message.get("name")) : "System") : role;
            prompt.append(speaker).append(": ").append(content).append('\n');
        }
        return prompt.append("assistant:").toString();
    }

    static void copyIfPresent(JsonNode from, String field, ObjectNode to) {
        copyIfPresent(from, field, to, field);
    }

    private static void copyIfPresent(JsonNode from, String field, ObjectNode to, String as) {
        if (from.has(field)) {
            to.set(as, from.get(field));
        }
    }
}
