package tankard.engine.macro;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.ZonedDateTime;
import java.util.List;
import java.util.function.Function;

/**
 * What macros read for one prompt (ST: the globals public/scripts/macros/engine/MacroEnvBuilder.js and the macro
 * definitions read). {@code now} is fixed for the whole prompt, so a test can pin it.
 *
 * @param name1            the persona's name (ST's {@code name1})
 * @param name2            the character's name (ST's {@code name2}); in a group, the member who speaks
 * @param settings         the user's settings.json: {@code main_api}, {@code power_user} (instruct, sysprompt,
 *                         context, reasoning, prefer_character_prompt, experimental_macro_engine) and
 *                         {@code extension_settings} (variables.global, note)
 * @param card             getCharacterCardFields for the character (EMPTY without one)
 * @param characterAvatar  the character's avatar file name ({@code Bramble.png}; ST's {@code this_chid}'s card), or
 *                         null without a character: {{charAuthorsNote}} looks the character up by it
 * @param groupMembers     the group's members in {@code group.members} order (only those whose card exists), or
 *                         null outside a group
 * @param chat             ST's {@code chat} when the prompt is built: every message, system ones too, oldest first,
 *                         the new user message already in it
 * @param chatMetadata     the chat header's {@code chat_metadata} (variables, note_prompt, lastInContextMessageId,
 *                         chat_id_hash, main_chat, pick_reroll_seed); read only, the variable macros work on a copy
 * @param chatId           getCurrentChatId: the chat file's name without {@code .jsonl} (a group's {@code chat_id}),
 *                         which seeds {{pick}}
 * @param model            getGeneratingModel
 * @param maxContext       getMaxContextTokens
 * @param maxResponse      getMaxResponseTokens
 * @param input            the send box's text ({{input}}); ST empties the box on send before building the prompt
 * @param generationType   the generation's type as GENERATION_STARTED reports it ("normal", "regenerate",
 *                         "swipe", "continue", "impersonate"), for {{lastGenerationType}}; "" when none
 * @param now              the clock
 * @param instructExamples formatInstructModeExamples (public/scripts/instruct-mode.js) for {{mesExamples}} in
 *                         instruct mode; null leaves the parsed examples unformatted
 * @param outlet           the world info outlet prompt by key ({{outlet::key}}: extension prompt
 *                         {@code customWIOutlet_<key>}), or null when there are none
 */
public record MacroEnv(String name1, String name2, ObjectNode settings, CardFields card, String characterAvatar,
                       List<GroupMember> groupMembers, ArrayNode chat, ObjectNode chatMetadata, String chatId,
                       String model,
                       int maxContext, int maxResponse, String input, String generationType, ZonedDateTime now,
                       ExamplesFormatter instructExamples, Function<String, String> outlet) {

    /**
     * The card fields macros print, as getCharacterCardFields answers them.
     *
     * @param alternateGreetings the card's alternate greetings ({{greeting::1}} and up)
     */
    public record CardFields(String description, String personality, String scenario, String persona,
                             String mesExamples, String system, String jailbreak, String charDepthPrompt,
                             String creatorNotes, String version, String firstMessage,
                             List<String> alternateGreetings) {
        public static final CardFields EMPTY = new CardFields("", "", "", "", "", "", "", "", "", "", "", List.of());
    }

    /**
     * A group member.
     *
     * @param name  the member's card name
     * @param muted whether the member's avatar is in the group's {@code disabled_members}
     */
    public record GroupMember(String name, boolean muted) {
    }

    /** formatInstructModeExamples(examples, name1, name2): each parsed example block formatted for instruct mode. */
    @FunctionalInterface
    public interface ExamplesFormatter {
        List<String> format(List<String> examples, String name1, String name2);
    }
}
