package tankard.engine.memory;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import tankard.engine.macro.MacroEnv;
import tankard.engine.macro.Macros;
import tankard.engine.macro.TestMacros;
import tankard.engine.prompt.ChatHashes;
import tankard.engine.prompt.ExtensionPrompts;
import tankard.engine.prompt.VectorIndex;
import tankard.json.JsJson;
import tankard.util.StringHash;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Vector Storage's synchronization and recall against an index that answers fixed hashes: what is inserted,
 * chunked and deleted, which messages leave the chat for the "Past events" prompt and in which order.
 */
class VectorMemoryTest {
    private final Macros macros = TestMacros.macros("Wren", "Bramble", JsJson.object(),
            MacroEnv.CardFields.EMPTY, null, JsJson.array(), JsJson.object(), "", ZonedDateTime.now());

    /** An index that keeps what it is given and answers the hashes a test names. */
    private static final class FixedIndex implements VectorIndex {
        /** The parsed chat's hashes, handed to the memory with this index. */
        ChatHashes chatHashes = ChatHashes.NONE;
        final Map<Long, List<Item>> items = new LinkedHashMap<>();
        final List<Item> inserted = new ArrayList<>();
        final List<Long> deleted = new ArrayList<>();
        List<Long> answer = List.of();
        String lastQuery;

        /** As the store answers: the same array while the collection is unchanged. */
        private long[] saved;

        @Override
        public long[] saved() {
            if (saved == null) {
                saved = items.entrySet().stream().flatMapToLong(e -> e.getValue().stream().mapToLong(chunk -> e.getKey()))
                        .sorted().toArray();
            }
            return saved;
        }

        @Override
        public void insert(List<Item> items) {
            saved = null;
            inserted.addAll(items);
            items.forEach(item -> this.items.computeIfAbsent(item.hash(), h -> new ArrayList<>()).add(item));
        }

        @Override
        public void delete(List<Long> hashes) {
            saved = null;
            deleted.addAll(hashes);
            hashes.forEach(items::remove);
        }

        @Override
        public List<Long> query(String text, int topK, double threshold) {
            lastQuery = text;
            return answer;
        }
    }

    private static ObjectNode message(String name, String text, boolean user) {
        return JsJson.object().put("name", name).put("is_user", user).put("is_system", false).put("mes", text);
    }

