package tankard.vector;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.util.Random;

/** Request bodies of ST's Vector Storage with the {@code webllm} source: the vectors travel in the body. */
final class VectorBodies {
    private VectorBodies() {
    }

    /** A unit vector fixed by its seed. */
    static float[] vector(long seed, int dimensions) {
        Random random = new Random(seed);
        float[] v = new float[dimensions];
        double norm = 0;
        for (int i = 0; i < dimensions; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < dimensions; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }

    /** A vector near {@code v}: the same plus a little noise. */
    static float[] near(float[] v, long seed, double noise) {
        float[] other = vector(seed, v.length);
        float[] mixed = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            mixed[i] = (float) (v[i] + noise * other[i]);
        }
        return mixed;
    }

    static ArrayNode json(float[] v) {
        ArrayNode array = JsJson.array();
        for (float x : v) {
            array.add(x);
        }
        return array;
    }

    static ObjectNode body(String collectionId) {
        ObjectNode body = JsJson.object().put("source", "webllm").put("model", "test-model");
        body.put("collectionId", collectionId);
        body.putObject("embeddings");
        return body;
    }

    /** An insert of items {@code hash, text, index} whose text's vector is {@code vectors[i]}. */
    static ObjectNode insert(String collectionId, long[] hashes, String[] texts, float[][] vectors) {
        ObjectNode body = body(collectionId);
        ArrayNode items = body.putArray("items");
        for (int i = 0; i < texts.length; i++) {
            items.addObject().put("hash", hashes[i]).put("text", texts[i]).put("index", i);
            ((ObjectNode) body.get("embeddings")).set(texts[i], json(vectors[i]));
        }
        return body;
    }

    static ObjectNode query(String collectionId, String searchText, float[] vector, int topK, double threshold) {
        ObjectNode body = body(collectionId).put("searchText", searchText).put("topK", topK).put("threshold", threshold);
        ((ObjectNode) body.get("embeddings")).set(searchText, json(vector));
        return body;
    }
}
