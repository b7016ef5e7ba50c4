package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.core.Refusal;
import tankard.store.Locks;
import tankard.util.SafeNames;
import tankard.util.Sanitize;
import tankard.util.StTime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * {@code /api/chats/import} for character chats (src/endpoints/chats.js, the /import route): converts the upload
 * and writes each resulting chat as {@code <character name> - <humanized time> imported.jsonl}. Everything is
 * converted before anything is written, so a bad upload writes nothing; an existing chat is never replaced.
 */
public final class ChatImporter {
    /** A JSON upload becomes a tree in memory; larger ones are refused rather than risking the heap. */
    static final long MAX_JSON_BYTES = 64L * 1024 * 1024;

    private static final List<ChatConverter> CONVERTERS = List.of(
            new KoboldLiteChat(), new CaiToolsChat(), new OobaChat(), new AgnaiChat(), new RisuChat());

    private final ChatStore store;
    private final LongSupplier clock;
    private final long maxJsonBytes;
    /** The stores' locks: a folder's imports choose their names one at a time, on any node. */
    private final Locks locks;

    public ChatImporter(ChatStore store, Locks locks, LongSupplier clock) {
        this(store, locks, clock, MAX_JSON_BYTES);
    }

    ChatImporter(ChatStore store, Locks locks, LongSupplier clock, long maxJsonBytes) {
        this.store = store;
        this.locks = locks;
        this.clock = clock;
        this.maxJsonBytes = maxJsonBytes;
    }

    /** The multipart form of an import: the uploaded file and the form fields as sent (null when absent). */
    public record Upload(Path file, String fileType, String avatarUrl, String characterName, String userName) {
    }

    /** Imports the upload into the character's chat folder; returns the new chats' file names. */
    public List<String> importChat(String user, Upload upload) throws IOException {
        if (!"json".equals(upload.fileType()) && !"jsonl".equals(upload.fileType())) {
            throw Refusal.badRequest("file_type must be json or jsonl");
        }
        ChatFolder folder = ChatService.characterFolder(upload.avatarUrl());
        if (upload.characterName() == null || upload.userName() == null) {
            throw Refusal.badRequest("character_name and user_name are required");
        }
        String characterName = nameOr(upload.characterName(), "Character");
        String userName = nameOr(upload.userName(), "User");
        if (upload.file() == null) {
            throw Refusal.badRequest("No chat file uploaded");
        }
        if (upload.fileType().equals("jsonl")) { // streamed: an import of any size is a line in memory at a time
            try (ChatStore.Draft draft = store.draft(user)) {
                StJsonlChat.convert(upload.file(), draft);
                return store(user, folder, characterName, 1, (i, name) -> draft.commit(folder, name));
            }
        }
        List<byte[]> chats = fromJson(read(upload.file(), maxJsonBytes), userName, characterName);
        return store(user, folder, characterName, chats.size(), (i, name) -> store.write(user, folder, name, chats.get(i)));
    }

    /** Stores the {@code i}-th chat of an import under its new name. */
    @FunctionalInterface
    private interface Storing {
        void store(int i, String name) throws IOException;
    }

    private List<byte[]> fromJson(byte[] upload, String userName, String characterName) {
        JsonNode json = ImportedChat.parse(ImportedChat.utf8(upload, 0, upload.length));
        if (json == null) {
            throw new ChatImportException("The file is not valid JSON");
        }
        if (json.isObject()) {
            for (ChatConverter converter : CONVERTERS) {
                if (converter.accepts(json)) {
                    return converter.convert(json, userName, characterName, clock);
                }
            }
        }
        throw new ChatImportException("Unknown chat format");
    }

    private List<String> store(String user, ChatFolder folder, String characterName, int count, Storing storing)
            throws IOException {
        try (Locks.Held lock = locks.lockAll("chat-import\0" + user + '\0' + folder)) {
            List<String> names = new ArrayList<>();
            long time = clock.getAsLong();
            for (int i = 0; i < count; i++) {
                String name;
                do { // one millisecond on until free: several chats of one import, or two imports at once
                    name = characterName + " - " + StTime.humanized(time++) + " imported.jsonl";
                    SafeNames.requireFits(name, "chat file name"); // before the lookup, which such a name would fail
                } while (names.contains(name) || store.find(user, folder, name).isPresent());
                names.add(name);
            }
            for (int i = 0; i < count; i++) {
                storing.store(i, names.get(i));
            }
            return names;
        }
    }

    /** ST's {@code sanitize(name) || fallback}. */
    private static String nameOr(String name, String fallback) {
        String sanitized = Sanitize.filename(name);
        return sanitized.isEmpty() ? fallback : sanitized;
    }

    private static byte[] read(Path file, long limit) throws IOException {
        long size = Files.size(file);
        if (size > limit) {
            throw Refusal.tooLarge("The chat file is too large to import (" + size + " bytes; at most " + limit + ")");
        }
        return Files.readAllBytes(file);
    }
}
