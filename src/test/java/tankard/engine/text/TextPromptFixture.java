package tankard.engine.text;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.MacroEnv;
import tankard.engine.macro.Macros;
import tankard.engine.macro.TestMacros;
import tankard.engine.prompt.Action;
import tankard.engine.prompt.BuiltPrompt;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.Generation;
import tankard.engine.prompt.PromptInputs;
import tankard.engine.prompt.WorldInfo;
import tankard.json.JsJson;
import tankard.tokenizer.TokenizerFiles;
import tankard.tokenizer.Tokenizers;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A hand-made one-on-one chat between Wren (the user) and Bramble (the innkeeper) for the text completion tests:
 * settings, card fields and messages the tests adjust, and the Generation the engine would hand over.
 */
final class TextPromptFixture {
    static final String USER = "Wren";
    static final String CHAR = "Bramble";

    final ObjectNode settings = JsJson.object();
    final ObjectNode powerUser = settings.putObject("power_user");
    final ObjectNode context = powerUser.putObject("context");
    final ObjectNode sysprompt = powerUser.putObject("sysprompt");
    final ObjectNode instruct = powerUser.putObject("instruct");
    final ObjectNode textgen = settings.putObject("textgenerationwebui_settings");
    final ArrayNode chat = JsJson.array();
    final ObjectNode metadata = JsJson.object();
    final List<String> examples = new ArrayList<>();
    final List<Consumer<ExtensionPrompts>> injections = new ArrayList<>();
    Action action = Action.NORMAL;
    int maxContext = 4000;
    boolean forceName2 = true;
    String promptBias = "";
    String description = "Bramble keeps the inn.";
    String persona = "Wren is a traveller.";
    WorldInfo worldInfo = WorldInfo.EMPTY;
    /** Group members' names, Bramble among them; empty for a one-on-one chat. */
    final List<String> groupMembers = new ArrayList<>();

    TextPromptFixture() {
        settings.put("amount_gen", 200).put("max_context", 4096);
        powerUser.put("tokenizer", 0).put("token_padding", 0).put("custom_stopping_strings", "[\"<END>\"]");
        context.put("story_string", "{{#if system}}{{system}}\n{{/if}}{{#if description}}{{description}}\n{{/if}}"
                        + "{{#if persona}}{{persona}}\n{{/if}}")
                .put("chat_start", "***").put("example_separator", "***").put("use_stop_strings", false)
                .put("names_as_stop_strings", true).put("story_string_position", 0);
        sysprompt.put("enabled", true).put("content", "You are {{char}}.").put("post_history", "");
        instruct.put("enabled", false);
        textgen.put("type", "koboldcpp");
    }

    TextPromptFixture message(String name, String text) {
        chat.addObject().put("name", name).put("is_user", name.equals(USER)).put("mes", text);
        return this;
    }

    TextPromptFixture greetingAndRequest() {
        return message(CHAR, "Welcome in.").message(USER, "A room, please.");
    }

    /** ChatML-like sequences, written for these tests. */
    TextPromptFixture chatMl(String namesBehavior) {
        instruct.put("enabled", true).put("input_sequence", "<|im_start|>user").put("input_suffix", "<|im_end|>\n")
                .put("output_sequence", "<|im_start|>assistant").put("output_suffix", "<|im_end|>\n")
                .put("system_sequence", "<|im_start|>system").put("system_suffix", "<|im_end|>\n")
                .put("stop_sequence", "<|im_end|>").put("wrap", true).put("macro", true)
                .put("names_behavior", namesBehavior).put("story_string_prefix", "<|im_start|>system")
                .put("story_string_suffix", "<|im_end|>\n").put("sequences_as_stop_strings", true);
        context.put("chat_start", "").put("example_separator", "");
        return this;
    }

    /** Alpaca-like sequences, written for these tests. */
    TextPromptFixture alpaca(String namesBehavior) {
        instruct.put("enabled", true).put("input_sequence", "### Instruction:").put("output_sequence", "### Response:")
                .put("last_output_sequence", "### Response (2 paragraphs):").put("wrap", true).put("macro", true)
                .put("names_behavior", namesBehavior).put("sequences_as_stop_strings", true);
        context.put("use_stop_strings", true);
        return this;
    }

    /** Llama-3-like sequences, written for these tests. */
    TextPromptFixture llama3(String namesBehavior) {
        String header = "<|start_header_id|>%s<|end_header_id|>\n\n";
        instruct.put("enabled", true).put("input_sequence", header.formatted("user")).put("input_suffix", "<|eot_id|>")
                .put("output_sequence", header.formatted("assistant")).put("output_suffix", "<|eot_id|>")
                .put("system_sequence", header.formatted("system")).put("system_suffix", "<|eot_id|>")
                .put("stop_sequence", "<|eot_id|>").put("wrap", false).put("macro", true)
                .put("names_behavior", namesBehavior).put("story_string_prefix", header.formatted("system"))
                .put("story_string_suffix", "<|eot_id|>").put("sequences_as_stop_strings", true);
        context.put("chat_start", "").put("example_separator", "");
        return this;
    }

    Generation generation() {
        MacroEnv.CardFields card = TestMacros.card(description, "", "", persona);
        ObjectNode character = JsJson.object().put("name", CHAR).put("avatar", "Bramble.png");
        Macros macros = TestMacros.macros(USER, CHAR, settings, card, null, chat,
                JsJson.object(), "", ZonedDateTime.parse("2026-01-01T10:00:00Z"));
        ExtensionPrompts extensionPrompts = new ExtensionPrompts(macros);
        injections.forEach(injection -> injection.accept(extensionPrompts));
        List<ObjectNode> coreChat = new ArrayList<>();
        chat.forEach(message -> coreChat.add(((ObjectNode) message).deepCopy()));
        ObjectNode group = groupMembers.isEmpty() ? null : JsJson.object().put("id", "inn").put("name", "The Inn");
        List<ObjectNode> members = groupMembers.stream().map(name -> JsJson.object().put("name", name)).toList();
        PromptInputs inputs = new PromptInputs(settings, character, group, members, chat, metadata,
                name -> null, "", ZonedDateTime.parse("2026-01-01T10:00:00Z"),
                new Tokenizers(new TokenizerFiles(List.of())));
        return new Generation(inputs, action, USER, CHAR, macros, card, coreChat, maxContext,
                forceName2 && action != Action.IMPERSONATE, List.copyOf(examples), worldInfo, extensionPrompts,
                promptBias);
    }

    BuiltPrompt build() {
        return TextCompletionPrompt.build(generation());
    }

    static String prompt(BuiltPrompt built) {
        return built.request().get("prompt").textValue();
    }

    static List<String> stops(BuiltPrompt built) {
        List<String> stops = new ArrayList<>();
        built.request().get("stopping_strings").forEach(stop -> stops.add(stop.textValue()));
        return stops;
    }
}
