package tankard.content;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.image.AvatarImages;
import tankard.image.MediaSniff;
import tankard.json.Js;
import tankard.json.JsJson;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import java.util.zip.GZIPInputStream;

/** ST's Perchance import (content-manager.js): the character file read, and turned into a V2 card. Blocking. */
final class PerchanceCards {
    /** The most a character file may inflate to: a small gzip can hold gigabytes. */
    static final int MAX_INFLATED = 64 * 1024 * 1024;

    private PerchanceCards() {
    }

    /** The {@code addCharacter} object of a gzipped Perchance character file; fails as ST does when it has none. */
    static JsonNode character(byte[] gzipped) throws IOException {
        byte[] json;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(gzipped))) {
            json = in.readNBytes(MAX_INFLATED + 1);
        }
        if (json.length > MAX_INFLATED) {
            throw new IOException("The Perchance character is larger than " + MAX_INFLATED + " bytes once inflated");
        }
        JsonNode file = json.length == 0 ? null : JsJson.tryParse(json);
        JsonNode character = file == null ? null : file.get("addCharacter");
        if (!Js.truthy(character)) {
            throw new IOException("Failed to download character: Invalid Perchance character data");
        }
        return character;
    }

    /** The V2 card ST makes of it, in ST's key order. */
    static ObjectNode card(JsonNode character, String slug, String fileUrl) {
        String avatarUrl = character.path("avatar").path("url").asText("");
        boolean base64Avatar = avatarUrl.startsWith("data:image/");
        ObjectNode data = JsJson.object();
        data.set("name", Js.or(character.get("name"), JsJson.tree("Unnamed Perchance Character")));
        data.put("first_mes", "");
        data.putArray("tags");
        data.set("description", Js.or(character.get("roleInstruction"), JsJson.tree("")));
        data.set("creator", Js.or(character.get("metaTitle"), JsJson.tree("")));
        data.set("creator_notes", Js.or(character.get("metaDescription"), JsJson.tree("")));
        data.putArray("alternate_greetings");
        data.put("character_version", "").put("mes_example", "").put("post_history_instructions", "")
                .put("system_prompt", "").put("scenario", "");
        data.set("personality", Js.or(character.get("reminderMessage"), JsJson.tree("")));
        ObjectNode perchance = data.putObject("extensions").putObject("perchance_data");
        perchance.put("slug", slug).put("char_url", fileUrl);
        perchance.set("uuid", Js.or(character.get("uuid"), NullNode.getInstance()));
        perchance.set("avatar_url", base64Avatar || avatarUrl.isEmpty() ? NullNode.getInstance() : JsJson.tree(avatarUrl));
        perchance.set("folder_path", Js.or(character.get("folderPath"), NullNode.getInstance()));
        perchance.set("folder_name", Js.or(character.get("folderName"), NullNode.getInstance()));
        perchance.set("custom_data", Js.or(character.get("customData"), JsJson.object()));
        ObjectNode card = JsJson.object().put("spec", "chara_card_v2").put("spec_version", "2.0");
        card.set("data", data);
        return card;
    }

    /** The image of a {@code data:image/…;base64,} URL. */
    static byte[] dataUrlBytes(String dataUrl) {
        int comma = dataUrl.indexOf(',');
        return Base64.getMimeDecoder().decode(comma < 0 ? "" : dataUrl.substring(comma + 1));
    }

    /** A PNG as it is; another image converted to PNG; an error when it is no image. */
    static byte[] png(byte[] image) throws IOException {
        if (MediaSniff.isPng(image)) {
            return image;
        }
        byte[] converted = AvatarImages.toPng(image, null);
        if (converted == null) {
            throw new IOException("The Perchance avatar is not an image that can be read");
        }
        return converted;
    }
}
