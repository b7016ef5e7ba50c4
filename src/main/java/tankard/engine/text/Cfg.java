package tankard.engine.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.engine.macro.Macros;
import tankard.json.Js;
import tankard.json.JsJson;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Classifier-free guidance for text completion (ST: public/scripts/cfg-scale.js): the guidance scale the chat,
 * the character or the global settings set, and the positive or negative prompt that goes with it.
 */
final class Cfg {
    static final int CHAT = 0;
    static final int CHARA = 1;
    static final int GLOBAL = 2;

    /** A guidance scale and where it came from (ST's {@code cfgType}). */
    record Scale(int type, JsonNode value) {
    }

    /** A prompt for the chat, and how many messages up it goes (0: after the last one). */
    record Prompt(String value, int depth) {
    }

    private final ObjectNode cfg;
    private final ObjectNode metadata;
    private final JsonNode charaCfg;
    private final Macros macros;

    private Cfg(ObjectNode cfg, ObjectNode metadata, JsonNode charaCfg, Macros macros) {
        this.cfg = cfg;
        this.metadata = metadata;
        this.charaCfg = charaCfg;
        this.macros = macros;
    }

    /**
     * @param avatar the character's avatar file name (getCharaFilename drops its extension)
     * @return the guidance in force, or null when there is none (ST's getGuidanceScale answering undefined, or a
     * scale of 1)
     */
    static Cfg.Active active(ObjectNode settings, ObjectNode metadata, String avatar, boolean inGroup, Macros macros) {
        JsonNode saved = Js.get(settings, "extension_settings.cfg");
        if (saved == null || !saved.isObject() || saved.isEmpty()) {
            return null; // the extension's defaults: a global scale of 1
        }
        ObjectNode cfg = (ObjectNode) saved;
        String filename = avatar == null ? null : avatar.replaceFirst("\\.[^/.]+$", "");
        JsonNode charaCfg = null;
        if (cfg.path("chara").isArray()) {
            for (JsonNode entry : cfg.get("chara")) {
                if (filename != null && filename.equals(Js.string(entry.get("name")))) {
                    charaCfg = entry;
                    break;
                }
            }
        }
        Cfg guidance = new Cfg(cfg, metadata, charaCfg, macros);
        Scale scale = guidance.scale(inGroup);
        if (scale == null || Js.strictEquals(scale.value(), IntNode.valueOf(1))) {
            return null;
        }
        return new Active(guidance, scale);
    }

    /** The guidance in force and its prompts. */
    record Active(Cfg cfg, Scale scale) {
        Prompt prompt(boolean negative) {
            return cfg.prompt(scale, negative);
        }
    }

    /** ST: getGuidanceScale. */
    private Scale scale(boolean inGroup) {
        JsonNode chatScale = metadata.get("cfg_guidance_scale");
        boolean charOverride = Js.truthy(metadata.get("cfg_groupchat_individual_chars"));
        if (Js.truthy(chatScale) && !Js.strictEquals(chatScale, IntNode.valueOf(1)) && !charOverride) {
            return new Scale(CHAT, chatScale);
        }
        if ((!inGroup && charaCfg != null || charOverride) && charaCfg != null
                && !Js.strictEquals(charaCfg.get("guidance_scale"), IntNode.valueOf(1))) {
            return new Scale(CHARA, charaCfg.get("guidance_scale"));
        }
        JsonNode global = cfg.get("global");
        if (Js.truthy(global) && !Js.strictEquals(global.get("guidance_scale"), IntNode.valueOf(1))) {
            return new Scale(GLOBAL, global.get("guidance_scale"));
        }
        return null;
    }

    /** ST: getCfgPrompt. */
    private Prompt prompt(Scale scale, boolean negative) {
        List<String> parts = new ArrayList<>();
        JsonNode combine = metadata.get("cfg_prompt_combine");
        String key = negative ? "negative_prompt" : "positive_prompt";
        if (scale.type() == CHAT || combines(combine, CHAT)) {
            parts.add(0, substitute(metadata.get("cfg_" + key)));
        }
        if ((scale.type() == CHARA || combines(combine, CHARA)) && charaCfg != null) {
            parts.add(0, substitute(charaCfg.get(key)));
        }
        if (scale.type() == GLOBAL || combines(combine, GLOBAL)) {
            parts.add(0, substitute(cfg.path("global").get(key)));
        }
        String value = String.join(separator(), parts.stream().filter(part -> !part.isEmpty()).toList());
        JsonNode depth = Js.number(Js.coalesce(metadata.get("cfg_prompt_insertion_depth"), IntNode.valueOf(1)));
        return new Prompt(value, depth == null ? 1 : depth.intValue());
    }

    private String substitute(JsonNode value) {
        return Js.truthy(value) ? macros.substitute(Js.string(value)) : "";
    }

    private static boolean combines(JsonNode combine, int type) {
        if (combine == null || !combine.isArray()) {
            return false;
        }
        for (JsonNode item : combine) {
            if (item.isNumber() && item.doubleValue() == type) {
                return true;
            }
        }
        return false;
    }

    /** ST: getCustomSeparator: the chat's separator, saved as JSON text, or a newline. */
    private String separator() {
        JsonNode saved = metadata.get("cfg_prompt_separator");
        if (!Js.truthy(saved)) {
            return "\n";
        }
        JsonNode parsed = JsJson.tryParse(Js.string(saved).getBytes(StandardCharsets.UTF_8));
        return parsed == null ? "\n" : Js.string(parsed);
    }
}
