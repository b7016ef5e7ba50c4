package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import tankard.core.Refusal;
import tankard.json.Js;

/**
 * What ST's legacy /edit-attribute takes (ST: src/endpoints/characters.js, router.post('/edit-attribute')): the
 * card's file name, the member to set ({@code String(field)}) and its value (null when the body has none, which
 * leaves the member out as JavaScript's undefined does).
 */
public record AttributeEdit(String avatar, String field, JsonNode value) {
    /**
     * Refuses a missing or unsafe {@code avatar_url}, a missing, empty or {@code "."} {@code ch_name}, then the
     * {@code json_data} field.
     */
    public static AttributeEdit of(JsonNode body) {
        String avatar = CharacterEditor.requireName(body, "avatar_url");
        JsonNode name = body.get("ch_name");
        if (name == null || (name.isTextual() && (name.textValue().isEmpty() || name.textValue().equals(".")))) {
            throw Refusal.badRequest("Error: invalid name.");
        }
        String field = Js.string(Js.or(body.get("field"), TextNode.valueOf("undefined")));
        if (field.equals("json_data")) {
            throw Refusal.badRequest("Error: cannot edit json_data field.");
        }
        return new AttributeEdit(avatar, field, body.get("value"));
    }
}
