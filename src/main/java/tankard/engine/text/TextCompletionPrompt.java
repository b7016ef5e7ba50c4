package tankard.engine.text;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.Generation;
import tankard.engine.prompt.Itemization;

/**
 * The text completion half of ST's Generate (public/script.js, from the story string to
 * getTextGenGenerationData): one prompt string with the instruct template's wrapping, and ST's request body.
 */
public final class TextCompletionPrompt {
    private TextCompletionPrompt() {
    }

    public static BuiltPrompt build(Generation generation) {
        ObjectNode request = JsonNodeFactory.instance.objectNode();
        StringBuilder prompt = new StringBuilder();
        for (ObjectNode message : generation.coreChat()) {
            prompt.append(message.path("name").asText()).append(": ").append(message.path("mes").asText()).append('\n');
        }
        prompt.append(generation.name2()).append(':');
        request.put("prompt", prompt.toString());
        return new BuiltPrompt(BuiltPrompt.TEXT_COMPLETIONS, request, new Itemization());
    }
}
