package tankard.engine.openai;

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
import tankard.tokenizer.ChatTokenCounter;
import tankard.tokenizer.TokenizerFiles;
import tankard.tokenizer.Tokenizers;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A one-on-one chat between the user Wren and the character Bramble, set up by hand: settings.json with its
 * {@code oai_settings} and {@code power_user}, the card's fields, the chat, and what ST's Generate has gathered
 * before it turns to chat completion.
 */
final class ChatScene {
    static final String MODEL = "gpt-4o";
    static final Tokenizers TOKENIZERS = new Tokenizers(new TokenizerFiles(List.of()));

    final ObjectNode settings = JsJson.object();
    final ObjectNode oai = settings.putObject("oai_settings");
    final ObjectNode powerUser = settings.putObject("power_user");
    final List<ObjectNode> chat = new ArrayList<>();
    final List<String> examples = new ArrayList<>();
    final List<ObjectNode> members = new ArrayList<>();
    ObjectNode group;
    String name1 = "Wren";
    String name2 = "Bramble";
    MacroEnv.CardFields card = TestMacros.card("Bramble is a hedgehog who guards the herb garden.",
            "Prickly but kind.", "Dawn in the garden.", "");
    WorldInfo worldInfo = WorldInfo.EMPTY;
    Action action = Action.NORMAL;
    String bias = "";
    Consumer<ExtensionPrompts> extensionPrompts = prompts -> {
    };

    ChatScene() {
        oai.put("chat_completion_source", "openai").put("openai_model", MODEL)
                .put("scenario_format", "").put("personality_format", "");
        ArrayNode prompts = oai.putArray("prompts");
        prompts.add(prompt("main", "Write {{char}}'s next reply to {{user}}."));
        prompts.add(prompt("nsfw", "Keep it gentle."));
        prompts.add(prompt("jailbreak", "Stay in character as {{char}}."));
    }

    static ObjectNode prompt(String identifier, String content) {
        return JsJson.object().put("identifier", identifier).put("name", identifier).put("system_prompt", true)
                .put("role", "system").put("content", content);
    }

    /**
     * Sets the global prompt order: identifiers, each enabled unless it starts with "-". The card and world info
     * markers it does not name are listed switched off: ST sends a marker missing from the order at the end.
     */
    ChatScene order(String... entries) {
        ArrayNode order = oai.putArray("prompt_order").addObject().put("character_id", 100001).putArray("order");
        List<String> named = new ArrayList<>();
        for (String entry : entries) {
            boolean off = entry.startsWith("-");
            named.add(off ? entry.substring(1) : entry);
            order.addObject().put("identifier", off ? entry.substring(1) : entry).put("enabled", !off);
        }
        for (String marker : List.of("worldInfoBefore", "worldInfoAfter", "charDescription", "charPersonality",
                "scenario", "personaDescription")) {
            if (!named.contains(marker)) {
                order.addObject().put("identifier", marker).put("enabled", false);
            }
        }
        return this;
    }

    /** Sets the global prompt order exactly as given, all enabled. */
    ChatScene exactOrder(String... identifiers) {
        ArrayNode order = oai.putArray("prompt_order").addObject().put("character_id", 100001).putArray("order");
        for (String identifier : identifiers) {
            order.addObject().put("identifier", identifier).put("enabled", true);
        }
        return this;
    }

    ChatScene user(String text) {
        return message(name1, true, text);
    }

    ChatScene character(String text) {
        return message(name2, false, text);
    }

    ChatScene message(String name, boolean isUser, String text) {
        chat.add(JsJson.object().put("name", name).put("is_user", isUser).put("mes", text));
        return this;
    }

    Generation generation() {
        ArrayNode chatArray = JsJson.array();
        chat.forEach(chatArray::add);
        ObjectNode character = JsJson.object().put("name", name2).put("avatar", "Bramble.png");
        PromptInputs inputs = new PromptInputs(settings, character, group, members, chatArray, JsJson.object(),
                name -> null, "", ZonedDateTime.parse("2026-01-01T10:00:00Z"), TOKENIZERS);
        Macros macros = TestMacros.macros(name1, name2, settings, card,
                group == null ? null : members.stream().map(m -> new MacroEnv.GroupMember(m.get("name").asText(), false))
                        .toList(), chatArray, JsJson.object(), MODEL, inputs.now());
        ExtensionPrompts extensions = new ExtensionPrompts(macros);
        extensionPrompts.accept(extensions);
        List<ObjectNode> coreChat = chat.stream().map(ObjectNode::deepCopy).toList();
        return new Generation(inputs, action, name1, name2, macros, card, coreChat, 4000, false,
                List.copyOf(examples), worldInfo, extensions, bias);
    }

    BuiltPrompt build() {
        return ChatCompletionPrompt.build(generation());
    }

    /** The messages array of the request, compact. */
    String messages() {
        return JsJson.compact(build().request().get("messages"));
    }

    /** The tokens ST's frontend counts for one message (Message.createAsync / setName). */
    static int cost(ObjectNode message) {
        return ChatTokenCounter.count(TOKENIZERS, MODEL, JsJson.array().add(message)) - 3;
    }

    static int cost(String role, String content) {
        return cost(JsJson.object().put("role", role).put("content", content));
    }

    /** Expected messages: role and content pairs; a role written "system@example_user" carries a name. */
    static String expected(String... roleContentPairs) {
        ArrayNode messages = JsJson.array();
        for (int i = 0; i < roleContentPairs.length; i += 2) {
            String[] role = roleContentPairs[i].split("@", 2);
            ObjectNode message = messages.addObject().put("role", role[0]).put("content", roleContentPairs[i + 1]);
            if (role.length > 1) {
                message.put("name", role[1]);
            }
        }
        return JsJson.compact(messages);
    }
}
