package tankard.chat;

/** Total size of everything in a chat folder and its newest mtime: a card's {@code chat_size}, {@code date_last_chat}. */
public record FolderUsage(long size, double newestModifiedMs) {
    public static final FolderUsage EMPTY = new FolderUsage(0, 0);
}
