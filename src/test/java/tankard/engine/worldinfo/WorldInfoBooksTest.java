package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.util.StringHash;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class WorldInfoBooksTest {
    private final ScanFixture fixture = new ScanFixture();

    private void book(String name, int order) {
        fixture.book(name, "{\"uid\":0,\"key\":[\"x\"],\"content\":\"" + name + "\",\"order\":" + order + "}");
    }

    private List<String> worlds() {
        List<String> worlds = new ArrayList<>();
        WorldInfoBooks.sorted(WorldInfoSettings.read(fixture.settings), fixture.settings, fixture.character, "Bramble",
                fixture.metadata, fixture.books::get).forEach(entry -> worlds.add(entry.world));
        return worlds;
    }

    private void allSources() {
        book("Global", 10);
        book("Card", 20);
        book("Extra", 30);
        book("ChatBook", 1);
        book("PersonaBook", 2);
        fixture.globalSelect.add("Global");
        fixture.character = (ObjectNode) JsJson.parse("{\"avatar\":\"Bramble.png\",\"data\":{\"extensions\":{\"world\":\"Card\"}}}");
        ((ObjectNode) fixture.worldInfoSettings.get("world_info")).set("charLore",
                JsJson.parse("[{\"name\":\"Other\",\"extraBooks\":[\"Global\"]},{\"name\":\"Bramble\",\"extraBooks\":[\"Extra\",\"Card\"]}]"));
        fixture.metadata.put("world_info", "ChatBook");
        fixture.settings.putObject("power_user").put("persona_description_lorebook", "PersonaBook");
    }

    @Test
    void chatAndPersonaLoreComeFirstThenCharacterLoreByDefault() {
        allSources();
        assertEquals(List.of("ChatBook", "PersonaBook", "Extra", "Card", "Global"), worlds());
    }

    @Test
    void globalFirstAndEvenlyStrategies() {
        allSources();
        fixture.worldInfoSettings.put("world_info_character_strategy", 2);
        assertEquals(List.of("ChatBook", "PersonaBook", "Global", "Extra", "Card"), worlds());
        book("Global", 25);
        fixture.worldInfoSettings.put("world_info_character_strategy", 0);
        assertEquals(List.of("ChatBook", "PersonaBook", "Extra", "Global", "Card"), worlds());
    }

    @Test
    void aBookSelectedGloballyIsNotReadAgainAsChatOrCharacterLore() {
        allSources();
        fixture.globalSelect.add("Card");
        fixture.globalSelect.add("ChatBook");
        ((ObjectNode) fixture.settings.get("power_user")).put("persona_description_lorebook", "ChatBook");
        assertEquals(List.of("Extra", "Card", "Global", "ChatBook"), worlds());
    }

    @Test
    void entriesOfABookAreReadInObjectKeysOrderBeforeTheStableSort() {
        fixture.book("Lore");
        ObjectNode entries = (ObjectNode) fixture.books.get("Lore").get("entries");
        entries.set("name", JsJson.parse("{\"uid\":\"name\",\"content\":\"\"}"));
        entries.set("10", JsJson.parse("{\"uid\":10,\"content\":\"\"}"));
        entries.set("2", JsJson.parse("{\"uid\":2,\"content\":\"\"}"));
        fixture.globalSelect.add("Lore");
        List<String> keys = new ArrayList<>();
        WorldInfoBooks.sorted(WorldInfoSettings.read(fixture.settings), fixture.settings, null, null, fixture.metadata,
                fixture.books::get).forEach(entry -> keys.add(entry.key()));
        assertEquals(List.of("Lore.2", "Lore.10", "Lore.name"), keys);
    }

    @Test
    void aBookWithoutEntriesLeavesNoEntriesAtAll() {
        book("Good", 1);
        fixture.books.put("Broken", JsJson.object());
        fixture.globalSelect.add("Good");
        fixture.globalSelect.add("Broken");
        assertEquals(List.of(), worlds());
    }

    @Test
    void hashIsStsStringHashOfTheEntryAsTheScanSeesIt() {
        // JavaScript: getStringHash(JSON.stringify({uid:1,world:'Lore',key:['x'],content:'C',order:1.5,decorators:[]}))
        fixture.book("Lore", "{\"key\":[\"x\"],\"uid\":1,\"content\":\"C\",\"order\":1.5}");
        fixture.globalSelect.add("Lore");
        List<WorldInfoEntry> entries = WorldInfoBooks.sorted(WorldInfoSettings.read(fixture.settings), fixture.settings,
                null, null, fixture.metadata, fixture.books::get);
        assertEquals(6605138517808538L, entries.get(0).hash);
        assertEquals(3338908027751811L, StringHash.of(""));
        assertEquals(7682731157318527L, StringHash.of("\u00e9moji \uD83D\uDE00"));
    }

    @Test
    void decoratorsAreLeadingKnownAtLines() {
        List<String> decorators = new ArrayList<>();
        assertEquals("text\n@@activate", WorldInfoBooks.parseDecorators("@@activate\n@@unknown\ntext\n@@activate", decorators));
        assertEquals(List.of("@@activate"), decorators);
        decorators.clear();
        // "@@@" lines are fallbacks: used only after an unknown decorator.
        assertEquals("body", WorldInfoBooks.parseDecorators("@@bogus\n@@@dont_activate\nbody", decorators));
        assertEquals(List.of("@@dont_activate"), decorators);
    }
}
