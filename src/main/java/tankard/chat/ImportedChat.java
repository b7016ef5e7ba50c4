package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.chat.format.ChatHeader;
import tankard.chat.format.ChatMessage;
import tankard.chat.format.LineWriter;
import tankard.core.Refusal;
import tankard.json.Js;
import tankard.json.JsJson;
import tankard.util.StTime;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * What ST's chat converters have in common (src/endpoints/chats.js, importOobaChat and the other import
 * functions): JavaScript's property access on the foreign JSON, and the JSONL they produce.
 */
final class ImportedChat {
    private ImportedChat() {
    }

    /** The start every converted message shares: {@code name}, {@code is_user} and {@code send_date} (now). */
    static ObjectNode message(String name, boolean isUser, LongSupplier clock) {
        return ChatMessage.of(name, isUser).put("send_date", StTime.iso(clock.getAsLong()));
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

    /** The converters' header and the messages as JSONL. */
    static byte[] jsonl(List<ObjectNode> messages) {
        List<ObjectNode> lines = new ArrayList<>(messages.size() + 1);
        lines.add(ChatHeader.converted());
        lines.addAll(messages);
        return LineWriter.jsonl(lines);
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
