package tankard.chat;

import tankard.core.Refusal;
import tankard.store.DocumentStore;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where a user's chats and chat backups live, keyed by (user handle, folder, file name). File names reaching
 * a store are already validated single path segments. Blocking: call from worker threads.
 */
public interface ChatStore {
    /**
     * Whether a file of a user's folder (its path from that folder, with {@code /}) is one this store keeps: a chat
     * ({@code chats/<name>/*.jsonl}, {@code chats/*.jsonl}, {@code group chats/*.jsonl}) or a backup (a file of
     * {@code backups} that is not a settings document, {@link tankard.store.DocumentStore#isDocument}).
     */
    static boolean isChatFile(String path) {
        String[] parts = path.split("/", -1);
        String name = parts[parts.length - 1];
        return switch (parts.length) {
            case 2 -> (parts[0].equals("chats") || parts[0].equals("group chats")) && ChatFile.isChatName(name)
                    || parts[0].equals("backups") && !name.isEmpty() && !DocumentStore.isDocument(path);
            case 3 -> parts[0].equals("chats") && !parts[1].isEmpty() && ChatFile.isChatName(name);
            default -> false;
        };
    }

    boolean exists(String user, ChatFolder folder) throws IOException;

    void create(String user, ChatFolder folder) throws IOException;

    /** The chats ({@code *.jsonl}) in a folder in Node's readdir order (by name); none when the folder is missing. */
    List<ChatFile> list(String user, ChatFolder folder) throws IOException;

    Optional<ChatFile> find(String user, ChatFolder folder, String name) throws IOException;

    /** The names of the character chat folders ({@code chats/<name>/}) that exist: one listing for many cards. */
    Set<String> characterFolders(String user) throws IOException;

    /** Size and newest mtime over every entry of the folder, chat or not. */
    FolderUsage usage(String user, ChatFolder folder) throws IOException;

    /**
     * The chat's bytes as a stream, or empty when the chat does not exist. The stream keeps reading the
     * content it was opened on whatever is written meanwhile: a whole save, or a tail save made in place.
     */
    Optional<InputStream> open(String user, ChatFolder folder, String name) throws IOException;

    /**
     * Lines this chat held at some version, when this node has them at hand without reading the store's lines: the
     * file store's file, the database's latest copy on this node ({@link ChatCopies}) whatever its version; empty
     * otherwise. For what only needs lines that were once stored, whichever they are (a whole save's shortcut past
     * checking the elements it repeats: {@link ChatBody}).
     */
    Optional<AtHand> openAtHand(String user, ChatFolder folder, String name) throws IOException;

    /**
     * A chat's bytes at one version: {@code version} names the chat and its version for {@link Draft#repeats}
     * and {@link #version} (compared with equals).
     */
    record AtHand(InputStream lines, Object version) {
    }

    /**
     * The version the chat is stored at now, comparable with {@link AtHand#version()} (equal only when the lines at
     * hand are the chat as it is now); empty when there is no such chat.
     */
    Optional<Object> version(String user, ChatFolder folder, String name) throws IOException;

    /**
     * Replaces the chat's bytes from {@code keep} on by {@code tail}, atomically and durably (a crash leaves the
     * old chat or the new one), at a cost of the change, not of the chat, where the store can. The chat must still
     * be {@code expected} (its size and time, as the caller read it): else nothing is written and a conflict
     * {@link tankard.core.Refusal} is thrown, the check and the write being one unit of work of the store's.
     * Answers the chat as it is written (its new size and time).
     */
    ChatFile replaceTail(String user, ChatFolder folder, String name, ChatFile expected, long keep, byte[] tail)
            throws IOException;

    /** Replaces the chat atomically, creating its folder when needed. */
    void write(String user, ChatFolder folder, String name, byte[] content) throws IOException;

    /**
     * The chat for random access (previews read from its end, windowed reads), or empty when it does not exist.
     * Same view as {@link #open}.
     */
    Optional<SeekableByteChannel> channel(String user, ChatFolder folder, String name) throws IOException;

