package tankard.character;

import com.fasterxml.jackson.databind.node.TextNode;
import tankard.json.CanonicalJson;
import tankard.json.JsJson;
import tankard.json.JsRespell;
import tankard.json.JsRestringify;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A V2 or V3 card's list templates made straight from its JSON text as {@code JSON.stringify} prints it (as ST
 * writes cards; text in another spelling is re-spelled so first, {@link JsRespell}): the values are copied from the
 * text rather than parsed and printed again, which is most of what a first list of a big library costs. The steps
 * are those of {@link CardNormalizer} and {@code CharacterService}'s computed fields, on spans of the text instead
 * of a tree, so the templates are the bytes that route makes of the same card; any card this does not know to be
 * that simple (V1, no {@code data} object, a name that is not a non-empty string, text only a parse can read) is
 * left to it.
 */
final class CanonicalCard {
    private static final Literal TRUE = literal("true");
    private static final Literal FALSE = literal("false");
    private static final Literal EMPTY_STRING = literal("\"\"");
    private static final Literal EMPTY_ARRAY = literal("[]");
    private static final String EXTENSIONS = "extensions.";

    /** A member's value in the character object. */
    private sealed interface Value permits Slice, Literal, Placeholder, DefaultChat, Members {
    }

    /** A value as it stands in the card text. */
    private record Slice(int from, int to) implements Value {
    }

    private record Literal(byte[] bytes) implements Value {
    }

    /** A hole of the template. */
    private record Placeholder(ListTemplate.Hole hole) implements Value {
    }

    /** ST's default chat name: the character's name (the span of its string's content), " - " and the time. */
    private record DefaultChat(int nameFrom, int nameTo) implements Value {
    }

    /** An object, its keys as they are written (one char per byte of the text). */
    private record Members(Map<String, Value> members) implements Value {
    }

    private CanonicalCard() {
    }

    /**
     * The templates {@code CharacterService} would make of the card text for the card file {@code avatar}, or
     * null when this cannot tell them without parsing it.
     */
    static ListTemplate.Pair templates(byte[] stored, String avatar) {
        // a card in another spelling is read from its re-spelling, and its json_data is still the stored text
        byte[] text = JsRestringify.isCanonical(stored, 0, stored.length) ? stored : JsRespell.respell(stored, 0, stored.length);
        if (text == null || text[0] != '{') {
            return null;
        }
        Map<String, Value> card = members(text, 0);
        if (!card.containsKey("spec") || !(card.get("data") instanceof Slice dataSlice) || text[dataSlice.from] != '{') {
            return null; // V1, or data that is not an object: the tree route converts or refuses it
        }
        Map<String, Value> data = members(text, dataSlice.from);
        Map<String, Value> extensions = data.get("extensions") instanceof Slice slice && text[slice.from] == '{'
                ? members(text, slice.from) : Map.of();
        normalize(card, data, extensions);
        if (!(card.get("name") instanceof Slice name) || text[name.from] != '"' || name.to - name.from == 2) {
            return null; // listed only when truthy: a non-empty string is the case this knows
        }
        Value chat = card.get("chat");
        if (chat == null || chat instanceof Slice slice && text[slice.from] == 'n') {
            card.put("chat", new DefaultChat(name.from + 1, name.to - 1));
        }
        addComputedFields(card, text, stored, data, avatar);
        return new ListTemplate.Pair(template(card, text), template(shallow(card, data, extensions), text));
    }

    /** CardNormalizer.readFromV2 but for the default chat name: json_data goes, the mirrors of data are set. */
    private static void normalize(Map<String, Value> card, Map<String, Value> data, Map<String, Value> extensions) {
        card.remove("json_data");
        for (String[] mirror : CardNormalizer.MIRRORS) {
            boolean inExtensions = mirror[1].startsWith(EXTENSIONS);
            Value value = inExtensions ? extensions.get(mirror[1].substring(EXTENSIONS.length())) : data.get(mirror[1]);
            if (value != null) {
                card.put(mirror[0], value);
            } else if (inExtensions) {
                card.remove(mirror[0]);
            }
        }
    }

