package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.util.SafeNames;
import tankard.util.Sanitize;

/**
 * What ST's /create takes (ST: src/endpoints/characters.js, router.post('/create')): the sanitized display
 * name, the file name asked for ({@code file_name}, null when not truthy) and the editor's fields with that
 * sanitized {@code ch_name}.
 */
public record NewCard(String name, String fileName, ObjectNode fields) {
    /** Refuses a missing {@code ch_name}, an unsafe {@code file_name}, then an empty name without a file name. */
    public static NewCard of(JsonNode form) {
        JsonNode rawName = form.get("ch_name");
        if (rawName == null || rawName.isNull() || !rawName.isValueNode()) {
            throw Refusal.badRequest("Missing ch_name");
        }
        String name = Sanitize.filename(Js.string(rawName));
        String fileName = fileName(form);
        if (name.isEmpty() && fileName == null) {
            throw Refusal.badRequest("Error: invalid name.");
        }
        ObjectNode fields = form.deepCopy();
        fields.put("ch_name", name);
        return new NewCard(name, fileName, fields);
    }

    /** ST's getFileNameValidationFunction('file_name'): a truthy name must make a safe file name. */
    private static String fileName(JsonNode form) {
        JsonNode value = form.get("file_name");
        if (!Js.truthy(value)) {
            return null;
        }
        String name = Js.string(value);
        CharacterEditor.requireSafe(name); // its chat folder too: "." makes a safe "..png" but no folder
        CharacterEditor.requireSafe(name + ".png");
        SafeNames.requireFits(name + ".png", "file_name");
        return name;
    }
}
