package tankard.character;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A card as read from its file: the JSON text exactly as stored (sent back as {@code json_data}) and its
 * parsed object. Shared by the cache: treat {@code json} as read-only and copy it before changing anything.
 */
public record CardData(String text, ObjectNode json) {
    /** Rough heap cost for the cache budget: the text as UTF-16 plus about twice that for the tree. */
    long weight() {
        return 6L * text.length() + 64;
    }
}
