package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.StringHash;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The entries a scan considers, from the books that apply to the chat (ST: public/scripts/world-info.js,
 * getSortedEntries with getGlobalLore, getCharacterLore, getChatLore and getPersonaLore).
 */
final class WorldInfoBooks {
    private static final String[] KNOWN_DECORATORS = {"@@activate", "@@dont_activate"};

    private final WorldInfoSettings settings;
    private final Function<String, ObjectNode> books;
    private final String chatWorld;
    private final String personaWorld;

    /** A book ST cannot read: getSortedEntries then catches the error and gives no entries at all. */
    private static final class UnreadableBook extends RuntimeException {
        UnreadableBook() {
            super(null, null, false, false);
        }
    }

    private WorldInfoBooks(WorldInfoSettings settings, Function<String, ObjectNode> books, String chatWorld,
                           String personaWorld) {
        this.settings = settings;
        this.books = books;
        this.chatWorld = chatWorld;
        this.personaWorld = personaWorld;
    }

    /**
     * ST's getSortedEntries: chat lore, then persona lore, then global and character lore as the insertion strategy
     * says, each sorted by order; every entry's decorators parsed and its hash taken.
     *
     * @param characterFile the character's avatar file name without extension (getCharaFilename), or null
     */
    static List<WorldInfoEntry> sorted(WorldInfoSettings settings, ObjectNode settingsJson, ObjectNode character,
                                       String characterFile, ObjectNode metadata,
                                       Function<String, ObjectNode> books) {
        String chatWorld = truthyString(metadata.get("world_info"));
        String personaWorld = truthyString(Js.get(settingsJson, "power_user.persona_description_lorebook"));
        WorldInfoBooks lore = new WorldInfoBooks(settings, books, chatWorld, personaWorld);
        try {
            return lore.sorted(character, characterFile);
        } catch (UnreadableBook e) {
            return List.of();
        }
    }

    private List<WorldInfoEntry> sorted(ObjectNode character, String characterFile) {
        List<ObjectNode> global = globalLore();
        List<ObjectNode> characterLore = characterLore(character, characterFile);
        List<ObjectNode> chat = chatLore();
        List<ObjectNode> persona = personaLore();
        List<ObjectNode> entries = new ArrayList<>();
        double strategy = settings.characterStrategy();
        if (strategy == 1) {
            entries.addAll(sortByOrder(characterLore));
            entries.addAll(sortByOrder(global));
        } else if (strategy == 2) {
            entries.addAll(sortByOrder(global));
            entries.addAll(sortByOrder(characterLore));
        } else {
            entries.addAll(global);
            entries.addAll(characterLore);
            sortByOrder(entries);
        }
        List<ObjectNode> all = new ArrayList<>(sortByOrder(chat));
        all.addAll(sortByOrder(persona));
        all.addAll(entries);
        List<WorldInfoEntry> sorted = new ArrayList<>();
        for (ObjectNode entry : all) {
            sorted.add(prepare(entry));
        }
        return sorted;
    }

    private List<ObjectNode> globalLore() {
        List<ObjectNode> entries = new ArrayList<>();
        for (String world : settings.globalSelect()) {
            entries.addAll(load(world));
        }
        return entries;
    }

    private List<ObjectNode> characterLore(ObjectNode character, String characterFile) {
        Set<String> worlds = new LinkedHashSet<>();
        String base = truthyString(Js.get(character, "data.extensions.world"));
        if (base != null) {
            worlds.add(base);
        }
        JsonNode charLore = settings.charLore();
        if (charLore != null && charLore.isArray()) {
            for (JsonNode extra : charLore) {
                if (extra.isObject() && extra.path("name").isTextual() && extra.get("name").textValue().equals(characterFile)) {
                    extra.path("extraBooks").forEach(book -> {
                        if (book.isTextual()) {
                            worlds.add(book.textValue());
                        }
                    });
                    break;
                }
            }
        }
        List<ObjectNode> entries = new ArrayList<>();
        for (String world : worlds) {
            if (!settings.globalSelect().contains(world) && !world.equals(chatWorld) && !world.equals(personaWorld)) {
                entries.addAll(load(world));
            }
        }
        return entries;
    }

