package tankard.summarize;

/**
 * A summarization model with a fixed input window, as summary of summaries sees it: the Extras BART model on
 * ONNX Runtime, or the user's main backend. Blocking; callers keep one call at a time.
 */
public interface SummaryModel {
    /** How many tokens the model's own tokenizer makes of the text, special tokens not counted. */
    int countTokens(String text);

    /** The most tokens one {@link #summarize} call takes in, special tokens not counted. */
    int inputWindow();

    /** The summary of a text that fits {@link #inputWindow()}. */
    String summarize(String text) throws Exception;
}
