package tankard.chat;

import tankard.store.Locks;

import java.util.Arrays;

/**
 * One writer per chat: saves, tail saves, renames and deletes of a chat take turns, so a rename racing a
 * save never leaves the newer save under the old name (or deletes it), and a read-check-write (the
 * integrity check) sees no other write in between. Shared by ChatService and ChatFiles; the locks are the
 * stores' ({@link Locks}), so on a database the turns hold across nodes.
 */
public final class ChatLocks {
    private final Locks locks;

    public ChatLocks(Locks locks) {
        this.locks = locks;
    }

    /** Locks the named chats of one folder together (a rename locks both names). */
    Locks.Held lock(String user, ChatFolder folder, String... files) {
        return locks.lockAll(Arrays.stream(files).map(file -> "chat\0" + user + '\0' + folder + '\0' + file)
                .toArray(String[]::new));
    }
}
