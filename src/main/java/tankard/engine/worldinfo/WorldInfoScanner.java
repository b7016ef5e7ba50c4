package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.Macros;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.TokenCounter;
import tankard.engine.prompt.WorldInfo;

import java.util.List;
import java.util.function.Function;

/**
 * ST's world info scan (public/scripts/world-info.js, getWorldInfoPrompt and checkWorldInfo).
 */
public final class WorldInfoScanner {
    private WorldInfoScanner() {
    }

    /**
     * What a scan reads.
     *
     * @param settings    the user's settings.json ({@code world_info_settings}, {@code power_user})
     * @param character   the character's card, or null
     * @param metadata    the chat's {@code chat_metadata} (chat lore, timed effects)
     * @param books       reads a world info file by name; null when missing
     * @param chat        ST's {@code chatForWI}: the messages' texts, newest first
     * @param global      ST's WIGlobalScanData fields, by name ({@code personaDescription}, {@code trigger} …)
     * @param maxContext  the prompt's token budget (the world info budget is a share of it)
     * @param prompts     the extension prompts (scanned where {@code scan} is set; the author's note gets the
     *                    entries at its top and bottom)
     * @param macros      substituteParams
     * @param tokens      the prompt's token counter
     */
    public record Input(ObjectNode settings, ObjectNode character, ObjectNode metadata,
                        Function<String, ObjectNode> books, List<String> chat,
                        java.util.Map<String, String> global, int maxContext, ExtensionPrompts prompts,
                        Macros macros, TokenCounter tokens) {
    }

    public static WorldInfo scan(Input input) {
        return WorldInfo.EMPTY;
    }
}
