package tankard.engine.prompt;

/** Counts a text's tokens with the tokenizer ST's frontend would pick for the request (tokenizers.js). */
@FunctionalInterface
public interface TokenCounter {
    int count(String text);
}
