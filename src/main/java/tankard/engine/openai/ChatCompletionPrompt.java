package tankard.engine.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.Generation;
import tankard.engine.prompt.PromptInputs;
import tankard.engine.prompt.TokenCounter;
import tankard.engine.prompt.Itemization;

import java.util.Map;

/**
 * The chat completion half of ST's Generate (public/scripts/openai.js, prepareOpenAIMessages and
 * createGenerationParameters): the prompt manager's prompts and the chat as a {@code messages} array within the
 * context budget, and ST's request body.
 */
public final class ChatCompletionPrompt {
    private ChatCompletionPrompt() {
    }

    /**
     * ST's getTokenCountAsync with the chat completion API, as extensions and world info count: a text as a
     * system message (counterWrapperOpenAIAsync), with the model's tokenizer.
     */
    public static TokenCounter tokenCounter(PromptInputs inputs) {
        return new MessageTokens(inputs.tokenizers(), TokenizerModel.of(OaiSettings.of(inputs.settings()))).textCounter();
    }

    public static BuiltPrompt build(Generation generation) {
        OaiSettings settings = OaiSettings.of(generation.inputs().settings());
        String tokenizerModel = TokenizerModel.of(settings);
        MessageTokens counter = new MessageTokens(generation.inputs().tokenizers(), tokenizerModel);
        ChatCompletionBuilder builder = new ChatCompletionBuilder(generation, settings, counter);
        ArrayNode messages = builder.build();
        ObjectNode request = GenerationParameters.create(settings, generation, messages, builder.groupNames(),
                tokenizerModel);
        return new BuiltPrompt(BuiltPrompt.CHAT_COMPLETIONS, request,
                itemization(generation, builder.tokensByIdentifier(), counter));
    }

    /**
     * The prompt's parts as ST's itemization shows them for chat completion (ST: public/script.js,
     * parseTokenCounts, and public/scripts/itemized-prompts.js, itemizedParams): the prompt manager's count of
     * each part of the chat completion, and texts counted on their own (world info, summary, author's note,
     * vectors, persona) as getTokenCountAsync counts them. The total is the prompt manager's: every part of the
     * chat completion.
     */
    private static Itemization itemization(Generation generation, Map<String, Integer> tokens, MessageTokens counter) {
        Itemization itemization = new Itemization();
        itemization.add(Itemization.SYSTEM, part(tokens, "main") + part(tokens, "nsfw") + part(tokens, "jailbreak"));
        itemization.add(Itemization.STORY_STRING, part(tokens, "charDescription") + part(tokens, "charPersonality")
                + part(tokens, "scenario"));
        itemization.add(Itemization.WORLD_INFO,
                counter.countText(generation.worldInfo().before() + generation.worldInfo().after()));
        itemization.add(Itemization.EXAMPLES, part(tokens, "dialogueExamples"));
        itemization.add(Itemization.HISTORY, part(tokens, "chatHistory"));
        itemization.add(Itemization.SUMMARY, counter.countText(extensionValue(generation, "1_memory")));
        itemization.add(Itemization.AUTHORS_NOTE, counter.countText(extensionValue(generation, "2_floating_prompt")));
        itemization.add(Itemization.VECTORS, counter.countText(extensionValue(generation, "3_vectors")));
        itemization.add(Itemization.PERSONA, counter.countText(personaInPrompt(generation)));
        itemization.add(Itemization.OTHER, part(tokens, "bias"));
        itemization.total(tokens.values().stream().mapToInt(Integer::intValue).sum());
        return itemization;
    }

    private static int part(Map<String, Integer> tokens, String identifier) {
        return tokens.getOrDefault(identifier, 0);
    }

    private static String extensionValue(Generation generation, String key) {
        ExtensionPrompts.Prompt prompt = generation.extensionPrompts().get(key);
        return prompt == null ? "" : prompt.value();
    }

    /** The persona text itemized: the card fields' persona when the description goes into the prompt. */
    private static String personaInPrompt(Generation generation) {
        JsonNode position = PowerUser.get(generation, "persona_description_position");
        boolean inPrompt = position == null || position.isNumber() && position.doubleValue() == 0;
        return inPrompt && generation.card().persona() != null ? generation.card().persona() : "";
    }
}
