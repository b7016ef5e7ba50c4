package tankard.vector.local;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.vector.source.EmbeddingCall;
import tankard.vector.source.EmbeddingSource;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * ST's {@code transformers} source: the in-process model of {@code extensions.models.embedding} (ST:
 * src/vectors/embedding.js, getTransformersBatchVector, which embeds one text at a time; here they run together).
 */
public final class TransformersSource implements EmbeddingSource {
    private final LocalEmbeddings embeddings;
    private final String model;

    TransformersSource(LocalEmbeddings embeddings, String model) {
        this.embeddings = embeddings;
        this.model = model;
    }

    /** The configured model's name, whatever the request says; empty for the embedded default (ST: vectors.js, getSourceSettings). */
    @Override
    public String modelScope(JsonNode body) {
        return model;
    }

    @Override
    public CompletionStage<List<float[]>> embed(EmbeddingCall call, List<String> texts, boolean query) {
        return embeddings.embed(texts);
    }
}
