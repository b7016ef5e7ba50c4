package tankard.engine.macro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.ZonedDateTime;

/**
 * What macros read (ST: public/scripts/macros/engine/MacroEnvBuilder.js): the names, the character's card
 * fields (already cleaned as getCharacterCardFields does), the group's member names, the chat, the model and the
 * clock. {@code now} is fixed for the whole prompt, so a test can pin it.
 *
 * @param settings     the user's settings.json
 * @param character    the card (its top-level fields and {@code data}), or null without a character
 * @param groupMembers the group's member names, enabled ones first as ST lists them, or null outside a group
 * @param mutedMembers names of disabled members (for {@code {{groupNotMuted}}})
 * @param chat         the chat's messages, oldest first
 * @param chatMetadata the chat header's {@code chat_metadata}
 * @param model        the model the request names
 */
public record MacroEnv(String name1, String name2, ObjectNode settings, JsonNode character, CardFields card,
                       java.util.List<String> groupMembers, java.util.List<String> mutedMembers, ArrayNode chat,
                       ObjectNode chatMetadata, String model, ZonedDateTime now) {

    /** The card fields macros print, as getCharacterCardFields answers them. */
    public record CardFields(String description, String personality, String scenario, String persona,
                             String mesExamples, String system, String jailbreak, String charDepthPrompt,
                             String creatorNotes, String version) {
        public static final CardFields EMPTY = new CardFields("", "", "", "", "", "", "", "", "", "");
    }
}
