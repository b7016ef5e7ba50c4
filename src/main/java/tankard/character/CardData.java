package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A card as read from its file: the JSON text exactly as stored (sent back as {@code json_data}), as UTF-8, and its
 * parsed object. Shared by the cache: treat both as read-only and copy {@code json} before changing anything.
 */
public record CardData(byte[] utf8, ObjectNode json) {
    /** The JSON text, decoded at each call. */
    public String text() {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /** Estimated heap bytes, for the cache budget (computed when asked: lists never need it). */
    long weight() {
        return utf8.length + weight(json);
    }

    /** Rough heap cost of a tree: strings at two bytes a char plus a per-node overhead. */
    private static long weight(JsonNode node) {
        long weight = 32;
        if (node.isTextual()) {
            return weight + 40 + 2L * node.textValue().length();
        }
        if (node.isObject()) {
            for (var it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                weight += 48 + 2L * field.getKey().length() + weight(field.getValue());
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                weight += 8 + weight(element);
            }
        }
        return weight;
    }
}
