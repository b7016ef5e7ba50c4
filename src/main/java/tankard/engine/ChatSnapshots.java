package tankard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.chat.ChatRef;
import tankard.chat.ChatService;
import tankard.chat.ChatTail;
import tankard.core.Refusal;
import tankard.engine.prompt.ChatHashes;
import tankard.json.JsJson;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Objects;
import java.util.Optional;

/**
 * The chats prompts are built from, parsed once per version: a chat is read and parsed again only when the
 * store's version of it ({@link tankard.chat.ChatStore#version}) is not the one parsed last. The store's version
 * decides, so a chat written by another node or by ST is read afresh; what this node keeps only saves work. The
 * chats least recently used go first once the chats kept pass a share of the heap.
 * <p>
 * A snapshot is shared by the prompts built at once: nothing may change its messages (the engine copies a message
 * before it changes one, as ST's Generate does).
 */
final class ChatSnapshots {
    /** The JSON text of the chats kept, at most: a parsed chat takes a few times its text's size of heap. */
    private static final long MAX_BYTES = Runtime.getRuntime().maxMemory() / 32;

    /**
     * A chat as parsed at one version.
     *
     * @param metadata   the header's {@code chat_metadata}, an empty object when there is none
     * @param messages   the chat's messages (lines that are JSON objects), oldest first
     * @param hashes   ST's getStringHash of the messages, made once for all prompts of this version
     */
    record Snapshot(Object version, ObjectNode metadata, ArrayNode messages, ChatHashes hashes, long bytes) {
    }

    private final ChatService chats;
    private final LinkedHashMap<String, Snapshot> kept = new LinkedHashMap<>(16, 0.75f, true);
    private long keptBytes;

    ChatSnapshots(ChatService chats) {
        this.chats = chats;
    }

    /**
     * The chat as it is stored now; a 404 refusal when there is no such chat. A chat written while it is read is read
     * again, twice at most (then the 409 stands). Blocking.
     */
    Snapshot read(String user, ChatRef chat) throws IOException {
        for (int attempt = 0; ; attempt++) {
            try {
                return readOnce(user, chat);
            } catch (Refusal refusal) {
                if (refusal.kind() != Refusal.Kind.CONFLICT || attempt == 2) {
                    throw refusal;
                }
            }
        }
    }

    private Snapshot readOnce(String user, ChatRef chat) throws IOException {
        String key = user + '\u0000' + chat.folder() + '\u0000' + chat.file();
        Object version = chats.version(user, chat).orElseThrow(() -> Refusal.notFound("No such chat"));
        synchronized (this) {
            Snapshot known = kept.get(key);
            if (known != null && known.version().equals(version)) {
                return known;
            }
        }
        Snapshot read = parse(version, chats.tail(user, chat, Integer.MAX_VALUE));
        // kept only when nothing was written while it was read: then it is the chat at that version
        if (Objects.equals(Optional.of(version), chats.version(user, chat))) {
            keep(key, read);
        }
        return read;
    }

    private static Snapshot parse(Object version, ChatTail read) {
        JsonNode header = read.header();
        ObjectNode metadata = header != null && header.get("chat_metadata") instanceof ObjectNode object
                ? object : JsJson.object();
        ArrayNode messages = JsJson.array();
        read.messages().forEach(message -> {
            if (message.isObject()) { // a line ST's frontend could not use either
                messages.add(message);
            }
        });
        return new Snapshot(version, metadata, messages, new ChatHashes(messages),
                read.headerJson().length + read.messagesJson().length);
    }

    private synchronized void keep(String key, Snapshot snapshot) {
        if (snapshot.bytes() > MAX_BYTES) {
            return;
        }
        Snapshot replaced = kept.put(key, snapshot);
        keptBytes += snapshot.bytes() - (replaced == null ? 0 : replaced.bytes());
        Iterator<Snapshot> eldest = kept.values().iterator();
        while (keptBytes > MAX_BYTES && eldest.hasNext()) {
            keptBytes -= eldest.next().bytes();
            eldest.remove();
        }
    }
}
