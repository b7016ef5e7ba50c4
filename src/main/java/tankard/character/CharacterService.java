package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.chat.ChatFolder;
import tankard.chat.ChatStore;
import tankard.chat.FolderUsage;
import tankard.http.ApiError;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.Sanitize;
import tankard.util.StTime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

/**
 * Character objects as ST's frontend receives them (st-api.md §7.1–§7.3): cards read through the cache,
 * normalized, plus the values ST computes from the file system.
 */
public final class CharacterService {
    private static final Logger LOG = LoggerFactory.getLogger(CharacterService.class);

    private final CardStore cards;
    private final ChatStore chats;
    private final CardCache cache;
    private final ExecutorService parsers;
    private final LongSupplier clock;

    /**
     * @param parsers a bounded pool that reads the cards of a list in parallel; its tasks wait on nothing
     */
    public CharacterService(CardStore cards, ChatStore chats, CardCache cache, ExecutorService parsers, LongSupplier clock) {
        this.cards = cards;
        this.chats = chats;
        this.cache = cache;
        this.parsers = parsers;
        this.clock = clock;
    }

    /** Every character that can be read; unreadable cards are left out (logged), as in ST. */
    public ArrayNode all(String user, boolean shallow) throws IOException {
        List<CardFile> files = cards.list(user);
        String now = StTime.humanized(clock.getAsLong());
        List<Future<ObjectNode>> pending = new ArrayList<>(files.size());
        for (CardFile file : files) {
            pending.add(parsers.submit(() -> character(user, file, now)));
        }
        ArrayNode list = JsJson.array();
        for (Future<ObjectNode> future : pending) {
            ObjectNode character = await(future);
            if (character != null && Js.truthy(character.get("name"))) {
                list.add(shallow ? shallow(character) : character);
            }
        }
        return list;
    }

    /** One full character; a card that cannot be read answers ST's placeholder object. */
    public ObjectNode get(String user, String avatar) throws IOException {
        if (!Sanitize.isSafeSegment(avatar)) {
            throw ApiError.badRequest("Invalid avatar_url");
        }
        CardFile file = cards.find(user, avatar).orElseThrow(() -> ApiError.notFound("Not Found"));
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
            ObjectNode character = CardNormalizer.normalize(card.json(), humanizedNow);
            JsonNode data = character.get("data");
            if (data != null && data.isNull()) {
                throw new CardFormatException("its data is null"); // ST fails on Object.values(null)
            }
            return withComputedFields(user, file, card, character);
        } catch (CardFormatException | IOException e) {
            LOG.warn("Could not process the character card {}: {}", file.name(), e.toString());
            return null;
        }
    }

    private ObjectNode withComputedFields(String user, CardFile file, CardData card, ObjectNode character)
            throws IOException {
        JsonNode data = character.get("data");
        character.put("avatar", file.name());
        character.put("json_data", card.text());
        character.set("date_added", DoubleNode.valueOf(file.changedMs()));
        character.set("create_date", Js.or(character.get("create_date"),
                TextNode.valueOf(StTime.iso(Math.round(file.changedMs())))));
        FolderUsage usage = chatUsage(user, file.name());
        character.put("chat_size", usage.size());
        character.set("date_last_chat", DoubleNode.valueOf(usage.newestModifiedMs()));
        character.put("data_size", dataSize(data));
        return character;
    }

    private CardData read(String user, CardFile file) throws IOException {
        CardCache.Key key = file.key(user);
        CardData card = cache.get(key);
        if (card == null) {
            card = CardCodec.readPng(cards.read(user, file.name()));
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
        for (String key : new String[]{"name", "avatar", "chat", "fav", "date_added", "create_date", "date_last_chat",
                "chat_size", "data_size", "tags"}) {
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

    private static ObjectNode await(Future<ObjectNode> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while reading cards", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }
}
