package tankard.engine.prompt;

import tankard.tokenizer.Lines;

/** Counts a text's tokens with the tokenizer ST's frontend would pick for the request (tokenizers.js). */
@FunctionalInterface
public interface TokenCounter {
    int count(String text);

    /** The count of a text made of lines: by a counter that keeps counts, found by its lines (see {@link Lines}). */
    default int count(Lines text) {
        return count(text.toString());
    }
}
