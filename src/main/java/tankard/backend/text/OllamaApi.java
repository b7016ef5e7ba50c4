package tankard.backend.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.outbound.StreamConverter;

import java.util.Set;

/**
 * Ollama's own API: models from {@code /api/tags}, a raw-prompt {@code /api/generate} body with the samplers
 * under {@code options}, and its NDJSON stream converted to SSE ({@link OllamaStream}). It takes no key.
 */
final class OllamaApi extends TextCompletionApi {
    private static final Set<String> OPTIONS = Set.of("num_predict", "num_ctx", "num_batch", "stop", "temperature",
            "repeat_penalty", "presence_penalty", "frequency_penalty", "top_k", "top_p", "tfs_z", "typical_p", "seed",
            "repeat_last_n", "min_p");

    private final int keepAlive;
    private final int batchSize;

    OllamaApi(int keepAlive, int batchSize) {
        super("ollama", AuthHeaders.NONE, "/api/tags", "/api/generate", null);
        this.keepAlive = keepAlive;
        this.batchSize = batchSize;
    }

    @Override
    JsonNode models(JsonNode answer) {
        JsonNode models = answer.get("models");
        return models != null && models.isArray() ? withIds((ArrayNode) models) : answer;
    }

    /** {@code {data: items.map(x => ({id: x.name, ...x}))}}. */
    static JsonNode withIds(ArrayNode items) {
        ArrayNode data = JsJson.array();
        for (JsonNode item : items) {
            ObjectNode model = JsJson.object();
            if (item.has("name")) {
                model.set("id", item.get("name"));
            }
            if (item.isObject()) {
                model.setAll((ObjectNode) item);
            }
            data.add(model);
        }
        return JsJson.object().set("data", data);
    }

    @Override
    ObjectNode requestBody(ObjectNode body) {
        if (batchSize > 0) {
            body.put("num_batch", batchSize);
        }
        ObjectNode out = JsJson.object();
        copy(body, "model", out);
        copy(body, "prompt", out);
        out.set("stream", Js.coalesce(body.get("stream"), JsJson.tree(false)));
        out.put("keep_alive", keepAlive);
        out.put("raw", true);
        out.set("options", pick(body, OPTIONS));
        return out;
    }

    @Override
    StreamConverter streamConverter() {
        return new OllamaStream();
    }

    private static void copy(ObjectNode from, String field, ObjectNode to) {
        if (from.has(field)) {
            to.set(field, from.get(field));
        }
    }
}
