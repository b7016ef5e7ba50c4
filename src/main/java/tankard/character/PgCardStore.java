package tankard.character;

import io.vertx.core.buffer.Buffer;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import tankard.store.pg.PgDatabase;
import tankard.util.FileNames;
import tankard.util.Sanitize;

import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Cards in the {@code cards} table (V3__cards.sql): each card's PNG as its bytes, with its card text taken out at
 * write, so that a list reads texts, not images.
 */
public final class PgCardStore implements CardStore {
    private static final String STAT = "SELECT name, octet_length(content), modified_ms, changed_ms FROM cards";

    private final PgDatabase db;

    private static final String INSERT = "INSERT INTO cards (handle, name, content, card_text, modified_ms, changed_ms)"
            + " VALUES ($1, $2, $3, $4, $5, $5)";

    public PgCardStore(PgDatabase db) {
        this.db = db;
    }

    @Override
    public List<CardFile> list(String user) {
        List<CardFile> cards = db.call(c -> c.preparedQuery(STAT + " WHERE handle = $1").execute(Tuple.of(user))
                .map(rows -> {
                    List<CardFile> found = new ArrayList<>();
                    rows.forEach(row -> found.add(cardFile(row)));
                    return found;
                }));
        cards.sort(Comparator.comparing(CardFile::name, FileNames.BYTE_ORDER)); // Node's readdir order, as on files
        return cards;
    }

    @Override
    public Optional<CardFile> find(String user, String name) {
        Tuple key = key(user, name);
        return db.call(c -> c.preparedQuery(STAT + " WHERE handle = $1 AND name = $2").execute(key)
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(cardFile(rows.iterator().next()))));
    }

    @Override
    public byte[] read(String user, String name) throws NoSuchFileException {
        Tuple key = key(user, name);
        Buffer content = db.call(c -> c.preparedQuery("SELECT content FROM cards WHERE handle = $1 AND name = $2")
                .execute(key).map(rows -> rows.size() == 0 ? null : rows.iterator().next().getBuffer(0)));
        if (content == null) {
            throw new NoSuchFileException(name);
        }
        return content.getBytes();
    }

    /** Stores the bytes; a later time than the card had, so that what caches the card by its time reads it again. */
    @Override
    public void write(String user, String name, byte[] content) {
        Tuple row = row(user, name, content, System.currentTimeMillis());
        db.call(c -> c.preparedQuery(INSERT + " ON CONFLICT (handle, name) DO UPDATE SET content = excluded.content,"
                + " card_text = excluded.card_text,"
                + " modified_ms = GREATEST(excluded.modified_ms, cards.modified_ms + 0.001),"
                + " changed_ms = GREATEST(excluded.changed_ms, cards.changed_ms + 0.001)")
                .execute(row));
    }

    @Override
    public void restore(String user, CardFile entry, byte[] content) {
        Tuple row = row(user, entry.name(), content, entry.modifiedMs()).addDouble(entry.changedMs());
        db.call(c -> c.preparedQuery("INSERT INTO cards (handle, name, content, card_text, modified_ms, changed_ms)"
                + " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (handle, name) DO UPDATE SET content = excluded.content,"
                + " card_text = excluded.card_text, modified_ms = excluded.modified_ms, changed_ms = excluded.changed_ms")
                .execute(row));
    }

    @Override
    public void deleteAll(String user) {
        db.call(c -> c.preparedQuery("DELETE FROM cards WHERE handle = $1").execute(Tuple.of(user)).mapEmpty());
    }

    @Override
    public boolean create(String user, String name, byte[] content) {
        Tuple row = row(user, name, content, System.currentTimeMillis());
        return db.call(c -> c.preparedQuery(INSERT + " ON CONFLICT (handle, name) DO NOTHING").execute(row)
                .map(rows -> rows.rowCount() == 1));
    }

    /** The row of a card: its key, bytes, the card text taken out of them, and its time. */
    private static Tuple row(String user, String name, byte[] content, double modifiedMs) {
        PgDatabase.fileName(name, true);
        byte[] text;
        try {
            text = CardCodec.readPngText(content);
        } catch (RuntimeException notACard) {
            text = null; // readCardText reads the PNG again and fails as the file store does
        }
        return key(user, name).addBuffer(Buffer.buffer(content)).addBuffer(text == null ? null : Buffer.buffer(text))
                .addDouble(modifiedMs);
    }

    @Override
    public boolean delete(String user, String name) {
        Tuple key = key(user, name);
        return db.call(c -> c.preparedQuery("DELETE FROM cards WHERE handle = $1 AND name = $2").execute(key)
                .map(rows -> rows.rowCount() > 0));
    }

    /** One statement for the batch: a first list of a big library takes one round trip per batch, not per card. */
    @Override
    public Map<String, byte[]> readCardTexts(String user, List<String> names) {
        return db.call(c -> c.preparedQuery("SELECT name, card_text FROM cards WHERE handle = $1 AND name = ANY($2)"
                        + " AND card_text IS NOT NULL")
                .execute(Tuple.of(user).addArrayOfString(names.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, byte[]> texts = new HashMap<>();
                    rows.forEach(row -> texts.put(row.getString(0), row.getBuffer(1).getBytes()));
                    return texts;
                }));
    }

    @Override
    public byte[] readCardText(String user, String name) throws NoSuchFileException {
        Tuple key = key(user, name);
        Optional<byte[]> text = db.call(c -> c.preparedQuery(
                        "SELECT card_text FROM cards WHERE handle = $1 AND name = $2").execute(key)
                .map(rows -> rows.size() == 0 ? null : Optional.ofNullable(rows.iterator().next().getBuffer(0))
                        .map(Buffer::getBytes)));
        if (text == null) {
            throw new NoSuchFileException(name);
        }
        return text.isPresent() ? text.get() : CardCodec.readPngText(read(user, name));
    }

    private static CardFile cardFile(Row row) {
        return new CardFile(row.getString(0), row.getInteger(1), row.getDouble(2), row.getDouble(3));
    }

    /**
     * As the file store: a name is one path segment (so no U+0000, which PostgreSQL's text cannot hold). Taken
     * before a call, never in its work: what the work throws would be a failure of the database (a 503).
     */
    private static Tuple key(String user, String name) {
        if (!Sanitize.isSafeSegment(name)) {
            throw new IllegalArgumentException("Not a card file name: " + name);
        }
        return Tuple.of(user, PgDatabase.fileName(name, false));
    }
}
