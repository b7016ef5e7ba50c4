package tankard.engine.prompt;

import java.util.List;
import java.util.Map;

/**
 * What a world info scan gives the prompt (ST: public/scripts/world-info.js, getWorldInfoPrompt's answer).
 *
 * @param before   the entries before the character definitions, joined
 * @param after    the entries after them, joined
 * @param examples entries that go with the example messages ({@code position} 0 before them, 1 after)
 * @param depth    entries injected into the chat, by depth and role
 * @param outlets  entries sent to named outlets, by outlet name
 */
public record WorldInfo(String before, String after, List<Example> examples, List<DepthGroup> depth,
                        Map<String, List<String>> outlets) {
    public static final WorldInfo EMPTY = new WorldInfo("", "", List.of(), List.of(), Map.of());

    /** ST's {@code wi_anchor_position}: before or after the examples. */
    public record Example(int position, String content) {
        public static final int BEFORE = 0;
        public static final int AFTER = 1;
    }

    /** Entries at one depth with one role ({@link ExtensionPrompts} roles). */
    public record DepthGroup(int depth, int role, List<String> entries) {
    }
}
