package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.util.Sanitize;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.Map;
import java.util.Optional;

/**
 * The chat backups browser of "Manage chat files" (src/endpoints/backups.js): lists, deletes and hands out the
 * {@code backups/chat_*.jsonl} files that {@link ChatBackups} writes. Names from requests are sanitized as ST
 * does and must still start with {@code chat_}, so no other file of the user can be reached.
 */
public final class ChatBackupFiles {
    private static final int CHUNK = 64 * 1024;

    private final ChatStore store;

    public ChatBackupFiles(ChatStore store) {
        this.store = store;
    }

    /** A ChatInfo per chat backup, previews read from the end of each file; corrupted backups are left out. */
    public ArrayNode list(String user) throws IOException {
        ArrayNode infos = JsJson.array();
        for (ChatFile file : store.backups(user, ChatBackups.PREFIX)) {
            if (!ChatFile.isChatName(file.name())) {
                continue;
            }
            try {
                ChatInfo.read(file, () -> store.backupChannel(user, file.name()), Map.of(), false)
                        .filter(ChatInfo::isValid).ifPresent(infos::add);
            } catch (IOException e) {
                throw ChatErrors.unreadable("the chat backup " + file.name(), e);
            }
        }
        return infos;
    }

    /** Deletes the backup {@code name}; 404 when there is none. */
    public void delete(String user, String name) throws IOException {
        if (!store.deleteBackup(user, name)) {
            throw Refusal.notFound("No chat backup " + name);
        }
    }

    /** The backup {@code name}, open for download; 404 when there is none. */
    public Download download(String user, String name) throws IOException {
        Optional<ChatFile> file = store.findBackup(user, name);
        Optional<SeekableByteChannel> channel = file.isEmpty() ? Optional.empty() : store.backupChannel(user, name);
        if (channel.isEmpty()) {
            throw Refusal.notFound("No chat backup " + name);
        }
        try {
            // the length of what was opened: a backup replaced since the listing is sent whole, as it is now
            return new Download(name, channel.get().size(), Math.round(file.get().modifiedMs()), channel.get());
        } catch (IOException | RuntimeException e) {
            channel.get().close();
            throw e;
        }
    }

    /** An open backup: its name, exact length and mtime; {@link #writeTo} sends the bytes and closes it. */
    public record Download(String name, long size, long modifiedMs, SeekableByteChannel content) {
        public void writeTo(OutputStream out) throws IOException {
            try (content) {
                ByteBuffer buffer = ByteBuffer.allocate(CHUNK);
                for (long left = size; left > 0; ) {
                    buffer.clear().limit((int) Math.min(CHUNK, left));
                    int read = content.read(buffer);
                    if (read < 0) {
                        throw new IOException("The chat backup " + name + " was cut short while it was sent");
                    }
                    out.write(buffer.array(), 0, read);
                    left -= read;
                }
            }
        }
    }

    /** A request's backup {@code name}, ST's {@code sanitize(name)}: not starting with {@code chat_}, a 400. */
    public static String backupName(JsonNode body) {
        JsonNode name = body.get("name");
        if (name == null || !name.isTextual()) {
            throw Refusal.badRequest("name must be the file name of a chat backup");
        }
        String file = Sanitize.filename(name.textValue());
        if (!file.startsWith(ChatBackups.PREFIX) || !Sanitize.isSafeSegment(file)) {
            throw Refusal.badRequest("Not a chat backup: " + name.textValue());
        }
        return file;
    }
}
