package tankard.store.pg;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import tankard.store.DocumentStore;
import tankard.util.FileNames;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * Documents in the {@code documents} table (V4__documents.sql), one row each, the bytes kept exactly. An update is
 * one transaction holding the row's lock ({@code SELECT … FOR UPDATE}), or, for a document that does not exist yet,
 * an advisory lock on its key, so that updates from several nodes on one database never lose one another.
 */
public final class PgDocumentStore implements DocumentStore {
    /**
     * The first key of the two-key advisory locks on document keys, so they share no lock with other uses of advisory
     * locks (Flyway's are one-key locks, a space of its own).
     */
    private static final int DOCUMENT_LOCKS = 0x646f63; // "doc"
    private static final String WHERE = " WHERE handle = $1 AND folder = $2 AND name = $3";

    private static final String UPSERT = upsert("clock_timestamp()");
    private static final String RESTORE = upsert("$5");

    private final PgDatabase db;

    public PgDocumentStore(PgDatabase db) {
        this.db = db;
    }

    @Override
    public Optional<byte[]> read(String user, Folder folder, String name) {
        Tuple key = key(user, folder, name);
        return db.call(client -> client.preparedQuery("SELECT content FROM documents" + WHERE).execute(key)
                .map(rows -> content(rows.iterator())));
    }

    @Override
    public void write(String user, Folder folder, String name, byte[] content) {
        Tuple row = key(user, folder, name).addBuffer(Buffer.buffer(content));
        db.call(client -> client.preparedQuery(UPSERT).execute(row).mapEmpty());
    }

    @Override
    public void restore(String user, Folder folder, Entry entry, byte[] content) {
        long micros = Math.round(entry.modifiedMs() * 1000);
        OffsetDateTime modified = OffsetDateTime.ofInstant(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), ZoneOffset.UTC);
        Tuple row = key(user, folder, entry.name()).addBuffer(Buffer.buffer(content)).addOffsetDateTime(modified);
        db.call(client -> client.preparedQuery(RESTORE).execute(row).mapEmpty());
    }

    @Override
    public boolean delete(String user, Folder folder, String name) {
        Tuple key = key(user, folder, name);
        return db.call(client -> client.preparedQuery("DELETE FROM documents" + WHERE).execute(key)
                .map(rows -> rows.rowCount() > 0));
    }

    @Override
    public void deleteAll(String user) {
        Tuple key = Tuple.of(DocumentStore.checkSegment(user));
        db.call(client -> client.preparedQuery("DELETE FROM documents WHERE handle = $1").execute(key).mapEmpty());
    }

    @Override
    public List<Entry> list(String user, Folder folder) {
        Tuple key = Tuple.of(DocumentStore.checkSegment(user), folder.stName());
        List<Entry> entries = db.call(client -> client.preparedQuery(
                        "SELECT name, octet_length(content) AS size, modified FROM documents"
                                + " WHERE handle = $1 AND folder = $2").execute(key)
                .map(rows -> {
                    List<Entry> out = new ArrayList<>();
                    for (Row row : rows) {
                        double ms = millis(row.getOffsetDateTime("modified"));
                        out.add(new Entry(row.getString("name"), row.getInteger("size"), ms, ms));
                    }
                    return out;
                }));
        // the order of the file store (Node's readdir), whatever the database's collation
        entries.sort(Comparator.comparing(Entry::name, FileNames.BYTE_ORDER));
        return entries;
    }

    @Override
    public <T> T update(String user, Folder folder, String name, Change<T> change) {
        Tuple key = key(user, folder, name);
        return db.transaction(conn -> lockedRead(conn, key).compose(current -> {
            Outcome<T> outcome = change.apply(current);
            if (outcome.content() == null) {
                return Future.succeededFuture(outcome.answer());
            }
            Tuple row = key(user, folder, name).addBuffer(Buffer.buffer(outcome.content()));
            return conn.preparedQuery(UPSERT).execute(row).map(outcome.answer());
        }));
    }

    /**
     * The document, locked until the transaction ends: its row's lock, or when there is no row, the advisory lock
     * of its key, then a second look for the row a concurrent update may have created meanwhile.
     */
    private static Future<Optional<byte[]>> lockedRead(SqlConnection conn, Tuple key) {
        String select = "SELECT content FROM documents" + WHERE + " FOR UPDATE";
        return conn.preparedQuery(select).execute(key).compose(rows -> {
            if (rows.size() > 0) {
                return Future.succeededFuture(content(rows.iterator()));
            }
            return conn.preparedQuery("SELECT pg_advisory_xact_lock(" + DOCUMENT_LOCKS
                            + ", hashtext($1::text || '/' || $2::text || '/' || $3::text))").execute(key)
                    .compose(locked -> conn.preparedQuery(select).execute(key))
                    .map(again -> content(again.iterator()));
        });
    }

    private static Optional<byte[]> content(Iterator<Row> rows) {
        return rows.hasNext() ? Optional.of(rows.next().getBuffer("content").getBytes()) : Optional.empty();
    }

    private static String upsert(String modified) {
        return "INSERT INTO documents (handle, folder, name, content, modified) VALUES ($1, $2, $3, $4, " + modified
                + ") ON CONFLICT (handle, folder, name) DO UPDATE SET content = EXCLUDED.content,"
                + " modified = EXCLUDED.modified";
    }

    private static Tuple key(String user, Folder folder, String name) {
        return Tuple.of(DocumentStore.checkSegment(user), folder.stName(), DocumentStore.checkSegment(name));
    }

    /** Epoch milliseconds with the microseconds as the fraction, as Node reports a file's times. */
    private static double millis(OffsetDateTime time) {
        return time.toInstant().getEpochSecond() * 1e3 + time.getNano() / 1e6;
    }
}
