package tankard.store.pg;

import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import tankard.store.BlobStore;
import tankard.store.DocumentStore;
import tankard.store.FileTimes;
import tankard.util.FileNames;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NotDirectoryException;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Blobs in the {@code blobs} and {@code blob_chunks} tables (V8__blobs.sql): a row per blob, its bytes in chunks of
 * {@link #CHUNK} bytes.
 * <p>
 * A write is one transaction (a {@link PgDatabase.Session}): it inserts the content's chunks under a new id as it
 * reads them from the stream, a few at a time, then points the blob's row at them and deletes the old chunks. A cut
 * transaction leaves the previous blob, and no chunk (the chunks' key to their blob is checked at commit). Writes of
 * one path switch their rows one after the other (an advisory lock on its key), so that each deletes the chunks of
 * the one before; their uploads run side by side.
 * <p>
 * A read fetches the chunks of the id it was opened on, a few at a time, each fetch a statement of its own: it holds
 * no connection while its reader takes its time, and fails when that id's chunks are gone (replaced or deleted).
 */
public final class PgBlobStore implements BlobStore {
    /** Bytes per chunk row. */
    static final int CHUNK = 256 * 1024;
    /** Chunks per insert and per read: what a write or an open read holds in memory at most. */
    static final int CHUNKS_PER_TRIP = 4;
    /**
     * The first key of the two-key advisory locks on blob paths, so they share no lock with other uses of advisory
     * locks (PgDocumentStore's, Flyway's one-key locks).
     */
    private static final int BLOB_LOCKS = 0x626c6f62; // "blob"
    private static final String KEY = " WHERE handle = $1 AND folder = $2 AND name = $3";
    /** The rows of a folder and everything under it, $2 the folder, $3 and $4 the bounds of its subfolders. */
    private static final String UNDER = " WHERE handle = $1 AND (folder = $2 OR folder >= $3 AND folder < $4)";
    /**
     * Whether a blob is where the path needs a folder (its folders as ($2, $3) pairs of folder and name), and whether
     * the path is a folder (rows {@link #UNDER} it, $4 to $6).
     */
    private static final String CONFLICTS = "SELECT EXISTS (SELECT 1 FROM blobs WHERE handle = $1"
            + " AND (folder, name) IN (SELECT * FROM unnest($2::text[], $3::text[]))),"
            + " EXISTS (SELECT 1 FROM blobs WHERE handle = $1 AND (folder = $4 OR folder >= $5 AND folder < $6))";
    /** Makes the chunks of id $4 the blob's, at a time later than the old blob's (see {@link #write}). */
    private static final String SAVE = save("greatest(EXCLUDED.modified_ms, blobs.modified_ms + 0.001)");
    private static final String RESTORE = save("EXCLUDED.modified_ms");

    private final PgDatabase db;
    private final Predicate<String> isBlob;

    /** @param isBlob which files of a user's folder are blobs (a path from that folder, with {@code /}) */
    public PgBlobStore(PgDatabase db, Predicate<String> isBlob) {
        this.db = db;
        this.isBlob = isBlob;
    }

    /** A blob's key: the user, and its path as the folder's path and the file's name. */
    private record Place(String user, String folder, String name) {
        String path() {
            return BlobStore.child(folder, name);
        }

        Tuple tuple() {
            return Tuple.of(user, folder, name);
        }

        /** The key of the place's advisory lock: Java's string hash, the same on every node. */
        int lock() {
            return (user + "/" + path()).hashCode();
        }
    }

    @Override
    public boolean keeps(String path) {
        return BlobStore.isPath(path) && isBlob.test(path);
    }

    @Override
    public Optional<Entry> stat(String user, String path) {
        Place place = place(user, path, false);
        return db.call(c -> c.preparedQuery("SELECT size, modified_ms FROM blobs" + KEY).execute(place.tuple())
                .map(rows -> first(rows).map(row -> new Entry(path, row.getLong(0), row.getDouble(1)))));
    }

    @Override
    public Optional<Opened> open(String user, String path, long offset) {
        BlobStore.checkOffset(offset);
        Place place = place(user, path, false);
        Optional<Row> blob = db.call(c -> c.preparedQuery("SELECT id, size, modified_ms FROM blobs" + KEY)
                .execute(place.tuple()).map(PgBlobStore::first));
        return blob.map(row -> new Opened(new Entry(path, row.getLong(1), row.getDouble(2)),
                new Chunks(place.user(), row.getLong(0), row.getLong(1), offset)));
    }

    /** The new blob's time is the write's, and strictly later than the old one's, whatever the clock's grain. */
    @Override
    public Entry write(String user, String path, InputStream content) {
        return save(place(user, path, true), content, SAVE, nowMs());
    }

    @Override
    public void restore(String user, Entry entry, InputStream content) {
        save(place(user, entry.path(), true), content, RESTORE, entry.modifiedMs());
    }

    private Entry save(Place place, InputStream content, String save, double modifiedMs) {
        try (PgDatabase.Session s = db.session()) {
            long id = s.call(c -> c.preparedQuery("SELECT nextval('blob_ids')").execute()
                    .map(rows -> rows.iterator().next().getLong(0)));
            MessageDigest sha256 = sha256();
            List<Tuple> batch = new ArrayList<>();
            long size = 0;
            for (int index = 0; ; index++) {
                byte[] chunk = content.readNBytes(CHUNK);
                if (chunk.length == 0) {
                    break;
                }
                sha256.update(chunk);
                size += chunk.length;
                batch.add(Tuple.of(place.user(), id, index, Buffer.buffer(chunk)));
                if (batch.size() == CHUNKS_PER_TRIP) {
                    insert(s, batch);
                }
                if (chunk.length < CHUNK) {
                    break; // the end of the stream
                }
            }
            insert(s, batch);
            lock(s, List.of(place));
            IOException conflict = conflict(s, place, false);
            if (conflict != null) {
                throw new UncheckedIOException("Cannot write " + place.path(), conflict);
            }
            Tuple row = place.tuple().addLong(id).addLong(size).addDouble(modifiedMs).addBuffer(Buffer.buffer(sha256.digest()));
            double modified = s.call(c -> c.preparedQuery(save).execute(row).map(rows -> rows.iterator().next().getDouble(0)));
            s.commit();
            return new Entry(place.path(), size, modified);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + place.path(), e);
        }
    }

    private static void insert(PgDatabase.Session s, List<Tuple> batch) {
        if (!batch.isEmpty()) {
            List<Tuple> rows = List.copyOf(batch);
            batch.clear();
            s.call(c -> c.preparedQuery("INSERT INTO blob_chunks (handle, blob_id, chunk_index, data) VALUES ($1, $2, $3, $4)")
                    .executeBatch(rows));
        }
    }

    /**
     * Points the row of $1 to $3 at the content $4 (size $5, time $6, hash $7) and deletes the chunks it pointed at,
     * in one statement: what it reads of the old row and what it writes are of one snapshot.
     */
    private static String save(String modified) {
        return "WITH old AS (SELECT id FROM blobs" + KEY + "),"
                + " gone AS (DELETE FROM blob_chunks WHERE handle = $1 AND blob_id IN (SELECT id FROM old)),"
                + " saved AS (INSERT INTO blobs (handle, folder, name, id, size, modified_ms, sha256)"
                + " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (handle, folder, name) DO UPDATE SET id = EXCLUDED.id,"
                + " size = EXCLUDED.size, sha256 = EXCLUDED.sha256, modified_ms = " + modified + " RETURNING modified_ms)"
                + " SELECT modified_ms FROM saved";
    }

    /** Takes the advisory locks of the places until the transaction ends, in the one order every writer takes them. */
    private static void lock(PgDatabase.Session s, List<Place> places) {
        for (int key : places.stream().mapToInt(Place::lock).distinct().sorted().toArray()) {
            s.call(c -> c.preparedQuery("SELECT pg_advisory_xact_lock(" + BLOB_LOCKS + ", $1)").execute(Tuple.of(key)));
        }
    }

    /**
     * What a file system would refuse of a blob at the place, or null: a blob where a folder of its path is (ENOTDIR),
     * or the place being a folder (EISDIR; for a rename, the target exists).
     */
    private static IOException conflict(PgDatabase.Session s, Place place, boolean renamed) {
        List<String> folders = new ArrayList<>();
        List<String> names = new ArrayList<>();
        if (!place.folder().isEmpty()) {
            String[] segments = place.folder().split("/");
            for (int i = 0; i < segments.length; i++) {
                folders.add(String.join("/", List.of(segments).subList(0, i)));
                names.add(segments[i]);
            }
        }
        String path = place.path();
        Tuple arguments = Tuple.of(place.user(), folders.toArray(String[]::new), names.toArray(String[]::new),
                path, path + "/", path + "0");
        Row found = s.call(c -> c.preparedQuery(CONFLICTS).execute(arguments).map(rows -> rows.iterator().next()));
        if (found.getBoolean(0)) {
            return new NotDirectoryException(path);
        }
        if (found.getBoolean(1)) {
            return renamed ? new FileAlreadyExistsException(path) : new FileSystemException(path, null, "Is a directory");
        }
        return null;
    }

    @Override
    public boolean delete(String user, String path) {
        Place place = place(user, path, false);
        return db.call(c -> c.preparedQuery("DELETE FROM blobs" + KEY).execute(place.tuple())
                .map(rows -> rows.rowCount() == 1));
    }

    @Override
    public boolean rename(String user, String from, String to) {
        Place source = place(user, from, false);
        Place target = place(user, to, true);
        try (PgDatabase.Session s = db.session()) {
            lock(s, List.of(source, target));
            boolean exists = s.call(c -> c.preparedQuery("SELECT 1 FROM blobs" + KEY).execute(source.tuple())
                    .map(rows -> rows.size() > 0));
            if (!exists) {
                return false;
            }
            boolean taken = s.call(c -> c.preparedQuery("SELECT 1 FROM blobs" + KEY).execute(target.tuple())
                    .map(rows -> rows.size() > 0));
            IOException conflict = taken ? new FileAlreadyExistsException(to) : conflict(s, target, true);
            if (conflict != null) {
                throw new UncheckedIOException("Cannot rename " + from, conflict);
            }
            s.call(c -> c.preparedQuery("UPDATE blobs SET folder = $4, name = $5" + KEY)
                    .execute(source.tuple().addString(target.folder()).addString(target.name())));
            s.commit();
            return true;
        }
    }

    @Override
    public int deleteFolder(String user, String folder) {
        Tuple under = under(user, BlobStore.checkPath(folder));
        return db.call(c -> c.preparedQuery("DELETE FROM blobs" + UNDER).execute(under).map(rows -> rows.rowCount()));
    }

    @Override
    public void deleteAll(String user) {
        Tuple key = Tuple.of(DocumentStore.checkSegment(user));
        db.call(c -> c.preparedQuery("DELETE FROM blobs WHERE handle = $1").execute(key).mapEmpty());
    }

    /** Through the key's index, in its order: the "C" collation's, Node's readdir order (V8__blobs.sql). */
    @Override
    public List<Entry> list(String user, String folder) {
        Tuple key = Tuple.of(DocumentStore.checkSegment(user), folderPath(folder));
        return db.call(c -> c.preparedQuery("SELECT name, size, modified_ms FROM blobs WHERE handle = $1 AND folder = $2"
                + " ORDER BY name").execute(key).map(rows -> {
            List<Entry> entries = new ArrayList<>();
            for (Row row : rows) {
                entries.add(new Entry(BlobStore.child(folder, row.getString(0)), row.getLong(1), row.getDouble(2)));
            }
            return entries;
        }));
    }

    @Override
    public List<String> folders(String user, String folder) {
        String handle = DocumentStore.checkSegment(user);
        String prefix = folderPath(folder).isEmpty() ? "" : folder + "/";
        // the folders of the blobs under this one; the first name of each after the prefix is a subfolder
        String sql = "SELECT DISTINCT folder FROM blobs WHERE handle = $1 AND "
                + (folder.isEmpty() ? "folder <> ''" : "folder >= $2 AND folder < $3");
        Tuple range = folder.isEmpty() ? Tuple.of(handle) : Tuple.of(handle, prefix, folder + "0");
        List<String> paths = db.call(c -> c.preparedQuery(sql).execute(range).map(rows -> {
            List<String> read = new ArrayList<>(rows.size());
            rows.forEach(row -> read.add(row.getString(0)));
            return read;
        }));
        TreeSet<String> names = new TreeSet<>(FileNames.BYTE_ORDER);
        for (String path : paths) {
            int slash = path.indexOf('/', prefix.length());
            names.add(path.substring(prefix.length(), slash < 0 ? path.length() : slash));
        }
        return List.copyOf(names);
    }

    @Override
    public List<Entry> walk(String user, String folder) {
        boolean all = folderPath(folder).isEmpty();
        Tuple range = all ? Tuple.of(DocumentStore.checkSegment(user)) : under(user, folder);
        String sql = "SELECT folder, name, size, modified_ms FROM blobs" + (all ? " WHERE handle = $1" : UNDER);
        List<Entry> entries = db.call(c -> c.preparedQuery(sql).execute(range).map(rows -> {
            List<Entry> read = new ArrayList<>(rows.size());
            for (Row row : rows) {
                read.add(new Entry(BlobStore.child(row.getString(0), row.getString(1)), row.getLong(2), row.getDouble(3)));
            }
            return read;
        }));
        entries.sort(Comparator.comparing(Entry::path, FileNames.BYTE_ORDER));
        return entries;
    }

    /** The place of a blob's path, checked as the file store's would be: one a file could not have fails here too. */
    private Place place(String user, String path, boolean written) {
        BlobStore.checkBlob(path, isBlob);
        int slash = path.lastIndexOf('/');
        String folder = slash < 0 ? "" : folderPath(path.substring(0, slash));
        return new Place(DocumentStore.checkSegment(user), folder, PgDatabase.fileName(path.substring(slash + 1), written));
    }

    /** The folder path, checked ({@link BlobStore#checkFolder}) and each of its names a file's name. */
    private static String folderPath(String folder) {
        for (String segment : BlobStore.checkFolder(folder).split("/")) {
            PgDatabase.fileName(segment, false);
        }
        return folder;
    }

    /** The arguments of {@link #UNDER}: the user, the folder, and the bounds of what is under it. */
    private static Tuple under(String user, String folder) {
        return Tuple.of(DocumentStore.checkSegment(user), folderPath(folder), folder + "/", folder + "0");
    }

    private static Optional<Row> first(RowSet<Row> rows) {
        return rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double nowMs() {
        return FileTimes.millis(FileTime.from(Instant.now()));
    }

    /** A blob's bytes as one id holds them, fetched {@link #CHUNKS_PER_TRIP} chunks at a time as they are read. */
    private final class Chunks extends InputStream {
        private final String user;
        private final long id;
        private final long size;
        private long position;
        private long windowStart;
        private byte[] window = new byte[0];
        private boolean closed;

        Chunks(String user, long id, long size, long offset) {
            this.user = user;
            this.id = id;
            this.size = size;
            this.position = offset;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            Objects.checkFromIndexSize(offset, length, into.length);
            if (closed) {
                throw new IOException("The blob's stream is closed");
            }
            if (position >= size) {
                return -1;
            }
            if (length == 0) {
                return 0;
            }
            if (position < windowStart || position >= windowStart + window.length) {
                fetch();
            }
            int from = Math.toIntExact(position - windowStart);
            int n = Math.min(length, window.length - from);
            System.arraycopy(window, from, into, offset, n);
            position += n;
            return n;
        }

        /** Moves on without reading what it skips. */
        @Override
        public long skip(long n) {
            long skipped = Math.max(0, Math.min(n, size - position));
            position += skipped;
            return skipped;
        }

        @Override
        public int available() {
            long inWindow = windowStart + window.length - position;
            return position >= windowStart && inWindow > 0 ? (int) inWindow : 0;
        }

        /** The chunks from the one that holds the position on. */
        private void fetch() throws IOException {
            int first = Math.toIntExact(position / CHUNK);
            long start = (long) first * CHUNK;
            int expected = Math.toIntExact(Math.min((long) CHUNKS_PER_TRIP * CHUNK, size - start));
            RowSet<Row> rows = db.call(c -> c.preparedQuery("SELECT chunk_index, data FROM blob_chunks WHERE handle = $1"
                            + " AND blob_id = $2 AND chunk_index >= $3 AND chunk_index < $4 ORDER BY chunk_index")
                    .execute(Tuple.of(user, id, first, first + CHUNKS_PER_TRIP)));
            byte[] bytes = new byte[expected];
            int filled = 0;
            int index = first;
            for (Row row : rows) {
                Buffer data = row.getBuffer(1);
                if (row.getInteger(0) != index++ || filled + data.length() > expected) {
                    throw gone();
                }
                data.getBytes(bytes, filled);
                filled += data.length();
            }
            if (filled != expected) {
                throw gone();
            }
            windowStart = start;
            window = bytes;
        }

        private IOException gone() {
            return new IOException("The blob was replaced or deleted while it was read");
        }

        @Override
        public void close() {
            closed = true;
            window = new byte[0];
        }
    }
}
