package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.MultiMap;
import tankard.json.JsJson;
import tankard.outbound.StreamConverter;
import tankard.outbound.UpstreamClient;
import tankard.outbound.UpstreamRequest;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * One {@code api_type} of ST's Text Completion API (src/endpoints/backends/text-completions.js; its body fields
 * from src/constants.js, TEXTGEN_TYPES and the {@code *_KEYS} lists), as an OpenAI-compatible completions
 * server: where its model list and completion endpoint are, how it takes its key, which body fields it keeps.
 * The families with quirks (Ollama's own protocol, ooba's and Tabby's model info, KoboldCpp's abort call...)
 * override the hooks; the routes in {@link TextCompletionsFeature} stay the same for all.
 */
class TextCompletionApi {
    private final String type;
    private final AuthHeaders auth;
    private final String modelsPath;
    private final String completionPath;
    /** The body fields the upstream gets, in the body's order; null: the whole body. */
    private final Set<String> keptFields;

    TextCompletionApi(String type, AuthHeaders auth, String modelsPath, String completionPath,
                      Set<String> keptFields) {
        this.type = type;
        this.auth = auth;
        this.modelsPath = modelsPath;
        this.completionPath = completionPath;
        this.keptFields = keptFields;
    }

    final String type() {
        return type;
    }

    /** The secrets.json key of its API key ({@code api_key_<type>}). */
    final String secretKey() {
        return "api_key_" + type;
    }

    final AuthHeaders auth() {
        return auth;
    }

    /** The model-list URL under the trimmed base URL. */
    final String modelsUrl(String base) {
        return base + modelsPath;
    }

    /** The completion URL under the trimmed base URL. */
    final String completionUrl(String base) {
        return base + completionPath;
    }

    /** The model-list answer as {@code {data: [...]}}. */
    JsonNode models(JsonNode answer) {
        return answer;
    }

    /** A second status call that names the loaded model, or null when there is none (ooba, Tabby). */
    UpstreamRequest modelInfo(String base, MultiMap headers, UpstreamClient.Fetched models) {
        return null;
    }

    /** The status with the model-info answer taken in; by default the status as it was. */
    Status withModelInfo(Status status, UpstreamClient.Fetched info) {
        return status;
    }

    /** The upstream request body for the frontend's generate body (which it may change). */
    ObjectNode requestBody(ObjectNode body) {
        return keptFields == null ? body : pick(body, keptFields);
    }

    /** A non-streamed completion as the frontend gets it; by default unchanged. */
    JsonNode completion(JsonNode answer) {
        return answer;
    }

    /** How its stream reaches the browser; by default relayed byte for byte. */
    StreamConverter streamConverter() {
        return StreamConverter.NONE;
    }

    /** The call that stops a generation the browser gave up on, or null when closing the connection is enough. */
    UpstreamRequest abort(String base, MultiMap headers) {
        return null;
    }

    /** The {@code /status} answer: {@code result} names the model, {@code data} is the model list. */
    record Status(JsonNode result, JsonNode data, boolean supportsTokenization) {
    }

    /** lodash's pickBy with a key list: the named fields, in the object's own order. */
    static ObjectNode pick(ObjectNode body, Set<String> fields) {
        ObjectNode out = JsJson.object();
        for (Iterator<Map.Entry<String, JsonNode>> it = body.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (fields.contains(field.getKey())) {
                out.set(field.getKey(), field.getValue());
            }
        }
        return out;
    }
}