    /** CharacterService.withComputedFields, with the holes of a list entry. */
    private static void addComputedFields(Map<String, Value> card, byte[] text, byte[] stored, Map<String, Value> data,
                                          String avatar) {
        card.put("avatar", new Literal(JsJson.compactBytes(TextNode.valueOf(avatar))));
        card.put("json_data", new Literal(JsJson.quotedUtf8(stored))); // text that re-spells is well-formed UTF-8
        card.put("date_added", new Placeholder(ListTemplate.Hole.DATE_ADDED));
        if (!(card.get("create_date") instanceof Slice created && CanonicalJson.truthy(text, created.from, created.to))) {
            card.put("create_date", new Placeholder(ListTemplate.Hole.CREATE_DATE));
        }
        card.put("chat_size", new Placeholder(ListTemplate.Hole.CHAT_SIZE));
        card.put("date_last_chat", new Placeholder(ListTemplate.Hole.DATE_LAST_CHAT));
        int dataSize = 0;
        for (Value value : data.values()) {
            Slice slice = (Slice) value;
            dataSize += CanonicalJson.stringLength(text, slice.from, slice.to);
        }
        card.put("data_size", literal(Integer.toString(dataSize)));
    }

    /** CharacterService.shallow. */
    private static Map<String, Value> shallow(Map<String, Value> card, Map<String, Value> data, Map<String, Value> extensions) {
        Map<String, Value> shallow = new LinkedHashMap<>();
        shallow.put("shallow", TRUE);
        for (String key : CharacterService.SHALLOW_KEYS) {
            Value value = card.get(key);
            if (value != null) {
                shallow.put(key, value);
            }
        }
        Map<String, Value> shallowExtensions = new LinkedHashMap<>();
        shallowExtensions.put("fav", extensions.getOrDefault("fav", FALSE));
        shallowExtensions.put("world", extensions.getOrDefault("world", EMPTY_STRING));
        Map<String, Value> shallowData = new LinkedHashMap<>();
        shallowData.put("name", data.getOrDefault("name", EMPTY_STRING));
        shallowData.put("character_version", data.getOrDefault("character_version", EMPTY_STRING));
        shallowData.put("creator", data.getOrDefault("creator", EMPTY_STRING));
        shallowData.put("creator_notes", data.getOrDefault("creator_notes", EMPTY_STRING));
        shallowData.put("tags", data.getOrDefault("tags", EMPTY_ARRAY));
        shallowData.put("extensions", new Members(shallowExtensions));
        shallow.put("data", new Members(shallowData));
        return shallow;
    }

    /** The object's members as slices, in order, keyed by their keys as written. */
    private static Map<String, Value> members(byte[] text, int from) {
        Map<String, Value> members = new LinkedHashMap<>();
        CanonicalJson.members(text, from, (keyFrom, keyTo, valueFrom, valueTo) -> members.put(
                new String(text, keyFrom, keyTo - keyFrom, StandardCharsets.ISO_8859_1), new Slice(valueFrom, valueTo)));
        return members;
    }

    /** The object written once to count its bytes, then into a template of that size. */
    private static ListTemplate template(Map<String, Value> object, byte[] text) {
        ListTemplate.Builder counter = new ListTemplate.Builder();
        write(object, text, counter);
        ListTemplate.Builder builder = new ListTemplate.Builder(counter.size());
        write(object, text, builder);
        return builder.build();
    }

    private static void write(Map<String, Value> object, byte[] text, ListTemplate.Builder out) {
        out.write('{');
        boolean first = true;
        for (Map.Entry<String, Value> member : object.entrySet()) {
            if (!first) {
                out.write(',');
            }
            first = false;
            out.write('"').latin1(member.getKey()).write('"').write(':');
            write(member.getValue(), text, out);
        }
        out.write('}');
    }

    private static void write(Value value, byte[] text, ListTemplate.Builder out) {
        if (value instanceof Slice slice) {
            out.write(text, slice.from, slice.to);
        } else if (value instanceof Literal literal) {
            out.write(literal.bytes, 0, literal.bytes.length);
        } else if (value instanceof Placeholder placeholder) {
            out.hole(placeholder.hole);
        } else if (value instanceof DefaultChat chat) {
            out.write('"').write(text, chat.nameFrom, chat.nameTo).latin1(" - ").hole(ListTemplate.Hole.NOW).write('"');
        } else if (value instanceof Members members) {
            write(members.members, text, out);
        }
    }

    private static Literal literal(String ascii) {
        return new Literal(ascii.getBytes(StandardCharsets.US_ASCII));
    }
}
