package tankard.vector.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.core.Refusal;
import tankard.store.pg.PgDatabase;
import tankard.util.FileNames;
import tankard.util.Sanitize;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The vector store in PostgreSQL (V9__vectors.sql): a row per index and a row per item, each item's JSON kept as
 * {@code index.json} held it. A query scores the items in memory as the file store does ({@link LoadedIndex},
 * {@link Similarity}): an index is loaded once and kept within a byte budget, with the version of its row it was
 * loaded at. Before each use one prepared select reads that version, since another node on the database may have
 * changed the index: a copy whose version is the row's answers; one behind it takes the items added since (or loads
 * the index anew when items were removed since). Each insert and delete is one transaction that moves the version
 * on; the node that made it applies it to its copy when its copy was at the version before.
 */
public final class PgVectorStore implements VectorStore {
    private static final Logger LOG = LoggerFactory.getLogger(PgVectorStore.class);
    /** How many items a load or an export reads per statement. */
    private static final int PAGE = 512;
    /** How many items a restore writes per statement. */
    private static final int BATCH = 256;

    private static final String KEY = " WHERE handle = $1 AND source = $2 AND collection = $3 AND scope = $4";
    private static final String STATE = "SELECT collection_id, version, reset_version FROM vector_collections" + KEY;
    private static final String ITEM_COLUMNS = "(handle, collection_id, seq, gap, item, vector_from, vector_to, vector,"
            + " norm, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";
    private static final String INSERT_ITEM = "INSERT INTO vector_items " + ITEM_COLUMNS;
    /** The items after a seq, each without its vector's text (written {@code []}: the floats are beside it). */
    private static final String LOAD = "SELECT seq, overlay(item placing '\\x5b5d'::bytea from vector_from + 1"
            + " for vector_to - vector_from), vector, norm FROM vector_items"
            + " WHERE handle = $1 AND collection_id = $2 AND seq > $3 ORDER BY seq LIMIT " + PAGE;
    private static final String EXPORT = "SELECT seq, gap, item FROM vector_items"
            + " WHERE handle = $1 AND collection_id = $2 AND seq > $3 ORDER BY seq LIMIT " + PAGE;
    private static final String SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";

    private final PgDatabase db;
    private final long budgetBytes;
    private final java.nio.file.Path scratch;
    private final Map<Key, Entry> entries = new ConcurrentHashMap<>();

    private record Key(String user, CollectionKey collection) {
    }

    /** A row's identity and versions. */
    private record State(long id, long version, long resetVersion) {
    }

    /** What a change wrote: the row's identity, the version it made, the last seq it added (-1: none). */
    private record Written(long id, long version, long lastSeq) {
    }

    /** An index in memory, with the row version it holds. */
    private static final class Entry {
        volatile long lastUse;
        // guarded by this
        LoadedIndex index;
        long id;
        long version;
        long lastSeq = -1;
        /** Out of the map: a new entry takes its place. */
        boolean removed;

        /** Whether the copy is loaded, from the row of this identity. */
        boolean holds(long rowId) {
            return index != null && !index.closed() && index.readable() && id == rowId;
        }

        void drop() {
            if (index != null) {
                index.close();
                index = null;
            }
        }
    }

    /**
     * @param budgetBytes how much of the heap loaded indexes may take before the least recently used leave memory
     * @param scratch     where loaded indexes keep what is not in memory (see {@link Scratch}); this node's own
     */
    public PgVectorStore(PgDatabase db, long budgetBytes, java.nio.file.Path scratch) {
        this.db = db;
        this.budgetBytes = budgetBytes;
        this.scratch = scratch;
        Scratch.sweep(scratch);
    }

    /** The row's key, the names checked before any call (what a call's work throws is the database failing). */
    private static Tuple where(String user, CollectionKey key) {
        return Tuple.of(handle(user), key.source(), key.collection(), key.scope());
    }

    private static String handle(String user) {
        if (!Sanitize.isSafeSegment(user)) {
            throw new IllegalArgumentException("Not a user handle: " + user);
        }
        return user;
    }

