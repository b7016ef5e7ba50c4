package tankard.engine;

import tankard.engine.prompt.PromptInputs;
import tankard.engine.prompt.TokenCounter;
import tankard.tokenizer.Tokenizer;

/**
 * ST's getTokenCountAsync (public/scripts/tokenizers.js): the tokenizer the frontend counts a text with, which
 * for chat completion is the model's and for text completion the one {@code power_user.tokenizer} names.
 */
final class EngineTokens {
    private EngineTokens() {
    }

    static TokenCounter counter(PromptInputs inputs, boolean chatCompletion) {
        Tokenizer tokenizer = chatCompletion
                ? inputs.tokenizers().forCount(PromptEngine.text(inputs.settings().path("oai_settings").get("openai_model")))
                : inputs.tokenizers().forModel("");
        return text -> text.isEmpty() ? 0 : tokenizer.encode(text).length;
    }
}
