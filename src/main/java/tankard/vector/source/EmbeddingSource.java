package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Where the vectors of one {@code source} of ST's Vector Storage come from: an upstream API, the in-process model,
 * or the request itself (ST: src/endpoints/vectors.js, getBatchVector and getSourceSettings).
 */
public interface EmbeddingSource {
    /**
     * The model scope: the folder under the collection that holds this model's index, before cleaning; empty for
     * none (ST: vectors.js, getModelScope over getSourceSettings).
     */
    String modelScope(JsonNode body);

    /**
     * The vectors of {@code texts}, in their order, one per text. Called on a worker thread (reading the user's
     * secrets is allowed); the answer may come later from any thread. Fails with a {@link tankard.core.Refusal}:
     * {@code BAD_REQUEST} for what the request got wrong, {@code UPSTREAM} when the upstream fails,
     * {@code UNAVAILABLE} when the model is busy or not loaded. The caller checks the count, the lengths and that
     * every number is finite.
     *
     * @param query whether the texts are a search query rather than documents (only Cohere tells them apart)
     */
    CompletionStage<List<float[]>> embed(EmbeddingCall call, List<String> texts, boolean query);
}
