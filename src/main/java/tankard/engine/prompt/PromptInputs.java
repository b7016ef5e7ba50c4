package tankard.engine.prompt;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.tokenizer.Tokenizers;

import java.time.ZonedDateTime;
import java.util.List;
import java.util.function.Function;

/**
 * Everything a prompt is built from, read from the user's data once per request.
 *
 * @param settings   the user's settings.json
 * @param character  the character's card (top-level fields and {@code data}); in a group, the member who speaks
 * @param group      the group, or null for a one-on-one chat
 * @param members    the group's member cards in the group's order (empty outside a group)
 * @param chat       the chat's messages, oldest first, without the header line
 * @param metadata   the chat header's {@code chat_metadata} (an empty object when there is none)
 * @param books      reads a world info file by name; null when there is no such book
 * @param userText   what the user typed for a send (empty otherwise)
 * @param now        the clock for date and time macros and the new message's date
 * @param tokenizers the tokenizers the counts use
 * @param vectors    the chat's collection in vector storage, or null when the chat is not vectorized
 * @param chatId     ST's getCurrentChatId: the chat file's name without {@code .jsonl}
 * @param known      what is known of each message of {@code chat}, made once for all the prompts of a parsed chat
 */
public record PromptInputs(ObjectNode settings, ObjectNode character, ObjectNode group, List<ObjectNode> members,
                           ArrayNode chat, ObjectNode metadata, Function<String, ObjectNode> books, String userText,
                           ZonedDateTime now, Tokenizers tokenizers, VectorIndex vectors, String chatId,
                           ChatHashes known) {
    /** Inputs of a chat without vector storage, for tests. */
    public PromptInputs(ObjectNode settings, ObjectNode character, ObjectNode group, List<ObjectNode> members,
                        ArrayNode chat, ObjectNode metadata, Function<String, ObjectNode> books, String userText,
                        ZonedDateTime now, Tokenizers tokenizers) {
        this(settings, character, group, members, chat, metadata, books, userText, now, tokenizers, null, "",
                ChatHashes.NONE);
    }
}
