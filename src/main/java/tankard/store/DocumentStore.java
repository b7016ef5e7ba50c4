package tankard.store;

import tankard.util.Sanitize;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A user's JSON documents, kept as the bytes they were written with: settings, secrets, presets, themes, lorebooks
 * and settings snapshots, keyed by (user handle, folder, name). The file store is ST's data folder itself, the
 * PostgreSQL store a table. Names are single path segments that callers have already validated as ST does
 * ({@link tankard.util.SafeNames}: a 400 for a bad request field); a store refuses any other with an
 * {@link IllegalArgumentException}, so no name ever leaves its folder.
 * Blocking calls: run them on a worker thread.
 */
public interface DocumentStore {
    /** The folders ST keeps JSON documents in (ST: src/constants.js, USER_DIRECTORY_TEMPLATE). */
    enum Folder {
        /** The user's folder itself: settings.json, secrets.json, stats.json. */
        ROOT(""),
        WORLDS("worlds"),
        THEMES("themes"),
        MOVING_UI("movingUI"),
        QUICK_REPLIES("QuickReplies"),
        INSTRUCT("instruct"),
        CONTEXT("context"),
        SYSPROMPT("sysprompt"),
        REASONING("reasoning"),
        KOBOLD_SETTINGS("KoboldAI Settings"),
        NOVEL_SETTINGS("NovelAI Settings"),
        OPENAI_SETTINGS("OpenAI Settings"),
        TEXTGEN_SETTINGS("TextGen Settings"),
        /** Settings snapshots and the copy of a migrated secrets.json. */
        BACKUPS("backups");

        private final String stName;

        Folder(String stName) {
            this.stName = stName;
        }

        /** The folder's name under the user's data folder in ST's layout; "" for the user's folder itself. */
        public String stName() {
            return stName;
        }
    }

    /** A document as a listing shows it: Node's {@code stat} units ({@code size}, {@code mtimeMs}, {@code ctimeMs}). */
    record Entry(String name, long size, double modifiedMs, double changedMs) {
    }

    /** What an {@link #update} leaves: the bytes to store ({@code null}: the document stays as it is) and an answer. */
    record Outcome<T>(byte[] content, T answer) {
        public static <T> Outcome<T> keep(T answer) {
            return new Outcome<>(null, answer);
        }

        public static <T> Outcome<T> store(byte[] content, T answer) {
            return new Outcome<>(content, answer);
        }
    }

    /**
     * The read-modify-write step of an {@link #update}: from the current bytes (empty when there is no document) to
     * the outcome. It runs while the document is locked, possibly on the database's event loop: it must not block or
     * call the store. What it throws undoes the update and reaches the caller.
     */
    @FunctionalInterface
    interface Change<T> {
        Outcome<T> apply(Optional<byte[]> current);
    }

    /**
     * Whether a file of a user's folder (its path from that folder, with {@code /}) is a document: a file directly in
     * one of the {@link Folder}s, and in the user's folder itself or in {@code backups} a {@code .json} file. The
     * other files there (content.log, chat backups) are not this store's.
     */
    static boolean isDocument(String path) {
        int slash = path.indexOf('/');
        String folder = slash < 0 ? "" : path.substring(0, slash);
        String name = path.substring(slash + 1);
        boolean jsonOnly = folder.isEmpty() || folder.equals(Folder.BACKUPS.stName());
        return !name.isEmpty() && name.indexOf('/') < 0 && (name.endsWith(".json") || !jsonOnly)
                && Arrays.stream(Folder.values()).anyMatch(known -> known.stName().equals(folder));
    }

    /** The path from the user's folder of a document. */
    static String path(Folder folder, String name) {
        return folder == Folder.ROOT ? name : folder.stName() + "/" + name;
    }

    /** The user handle or document name, when it is one path segment; else an {@link IllegalArgumentException}. */
    static String checkSegment(String segment) {
        if (!Sanitize.isSafeSegment(segment)) {
            throw new IllegalArgumentException("Not a single path segment: " + segment);
        }
        return segment;
    }

    /** The document's bytes, or empty when there is none. */
    Optional<byte[]> read(String user, Folder folder, String name);

    /** Stores the bytes, replacing any document of that name; a reader sees the old bytes or the new, never a mix. */
    void write(String user, Folder folder, String name, byte[] content);

    /**
     * Stores the bytes with the entry's modification time, which listings then report: how data moves between stores
     * (bin/tankard import-data and export-data) and keeps the order of settings snapshots.
     */
    void restore(String user, Folder folder, Entry entry, byte[] content);

    /** Deletes the document; false when there was none. */
    boolean delete(String user, Folder folder, String name);

    /** Deletes every document of the user (what {@link #list} lists in each folder). */
    void deleteAll(String user);

    /** The folder's documents in Node's readdir order (by code point, {@link tankard.util.FileNames#BYTE_ORDER}). */
    List<Entry> list(String user, Folder folder);

    /**
     * One unit of work on one document: reads it, applies the change and stores its outcome with no other update of
     * that document in between, also from another server node on the same database. Answers the change's answer.
     */
    <T> T update(String user, Folder folder, String name, Change<T> change);
}
