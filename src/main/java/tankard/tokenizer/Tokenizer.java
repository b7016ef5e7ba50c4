package tankard.tokenizer;

import java.util.List;

/** One token vocabulary. Implementations are thread-safe. */
public interface Tokenizer {
    /**
     * How ST's endpoints for this vocabulary shape their replies (src/endpoints/tokenizers.js,
     * createSentencepieceDecodingHandler …).
     */
    enum Family {
        /** llama, mistral, yi, gemma, jamba, nerdstash: decode works id by id. */
        SENTENCEPIECE,
        /** gpt2 and the OpenAI models: decode answers only the text. */
        TIKTOKEN,
        /** Hugging Face tokenizer.json models (claude, llama3, qwen2, command-r/a, nemo, deepseek). */
        HUGGINGFACE
    }

    Family family();

    /** Whether this only estimates counts: its ids are not the model's, and it cannot decode. */
    default boolean estimated() {
        return false;
    }

    int[] encode(String text);

    /** The text of the given ids; ids the vocabulary does not know are an error. */
    String decode(int[] ids);

    /** The text of each token, as ST's {@code chunks}. */
    List<String> chunks(int[] ids);

    /** The {@code chunks} of the encode routes for {@code text}, which encoded as {@code ids}. */
    default List<String> encodeChunks(String text, int[] ids) {
        return chunks(ids);
    }
}
