package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.chat.FolderUsage;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.Sanitize;
import tankard.util.StTime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Character objects as ST's frontend receives them (ST: src/endpoints/characters.js, processCharacter): cards read
 * through the cache, normalized, plus the values ST computes from the file system.
 */
public final class CharacterService {
    private static final Logger LOG = LoggerFactory.getLogger(CharacterService.class);

    /** The members of the character that the reduced object of lazy loading keeps, when it has them. */
    static final String[] SHALLOW_KEYS = {"name", "avatar", "chat", "fav", "date_added", "create_date", "date_last_chat",
            "chat_size", "data_size", "tags"};
    /** How many cards a first list parses ahead of what it writes. */
    private static final int PARSE_WINDOW = 256;

    private final CardStore cards;
    private final ChatStore chats;
    private final CardCache cache;
    private final ExecutorService parsers;
    private final LongSupplier clock;
    private final CardIndexes indexes;
    private final AtomicLong parsed = new AtomicLong();
    /** The parses under way, so that lists asked for at once (a crowd's first page loads) parse each card once. */
    private final ConcurrentHashMap<CardCache.Key, FutureTask<CardIndex.Entry>> parsing = new ConcurrentHashMap<>();

    /**
     * @param parsers a bounded pool that reads the cards of a list in parallel; its tasks wait on nothing
     */
    public CharacterService(CardStore cards, ChatStore chats, CardCache cache, ExecutorService parsers, LongSupplier clock,
                            CardIndexes indexes) {
        this.cards = cards;
        this.chats = chats;
        this.cache = cache;
        this.parsers = parsers;
        this.clock = clock;
        this.indexes = indexes;
    }

    /**
     * Every character that can be read, as a JSON array streamed element by element; unreadable cards are left
     * out (logged), as in ST. The directory listing and stats happen here, so their failures surface before a
     * byte is sent; the cards the index does not know (new or changed) are parsed while the answer is written.
     */
    public CharacterList all(String user, boolean shallow) throws IOException {
        List<CardFile> files = cards.list(user);
        CardIndex index = indexes.of(user);
        Set<String> chatFolders = chats.characterFolders(user);
        List<FolderUsage> usages = new ArrayList<>(files.size());
        for (CardFile file : files) {
            usages.add(chatUsage(user, file, chatFolders));
        }
        ParsedInOrder entries = entries(user, files, index);
        // Saved once the answer is out: the save is not on the way of the first list, nor competing with it.
        Runnable afterWrite = () -> saveLater(index);
        return new CharacterList(index, files, entries, usages, shallow, StTime.humanized(clock.getAsLong()), afterWrite);
    }

    /**
     * Parses the cards of the user's library that the index does not know, and saves the index: run in the
     * background at start, so that the first list finds them ready (a list asked for meanwhile shares the parses
     * under way). Waits for the parses: call it on a thread of its own.
     */
    public void prepare(String user) throws IOException, InterruptedException {
        CardIndex index = indexes.of(user);
        List<CardFile> unknown = cards.list(user).stream().filter(file -> index.get(file) == null).toList();
        CardTexts texts = new CardTexts(cards, user, unknown.stream().map(CardFile::name).toList());
        List<Future<CardIndex.Entry>> parses = new ArrayList<>();
        for (CardFile file : unknown) {
            parses.add(parse(user, index, file, texts));
        }
        for (Future<CardIndex.Entry> parse : parses) {
            try {
                parse.get();
            } catch (ExecutionException e) {
                LOG.warn("Could not prepare a card of {}: {}", user, e.getCause().toString());
            }
        }
        saveLater(index);
    }

    /**
     * One page of the library (see CharacterPage), from the same index entries as {@link #all}: only the cards the
     * index does not know yet are parsed, and only the page's entries are serialised.
     */
    public ObjectNode page(String user, CharacterPage.Query query) throws IOException {
        List<CardFile> files = cards.list(user);
        CardIndex index = indexes.of(user);
        List<CharacterPage.Card> listed = new ArrayList<>(files.size());
        try {
            ParsedInOrder entries = entries(user, files, index);
            for (int i = 0; i < files.size(); i++) {
                CardIndex.Entry entry = entries.get(i);
                if (entry.listed()) {
                    listed.add(new CharacterPage.Card(files.get(i), entry));
                }
            }
        } finally {
            saveLater(index);
        }
        Set<String> chatFolders = chats.characterFolders(user);
        return CharacterPage.answer(query, listed, file -> chatUsage(user, file, chatFolders), index);
    }

