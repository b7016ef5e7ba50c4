package tankard.store;

import tankard.util.Sanitize;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A user's blobs: every file of the user's folder that no other store keeps (images, Data Bank files, sprites,
 * assets, backgrounds, persona avatars, Comfy workflows, content.log, …), keyed by (user handle, path). A path is the
 * file's path from the user's folder in ST's layout, with {@code /}: {@code backgrounds/a.jpg},
 * {@code user/images/Seraphina/x.png}, {@code User Avatars/p.png}. Each of its segments is one path segment
 * ({@link Sanitize#isSafeSegment}), and the file it names is a blob by the rule the store is given (the wiring's
 * {@code Stores.isBlob}: not a document, chat, group or card, nor what stays on the node); a store refuses any other
 * path with an {@link IllegalArgumentException}, so no path ever leaves the user's folder or reaches another store's
 * files. A folder path is {@code ""} for the user's folder itself, else a path.
 * <p>
 * The file store is ST's data folder itself; the PostgreSQL store keeps a blob's bytes in chunks. A folder is no
 * thing of its own there: it exists while a blob is under it, so an empty folder is never listed, where the file
 * store lists every folder there is. Both refuse what a file system refuses: a path through a blob where a folder is
 * needed ({@link java.nio.file.NotDirectoryException}), a blob where there is a folder, a name over the file
 * system's limit ("File name too long"), each as an {@link java.io.UncheckedIOException}.
 * Blocking calls: run them on a worker thread.
 */
public interface BlobStore {
    /** A blob as a listing shows it: Node's {@code stat} units ({@code size}, {@code mtimeMs}). */
    record Entry(String path, long size, double modifiedMs) {
        /** The last segment of the path: the file's name. */
        public String name() {
            return path.substring(path.lastIndexOf('/') + 1);
        }
    }

    /**
     * An open blob: its entry and its bytes from the offset asked for on, both of one version. The bytes are read
     * as they are consumed, blocking too (on a worker thread); on PostgreSQL a read fails with an
     * {@link IOException} when the blob is replaced or deleted before it is through, rather than mix two versions.
     * Close it.
     */
    record Opened(Entry entry, InputStream content) implements Closeable {
        @Override
        public void close() throws IOException {
            content.close();
        }
    }

    /** The path, when it is one or more path segments joined with {@code /}; else an {@link IllegalArgumentException}. */
    static String checkPath(String path) {
        if (!isPath(path)) {
            throw new IllegalArgumentException("Not a path in a user's folder: " + path);
        }
        return path;
    }

    /** Whether the text is one or more path segments joined with {@code /}. */
    static boolean isPath(String path) {
        return path != null && !path.isEmpty()
                && Arrays.stream(path.split("/", -1)).allMatch(Sanitize::isSafeSegment);
    }

    /** The path of a blob by the store's rule ({@link #checkPath}, and a file the rule says is a blob). */
    static String checkBlob(String path, Predicate<String> isBlob) {
        if (!isBlob.test(checkPath(path))) {
            throw new IllegalArgumentException("Not a file of the blob store: " + path);
        }
        return path;
    }

    /** The folder path: {@code ""} (the user's folder) or a {@link #checkPath path}. */
    static String checkFolder(String folder) {
        return folder != null && folder.isEmpty() ? folder : checkPath(folder);
    }

    /** The offset of a read, when it is one: not negative. */
    static long checkOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("A negative offset: " + offset);
        }
        return offset;
    }

    /** The path of a file or folder in a folder. */
    static String child(String folder, String name) {
        return folder.isEmpty() ? name : folder + "/" + name;
    }

    /**
     * Whether a file of a user's folder (its path from that folder, with {@code /}) is one this store keeps: a
     * {@link #isPath path} that the store's rule says is a blob's.
     */
    boolean keeps(String path);

    /** The blob at the path; empty when there is none (also when the path is a folder). */
    Optional<Entry> stat(String user, String path);

    /** The blob's bytes from the start, streamed; empty when there is no blob at the path. */
    default Optional<InputStream> open(String user, String path) {
        return open(user, path, 0).map(Opened::content);
    }

    /**
     * The blob from a byte offset on (an HTTP range), with its entry; empty when there is no blob at the path. No
     * byte before the offset is read; an offset at or past the end gives no bytes.
     */
    Optional<Opened> open(String user, String path, long offset);

    /**
     * Stores the content as the blob at the path, replacing any blob there, and creating the folders on the way.
     * Atomic: a reader sees the old blob or the new one, never a mix, and a write that fails (the content's stream
     * too, midway) leaves the old blob. The content is streamed, never held whole; a failure of its stream reaches
     * the caller as an {@link java.io.UncheckedIOException}. Answers the new blob's entry.
     */
    Entry write(String user, String path, InputStream content);

    /**
     * Stores the content at the entry's path with the entry's modification time, which stat and listings then
     * report: how data moves between stores (bin/tankard import-data and export-data).
     */
    void restore(String user, Entry entry, InputStream content);

    /** Deletes the blob; false when there was none. */
    boolean delete(String user, String path);

    /**
     * Moves the blob to another path, with its bytes and modification time; false (and nothing changed) when there is
     * no blob at {@code from}. A blob at {@code to} is never replaced: that fails with an
     * {@link java.io.UncheckedIOException} whose cause is a {@link java.nio.file.FileAlreadyExistsException}.
     */
    boolean rename(String user, String from, String to);

    /** Deletes every blob under the folder (a path), in its subfolders too, and the folders left empty; how many. */
    int deleteFolder(String user, String folder);

    /** Deletes every blob of the user; the file store leaves ST's folders in place. */
    void deleteAll(String user);

    /** The blobs directly in the folder, in Node's readdir order (by code point, {@link tankard.util.FileNames#BYTE_ORDER}). */
    List<Entry> list(String user, String folder);

    /**
     * The names of the folder's direct subfolders, in Node's readdir order. On PostgreSQL these are the folders that
     * have a blob under them; on files every subfolder there is, empty ones (and those of other stores' files) too.
     */
    List<String> folders(String user, String folder);

    /** Every blob under the folder, in its subfolders too, by path in code point order. */
    List<Entry> walk(String user, String folder);
}
