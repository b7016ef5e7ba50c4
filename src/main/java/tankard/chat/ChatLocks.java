package tankard.chat;

import tankard.store.StripedLocks;

import java.util.Arrays;

/**
 * One writer per chat: saves, tail saves, renames and deletes of a chat take turns, so a rename racing a
 * save never leaves the newer save under the old name (or deletes it), and a read-check-write (the
 * integrity check) sees no other write in between. Shared by ChatService and ChatFiles.
 */
public final class ChatLocks {
    private final StripedLocks locks = new StripedLocks(64);

    /** Locks the named chats of one folder together (a rename locks both names). */
    StripedLocks.Held lock(String user, ChatFolder folder, String... files) {
        return locks.lockAll(Arrays.stream(files).map(file -> user + '\0' + folder + '\0' + file).toArray(String[]::new));
    }
}
