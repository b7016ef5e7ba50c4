package tankard.classify;

/** A label of a classification and its score (a probability, 0 to 1). */
public record Score(String label, double score) {
}
