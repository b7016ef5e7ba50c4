package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.chat.FolderUsage;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.util.StTime;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One page of the character library, for Tankard's own UI (a library of 20,000 cards need not travel whole):
 * {@code POST /api/tankard/characters/page}, beside ST's {@code /api/characters/all}, which stays as it is.
 * <p>
 * Body: {@code {offset? (≥ 0, default 0), limit? (1..500, default 100), search?, tags?: [..], favorites?,
 * sort?: "name"|"date_added"|"date_last_chat"|"chat_size" (default "name"), order?: "asc"|"desc"}} (default
 * ascending by name, descending otherwise). {@code search} is a case-insensitive substring of the name, a tag or
 * the creator; {@code tags} keeps the cards with all of them; {@code favorites: true} keeps favourites only.
 * <p>
 * Answer: {@code {total, offset, items, tags}}: how many cards match, the page's cards as
 * {@code {avatar, name, tags, fav, date_added, date_last_chat, chat_size, create_date, description_preview}}
 * (values as {@code characters/all} has them; the preview is the creator notes, else the description, cut to
 * about 200 characters), and every tag of all the user's cards as {@code {name, count}}, by name. Ties are
 * ordered by avatar file name, so pages do not overlap.
 * <p>
 * It works from the list entries {@code characters/all} keeps in its index (CardIndex) and reads a chat folder
 * only for the page's cards, unless it sorts by chats.
 */
public final class CharacterPage {
    private static final Logger LOG = LoggerFactory.getLogger(CharacterPage.class);
    static final int MAX_LIMIT = 500;
    private static final int DEFAULT_LIMIT = 100;

    private CharacterPage() {
    }

    public enum Sort {
        NAME("name"), DATE_ADDED("date_added"), DATE_LAST_CHAT("date_last_chat"), CHAT_SIZE("chat_size");

        private final String wireName;

        Sort(String wireName) {
            this.wireName = wireName;
        }

        boolean needsChats() {
            return this == DATE_LAST_CHAT || this == CHAT_SIZE;
        }

        static Sort of(String wireName) {
            for (Sort sort : values()) {
                if (sort.wireName.equals(wireName)) {
                    return sort;
                }
            }
            throw Refusal.badRequest("sort must be one of name, date_added, date_last_chat, chat_size");
        }
    }

    /** What a page request asks for; {@code search} is lower-cased, null when there is none. */
    public record Query(int offset, int limit, String search, List<String> tags, boolean favorites, Sort sort,
                        boolean descending) {
        public static Query of(JsonNode body) {
            if (!body.isObject()) {
                throw Refusal.badRequest("The body must be a JSON object");
            }
            int offset = integer(body, "offset", 0);
            if (offset < 0) {
                throw Refusal.badRequest("offset must not be negative");
            }
            int limit = integer(body, "limit", DEFAULT_LIMIT);
            if (limit < 1 || limit > MAX_LIMIT) {
                throw Refusal.badRequest("limit must be from 1 to " + MAX_LIMIT);
            }
            String search = text(body, "search");
            String sortName = text(body, "sort");
            Sort sort = sortName == null ? Sort.NAME : Sort.of(sortName);
            String order = text(body, "order");
            if (order != null && !order.equals("asc") && !order.equals("desc")) {
                throw Refusal.badRequest("order must be asc or desc");
            }
            boolean descending = order == null ? sort != Sort.NAME : order.equals("desc");
            return new Query(offset, limit, search == null || search.isBlank() ? null : search.strip().toLowerCase(Locale.ROOT),
                    tags(body.get("tags")), favorites(body.get("favorites")), sort, descending);
        }

        private static boolean isAbsent(JsonNode value) {
            return value == null || value.isNull();
        }

        private static int integer(JsonNode body, String field, int absent) {
            JsonNode value = body.get(field);
            if (isAbsent(value)) {
                return absent;
            }
            if (!value.isIntegralNumber() || !value.canConvertToInt()) {
                throw Refusal.badRequest(field + " must be a whole number");
            }
            return value.intValue();
        }

        private static String text(JsonNode body, String field) {
            JsonNode value = body.get(field);
            if (isAbsent(value)) {
                return null;
            }
            if (!value.isTextual()) {
                throw Refusal.badRequest(field + " must be a string");
            }
            return value.textValue();
        }

        private static List<String> tags(JsonNode tags) {
            if (isAbsent(tags)) {
                return List.of();
            }
            List<String> names = new ArrayList<>();
            if (tags.isArray()) {
                for (JsonNode tag : tags) {
                    if (!tag.isTextual()) {
                        names = null;
                        break;
                    }
                    if (!tag.textValue().isBlank()) {
                        names.add(tag.textValue().strip());
                    }
                }
            }
            if (names == null || !tags.isArray()) {
                throw Refusal.badRequest("tags must be an array of strings");
            }
            return List.copyOf(names);
        }

        private static boolean favorites(JsonNode favorites) {
            if (isAbsent(favorites)) {
                return false;
            }
            if (!favorites.isBoolean()) {
                throw Refusal.badRequest("favorites must be true or false");
            }
            return favorites.booleanValue();
        }

        boolean keeps(CardSummary card) {
            return (!favorites || card.fav()) && card.tags().containsAll(tags)
                    && (search == null || card.searchText().contains(search));
        }
    }

