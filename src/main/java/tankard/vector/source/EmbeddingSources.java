package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The embedding sources by ST's names, in ST's order (ST: src/endpoints/vectors.js, SOURCES): purges walk every
 * one of them, whether Tankard can embed with it or not.
 */
public final class EmbeddingSources {
    /** ST 1.18.0's sources, in its order. */
    public static final List<String> NAMES = List.of("transformers", "mistral", "openai", "extras", "palm",
            "togetherai", "nomicai", "cohere", "ollama", "llamacpp", "vllm", "webllm", "koboldcpp", "vertexai",
            "electronhub", "openrouter", "chutes", "nanogpt", "siliconflow", "workers_ai");

    private final Map<String, EmbeddingSource> sources;

    public EmbeddingSources(Map<String, EmbeddingSource> sources) {
        Map<String, EmbeddingSource> all = new LinkedHashMap<>();
        all.put("webllm", BrowserVectors.INSTANCE);
        all.put("koboldcpp", BrowserVectors.INSTANCE);
        all.putAll(sources);
        for (String name : all.keySet()) {
            if (!NAMES.contains(name)) {
                throw new IllegalArgumentException("not one of ST's vector sources: " + name);
            }
        }
        this.sources = Map.copyOf(all);
    }

    /** The source by its request name; an unknown one is a 400 (ST answers 500). */
    public EmbeddingSource require(String name) {
        EmbeddingSource source = sources.get(name);
        if (source == null) {
            throw NAMES.contains(name)
                    ? Refusal.badRequest("The vector source " + name + " is not supported by Tankard")
                    : Refusal.badRequest("Unknown vector source " + name + "; the sources are "
                            + String.join(", ", NAMES));
        }
        return source;
    }

    /**
     * {@code webllm} and {@code koboldcpp}: the browser computed the vectors and sends them as
     * {@code embeddings: {text: vector}} (ST: vectors.js, getBatchVector). A text without one is a 400, where ST
     * would store an item without a vector.
     */
    private enum BrowserVectors implements EmbeddingSource {
        INSTANCE;

        @Override
        public String modelScope(JsonNode body) {
            return new EmbeddingCall(null, body).string("model");
        }

        @Override
        public CompletionStage<List<float[]>> embed(EmbeddingCall call, List<String> texts, boolean query) {
            JsonNode embeddings = call.body().path("embeddings");
            List<float[]> vectors = new ArrayList<>(texts.size());
            for (String text : texts) {
                JsonNode vector = embeddings.isObject() ? embeddings.get(text) : null;
                if (vector == null || !vector.isArray()) {
                    return CompletableFuture.failedFuture(new Refusal(Refusal.Kind.BAD_REQUEST,
                            "\"embeddings\" has no vector for the text \"" + abbreviate(text) + "\""));
                }
                vectors.add(Vectors.of(vector));
            }
            return CompletableFuture.completedFuture(vectors);
        }
    }

    static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }
}
