package tankard.engine.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.StringHash;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
        Selection selection = new Selection(loaded(chatLore()), loaded(personaLore()), loaded(globalLore()),
                loaded(characterLore(character, characterFile)), settings.characterStrategy());
        List<Prepared> all = SORTED.get(selection);
        if (all == null) {
            all = List.copyOf(sorted(selection));
            SORTED.put(selection, all);
        }
        List<WorldInfoEntry> sorted = new ArrayList<>(all.size());
        for (Prepared entry : all) {
            sorted.add(new WorldInfoEntry(entry.fields(), entry.world(), entry.decorators(), entry.hash()));
        }
        return sorted;
    }

    private static List<Prepared> sorted(Selection selection) {
        List<Prepared> global = prepared(selection.global());
        List<Prepared> characterLore = prepared(selection.character());
        List<Prepared> entries = new ArrayList<>();
        if (selection.strategy() == 1) {
            entries.addAll(sortByOrder(characterLore));
            entries.addAll(sortByOrder(global));
        } else if (selection.strategy() == 2) {
            entries.addAll(sortByOrder(global));
            entries.addAll(sortByOrder(characterLore));
        } else {
            entries.addAll(global);
            entries.addAll(characterLore);
            sortByOrder(entries);
        }
        List<Prepared> all = new ArrayList<>(sortByOrder(prepared(selection.chat())));
        all.addAll(sortByOrder(prepared(selection.persona())));
        all.addAll(entries);
        return all;
    }

    /** The books that apply to a prompt, each group in its order, and the insertion strategy. */
    private record Selection(List<Loaded> chat, List<Loaded> persona, List<Loaded> global, List<Loaded> character,
                             double strategy) {
    }

    /**
     * The entries of a selection of books as sorted last: a large lorebook's thousand entries are not sorted at
     * every prompt while its books are the same objects (see {@link #PREPARED}).
     */
    private static final Map<Selection, List<Prepared>> SORTED = lru();

    private List<String> globalLore() {
        return settings.globalSelect();
    }

    private List<String> characterLore(ObjectNode character, String characterFile) {
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
        List<String> entries = new ArrayList<>();
        for (String world : worlds) {
            if (!settings.globalSelect().contains(world) && !world.equals(chatWorld) && !world.equals(personaWorld)) {
                entries.add(world);
            }
        }
        return entries;
    }

    private List<String> chatLore() {
        if (chatWorld == null || settings.globalSelect().contains(chatWorld)) {
            return List.of();
        }
        return List.of(chatWorld);
    }

    private List<String> personaLore() {
        if (personaWorld == null || personaWorld.equals(chatWorld) || settings.globalSelect().contains(personaWorld)) {
            return List.of();
        }
        return List.of(personaWorld);
    }

    /** The books of these names that exist, in order. */
    private List<Loaded> loaded(List<String> worlds) {
        List<Loaded> loaded = new ArrayList<>();
        for (String world : worlds) {
            ObjectNode book = books.apply(world);
            if (book != null) {
                loaded.add(new Loaded(book, world));
            }
        }
        return loaded;
    }

    /** The books' entries, prepared, one book after the other: a new list the caller may sort. */
    private static List<Prepared> prepared(List<Loaded> books) {
        List<Prepared> entries = new ArrayList<>();
        for (Loaded book : books) {
            entries.addAll(prepared(book));
        }
        return entries;
    }

    /** A book's entry ready for a scan: its fields (read-only from here on), decorators and hash. */
    private record Prepared(ObjectNode fields, String world, List<String> decorators, long hash) {
    }

    /** A book loaded under a name, compared by the book's identity. */
    private record Loaded(ObjectNode book, String world) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Loaded loaded && loaded.book == book && loaded.world.equals(world);
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(book) * 31 + world.hashCode();
        }
    }

    /**
     * Books' entries as prepared last, by the book object: the caller hands the same object while the book's file
     * is unchanged, and a large book is then not copied, stringified and hashed at every prompt.
     */
    private static final Map<Loaded, List<Prepared>> PREPARED = lru();

    private static <K, V> Map<K, V> lru() {
        return Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > 64;
            }
        });
    }

    /** A book's entries, prepared, in Object.keys order. */
    private static List<Prepared> prepared(Loaded book) {
        List<Prepared> known = PREPARED.get(book);
        if (known == null) {
            known = List.copyOf(prepare(book.book(), book.world()));
            PREPARED.put(book, known);
        }
        return known;
    }

    /**
     * A book's entries in Object.keys order, each a copy with {@code uid} and then {@code world} first
     * ({@code ({uid, ...rest}) => ({uid, world, ...rest})}: a stored {@code world} field wins), prepared.
     */
    private static List<Prepared> prepare(ObjectNode book, String world) {
        List<Prepared> entries = new ArrayList<>();
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
            entries.add(prepare(entry));
        }
        return entries;
    }

    private static List<Prepared> sortByOrder(List<Prepared> entries) {
        JsOrder.sort(entries, (a, b) -> WorldInfoSettings.jsNumber(b.fields().get("order"))
                - WorldInfoSettings.jsNumber(a.fields().get("order")));
        return entries;
    }

    /** Splits the decorators off the content and hashes the entry as ST does ({@code getStringHash(JSON.stringify(entry))}). */
    private static Prepared prepare(ObjectNode entry) {
        JsonNode stored = entry.get("content");
        String content = stored != null && stored.isTextual() ? stored.textValue() : Js.truthy(stored) ? Js.string(stored) : "";
        List<String> decorators = new ArrayList<>();
        String rest = parseDecorators(content, decorators);
        ArrayNode decoratorsJson = entry.putArray("decorators");
        decorators.forEach(decoratorsJson::add);
        entry.put("content", rest);
        return new Prepared(entry, Js.string(entry.get("world")), List.copyOf(decorators),
                StringHash.of(JsJson.stringifyAsJs(entry)));
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