    /** Reads a card's chat folder usage. */
    @FunctionalInterface
    interface Usages {
        FolderUsage of(CardFile file) throws IOException;
    }

    /** A listed card: its file, its index entry and, once read, its chat folder usage. */
    static final class Card {
        final CardFile file;
        final CardIndex.Entry entry;
        private FolderUsage usage;

        Card(CardFile file, CardIndex.Entry entry) {
            this.file = file;
            this.entry = entry;
        }

        CardSummary summary() {
            return entry.summary();
        }

        FolderUsage usage(Usages usages) throws IOException {
            if (usage == null) {
                usage = usages.of(file);
            }
            return usage;
        }
    }

    /** The answer to the query over the user's listed cards. */
    static ObjectNode answer(Query query, List<Card> cards, Usages usages, CardIndex index) throws IOException {
        List<Card> matching = new ArrayList<>();
        for (Card card : cards) {
            if (query.keeps(card.summary())) {
                matching.add(card);
            }
        }
        if (query.sort().needsChats()) {
            for (Card card : matching) {
                card.usage(usages); // read before sorting: the comparator cannot do I/O
            }
        }
        matching.sort(order(query));
        ArrayNode items = JsJson.array();
        for (int i = query.offset(); i < matching.size() && i < (long) query.offset() + query.limit(); i++) {
            items.add(item(matching.get(i), usages, index));
        }
        ObjectNode answer = JsJson.object();
        answer.put("total", matching.size()).put("offset", query.offset());
        answer.set("items", items);
        answer.set("tags", tagCounts(cards));
        return answer;
    }

    private static Comparator<Card> order(Query query) {
        Comparator<Card> primary = switch (query.sort()) {
            case NAME -> Comparator.comparing(card -> card.summary().name(), String.CASE_INSENSITIVE_ORDER);
            case DATE_ADDED -> Comparator.comparingDouble(card -> card.file.changedMs());
            case DATE_LAST_CHAT -> Comparator.comparingDouble(card -> card.usage.newestModifiedMs());
            case CHAT_SIZE -> Comparator.comparingLong(card -> card.usage.size());
        };
        // The avatar (the file name, unique) breaks ties the same way in both orders, so pages are stable.
        return (query.descending() ? primary.reversed() : primary).thenComparing(card -> card.file.name());
    }

    private static ObjectNode item(Card card, Usages usages, CardIndex index) throws IOException {
        CardSummary summary = card.summary();
        FolderUsage usage = card.usage(usages);
        ObjectNode item = JsJson.object();
        item.put("avatar", card.file.name()).put("name", summary.name());
        ArrayNode tags = item.putArray("tags");
        summary.tags().forEach(tags::add);
        item.put("fav", summary.fav());
        item.put("date_added", card.file.changedMs());
        if (usage.newestModifiedMs() == 0) {
            item.put("date_last_chat", 0); // no chat: 0, as characters/all writes it
        } else {
            item.put("date_last_chat", usage.newestModifiedMs());
        }
        item.put("chat_size", usage.size());
        item.set("create_date", summary.createDate() != null ? summary.createDate()
                : TextNode.valueOf(StTime.iso(Math.round(card.file.changedMs()))));
        item.put("description_preview", summary.notes().isEmpty() ? descriptionPreview(card, index) : summary.notes());
        return item;
    }

    private static String descriptionPreview(Card card, CardIndex index) {
        try {
            return index.descriptionPreview(card.entry);
        } catch (IOException e) {
            LOG.debug("No description preview for {}: {}", card.file.name(), e.toString()); // changed meanwhile
            return "";
        }
    }

    /** Every tag with the number of cards that have it, sorted by name (case-insensitively, then exactly). */
    private static ArrayNode tagCounts(List<Card> cards) {
        Map<String, Integer> counts = new TreeMap<>(String.CASE_INSENSITIVE_ORDER.thenComparing(Comparator.naturalOrder()));
        for (Card card : cards) {
            for (String tag : card.summary().tags()) {
                counts.merge(tag, 1, Integer::sum);
            }
        }
        ArrayNode tags = JsJson.array();
        counts.forEach((name, count) -> tags.addObject().put("name", name).put("count", count));
        return tags;
    }
}
