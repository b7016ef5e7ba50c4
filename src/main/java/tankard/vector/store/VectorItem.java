package tankard.vector.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.util.UUID;

/**
 * One item of a Vectra index: an id, the metadata ST gives it ({@code {hash, text, index}}), the vector and its L2
 * norm (ST: vectra's LocalIndex item).
 */
public record VectorItem(String id, ObjectNode metadata, float[] vector, double norm) {
    /** A new item with a fresh id, as Vectra's upsertItem makes it. */
    public static VectorItem create(ObjectNode metadata, float[] vector) {
        return new VectorItem(UUID.randomUUID().toString(), metadata, vector, norm(vector));
    }

    /**
     * Vectra's norm (ItemSelector.normalize) of the numbers the vector is written as ({@link JsJson#jsFloat}), so
     * that it is the norm ST computes for the vector it reads from the index.
     */
    public static double norm(float[] vector) {
        double sum = 0;
        for (float v : vector) {
            double written = Double.parseDouble(JsJson.jsFloat(v));
            sum += written * written;
        }
        return Math.sqrt(sum);
    }

    public JsonNode hash() {
        return metadata.get("hash");
    }
}
