package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.MacroEnv;
import tankard.engine.macro.Macros;
import tankard.engine.macro.TestMacros;
import tankard.engine.prompt.Action;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.TokenCounter;
import tankard.engine.prompt.WorldInfo;
import tankard.json.JsJson;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/** Builds a scan's input from JSON written in the tests: books, settings, chat. */
final class ScanFixture {
    /** One token per whitespace-separated word. */
    static final TokenCounter WORDS = text -> text.isBlank() ? 0 : text.strip().split("\\s+").length;

    final ObjectNode settings = JsJson.object();
    /** settings.json's {@code world_info_settings}. */
    final ObjectNode worldInfoSettings = settings.putObject("world_info_settings");
    final ArrayNode globalSelect = worldInfoSettings.putObject("world_info").putArray("globalSelect");
    final ObjectNode metadata = JsJson.object();
    final Map<String, ObjectNode> books = new HashMap<>();
    final List<ObjectNode> chat = new ArrayList<>();
    ObjectNode character;
    MacroEnv.CardFields card = MacroEnv.CardFields.EMPTY;
    Action action = Action.NORMAL;
    int maxContext = 10_000;
    boolean authorsNoteActive;
    RandomGenerator random = fixedRandom(0.5);
    ExtensionPrompts prompts;

    ScanFixture() {
        prompts = new ExtensionPrompts(macros());
    }

    /** A global book made of the given entries (JSON objects), keyed by their uids. */
    ScanFixture globalBook(String name, String... entries) {
        book(name, entries);
        globalSelect.add(name);
        return this;
    }

    ScanFixture book(String name, String... entries) {
        ObjectNode book = JsJson.object();
        ObjectNode stored = book.putObject("entries");
        for (String entry : entries) {
            ObjectNode node = (ObjectNode) JsJson.parse(entry);
            stored.set(node.get("uid").asText(), node);
        }
        books.put(name, book);
        return this;
    }

    ScanFixture setting(String name, Object value) {
        worldInfoSettings.set(name, JsJson.tree(value));
        return this;
    }

    /** Messages oldest first, each "name: text" as "Name|text". */
    ScanFixture chat(String... messages) {
        for (String message : messages) {
            String[] parts = message.split("\\|", 2);
            ObjectNode node = JsJson.object();
            node.put("name", parts[0]);
            node.put("mes", parts[1]);
            chat.add(node);
        }
        return this;
    }

    Macros macros() {
        return TestMacros.macros("Alice", "Bramble", settings, card, null,
                JsJson.array(), metadata, "test-model", ZonedDateTime.parse("2026-01-01T10:00:00Z"));
    }

    WorldInfoScanner.Input input() {
        return new WorldInfoScanner.Input(settings, character, metadata, books::get, chat, card, action, maxContext,
                prompts, authorsNoteActive, macros(), WORDS, random);
    }

    WorldInfo scan() {
        return WorldInfoScanner.scan(input());
    }

    /** A RandomGenerator whose nextDouble answers the given values in turn (the last one again after that). */
    static RandomGenerator fixedRandom(double... values) {
        return new RandomGenerator() {
            private int next;

            @Override
            public long nextLong() {
                throw new UnsupportedOperationException();
            }

            @Override
            public double nextDouble() {
                return values[Math.min(next++, values.length - 1)];
            }
        };
    }
}
