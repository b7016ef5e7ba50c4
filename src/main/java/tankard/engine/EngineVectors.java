package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.engine.prompt.VectorIndex;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.vector.VectorService;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A chat's collection reached through {@link VectorService} with the bodies ST's Vector Storage extension posts
 * to {@code /api/vector/*} (public/scripts/extensions/vectors/index.js, getVectorsRequestBody): the same source,
 * model and collection, so ST and Tankard share the index. Blocking: waits on the embedding model.
 */
final class EngineVectors implements VectorIndex {
    /** Sources whose embeddings ST computes in the browser: the server cannot make them. */
    private static final List<String> BROWSER_SOURCES = List.of("webllm", "koboldcpp");

    private final VectorService service;
    private final String user;
    private final ObjectNode base;

    private EngineVectors(VectorService service, String user, ObjectNode base) {
        this.service = service;
        this.user = user;
        this.base = base;
    }

    /** The chat's collection, or null when the user has not enabled chat vectorization. */
    static EngineVectors of(VectorService service, String user, ObjectNode settings, String collectionId) {
        JsonNode vectors = settings.path("extension_settings").path("vectors");
        if (!Js.truthy(vectors.get("enabled_chats"))) {
            return null;
        }
        String source = vectors.hasNonNull("source") ? Js.string(vectors.get("source")) : "transformers";
        if (BROWSER_SOURCES.contains(source)) {
            throw Refusal.badRequest("The vectorization source " + source + " runs in the browser; the server "
                    + "engine needs a server-side source such as transformers (the local model)");
        }
        ObjectNode base = JsJson.object();
        modelFields(base, source, vectors, settings);
        base.put("collectionId", collectionId);
        base.put("source", source);
        return new EngineVectors(service, user, base);
    }

    /** ST: getVectorsRequestBody, the source's own fields. */
    private static void modelFields(ObjectNode body, String source, JsonNode vectors, ObjectNode settings) {
        JsonNode oai = settings.path("oai_settings");
        JsonNode urls = settings.path("textgenerationwebui_settings").path("server_urls");
        boolean alternative = Js.truthy(vectors.get("use_alt_endpoint"));
        JsonNode altUrl = vectors.get("alt_endpoint_url");
        switch (source) {
            case "extras" -> {
                set(body, "extrasUrl", settings.path("extension_settings").get("apiUrl"));
                set(body, "extrasKey", settings.path("extension_settings").get("apiKey"));
            }
            case "electronhub", "openrouter", "togetherai", "openai", "cohere", "chutes", "nanogpt" ->
                    set(body, "model", vectors.get(source + "_model"));
            case "ollama" -> {
                set(body, "model", vectors.get("ollama_model"));
                set(body, "apiUrl", alternative ? altUrl : urls.get("ollama"));
                body.put("keep", Js.truthy(vectors.get("ollama_keep")));
            }
            case "llamacpp" -> set(body, "apiUrl", alternative ? altUrl : urls.get("llamacpp"));
            case "vllm" -> {
                set(body, "apiUrl", alternative ? altUrl : urls.get("vllm"));
                set(body, "model", vectors.get("vllm_model"));
            }
            case "palm", "vertexai" -> {
                set(body, "model", vectors.get("google_model"));
                body.put("api", source.equals("palm") ? "makersuite" : "vertexai");
                if (source.equals("vertexai")) {
                    set(body, "vertexai_auth_mode", oai.get("vertexai_auth_mode"));
                    set(body, "vertexai_region", oai.get("vertexai_region"));
                    set(body, "vertexai_express_project_id", oai.get("vertexai_express_project_id"));
                }
            }
            case "siliconflow" -> {
                set(body, "model", vectors.get("siliconflow_model"));
                set(body, "siliconflow_endpoint", oai.get("siliconflow_endpoint"));
            }
            case "workers_ai" -> {
                body.put("model", Js.truthy(vectors.get("workers_ai_model"))
                        ? Js.string(vectors.get("workers_ai_model")) : "@cf/baai/bge-m3");
                set(body, "workers_ai_account_id", oai.get("workers_ai_account_id"));
            }
            default -> {
            }
        }
    }

    /** Sets what is there; JSON.stringify leaves an undefined setting out. */
    private static void set(ObjectNode body, String field, JsonNode value) {
        if (value != null && !value.isMissingNode()) {
            body.set(field, value);
        }
    }

    @Override
    public long[] saved() {
        return service.sortedHashes(user, base);
    }

    @Override
    public void insert(List<Item> items) {
        ObjectNode body = base.deepCopy();
        ArrayNode array = body.putArray("items");
        for (Item item : items) {
            array.addObject().put("hash", item.hash()).put("text", item.text()).put("index", item.index());
        }
        await(service.insert(user, body));
    }

    @Override
    public void delete(List<Long> hashes) {
        ObjectNode body = base.deepCopy();
        ArrayNode array = body.putArray("hashes");
        hashes.forEach(array::add);
        service.delete(user, body);
    }

    @Override
    public List<Long> query(String text, int topK, double threshold) {
        ObjectNode body = base.deepCopy();
        body.put("searchText", text);
        body.put("topK", topK);
        body.put("threshold", threshold);
        return hashes(await(service.query(user, body)).path("hashes"));
    }

    private static List<Long> hashes(JsonNode array) {
        List<Long> hashes = new ArrayList<>();
        array.forEach(hash -> hashes.add(hash.asLong()));
        return hashes;
    }

    private static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }
}
