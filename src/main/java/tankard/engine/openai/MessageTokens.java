package tankard.engine.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;
import tankard.tokenizer.ChatTokenCounter;
import tankard.tokenizer.Tokenizers;

import java.util.List;

/**
 * Token counts of single chat messages as ST's frontend gets them (ST: public/scripts/tokenizers.js,
 * countTokensOpenAIAsync): the server's count of {@code [message]} for the tokenizer model, less one, and less two
 * more unless the count is "full" (Claude's counts always are). Counts are kept as ST keeps them, by the message's
 * JSON ({@link tankard.tokenizer.TokenCounts}).
 */
final class MessageTokens {
    private final Tokenizers tokenizers;
    private final String model;

    MessageTokens(Tokenizers tokenizers, String model) {
        this.tokenizers = tokenizers;
        this.model = model;
    }

    /** A message's tokens, as Message.createAsync and setName count them. */
    int count(ObjectNode message) {
        return count(message, false);
    }

    /** A text's tokens as a system message (ST: counterWrapperOpenAIAsync), or 0 for an empty text. */
    int countText(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        return count(JsJson.object().put("role", "system").put("content", text), true);
    }

    private int count(ObjectNode message, boolean full) {
        int tokens = -1 + tokenizers.counts().count(List.of(model, tokenizers.forCount(model)), JsJson.compact(message),
                json -> ChatTokenCounter.count(tokenizers, model, JsJson.array().add(message)));
        return full || model.equals("claude") ? tokens : tokens - 2;
    }
}
