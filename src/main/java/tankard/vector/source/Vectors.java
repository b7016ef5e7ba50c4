package tankard.vector.source;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;

/** Vectors out of JSON, as upstreams and browsers send them. */
public final class Vectors {
    private Vectors() {
    }

    /**
     * A JSON array of numbers as floats. A non-number element is a 400; NaN cannot be written in JSON, so a
     * finite-number check on the result is the caller's.
     */
    public static float[] of(JsonNode array) {
        if (array == null || !array.isArray()) {
            throw Refusal.badRequest("A vector must be an array of numbers");
        }
        float[] vector = new float[array.size()];
        for (int i = 0; i < vector.length; i++) {
            JsonNode element = array.get(i);
            if (!element.isNumber()) {
                throw Refusal.badRequest("A vector must be an array of numbers; element " + i
                        + " is " + element);
            }
            vector[i] = element.floatValue();
        }
        return vector;
    }
}
