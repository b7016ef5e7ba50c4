package tankard.engine.macro;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.ZonedDateTime;
import java.util.List;

/** Macro environments for tests of the builders: names, settings, card fields, the chat and a clock. */
public final class TestMacros {
    private TestMacros() {
    }

    public static Macros macros(String name1, String name2, ObjectNode settings, MacroEnv.CardFields card,
                                List<MacroEnv.GroupMember> group, ArrayNode chat, ObjectNode metadata, String model,
                                ZonedDateTime now) {
        return new Macros(new MacroEnv(name1, name2, settings, card, null, group, chat, metadata, "", model, 4096, 300,
                "", "", now, null, key -> ""));
    }

    /** Card fields with only the four a test sets; the rest empty. */
    public static MacroEnv.CardFields card(String description, String personality, String scenario, String persona) {
        return new MacroEnv.CardFields(description, personality, scenario, persona, "", "", "", "", "", "", "", List.of());
    }
}
