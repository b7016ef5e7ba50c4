package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * One foreign chat format of {@code /api/chats/import} with {@code file_type=json} (src/endpoints/chats.js, the
 * /import route).
 */
interface ChatConverter {
    /** Whether the parsed upload is in this format, by ST's detection rule. */
    boolean accepts(JsonNode json);

    /**
     * The chats (usually one) as JSONL files. {@code userName} and {@code characterName} are the sanitized
     * request names; {@code clock} stamps messages with the import time, as ST does.
     */
    List<byte[]> convert(JsonNode json, String userName, String characterName, LongSupplier clock);
}