    @Override
    public void insert(String user, CollectionKey key, List<VectorItem> items) {
        if (items.isEmpty()) {
            return;
        }
        Tuple where = where(user, key);
        int count = items.size();
        int dimensions = items.get(0).vector().length;
        List<VectraCodec.ItemJson> json = new ArrayList<>(count);
        for (VectorItem item : items) {
            json.add(VectraCodec.itemJson(item));
        }
        double now = System.currentTimeMillis();
        Tuple upsert = Tuple.of(where.getString(0), key.source(), key.collection(), key.scope())
                .addBuffer(Buffer.buffer(VectraCodec.EMPTY_HEAD)).addBuffer(Buffer.buffer(VectraCodec.EMPTY_TAIL))
                .addLong((long) count).addDouble(now);
        Written written = db.transaction(conn -> conn.preparedQuery("INSERT INTO vector_collections AS c"
                        + " (handle, source, collection, scope, head, tail, version, reset_version, next_seq, modified_ms)"
                        + " VALUES ($1, $2, $3, $4, $5, $6, 1, 0, $7, $8) ON CONFLICT (handle, source, collection, scope)"
                        + " DO UPDATE SET version = c.version + 1, next_seq = c.next_seq + $7, modified_ms = $8,"
                        + " original = NULL RETURNING collection_id, version, next_seq").execute(upsert)
                .compose(rows -> {
                    Row row = rows.iterator().next();
                    long id = row.getLong(0);
                    long version = row.getLong(1);
                    long first = row.getLong(2) - count;
                    return conn.preparedQuery("SELECT octet_length(vector) FROM vector_items"
                                    + " WHERE handle = $1 AND collection_id = $2 ORDER BY seq LIMIT 1")
                            .execute(Tuple.of(where.getString(0), id)).compose(firstItem -> {
                                if (firstItem.size() > 0) {
                                    int stored = firstItem.iterator().next().getInteger(0) / Float.BYTES;
                                    if (stored != dimensions) {
                                        return Future.failedFuture(Refusal.badRequest("This collection holds vectors of "
                                                + stored + " dimensions, the new ones have " + dimensions + ": the "
                                                + "embedding model changed; purge the collection and vectorize it again"));
                                    }
                                }
                                List<Tuple> batch = new ArrayList<>(count);
                                for (int i = 0; i < count; i++) {
                                    batch.add(itemRow(where.getString(0), id, first + i, null, json.get(i), items.get(i)));
                                }
                                return conn.preparedQuery(INSERT_ITEM).executeBatch(batch)
                                        .map(done -> new Written(id, version, first + count - 1));
                            });
                }));
        Entry entry = entries.get(new Key(user, key));
        if (entry != null) {
            synchronized (entry) {
                if (entry.holds(written.id()) && entry.version == written.version() - 1) {
                    try {
                        entry.index.add(items);
                        entry.version = written.version();
                        entry.lastSeq = written.lastSeq();
                    } catch (IOException | RuntimeException e) {
                        entry.drop(); // the next use loads it anew
                    }
                }
            }
        }
    }

    private static Tuple itemRow(String user, long id, long seq, byte[] gap, VectraCodec.ItemJson json,
                                 VectorItem item) {
        JsonNode hash = item.hash();
        return Tuple.of(user, id, seq, gap == null ? null : Buffer.buffer(gap), Buffer.buffer(json.bytes()),
                        json.vectorFrom(), json.vectorTo())
                .addBuffer(Buffer.buffer(floats(item.vector()))).addDouble(item.norm())
                .addDouble(hash != null && hash.isNumber() ? hash.asDouble() : null);
    }

    static byte[] floats(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(vector);
        return bytes.array();
    }

    static float[] floats(Buffer bytes) {
        float[] vector = new float[bytes.length() / Float.BYTES];
        ByteBuffer.wrap(bytes.getBytes()).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
        return vector;
    }