    /** The files' entries, known or parsed as they are read; the index forgets the cards that are gone. */
    private ParsedInOrder entries(String user, List<CardFile> files, CardIndex index) {
        List<CardIndex.Entry> known = new ArrayList<>(files.size());
        Set<String> names = new HashSet<>();
        List<String> unknown = new ArrayList<>();
        for (CardFile file : files) {
            names.add(file.name());
            CardIndex.Entry entry = index.get(file);
            known.add(entry);
            if (entry == null) {
                unknown.add(file.name());
            }
        }
        index.retain(names);
        CardTexts texts = new CardTexts(cards, user, unknown);
        return new ParsedInOrder(files, known, file -> parse(user, index, file, texts), PARSE_WINDOW);
    }

    /**
     * Starts the parse of a card the index did not know when the list began, or joins the one another list has
     * under way; the entry goes to the index when it is parsed.
     */
    private Future<CardIndex.Entry> parse(String user, CardIndex index, CardFile file, CardTexts texts) {
        CardCache.Key key = file.key(user);
        FutureTask<CardIndex.Entry> mine = new FutureTask<>(() -> {
            CardIndex.Entry known = index.get(file); // parsed by a list since, its task over
            if (known != null) {
                return known;
            }
            CardIndex.Entry entry = entry(file, texts);
            index.put(entry);
            return entry;
        }) {
            @Override
            protected void done() {
                parsing.remove(key, this);
            }
        };
        FutureTask<CardIndex.Entry> underWay = parsing.putIfAbsent(key, mine);
        if (underWay != null) {
            return underWay;
        }
        parsers.execute(mine);
        return mine;
    }

    private void saveLater(CardIndex index) {
        if (index.hasUnsaved()) {
            indexes.saveLater(index);
        }
    }

    /** A card's chat usage; a card whose chat folder is not in {@code chatFolders} has none, unread. */
    private FolderUsage chatUsage(String user, CardFile file, Set<String> chatFolders) throws IOException {
        String folder = ChatFolder.nameOf(file.name());
        return folder.isEmpty() || chatFolders.contains(folder) ? chatUsage(user, file.name()) : FolderUsage.EMPTY;
    }

    /** A card's list entry, with placeholders where the per-list values go; unlisted when it cannot be read. */
    private CardIndex.Entry entry(CardFile file, CardTexts texts) {
        parsed.incrementAndGet();
        try {
            ListTemplate.Pair templates = listTemplates(texts.text(file.name()), file.name());
            if (templates != null) {
                return new CardIndex.Entry(file.name(), file.size(), file.modifiedMs(), templates.full(), templates.shallow());
            }
        } catch (CardFormatException | IOException e) {
            LOG.warn("Could not process the character card {}: {}", file.name(), e.toString());
        }
        return new CardIndex.Entry(file.name(), file.size(), file.modifiedMs(), null, null);
    }

    /**
     * The full and shallow list templates of a card text for the card file {@code avatar}; null when the card is
     * not listed (its name is not truthy). Cards as ST writes them are copied from the text (CanonicalCard).
     */
    static ListTemplate.Pair listTemplates(byte[] text, String avatar) {
        ListTemplate.Pair canonical = CanonicalCard.templates(text, avatar);
        return canonical != null ? canonical : parsedTemplates(text, avatar);
    }

    /** {@link #listTemplates} by parsing the card and normalizing its tree, which every card can take. */
    static ListTemplate.Pair parsedTemplates(byte[] text, String avatar) {
        CardData card = CardCodec.readJson(text);
        ObjectNode character = normalized(card, ListTemplate.sentinel(ListTemplate.Hole.NOW));
        // the card's text goes into the template from its bytes, never decoded
        withComputedFields(avatar, ListTemplate.textPlaceholder(), character,
                ListTemplate.placeholder(ListTemplate.Hole.DATE_ADDED),
                ListTemplate.placeholder(ListTemplate.Hole.CREATE_DATE),
                ListTemplate.placeholder(ListTemplate.Hole.CHAT_SIZE),
                ListTemplate.placeholder(ListTemplate.Hole.DATE_LAST_CHAT));
        if (!Js.truthy(character.get("name"))) {
            return null;
        }
        return new ListTemplate.Pair(ListTemplate.of(character, card.utf8()), ListTemplate.of(shallow(character)));
    }

    /** How many cards lists have parsed since the start (an unchanged card is parsed once, ever). */
    public long parsedCards() {
        return parsed.get();
    }

