package tankard.vector.store;

/** An item a query found, with its cosine similarity to the query. */
public record Match(VectorItem item, double score) {
}