    @Override
    public void delete(String user, CollectionKey key, Set<Double> hashes) {
        if (hashes.isEmpty()) {
            return;
        }
        Tuple where = where(user, key);
        Double[] numbers = hashes.toArray(Double[]::new);
        Written written = db.transaction(conn -> conn.preparedQuery("SELECT collection_id FROM vector_collections"
                + KEY + " FOR UPDATE").execute(where).compose(rows -> {
                    if (rows.size() == 0) {
                        return Future.succeededFuture(null);
                    }
                    long id = rows.iterator().next().getLong(0);
                    Tuple row = Tuple.of(where.getString(0), id);
                    return conn.preparedQuery("DELETE FROM vector_items WHERE handle = $1 AND collection_id = $2"
                            + " AND hash = ANY($3)").execute(Tuple.of(where.getString(0), id).addArrayOfDouble(numbers)).compose(deleted -> {
                                if (deleted.rowCount() == 0) {
                                    return Future.succeededFuture(null);
                                }
                                return conn.preparedQuery("UPDATE vector_collections SET version = version + 1,"
                                                + " reset_version = version + 1, modified_ms = $3, original = NULL"
                                                + " WHERE handle = $1 AND collection_id = $2 RETURNING version")
                                        .execute(row.addDouble((double) System.currentTimeMillis()))
                                        .map(updated -> new Written(id, updated.iterator().next().getLong(0), -1));
                            });
                }));
        if (written == null) {
            return;
        }
        Entry entry = entries.get(new Key(user, key));
        if (entry != null) {
            synchronized (entry) {
                if (entry.holds(written.id()) && entry.version == written.version() - 1) {
                    // as the database compares: -0 is 0
                    Set<Double> removed = new HashSet<>(hashes);
                    if (removed.contains(0.0) || removed.contains(-0.0)) {
                        removed.add(0.0);
                        removed.add(-0.0);
                    }
                    try {
                        entry.index.remove(removed);
                        entry.version = written.version();
                    } catch (IOException | RuntimeException e) {
                        entry.drop();
                    }
                }
            }
        }
    }

    @Override
    public List<Match> query(String user, CollectionKey key, float[] vector, int topK) {
        for (int attempt = 0; ; attempt++) {
            LoadedIndex.Snapshot snapshot = snapshot(user, key);
            if (snapshot == null || snapshot.size() == 0) {
                return List.of();
            }
            Similarity.checkDimensions(snapshot, vector);
            try {
                return snapshot.top(vector, topK);
            } catch (ClosedChannelException e) {
                if (attempt == 2) {
                    throw Refusal.unavailable("The vector index is being deleted or closed; try again");
                }
                // it left memory meanwhile: load it again
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the vector index " + key.folderPath(), e);
            }
        }
    }

    @Override
    public List<JsonNode> hashes(String user, CollectionKey key) {
        LoadedIndex.Snapshot snapshot = snapshot(user, key);
        if (snapshot == null) {
            return List.of();
        }
        return snapshot.hashes();
    }

    /** The index as the database holds it now, in memory; null when there is none. */
    private LoadedIndex.Snapshot snapshot(String user, CollectionKey key) {
        Tuple where = where(user, key);
        Key at = new Key(user, key);
        State state = db.call(c -> c.preparedQuery(STATE).execute(where).map(rows -> rows.size() == 0 ? null
                : state(rows.iterator().next())));
        if (state == null) {
            forget(user, key::equals);
            return null;
        }
        while (true) {
            Entry entry = entries.computeIfAbsent(at, k -> new Entry());
            entry.lastUse = System.nanoTime();
            LoadedIndex.Snapshot snapshot;
            synchronized (entry) {
                if (entry.removed) {
                    continue; // it left memory meanwhile
                }
                if (!entry.holds(state.id()) || entry.version < state.version()) {
                    load(entry, where, entry.holds(state.id()) && state.resetVersion() <= entry.version);
                }
                snapshot = entry.index == null ? null : entry.index.snapshot();
            }
            trim(at);
            return snapshot;
        }
    }

    private static State state(Row row) {
        return new State(row.getLong(0), row.getLong(1), row.getLong(2));
    }