    private static List<ObjectNode> chat(int size) {
        List<ObjectNode> chat = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            chat.add(message(i % 2 == 0 ? "Bramble" : "Wren", "Message number " + i + ".", i % 2 == 1));
        }
        return chat;
    }

    private static ObjectNode settings(String extra) {
        return (ObjectNode) JsJson.parse("{\"enabled_chats\":true" + extra + "}");
    }

    @Test
    void synchronizingInsertsNewMessagesInChunksUnderTheWholeMessagesHashAndDeletesGoneOnes() {
        FixedIndex index = new FixedIndex();
        index.insert(List.of(new VectorIndex.Item(42, "a message since deleted", 0)));
        List<ObjectNode> chat = chat(3);
        chat.add(JsJson.object().put("name", "System").put("is_system", true).put("mes", "hidden"));
        chat.add(message("Wren", "word ".repeat(100).strip(), true));
        new VectorMemory(settings(",\"message_chunk_size\":100")).synchronize(chat, index.chatHashes, macros, index);

        assertFalse(index.items.containsKey(42L), "the hash no message has any more is deleted");
        assertFalse(index.items.containsKey(StringHash.of("hidden")), "hidden messages stay out");
        long longHash = StringHash.of("word ".repeat(100).strip());
        assertEquals(5, index.items.get(longHash).size(), "499 characters in chunks of at most 100");
        assertEquals(4, index.items.get(longHash).get(0).index());
        assertEquals(List.of(StringHash.of("Message number 0.")).get(0),
                index.items.keySet().iterator().next());
        int before = index.saved().length;
        new VectorMemory(settings(",\"message_chunk_size\":100")).synchronize(chat, index.chatHashes, macros, index);
        assertEquals(before, index.saved().length, "a second synchronization inserts nothing");
    }

    @Test
    void recallMovesTheHitsOutsideTheRetainedMessagesIntoThePromptMostRelevantLast() {
        FixedIndex index = new FixedIndex();
        List<ObjectNode> chat = chat(12);
        index.answer = List.of(StringHash.of("Message number 3."), StringHash.of("Message number 10."),
                StringHash.of("Message number 1."));
        ExtensionPrompts prompts = new ExtensionPrompts(macros);
        new VectorMemory(settings("")).rearrange(chat, index.chatHashes, macros, index, prompts);

        assertEquals("Message number 11.\nMessage number 10.", index.lastQuery, "the last two, newest first");
        assertEquals(10, chat.size(), "the two old hits left the chat; message 10 is retained, so it stays");
        assertFalse(chat.stream().anyMatch(m -> m.get("mes").asText().equals("Message number 3.")));
        ExtensionPrompts.Prompt recalled = prompts.get(VectorMemory.PROMPT_KEY);
        assertEquals("Past events:\nWren: Message number 1.\n\nWren: Message number 3.", recalled.value());
        assertEquals(ExtensionPrompts.IN_PROMPT, recalled.position());
        assertEquals(2, recalled.depth());
    }

    @Test
    void aChatShorterThanTheRetainedMessagesOrVectorsOffRecallsNothing() {
        FixedIndex index = new FixedIndex();
        index.answer = List.of(StringHash.of("Message number 0."));
        ExtensionPrompts prompts = new ExtensionPrompts(macros);
        List<ObjectNode> shortChat = chat(4);
        new VectorMemory(settings("")).rearrange(shortChat, index.chatHashes, macros, index, prompts);
        assertEquals(4, shortChat.size());
        assertEquals("", prompts.get(VectorMemory.PROMPT_KEY).value());

        List<ObjectNode> chat = chat(12);
        new VectorMemory(JsJson.object()).rearrange(chat, index.chatHashes, macros, index, prompts);
        assertEquals(12, chat.size());
        assertTrue(index.lastQuery == null, "no query when chat vectorization is off");
    }

    @Test
    void theTemplatePositionAndDepthAreTheUsers() {
        FixedIndex index = new FixedIndex();
        index.answer = List.of(StringHash.of("Message number 2."));
        ExtensionPrompts prompts = new ExtensionPrompts(macros);
        new VectorMemory(settings(",\"template\":\"Recalled by {{user}}: {{text}}\",\"position\":1,\"depth\":4,"
                + "\"protect\":3,\"query\":1")).rearrange(chat(8), index.chatHashes, macros, index, prompts);
        ExtensionPrompts.Prompt recalled = prompts.get(VectorMemory.PROMPT_KEY);
        assertEquals("Recalled by Wren: Bramble: Message number 2.", recalled.value());
        assertEquals(ExtensionPrompts.IN_CHAT, recalled.position());
        assertEquals(4, recalled.depth());
        assertEquals("Message number 7.", index.lastQuery);
    }

    /**
     * A parsed chat, and the list a regeneration's prompt makes of it (as PromptEngine does): the first message a
     * copy with its macros substituted, the last reply gone, one message added. Hidden and empty messages, texts
     * with macros and two messages of the same text are among them.
     */
    private static ArrayNode parsedChat() {
        ArrayNode parsed = JsJson.array();
        for (int i = 0; i < 30; i++) {
            ObjectNode message = message(i % 2 == 0 ? "Bramble" : "Wren", "Message number " + i + ".", i % 2 == 1);
            switch (i % 10) {
                case 3 -> message.put("is_system", true).put("mes", "A hidden note " + i);
                case 5 -> message.put("mes", "{{user}} said something at " + i);
                case 6 -> message.put("mes", "");
                case 7 -> message.put("mes", "The same words twice");
                default -> {
                }
            }
            parsed.add(message);
        }
        return parsed;
    }

    private List<ObjectNode> promptChat(ArrayNode parsed) {
        List<ObjectNode> chat = new ArrayList<>();
        parsed.forEach(message -> chat.add((ObjectNode) message));
        ObjectNode first = chat.get(0).deepCopy();
        first.put("mes", "{{char}} begins");
        chat.set(0, first);
        chat.remove(chat.size() - 1);
        chat.add(message("Wren", "A new message from {{user}}", true));
        return chat;
    }

    @Test
    void theParsedChatsHashesSynchronizeAndRecallAsHashingEveryTextDoes() {
        for (String keepHidden : List.of("", ",\"keep_hidden\":true")) {
            ArrayNode parsed = parsedChat();
            FixedIndex hashing = new FixedIndex();
            FixedIndex reading = new FixedIndex();
            reading.chatHashes = new ChatHashes(parsed);
            for (FixedIndex index : List.of(hashing, reading)) {
                index.insert(List.of(new VectorIndex.Item(42, "gone since", 0),
                        new VectorIndex.Item(StringHash.of("Message number 29."), "the reply regenerated", 29),
                        new VectorIndex.Item(StringHash.of("Message number 2."), "kept", 2),
                        new VectorIndex.Item(StringHash.of("Message number 2."), "kept, its second chunk", 2)));
                index.inserted.clear();
                new VectorMemory(settings(keepHidden)).synchronize(promptChat(parsed), index.chatHashes, macros, index);
            }
            assertEquals(hashing.inserted, reading.inserted, "the same items inserted, in the same order");
            List<VectorMemory.Stats> counted = new ArrayList<>();
            for (ChatHashes hashes : List.of(ChatHashes.NONE, reading.chatHashes)) {
                FixedIndex index = new FixedIndex();
                index.chatHashes = hashes;
                counted.add(new VectorMemory(settings(keepHidden)).synchronize(promptChat(parsed), index.chatHashes, macros, index, 3));
            }
            assertEquals(counted.get(0), counted.get(1), "a step of Vectorize All counts the same");
            assertEquals(3, counted.get(1).saved(), "three inserted of " + counted.get(1));
            assertEquals(new java.util.TreeSet<>(hashing.deleted), new java.util.TreeSet<>(reading.deleted));
            assertTrue(reading.deleted.contains(42L) && reading.deleted.contains(StringHash.of("Message number 29.")),
                    "what no message of this chat has is deleted: " + reading.deleted);
            assertTrue(reading.inserted.stream().anyMatch(item -> item.text().equals("Wren said something at 15")),
                    "a text with macros is inserted substituted");
            assertFalse(reading.inserted.stream().anyMatch(item -> item.index() == 2), "what is saved stays");
            assertEquals(!keepHidden.isEmpty(), reading.inserted.stream().anyMatch(item -> item.text().startsWith(
                    "A hidden note")), "hidden messages only with keep_hidden");

            List<List<String>> recalled = new ArrayList<>();
            for (FixedIndex index : List.of(hashing, reading)) {
                index.answer = List.of(StringHash.of("The same words twice"), StringHash.of("Bramble begins"),
                        StringHash.of("Wren said something at 5"), StringHash.of("Message number 8."));
                List<ObjectNode> chat = promptChat(parsed);
                chat.removeIf(message -> message.path("is_system").asBoolean());
                ExtensionPrompts prompts = new ExtensionPrompts(macros);
                new VectorMemory(settings(keepHidden + ",\"insert\":4")).rearrange(chat, index.chatHashes, macros, index, prompts);
                recalled.add(List.of(prompts.get(VectorMemory.PROMPT_KEY).value(), String.valueOf(chat.size())));
            }
            assertEquals(recalled.get(0), recalled.get(1));
            assertEquals("Past events:\nBramble: Message number 8.\n\nWren: {{user}} said something at 5\n\n"
                    + "Bramble: {{char}} begins\n\nWren: The same words twice", recalled.get(1).get(0),
                    "the first of the same texts, most relevant last");
        }
    }

    @Test
    void aChatFoundInStepIsSynchronizedAgainWhenTheCollectionOrTheChatChanges() {
        ArrayNode parsed = parsedChat();
        FixedIndex index = new FixedIndex();
        index.chatHashes = new ChatHashes(parsed);
        VectorMemory memory = new VectorMemory(settings(""));
        VectorMemory.Stats first = memory.synchronize(promptChat(parsed), index.chatHashes, macros, index, Integer.MAX_VALUE);
        index.inserted.clear();
        assertEquals(first.messages(), first.saved(), "all in: " + first);
        assertEquals(first, memory.synchronize(promptChat(parsed), index.chatHashes, macros, index, Integer.MAX_VALUE),
                "in step, counted the same");
        assertTrue(index.inserted.isEmpty() && index.deleted.isEmpty(), "in step: nothing to do");

        index.delete(List.of(StringHash.of("Message number 4."))); // another client deletes an item: the collection is another
        memory.synchronize(promptChat(parsed), index.chatHashes, macros, index);
        assertEquals(List.of(4), index.inserted.stream().map(VectorIndex.Item::index).toList(),
                "what the collection lost is inserted again");

        index.inserted.clear();
        List<ObjectNode> changed = promptChat(parsed);
        changed.set(8, message("Bramble", "Message number 8, edited.", false)); // the prompt holds another text there
        memory.synchronize(changed, index.chatHashes, macros, index);
        assertEquals(List.of("Message number 8, edited."), index.inserted.stream().map(VectorIndex.Item::text).toList());
    }
}
