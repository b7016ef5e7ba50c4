package tankard.character;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What the library page reads of a card, taken once from its shallow list template (kept with the index entry,
 * so a page request parses no card and no template it has seen before).
 *
 * @param createDate  the card's own {@code create_date}, or null when the list fills it in from the file's ctime
 * @param notes       {@code data.creator_notes} (what ST's grid shows: public/script.js, getCharacterBlock), cut to
 *                    {@link #PREVIEW_LENGTH}
 * @param searchText  name, tags and creator, lower-cased, for the page's substring search
 */
record CardSummary(String name, List<String> tags, boolean fav, JsonNode createDate, String notes, String searchText) {
    static final int PREVIEW_LENGTH = 200;
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};
    private static final byte[] NOTHING = {};

    static CardSummary of(ListTemplate shallow) {
        JsonNode character = JsJson.parse(withoutHoles(shallow));
        JsonNode data = character.path("data");
        String name = Js.string(character.get("name"));
        List<String> tags = tags(Js.coalesce(character.get("tags"), data.get("tags")));
        String creator = textOf(data.get("creator"));
        JsonNode createDate = character.get("create_date");
        StringBuilder search = new StringBuilder(name).append('\n').append(creator);
        tags.forEach(tag -> search.append('\n').append(tag));
        return new CardSummary(name, tags, isFavourite(character), createDate == null || createDate.isNull() ? null : createDate,
                preview(textOf(data.get("creator_notes"))), search.toString().toLowerCase(Locale.ROOT));
    }

    /**
     * A favourite: {@code fav} true or "true", at the top level or in {@code data.extensions} (which the top level
     * mirrors; a V1 card may hold only the former). ST's grid tests {@code item.fav || item.fav == 'true'}
     * (ST: public/script.js, getCharacterBlock), which also takes odd truthy values such as "false"; those are not
     * favourites here.
     */
    private static boolean isFavourite(JsonNode character) {
        return isTrue(character.get("fav")) || isTrue(Js.get(character.get("data"), "extensions.fav"));
    }

    private static boolean isTrue(JsonNode value) {
        return value != null && (value.isBoolean() && value.booleanValue() || value.isTextual() && value.textValue().equals("true"));
    }

    /** The distinct non-empty text tags, in the card's order. */
    private static List<String> tags(JsonNode tags) {
        Set<String> names = new LinkedHashSet<>();
        if (tags != null && tags.isArray()) {
            for (JsonNode tag : tags) {
                if (tag.isTextual() && !tag.textValue().isBlank()) {
                    names.add(tag.textValue().strip());
                }
            }
        }
        return List.copyOf(names);
    }

    /**
     * The card's {@code description} cut for a preview, read from its full list template: only for a page's cards
     * without creator notes, since the shallow template does not carry it.
     */
    static String descriptionPreview(ListTemplate full) throws IOException {
        try (JsonParser parser = JsJson.MAPPER.getFactory().createParser(withoutHoles(full))) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return "";
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("description") && value == JsonToken.VALUE_STRING) {
                    return preview(parser.getText());
                }
                parser.skipChildren();
            }
        }
        return "";
    }

    private static String textOf(JsonNode value) {
        return value != null && value.isTextual() ? value.textValue() : "";
    }

    /** The text cut to about {@link #PREVIEW_LENGTH} characters (never inside a surrogate pair), marked when cut. */
    static String preview(String text) {
        String stripped = text.strip();
        if (stripped.length() <= PREVIEW_LENGTH) {
            return stripped;
        }
        int end = Character.isHighSurrogate(stripped.charAt(PREVIEW_LENGTH - 1)) ? PREVIEW_LENGTH - 1 : PREVIEW_LENGTH;
        return stripped.substring(0, end).stripTrailing() + "…";
    }

    /** The template as JSON, its value holes null and the current time (inside the chat name) empty. */
    private static byte[] withoutHoles(ListTemplate template) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(template.bytes().length + 64);
        try {
            template.writeTo(hole -> hole == ListTemplate.Hole.NOW ? NOTHING : NULL, out::write);
        } catch (IOException e) {
            throw new IllegalStateException(e); // in memory: does not happen
        }
        return out.toByteArray();
    }
}
