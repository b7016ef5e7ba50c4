package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.json.Js;

/**
 * What ST's /edit takes (ST: src/endpoints/characters.js, router.post('/edit')): the card's file name
 * ({@code avatar_url}) and the editor's fields the card is rebuilt from.
 */
public record CardEdit(String avatar, JsonNode fields) {
    /** Refuses a missing or unsafe {@code avatar_url}, then an empty, missing or {@code "."} {@code ch_name}. */
    public static CardEdit of(JsonNode form) {
        String avatar = CharacterEditor.requireName(form, "avatar_url");
        JsonNode name = form.get("ch_name");
        if (name == null || name.isNull() || Js.string(name).isEmpty() || Js.string(name).equals(".")) {
            throw Refusal.badRequest("Error: invalid name.");
        }
        return new CardEdit(avatar, form);
    }
}