    /**
     * Renames a chat within its folder; false (nothing changed) when the source is missing or the target
     * exists. Atomic: a concurrent writer of the target is never overwritten.
     */
    boolean rename(String user, ChatFolder folder, String from, String to) throws IOException;

    /**
     * Sets the chat's modification time (Node's {@code mtimeMs}), which listings and the recent chats order by: how
     * data moving between stores keeps it. False when there is no such chat.
     */
    boolean setModified(String user, ChatFolder folder, String name, double modifiedMs) throws IOException;

    /** {@link #setModified} for a backup file. */
    boolean setBackupModified(String user, String name, double modifiedMs) throws IOException;

    /** The user's chats root, group chats and each character's chat folder, in that order (by name). */
    default List<ChatFolder> folders(String user) throws IOException {
        List<ChatFolder> folders = new ArrayList<>(List.of(ChatFolder.character(""), ChatFolder.groups()));
        characterFolders(user).stream().sorted().map(ChatFolder::character).forEach(folders::add);
        return folders;
    }

    /** Deletes every chat folder, chat and chat backup of the user. */
    default void deleteAll(String user) throws IOException {
        for (String character : characterFolders(user)) {
            deleteFolder(user, ChatFolder.character(character));
        }
        for (ChatFolder folder : List.of(ChatFolder.character(""), ChatFolder.groups())) {
            for (ChatFile chat : list(user, folder)) {
                delete(user, folder, chat.name());
            }
        }
        for (ChatFile backup : backups(user, "")) {
            if (isChatFile("backups/" + backup.name())) {
                deleteBackup(user, backup.name());
            }
        }
    }

    /** Deletes a chat; false when there is none. */
    boolean delete(String user, ChatFolder folder, String name) throws IOException;

    /** Stores a new chat byte for byte, atomically; false (nothing written) when the name is taken. */
    boolean create(String user, ChatFolder folder, String name, InputStream content) throws IOException;

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

        /**
         * Tells the draft that its first {@code bytes} are the first bytes of the chat at that {@link AtHand}
         * version, and that a line starts there in both: a store whose chat is still at that version when the
         * draft is committed may keep those lines as they are. Until the next {@link #restart}.
         */
        default void repeats(Object version, long bytes) {
        }

        /**
         * Makes the commit refuse ({@link ChatStore#changed}) unless the chat is still at that {@link #version} (null:
         * still absent) when it is written: what a check made under the chat's lock on this node holds to across
         * nodes. A store on one node (files) has nothing to add to the lock.
         */
        default void expect(Object version) {
        }

        /** The bytes written so far, to read them again before the commit. */
        InputStream written() throws IOException;

        /** Makes the written bytes the chat, durably and atomically, creating its folder when needed. */
        void commit(ChatFolder folder, String name) throws IOException;

        /** Discards the draft unless it was committed. */
        @Override
        void close();
    }

    /** Every backup file whose name starts with the prefix, in Node's readdir order. */
    List<ChatFile> backups(String user, String prefix) throws IOException;

    /** Writes a backup atomically from the content (read to its end, not closed). */
    void writeBackup(String user, String name, InputStream content) throws IOException;

    /** A backup file (following links, as Node's stat), or empty when there is none or it is not a file. */
    Optional<ChatFile> findBackup(String user, String name) throws IOException;

    /** A backup for reading (its listing preview, its download), or empty when it does not exist. */
    Optional<SeekableByteChannel> backupChannel(String user, String name) throws IOException;

    /** Deletes a backup file (a link itself, never its target); false when there is none. */
    boolean deleteBackup(String user, String name) throws IOException;

    /**
     * Moves a character's chat folder (ST copies, then deletes); does nothing and answers false when the source
     * is missing or the target already exists.
     */
    boolean moveFolder(String user, ChatFolder from, ChatFolder to) throws IOException;

    /** Removes a character's chat folder with everything in it; false when there was none. */
    boolean deleteFolder(String user, ChatFolder folder) throws IOException;

    /** The refusal of a write whose chat is no longer the one its caller read. */
    static Refusal changed() {
        return Refusal.conflict("The chat changed since it was read; nothing was stored");
    }
}
