package tankard.engine.text;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.tokenizer.TokenizerFiles;
import tankard.tokenizer.Tokenizers;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TextTokenCounterTest {
    private final Tokenizers tokenizers = new Tokenizers(new TokenizerFiles(List.of()));

    private TextTokenCounter counter(int tokenizer, String type, String model, String connected) {
        ObjectNode settings = JsJson.object();
        settings.putObject("power_user").put("tokenizer", tokenizer);
        ObjectNode textgen = settings.putObject("textgenerationwebui_settings").put("type", type);
        if (model != null) {
            textgen.put(type + "_model", model);
        }
        return TextTokenCounter.of(TextSettings.of(settings), tokenizers, connected);
    }

    @Test
    void noTokenizerEstimatesFromTheUtf8LengthAndAnEmptyTextIsZeroEvenWithPadding() {
        TextTokenCounter none = counter(0, "koboldcpp", null, "");
        assertEquals(2, none.count("Hello")); // 5 bytes / 3.35
        assertEquals(3, none.count("héllo!")); // 7 bytes
        assertEquals(0, none.count("", 64));
        assertEquals(66, none.count("Hello", 64));
    }

    @Test
    void gpt2CountsWithItsVocabulary() {
        assertEquals(2, counter(1, "koboldcpp", null, "").count("Hello world"));
    }

    @Test
    void bestMatchPicksTheVocabularyFromTheModelName() {
        assertEquals("llama3", counter(99, "llamacpp", "Meta-Llama-3-8B-Instruct.gguf", "").name());
        assertEquals("mistral", counter(99, "koboldcpp", null, "koboldcpp/Mistral-7B").name());
        assertEquals("llama", counter(99, "koboldcpp", null, "").name());
        assertEquals("llama3", counter(9, "ooba", null, "llama-3.1-70b").name());
        assertEquals("gemma", counter(13, "llamacpp", "Meta-Llama-3-8B", "").name());
    }

    @Test
    void bestMatchForOpenRouterAndDreamGenFollowsTheirModels() {
        assertEquals("llama3", counter(99, "openrouter", "meta-llama/llama-3-70b-instruct", "").name());
        assertEquals("openai", counter(99, "openrouter", "anthropic/claude-3-haiku", "").name());
        assertEquals("jamba", counter(99, "openrouter", "ai21/jamba-1.5", "").name());
        assertEquals("llama3", counter(99, "dreamgen", "lucid-v1-extra-large/text", "").name());
        assertEquals("mistral", counter(99, "dreamgen", "lucid-v1-medium/text", "").name());
    }
}