    /**
     * Brings the copy to what the database holds, in one snapshot of it: the items after the copy's last seq
     * when {@code addOnly} and no item was removed since, else the whole index into a new copy.
     */
    private void load(Entry entry, Tuple where, boolean addOnly) {
        String user = where.getString(0);
        LoadedIndex fresh = null;
        boolean catchingUp = false;
        try (PgDatabase.Session session = db.session()) {
            session.call(c -> c.preparedQuery(SNAPSHOT).execute());
            Row row = session.call(c -> c.preparedQuery("SELECT collection_id, version, reset_version,"
                    + " original IS NOT NULL FROM vector_collections" + KEY).execute(where)
                    .map(rows -> rows.size() == 0 ? null : rows.iterator().next()));
            if (row == null) {
                entry.drop();
                return;
            }
            State state = state(row);
            catchingUp = addOnly && entry.holds(state.id()) && state.resetVersion() <= entry.version;
            LoadedIndex target = entry.index;
            long after = entry.lastSeq;
            if (!catchingUp) {
                fresh = LoadedIndex.inMemory(scratch);
                target = fresh;
                after = -1;
                if (row.getBoolean(3)) {
                    LOG.warn("The vector index {} of {} was imported as it came, since it is not a Vectra index Tankard"
                            + " can read; it answers as empty, and its first change replaces it",
                            where.getString(1) + "/" + where.getString(2) + "/" + where.getString(3), user);
                }
            }
            while (true) {
                long from = after;
                RowSet<Row> page = session.call(c -> c.preparedQuery(LOAD).execute(Tuple.of(user, state.id(), from)));
                List<VectorItem> items = new ArrayList<>(page.size());
                for (Row item : page) {
                    items.add(VectraCodec.itemWithout(item.getBuffer(1).getBytes(), floats(item.getBuffer(2)),
                            item.getDouble(3)));
                    after = item.getLong(0);
                }
                target.add(items);
                if (page.size() < PAGE) {
                    break;
                }
            }
            if (fresh != null) {
                entry.drop();
                entry.index = fresh;
                fresh = null;
            }
            entry.id = state.id();
            entry.version = state.version();
            entry.lastSeq = after;
        } catch (IOException | RuntimeException e) {
            if (catchingUp) {
                entry.drop(); // a copy half brought up to date is no copy
            }
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new UncheckedIOException("Cannot load the vector index " + where.getString(1) + "/"
                    + where.getString(2) + " of " + user, (IOException) e);
        } finally {
            if (fresh != null) {
                fresh.close();
            }
        }
    }

    /** Lets the least recently used indexes leave memory while they take more than the budget. */
    private void trim(Key current) {
        long total = 0;
        for (Entry entry : entries.values()) {
            total += bytes(entry);
        }
        if (total <= budgetBytes) {
            return;
        }
        List<Map.Entry<Key, Entry>> byAge = new ArrayList<>(entries.entrySet());
        byAge.sort(Comparator.comparingLong(e -> e.getValue().lastUse));
        for (Map.Entry<Key, Entry> e : byAge) {
            if (total <= budgetBytes) {
                break;
            }
            if (e.getKey().equals(current)) {
                continue;
            }
            Entry entry = e.getValue();
            long bytes = bytes(entry);
            if (entries.remove(e.getKey(), entry)) {
                synchronized (entry) {
                    entry.removed = true;
                    entry.drop();
                }
            }
            total -= bytes;
        }
    }

    private static long bytes(Entry entry) {
        LoadedIndex index = entry.index; // read without the lock: an estimate
        return index == null ? 0 : index.bytes();
    }

    @Override
    public void purge(String user, List<String> sources, String collection) {
        String handle = handle(user);
        String[] names = sources.toArray(String[]::new);
        db.call(c -> c.preparedQuery("DELETE FROM vector_collections WHERE handle = $1 AND source = ANY($2)"
                + " AND collection = $3").execute(Tuple.of(handle).addArrayOfString(names).addString(collection)));
        forget(user, key -> sources.contains(key.source()) && key.collection().equals(collection));
    }

    @Override
    public void purgeAll(String user, List<String> sources) {
        String handle = handle(user);
        String[] names = sources.toArray(String[]::new);
        db.call(c -> c.preparedQuery("DELETE FROM vector_collections WHERE handle = $1 AND source = ANY($2)")
                .execute(Tuple.of(handle).addArrayOfString(names)));
        forget(user, key -> sources.contains(key.source()));
    }

    private void forget(String user, java.util.function.Predicate<CollectionKey> which) {
        for (Key key : List.copyOf(entries.keySet())) {
            if ((user == null || key.user().equals(user)) && which.test(key.collection())) {
                Entry entry = entries.remove(key);
                if (entry != null) {
                    synchronized (entry) {
                        entry.removed = true;
                        entry.drop();
                    }
                }
            }
        }
    }

