package tankard.tokenizer;

import java.util.List;

/**
 * A vocabulary whose file the user has not supplied. It only counts: tiktoken's cl100k_base is close for
 * English text. Its ids are not the model's, so the routes hand out none (the frontend would send them to the
 * backend as logit biases), and decoding fails as in ST when a model cannot be loaded.
 */
final class ApproximateTokenizer implements Tokenizer {
    private final String id;
    private final Family family;
    private final TiktokenTokenizer standIn;

    ApproximateTokenizer(String id, Family family, TiktokenTokenizer standIn) {
        this.id = id;
        this.family = family;
        this.standIn = standIn;
    }

    /** Equal for the same id and stand-in: counts made with one are kept for the next (TokenCounts). */
    @Override
    public boolean equals(Object other) {
        return other instanceof ApproximateTokenizer that && that.id.equals(id) && that.family == family
                && that.standIn == standIn;
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public Family family() {
        return family;
    }

    @Override
    public boolean estimated() {
        return true;
    }

    /** Stand-in ids, good for counting only. */
    @Override
    public int[] encode(String text) {
        return standIn.encode(text);
    }

    @Override
    public String decode(int[] ids) {
        throw new UnsupportedOperationException("No vocabulary file for " + id);
    }

    @Override
    public List<String> chunks(int[] ids) {
        throw new UnsupportedOperationException("No vocabulary file for " + id);
    }
}