    /** One full character; a card that cannot be read answers ST's placeholder object. */
    public ObjectNode get(String user, String avatar) throws IOException {
        if (!Sanitize.isSafeSegment(avatar)) {
            throw Refusal.badRequest("Invalid avatar_url");
        }
        CardFile file = cards.find(user, avatar).orElseThrow(() -> Refusal.notFound("Not Found"));
        ObjectNode character = character(user, file, StTime.humanized(clock.getAsLong()));
        if (character == null) {
            return JsJson.object().put("date_added", 0).put("date_last_chat", 0).put("chat_size", 0);
        }
        return character;
    }

    /**
     * ST's processCharacter: the normalized card plus avatar, json_data and the computed values; null when the
     * card cannot be processed (logged), which ST also turns into "skip this card".
     */
    private ObjectNode character(String user, CardFile file, String humanizedNow) {
        try {
            CardData card = read(user, file);
            ObjectNode character = normalized(card, humanizedNow);
            FolderUsage usage = chatUsage(user, file.name());
            return withComputedFields(file.name(), TextNode.valueOf(card.text()), character, DoubleNode.valueOf(file.changedMs()),
                    TextNode.valueOf(StTime.iso(Math.round(file.changedMs()))), LongNode.valueOf(usage.size()),
                    DoubleNode.valueOf(usage.newestModifiedMs()));
        } catch (CardFormatException | IOException e) {
            LOG.warn("Could not process the character card {}: {}", file.name(), e.toString());
            return null;
        }
    }

    private static ObjectNode normalized(CardData card, String humanizedNow) {
        ObjectNode character = CardNormalizer.normalize(card.json(), humanizedNow);
        JsonNode data = character.get("data");
        if (data != null && data.isNull()) {
            throw new CardFormatException("its data is null"); // ST fails on Object.values(null)
        }
        return character;
    }

    /** ST's computed members, in ST's order; the values that do not come from the card are given. */
    private static ObjectNode withComputedFields(String avatar, JsonNode jsonData, ObjectNode character, JsonNode dateAdded,
                                                 JsonNode createDate, JsonNode chatSize, JsonNode lastChat) {
        JsonNode data = character.get("data");
        character.put("avatar", avatar);
        character.set("json_data", jsonData);
        character.set("date_added", dateAdded);
        character.set("create_date", Js.or(character.get("create_date"), createDate));
        character.set("chat_size", chatSize);
        character.set("date_last_chat", lastChat);
        character.put("data_size", dataSize(data));
        return character;
    }

    private CardData read(String user, CardFile file) throws IOException {
        CardCache.Key key = file.key(user);
        CardData card = cache.get(key);
        if (card == null) {
            card = cards.readCard(user, file.name());
            cache.put(key, card);
        }
        return card;
    }

    private FolderUsage chatUsage(String user, String avatar) throws IOException {
        String folder = ChatFolder.nameOf(avatar);
        if (!folder.isEmpty() && !Sanitize.isSafeSegment(folder)) {
            return FolderUsage.EMPTY;
        }
        return chats.usage(user, ChatFolder.character(folder));
    }

    /** ST's data_size: the total length of {@code String(value)} over the values of {@code data}. */
    private static int dataSize(JsonNode data) {
        if (data == null || !data.isContainerNode()) {
            return 0;
        }
        int size = 0;
        for (JsonNode value : data) {
            size += Js.string(value).length();
        }
        return size;
    }

    /** The reduced object of lazy loading ({@code performance.lazyLoadCharacters}). */
    private static ObjectNode shallow(ObjectNode character) {
        ObjectNode shallow = JsJson.object().put("shallow", true);
        for (String key : SHALLOW_KEYS) {
            if (character.has(key)) {
                shallow.set(key, character.get(key));
            }
        }
        JsonNode data = character.get("data");
        ObjectNode extensions = JsJson.object();
        extensions.set("fav", orDefault(Js.get(data, "extensions.fav"), BooleanNode.FALSE));
        extensions.set("world", orDefault(Js.get(data, "extensions.world"), TextNode.valueOf("")));
        ObjectNode shallowData = JsJson.object();
        shallowData.set("name", orDefault(Js.get(data, "name"), TextNode.valueOf("")));
        shallowData.set("character_version", orDefault(Js.get(data, "character_version"), TextNode.valueOf("")));
        shallowData.set("creator", orDefault(Js.get(data, "creator"), TextNode.valueOf("")));
        shallowData.set("creator_notes", orDefault(Js.get(data, "creator_notes"), TextNode.valueOf("")));
        shallowData.set("tags", orDefault(Js.get(data, "tags"), JsJson.array()));
        shallowData.set("extensions", extensions);
        shallow.set("data", shallowData);
        return shallow;
    }

    private static JsonNode orDefault(JsonNode value, JsonNode fallback) {
        return value == null ? fallback : value;
    }
}