    @Override
    public List<StoredIndex> indexes(String user) {
        Tuple handle = Tuple.of(handle(user));
        List<StoredIndex> found = db.call(c -> c.preparedQuery("SELECT source, collection, scope, modified_ms"
                + " FROM vector_collections WHERE handle = $1").execute(handle).map(rows -> {
                    List<StoredIndex> out = new ArrayList<>();
                    for (Row row : rows) {
                        out.add(new StoredIndex(new CollectionKey(row.getString(0), row.getString(1),
                                row.getString(2)), row.getDouble(3)));
                    }
                    return out;
                }));
        found.sort(Comparator.comparing((StoredIndex index) -> index.key().indexPath(), FileNames.BYTE_ORDER));
        return found;
    }

    @Override
    public Optional<InputStream> open(String user, CollectionKey key) {
        Tuple where = where(user, key);
        PgDatabase.Session session = db.session();
        try {
            session.call(c -> c.preparedQuery(SNAPSHOT).execute());
            Row row = session.call(c -> c.preparedQuery("SELECT collection_id, head, tail, original"
                    + " FROM vector_collections" + KEY).execute(where)
                    .map(rows -> rows.size() == 0 ? null : rows.iterator().next()));
            if (row == null) {
                session.close();
                return Optional.empty();
            }
            Buffer original = row.getBuffer(3);
            if (original != null) {
                session.close();
                return Optional.of(new ByteArrayInputStream(original.getBytes()));
            }
            return Optional.of(new Export(session, where.getString(0), row.getLong(0), row.getBuffer(1).getBytes(),
                    row.getBuffer(2).getBytes()));
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /**
     * An index's bytes as they are read: its head, its items page by page with what goes between them, its tail;
     * all read in one snapshot of the database (one transaction, held until the stream ends or is closed).
     */
    private static final class Export extends InputStream {
        private static final byte[] COMMA = {','};
        private final PgDatabase.Session session;
        private final String user;
        private final long id;
        private byte[] tail;
        private final List<byte[]> chunks = new ArrayList<>();
        private int chunk;
        private int offset;
        private long after = -1;
        private boolean first = true;
        private boolean itemsDone;
        private boolean closed;

        Export(PgDatabase.Session session, String user, long id, byte[] head, byte[] tail) {
            this.session = session;
            this.user = user;
            this.id = id;
            this.tail = tail;
            chunks.add(head);
        }

        /** Whether there is a chunk to read, fetching the next page when needed. */
        private boolean more() {
            while (chunk == chunks.size()) {
                chunks.clear();
                chunk = 0;
                offset = 0;
                if (itemsDone) {
                    if (tail == null) {
                        close();
                        return false;
                    }
                    chunks.add(tail);
                    tail = null;
                    break;
                }
                long from = after;
                RowSet<Row> page = session.call(c -> c.preparedQuery(EXPORT).execute(Tuple.of(user, id, from)));
                for (Row row : page) {
                    Buffer gap = row.getBuffer(1);
                    chunks.add(gap(gap == null ? null : gap.getBytes()));
                    chunks.add(row.getBuffer(2).getBytes());
                    after = row.getLong(0);
                    first = false;
                }
                itemsDone = page.size() < PAGE;
            }
            return true;
        }

        /** What goes before an item: a gap of the first item has no comma, any other one comma. */
        private byte[] gap(byte[] gap) {
            if (gap == null) {
                return first ? new byte[0] : COMMA;
            }
            int comma = -1;
            for (int i = 0; i < gap.length && comma < 0; i++) {
                comma = gap[i] == ',' ? i : -1;
            }
            if (first && comma >= 0) {
                byte[] without = new byte[gap.length - 1];
                System.arraycopy(gap, 0, without, 0, comma);
                System.arraycopy(gap, comma + 1, without, comma, gap.length - comma - 1);
                return without;
            }
            if (!first && comma < 0) {
                byte[] with = new byte[gap.length + 1];
                with[0] = ',';
                System.arraycopy(gap, 0, with, 1, gap.length);
                return with;
            }
            return gap;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] into, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (closed) {
                return -1;
            }
            try {
                while (more()) {
                    byte[] current = chunks.get(chunk);
                    int n = Math.min(len, current.length - offset);
                    if (n > 0) {
                        System.arraycopy(current, offset, into, off, n);
                        offset += n;
                        return n;
                    }
                    chunk++;
                    offset = 0;
                }
                return -1;
            } catch (RuntimeException e) {
                close();
                throw new IOException("Cannot read the vector index from the database: " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                session.close();
            }
        }
    }

    @Override
    public void restore(String user, CollectionKey key, IndexContent content, double modifiedMs) {
        Tuple where = where(user, key);
        try {
            try (PgDatabase.Session session = db.session(); InputStream in = content.open()) {
                writeSplit(session, where, in, modifiedMs);
                session.commit();
            }
        } catch (IndexSplit.NotAnIndex notAnIndex) {
            LOG.warn("The vector index {} of {} is not a Vectra index Tankard can read ({}): kept as it is, it answers"
                    + " as empty until its first change", key.folderPath(), user, notAnIndex.getMessage());
            try (PgDatabase.Session session = db.session(); InputStream in = content.open()) {
                byte[] original = in.readAllBytes();
                session.call(c -> c.preparedQuery("DELETE FROM vector_collections" + KEY).execute(where));
                session.call(c -> c.preparedQuery(insertCollection()).execute(collectionRow(where,
                        VectraCodec.EMPTY_HEAD, modifiedMs).addBuffer(Buffer.buffer(original))));
                session.commit();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the vector index to restore", e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the vector index to restore", e);
        } finally {
            forget(user, key::equals);
        }
    }

    private static String insertCollection() {
        return "INSERT INTO vector_collections (handle, source, collection, scope, head, tail, version, reset_version,"
                + " next_seq, modified_ms, original) VALUES ($1, $2, $3, $4, $5, $6, 1, 0, 0, $7, $8)"
                + " RETURNING collection_id";
    }

    private static Tuple collectionRow(Tuple where, byte[] head, double modifiedMs) {
        return Tuple.of(where.getString(0), where.getString(1), where.getString(2), where.getString(3))
                .addBuffer(Buffer.buffer(head)).addBuffer(Buffer.buffer(VectraCodec.EMPTY_TAIL)).addDouble(modifiedMs);
    }

    /** Replaces the index's rows with those of the file, in the session's transaction. */
    private static void writeSplit(PgDatabase.Session session, Tuple where, InputStream in, double modifiedMs)
            throws IOException {
        String user = where.getString(0);
        session.call(c -> c.preparedQuery("DELETE FROM vector_collections" + KEY).execute(where));
        long[] id = {-1};
        long[] seq = {0};
        List<Tuple> batch = new ArrayList<>(BATCH);
        IndexSplit.split(in, new IndexSplit.Parts() {
            @Override
            public void head(byte[] head) {
                Tuple row = collectionRow(where, head, modifiedMs).addBuffer(null);
                id[0] = session.call(c -> c.preparedQuery(insertCollection()).execute(row)
                        .map(rows -> rows.iterator().next().getLong(0)));
            }

            @Override
            public void item(byte[] gap, byte[] json, VectraCodec.ParsedItem parsed) {
                batch.add(itemRow(user, id[0], seq[0]++, gap,
                        new VectraCodec.ItemJson(json, parsed.vectorFrom(), parsed.vectorTo()), parsed.item()));
                if (batch.size() == BATCH) {
                    flush(session, batch);
                }
            }

            @Override
            public void tail(byte[] tail) {
                flush(session, batch);
                session.call(c -> c.preparedQuery("UPDATE vector_collections SET tail = $3, next_seq = $4"
                        + " WHERE handle = $1 AND collection_id = $2").execute(Tuple.of(user, id[0],
                        Buffer.buffer(tail), seq[0])));
            }
        });
    }

    private static void flush(PgDatabase.Session session, List<Tuple> batch) {
        if (batch.isEmpty()) {
            return;
        }
        List<Tuple> rows = List.copyOf(batch);
        batch.clear();
        session.call(c -> c.preparedQuery(INSERT_ITEM).executeBatch(rows));
    }

    @Override
    public void close() {
        forget(null, key -> true);
    }
}
