package tankard.classify;

import com.fasterxml.jackson.databind.node.ArrayNode;
import tankard.json.JsJson;

import java.util.List;

/** A label of a classification and its score (a probability, 0 to 1). */
public record Score(String label, double score) {
    /** {@code [{label, score}, ...]}, as transformers.js's text-classification pipeline gives them. */
    public static ArrayNode json(List<Score> scores) {
        ArrayNode array = JsJson.MAPPER.createArrayNode();
        scores.forEach(score -> array.addObject().put("label", score.label()).put("score", score.score()));
        return array;
    }
}