    private List<ObjectNode> chatLore() {
        if (chatWorld == null || settings.globalSelect().contains(chatWorld)) {
            return new ArrayList<>();
        }
        return load(chatWorld);
    }

    private List<ObjectNode> personaLore() {
        if (personaWorld == null || personaWorld.equals(chatWorld) || settings.globalSelect().contains(personaWorld)) {
            return new ArrayList<>();
        }
        return load(personaWorld);
    }

    /**
     * A book's entries in Object.keys order, each a copy with {@code uid} and then {@code world} first
     * ({@code ({uid, ...rest}) => ({uid, world, ...rest})}: a stored {@code world} field wins).
     */
    private List<ObjectNode> load(String world) {
        ObjectNode book = books.apply(world);
        List<ObjectNode> entries = new ArrayList<>();
        if (book == null) {
            return entries;
        }
        JsonNode stored = book.get("entries");
        if (stored == null || !stored.isContainerNode()) {
            throw new UnreadableBook();
        }
        List<JsonNode> values = new ArrayList<>();
        if (stored.isObject()) {
            JsOrder.keys((ObjectNode) stored).forEach(key -> values.add(stored.get(key)));
        } else {
            stored.forEach(values::add);
        }
        for (JsonNode value : values) {
            if (!value.isObject()) {
                throw new UnreadableBook();
            }
            ObjectNode entry = JsJson.object();
            if (value.has("uid")) {
                entry.set("uid", value.get("uid"));
            }
            entry.put("world", world);
            value.fields().forEachRemaining(field -> {
                if (!field.getKey().equals("uid")) {
                    entry.set(field.getKey(), field.getValue());
                }
            });
            entries.add(entry);
        }
        return entries;
    }

    private static List<ObjectNode> sortByOrder(List<ObjectNode> entries) {
        JsOrder.sort(entries, (a, b) -> WorldInfoSettings.jsNumber(b.get("order")) - WorldInfoSettings.jsNumber(a.get("order")));
        return entries;
    }

    /** Splits the decorators off the content and hashes the entry as ST does ({@code getStringHash(JSON.stringify(entry))}). */
    private static WorldInfoEntry prepare(ObjectNode entry) {
        JsonNode stored = entry.get("content");
        String content = stored != null && stored.isTextual() ? stored.textValue() : Js.truthy(stored) ? Js.string(stored) : "";
        List<String> decorators = new ArrayList<>();
        String rest = parseDecorators(content, decorators);
        ArrayNode decoratorsJson = entry.putArray("decorators");
        decorators.forEach(decoratorsJson::add);
        entry.put("content", rest);
        return new WorldInfoEntry(entry, Js.string(entry.get("world")), decorators, StringHash.of(JsJson.stringifyAsJs(entry)));
    }

    /** ST's parseDecorators: leading {@code @@} lines that name a known decorator; answers the content after them. */
    static String parseDecorators(String content, List<String> decorators) {
        if (!content.startsWith("@@")) {
            return content;
        }
        String[] lines = content.split("\n", -1);
        boolean fallbacked = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (!line.startsWith("@@")) {
                return String.join("\n", java.util.Arrays.asList(lines).subList(i, lines.length));
            }
            if (line.startsWith("@@@") && !fallbacked) {
                continue;
            }
            if (isKnownDecorator(line)) {
                decorators.add(line.startsWith("@@@") ? line.substring(1) : line);
                fallbacked = false;
            } else {
                fallbacked = true;
            }
        }
        return content;
    }

    private static boolean isKnownDecorator(String line) {
        String data = line.startsWith("@@@") ? line.substring(1) : line;
        for (String known : KNOWN_DECORATORS) {
            if (data.startsWith(known)) {
                return true;
            }
        }
        return false;
    }

    private static String truthyString(JsonNode node) {
        return Js.truthy(node) ? Js.string(node) : null;
    }
}
