package tankard.backend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.json.JsJson;
import tankard.json.Js;

/**
 * The "Custom (OpenAI-compatible)" source: the user's own endpoint at {@code custom_url}, key
 * {@code api_key_custom} (an empty key still sends {@code Bearer }), extra headers and body fields from the
 * YAML fields of the connection panel (st-backends.md §2.4).
 */
final class CustomSource implements ChatCompletionSource {
    static final String SECRET = "api_key_custom";

    @Override
    public String id() {
        return "custom";
    }

    @Override
    public UpstreamRequest generate(ObjectNode body, SecretReader secrets) {
        boolean textCompletion = OpenAiCompatible.isTextCompletion(body);
        ObjectNode params = OpenAiCompatible.logprobParams(body, textCompletion);
        YamlParams.merge(params, body.get("custom_include_body"));
        JsonNode schema = body.get("json_schema");
        if (Js.truthy(schema)) {
            // ST first builds the usual json_schema object, then overwrites it with the bare schema for this source.
            ObjectNode format = JsJson.object().put("type", "json_schema");
            if (schema.has("value")) {
                format.set("json_schema", schema.get("value"));
            }
            params.set("response_format", format);
        }
        OpenAiCompatible.addCommonParams(body, params, textCompletion, true);
        ObjectNode requestBody = OpenAiCompatible.requestBody(body, params, textCompletion);
        YamlParams.exclude(requestBody, body.get("custom_exclude_body"));
        return OpenAiCompatible.completion(url(body), key(body, secrets), headers(body), requestBody, textCompletion);
    }

    @Override
    public UpstreamRequest models(ObjectNode body, SecretReader secrets) {
        return OpenAiCompatible.models(url(body), key(body, secrets), headers(body));
    }

    private static String url(ObjectNode body) {
        return Js.string(body.get("custom_url"));
    }

    private static String key(ObjectNode body, SecretReader secrets) {
        JsonNode id = body.get("secret_id");
        return secrets.read(SECRET, Js.truthy(id) ? Js.string(id) : null);
    }

    private static MultiMap headers(ObjectNode body) {
        ObjectNode yaml = JsJson.object();
        YamlParams.merge(yaml, body.get("custom_include_headers"));
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        yaml.properties().forEach(entry -> headers.set(entry.getKey(), Js.string(entry.getValue())));
        return headers;
    }
}
