package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import tankard.json.JsNumber;
import tankard.backend.text.TextCompletionBackends;
import tankard.config.TankardConfig;
import tankard.json.JsJson;
import tankard.outbound.UpstreamClient;
import tankard.secrets.SecretKeys;
import tankard.secrets.SecretStore;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every embedding source of ST's Vector Storage that calls an upstream, by ST's names: the hosted APIs (OpenAI and
 * the compatible ones, Nomic AI, Cohere, Google AI Studio, Vertex AI), the servers the user runs (Ollama,
 * llama.cpp, vLLM) and Extras. Built-in hosts are rebased by {@code tankard.providerOrigins} like every call.
 */
public final class RemoteSources {
    private RemoteSources() {
    }

    /** The sources, for {@link EmbeddingSources}. */
    public static Map<String, EmbeddingSource> all(UpstreamClient client, SecretStore secrets, TankardConfig config) {
        Map<String, EmbeddingSource> sources = new LinkedHashMap<>(OpenAiCompatibleEmbeddings.all(client, secrets));
        sources.put("nomicai", nomicAi(client, secrets));
        sources.put("cohere", cohere(client, secrets));
        sources.put("palm", GoogleEmbeddings.aiStudio(client, secrets, config.backends().chat().geminiApiVersion()));
        sources.put("vertexai", GoogleEmbeddings.vertex(client, secrets, () -> System.currentTimeMillis() / 1000));
        sources.putAll(TextServerEmbeddings.all(client, secrets, new TextCompletionBackends(config.backends())));
        sources.put("extras", extras(client));
        return sources;
    }

    /** ST: src/vectors/nomicai-vectors.js, getNomicAIBatchVector: {@code {texts, model}}, the vectors in {@code embeddings}. */
    static EmbeddingSource nomicAi(UpstreamClient client, SecretStore secrets) {
        String model = "nomic-embed-text-v1.5";
        return new RemoteSource(client, body -> model, (call, query) -> {
            MultiMap headers = RemoteSource.bearer(RemoteSource.key(secrets, call, SecretKeys.NOMICAI, "Nomic AI"));
            return Future.succeededFuture(new RemoteSource.Upstream("Nomic AI",
                    "https://api-atlas.nomic.ai/v1/embedding/text", headers,
                    texts -> texts(texts).put("model", model),
                    answer -> RemoteSource.elements(answer.get("embeddings")), "embeddings"));
        });
    }

    /**
     * ST: src/vectors/cohere-vectors.js, getCohereBatchVector: v2's embed, floats, {@code search_query} for a query
     * and {@code search_document} for documents, truncated at the end.
     */
    static EmbeddingSource cohere(UpstreamClient client, SecretStore secrets) {
        return new RemoteSource(client, body -> new EmbeddingCall(null, body).string("model"), (call, query) -> {
            MultiMap headers = RemoteSource.bearer(RemoteSource.key(secrets, call, SecretKeys.COHERE, "Cohere"));
            String model = call.string("model");
            return Future.succeededFuture(new RemoteSource.Upstream("Cohere", "https://api.cohere.ai/v2/embed",
                    headers, texts -> {
                        ObjectNode body = texts(texts).put("model", model);
                        body.putArray("embedding_types").add("float");
                        return body.put("input_type", query ? "search_query" : "search_document")
                                .put("truncate", "END");
                    }, answer -> RemoteSource.elements(answer.path("embeddings").get("float")), "embeddings.float"));
        });
    }

    /**
     * ST: src/vectors/extras-vectors.js, getExtrasBatchVector: {@code POST {extrasUrl origin}/api/embeddings/compute}
     * with {@code {text: [...]}}, Bearer {@code extrasKey} when one is given; {@code embedding} is a list of
     * vectors, or one vector for a single text.
     */
    static EmbeddingSource extras(UpstreamClient client) {
        return new RemoteSource(client, body -> "", (call, query) -> {
            String url = TextServerEmbeddings.withPath(call.string("extrasUrl"), "/api/embeddings/compute");
            MultiMap headers = RemoteSource.json();
            JsonNode key = call.body().get("extrasKey");
            if (EmbeddingCall.truthy(key)) {
                headers.set("Authorization", "Bearer " + JsNumber.string(key));
            }
            return Future.succeededFuture(new RemoteSource.Upstream("Extras", url, headers, texts -> {
                ObjectNode body = JsJson.object();
                texts.forEach(body.putArray("text")::add);
                return body;
            }, RemoteSources::extrasVectors, "embedding"));
        });
    }

    private static List<JsonNode> extrasVectors(JsonNode answer) {
        JsonNode embedding = answer.get("embedding");
        List<JsonNode> vectors = RemoteSource.elements(embedding);
        if (vectors != null && !vectors.isEmpty() && vectors.get(0).isNumber()) {
            return List.of(embedding); // one text's vector
        }
        return vectors;
    }

    /** {@code {texts: [...]}}. */
    private static ObjectNode texts(List<String> texts) {
        ObjectNode body = JsJson.object();
        texts.forEach(body.putArray("texts")::add);
        return body;
    }
}
