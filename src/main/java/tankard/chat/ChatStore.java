package tankard.chat;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where a user's chats and chat backups live, keyed by (user handle, folder, file name). File names reaching
 * a store are already validated single path segments. Blocking: call from worker threads.
 */
public interface ChatStore {
    boolean exists(String user, ChatFolder folder) throws IOException;

    void create(String user, ChatFolder folder) throws IOException;

    /** The chats ({@code *.jsonl}) in a folder, in no particular order; none when the folder is missing. */
    List<ChatFile> list(String user, ChatFolder folder) throws IOException;

    Optional<ChatFile> find(String user, ChatFolder folder, String name) throws IOException;

    /** The names of the character chat folders ({@code chats/<name>/}) that exist: one listing for many cards. */
    Set<String> characterFolders(String user) throws IOException;

    /** Size and newest mtime over every entry of the folder, chat or not. */
    FolderUsage usage(String user, ChatFolder folder) throws IOException;

    /**
     * The chat's bytes as a stream, or empty when the chat does not exist. The stream keeps reading the
     * content it was opened on when the chat is replaced meanwhile (writes never change a chat in place).
     */
    Optional<InputStream> open(String user, ChatFolder folder, String name) throws IOException;

    /** The chat for random access (windowed reads), or empty when it does not exist. Same view as {@link #open}. */
    Optional<SeekableByteChannel> openChannel(String user, ChatFolder folder, String name) throws IOException;

    /**
     * Replaces the chat atomically by its first {@code keep} bytes followed by {@code tail}. The kept bytes are
     * copied by the file system, without passing through the server's memory.
     */
    void replaceTail(String user, ChatFolder folder, String name, long keep, byte[] tail) throws IOException;

    /** Replaces the chat atomically, creating its folder when needed. */
    void write(String user, ChatFolder folder, String name, byte[] content) throws IOException;

    /**
     * A new chat written as a stream: nothing is visible until {@link Draft#commit}, and a draft closed
     * without it leaves nothing behind.
     */
    Draft draft(String user) throws IOException;

    /** A chat on its way to the store. */
    interface Draft extends Closeable {
        OutputStream out();

        /** Drops everything written so far. */
        void restart() throws IOException;

        /** Makes the written bytes the chat, durably and atomically, creating its folder when needed. */
        void commit(ChatFolder folder, String name) throws IOException;

        /** Discards the draft unless it was committed. */
        @Override
        void close();
    }

    /** Every backup file whose name starts with the prefix. */
    List<ChatFile> backups(String user, String prefix) throws IOException;

    /** Writes a backup atomically from the content (read to its end, not closed). */
    void writeBackup(String user, String name, InputStream content) throws IOException;

    void deleteBackup(String user, String name) throws IOException;

    /**
     * Moves a character's chat folder (ST copies, then deletes); does nothing and answers false when the source
     * is missing or the target already exists.
     */
    boolean moveFolder(String user, ChatFolder from, ChatFolder to) throws IOException;

    /** Removes a character's chat folder with everything in it; false when there was none. */
    boolean deleteFolder(String user, ChatFolder folder) throws IOException;
}
