package tankard.engine.prompt;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.MacroEnv;
import tankard.engine.macro.Macros;

import java.util.List;

/**
 * The state ST's Generate (public/script.js) has reached when it turns to the API at hand: the chat's messages
 * that go into the prompt, the card fields, the example dialogues, world info and the extension prompts. The
 * text completion and chat completion builders take it from here.
 *
 * @param inputs          what the prompt is built from
 * @param action          the generation type
 * @param name1           the user's (persona's) name
 * @param name2           the character's name
 * @param macros          substituteParams for this prompt
 * @param card            getCharacterCardFields, macros substituted
 * @param coreChat        the messages that can go into the prompt (system messages left out), oldest first, each
 *                        a copy with {@code mes} as the prompt has it
 * @param maxContext      getMaxPromptTokens: the context size less the response length
 * @param forceName2      whether the character's name is forced onto the answer line
 * @param examples        the parsed example dialogues (parseMesExamples, world info examples added), each
 *                        starting with {@code <START>}; not yet instruct-formatted
 * @param worldInfo       the world info scan
 * @param extensionPrompts the extension prompts (author's note, depth prompts, summary, vectors, persona …)
 * @param promptBias      the bias the answer starts with (ST's getBiasStrings), empty when none
 */
public record Generation(PromptInputs inputs, Action action, String name1, String name2, Macros macros,
                         MacroEnv.CardFields card, List<ObjectNode> coreChat, int maxContext, boolean forceName2,
                         List<String> examples, WorldInfo worldInfo, ExtensionPrompts extensionPrompts,
                         String promptBias) {

    public boolean isContinue() {
        return action == Action.CONTINUE;
    }

    public boolean isImpersonate() {
        return action == Action.IMPERSONATE;
    }

    /** {@code power_user}: the user's power-user settings. */
    public ObjectNode powerUser() {
        return inputs.settings().get("power_user") instanceof ObjectNode powerUser ? powerUser
                : JsonNodeFactory.instance.objectNode();
    }

    /** Whether the chat is a group chat. */
    public boolean inGroup() {
        return inputs.group() != null;
    }
}
