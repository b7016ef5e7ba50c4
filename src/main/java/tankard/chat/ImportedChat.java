package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.StTime;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What ST's chat converters have in common (st-data.md §2.14): the header they all write, JavaScript's
 * property access on the foreign JSON, and the JSONL they produce.
 */
final class ImportedChat {
    private ImportedChat() {
    }

    /** {@code {"chat_metadata":{},"user_name":"unused","character_name":"unused"}}. */
    static ObjectNode header() {
        ObjectNode header = JsJson.object();
        header.putObject("chat_metadata");
        return header.put("user_name", "unused").put("character_name", "unused");
    }

    /** The start every converted message shares: {@code name}, {@code is_user} and {@code send_date} (now). */
    static ObjectNode message(String name, boolean isUser, LongSupplier clock) {
        return JsJson.object().put("name", name).put("is_user", isUser).put("send_date", StTime.iso(clock.getAsLong()));
    }

    /**
     * {@code value.key} in JavaScript: undefined (null) on primitives and arrays, a TypeError on undefined and
     * null, which fails the import as ST's converters do.
     */
    static JsonNode member(JsonNode value, String key, String what) {
        if (Js.isUndefined(value) || value.isNull()) {
            throw new ChatImportException("The file has no " + what);
        }
        return value.isObject() ? value.get(key) : null;
    }

    /** An array the converter iterates; anything else fails the import, as {@code .map} or {@code for…of} would. */
    static JsonNode array(JsonNode value, String what) {
        if (Js.isUndefined(value) || !value.isArray()) {
            throw new ChatImportException("The file's " + what + " is not a list");
        }
        return value;
    }

    /** Sets a member unless the value is undefined: {@code JSON.stringify} leaves those out. */
    static ObjectNode putDefined(ObjectNode object, String key, JsonNode value) {
        if (!Js.isUndefined(value)) {
            object.set(key, value);
        }
        return object;
    }

    /** The header and messages as JSONL: compact lines joined with LF, no trailing LF. */
    static byte[] jsonl(List<ObjectNode> messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(JsJson.compactBytes(header()));
        for (ObjectNode message : messages) {
            out.write('\n');
            out.writeBytes(JsJson.compactBytes(message));
        }
        return out.toByteArray();
    }

    /** {@code JSON.parse}, or null; a leading byte order mark fails as it does in JavaScript. */
    static JsonNode parse(String text) {
        return text.startsWith("\uFEFF") ? null : JsJson.tryParse(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Bytes of the upload as text. ST would read invalid UTF-8 as U+FFFD and store the damage (or copy the bytes);
     * refusing the file keeps the user's original intact.
     */
    static String utf8(byte[] bytes, int offset, int length) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, offset, length))
                    .toString();
        } catch (CharacterCodingException e) {
            throw Refusal.badRequest("The chat file is not valid UTF-8 text");
        }
    }
}
