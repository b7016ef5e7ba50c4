package tankard.engine.openai;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.prompt.TokenCounter;
import tankard.json.JsJson;
import tankard.tokenizer.ChatTokenCounter;
import tankard.tokenizer.Lines;
import tankard.tokenizer.Tokenizers;

import java.util.List;

/**
 * Token counts of single chat messages as ST's frontend gets them (ST: public/scripts/tokenizers.js,
 * countTokensOpenAIAsync): the server's count of {@code [message]} for the tokenizer model, less one, and less two
 * more unless the count is "full" (Claude's counts always are). Counts are kept as ST keeps them, by the message's
 * JSON, a text counted as a system message by the text ({@link tankard.tokenizer.TokenCounts}).
 */
final class MessageTokens {
    private final Tokenizers tokenizers;
    private final String model;
    /** What a message's count depends on besides its JSON: the model and the vocabulary it resolves to. */
    private final List<Object> messages;
    /** The same for a text counted as a system message, kept by the text itself. */
    private final List<Object> systemTexts;

    MessageTokens(Tokenizers tokenizers, String model) {
        this.tokenizers = tokenizers;
        this.model = model;
        this.messages = List.of(model, tokenizers.forCount(model));
        this.systemTexts = List.of(model, messages.get(1), "system");
    }

    /** A message's tokens, as Message.createAsync and setName count them. */
    int count(ObjectNode message) {
        int tokens = -1 + tokenizers.counts().count(messages, JsJson.compact(message),
                json -> ChatTokenCounter.count(tokenizers, model, JsJson.array().add(message)));
        return model.equals("claude") ? tokens : tokens - 2;
    }

    /** A text's tokens as a system message (ST: counterWrapperOpenAIAsync), or 0 for an empty text. */
    int countText(String text) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        // by the text, not the message's JSON: world info counts a growing text once per entry
        return -1 + tokenizers.counts().count(systemTexts, text, this::countSystem);
    }

    /** {@link #countText} of a text made of lines, found by its lines. */
    int countText(Lines text) {
        return text.length() == 0 ? 0 : -1 + tokenizers.counts().count(systemTexts, text, this::countSystem);
    }

    private int countSystem(String content) {
        return ChatTokenCounter.count(tokenizers, model,
                JsJson.array().add(JsJson.object().put("role", "system").put("content", content)));
    }

    /** ST's getTokenCountAsync with the chat completion API: texts counted as system messages. */
    TokenCounter textCounter() {
        return new TokenCounter() {
            @Override
            public int count(String text) {
                return countText(text);
            }

            @Override
            public int count(Lines text) {
                return countText(text);
            }
        };
    }
}
