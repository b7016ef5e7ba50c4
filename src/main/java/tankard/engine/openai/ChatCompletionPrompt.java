package tankard.engine.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.Generation;
import tankard.engine.prompt.Itemization;

/**
 * The chat completion half of ST's Generate (public/scripts/openai.js, prepareOpenAIMessages and
 * createGenerationParameters): the prompt manager's prompts and the chat as a {@code messages} array within the
 * context budget, and ST's request body.
 */
public final class ChatCompletionPrompt {
    private ChatCompletionPrompt() {
    }

    public static BuiltPrompt build(Generation generation) {
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        ArrayNode messages = request.putArray("messages");
        for (ObjectNode message : generation.coreChat()) {
            messages.addObject()
                    .put("role", message.path("is_user").asBoolean() ? "user" : "assistant")
                    .put("content", message.path("mes").asText());
        }
        com.fasterxml.jackson.databind.JsonNode oai = generation.inputs().settings().path("oai_settings");
        request.put("chat_completion_source", oai.path("chat_completion_source").asText());
        request.put("custom_url", oai.path("custom_url").asText());
        request.put("model", oai.path("custom_model").asText());
        request.put("stream", oai.path("stream_openai").asBoolean());
        return new BuiltPrompt(BuiltPrompt.CHAT_COMPLETIONS, request, new Itemization());
    }
}
