package tankard.chat;

import io.vertx.core.buffer.Buffer;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import tankard.chat.format.ChatLines;
import tankard.store.FileTimes;
import tankard.store.ReadOnlyChannel;
import tankard.store.SpoolFile;
import tankard.store.pg.PgDatabase;
import tankard.util.FileNames;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * Chats and chat backups in PostgreSQL (V5__chats.sql): a chat is its lines, one row each, keyed by where they start.
 * <p>
 * A save compares the new content's lines with the stored ones by hash ({@link #lineHash}) and, in one transaction that locks the
 * chat's row, replaces only the lines from the first one that differs: a save that adds a message writes one row.
 * New content reaches the database in batches read from memory or from a spooled file, never whole.
 * <p>
 * A read (stream or channel) fetches windows of lines by byte offset, each in a statement of its own, filtered by
 * the chat's version it was opened on: a save marks the lines it replaces instead of deleting them (see
 * V5__chats.sql), so the read keeps its content without holding a connection or a transaction while its reader
 * (a client downloading a 25 MB chat at its own pace) takes its time. Replaced lines are deleted by the chat's next
 * save once they are {@link #REPLACED_KEPT} old; a read opened before that and still going fails then.
 */
public final class PgChatStore implements ChatStore {
    /** Bytes of lines per insert batch: a few hundred typical messages per round trip. */
    static final int WINDOW = 256 * 1024;
    /**
     * A read's first window: what a tail save or a page of a chat reads around one place (the header, the lines at
     * a cursor) is a few messages, so a small window spares it a quarter megabyte of rows; a read that goes on
     * doubles it.
     */
    static final int FIRST_READ_WINDOW = 32 * 1024;
    /**
     * The largest read window: a read that goes on where its last window ended (a whole chat streamed out) doubles
     * its window up to this, so a 25 MB chat takes a handful of statements, not a hundred.
     */
    static final int MAX_WINDOW = 8 << 20;
    /** How long replaced lines are kept for the reads opened before (an SQL interval). */
    static final String REPLACED_KEPT = "10 minutes";
    private static final String CHATS = "chats";
    private static final String GROUP_CHATS = "group chats";
    private static final String BACKUPS = "backups";
    private static final String UNIQUE_VIOLATION = "23505";

    private final PgDatabase db;
    private final ChatCopies copies;

    /** @param dataRoot where this node keeps its copies of chats ({@link ChatCopies}) */
    public PgChatStore(PgDatabase db, Path dataRoot) {
        this.db = db;
        this.copies = new ChatCopies(dataRoot);
    }

    /** Where a chat file lives: ST's folder under the user's (area), a character's folder in chats/, its name. */
    private record Place(String user, String area, String folder, String name) {
        static Place of(String user, ChatFolder folder, String name) {
            return new Place(user, PgChatStore.area(folder), folder.character(), PgDatabase.fileName(name, false));
        }

        static Place backup(String user, String name) {
            return new Place(user, BACKUPS, "", PgDatabase.fileName(name, false));
        }

        Tuple tuple() {
            return Tuple.of(user, area, folder, name);
        }
    }

    private static String area(ChatFolder folder) {
        return folder.group() ? GROUP_CHATS : CHATS;
    }

    @Override
    public boolean exists(String user, ChatFolder folder) {
        return db.call(c -> c.preparedQuery("SELECT 1 FROM chat_folders WHERE user_handle = $1 AND area = $2 AND folder = $3")
                .execute(Tuple.of(user, area(folder), folder.character())).map(rows -> rows.size() > 0));
    }

    @Override
    public void create(String user, ChatFolder folder) {
        db.call(c -> c.preparedQuery("INSERT INTO chat_folders (user_handle, area, folder) VALUES ($1, $2, $3)"
                + " ON CONFLICT DO NOTHING").execute(Tuple.of(user, area(folder), folder.character())));
    }

    @Override
    public List<ChatFile> list(String user, ChatFolder folder) {
        List<ChatFile> files = files("SELECT name, size, modified_ms FROM chats WHERE user_handle = $1 AND area = $2"
                + " AND folder = $3", Tuple.of(user, area(folder), folder.character()));
        files.removeIf(file -> !ChatFile.isChatName(file.name()));
        return files;
    }

    @Override
    public Optional<ChatFile> find(String user, ChatFolder folder, String name) {
        return find(Place.of(user, folder, name));
    }

    private Optional<ChatFile> find(Place place) {
        return files("SELECT name, size, modified_ms FROM chats WHERE user_handle = $1 AND area = $2 AND folder = $3"
                + " AND name = $4", place.tuple()).stream().findFirst();
    }

    /** The chat files the query selects (name, size, modified_ms), in Node's readdir order. */
    private List<ChatFile> files(String sql, Tuple arguments) {
        List<ChatFile> files = db.call(c -> c.preparedQuery(sql).execute(arguments).map(rows -> {
            List<ChatFile> read = new ArrayList<>();
            for (Row row : rows) {
                read.add(new ChatFile(row.getString(0), row.getLong(1), row.getDouble(2)));
            }
            return read;
        }));
        files.sort((a, b) -> FileNames.BYTE_ORDER.compare(a.name(), b.name()));
        return files;
    }

    @Override
    public Set<String> characterFolders(String user) {
        return db.call(c -> c.preparedQuery("SELECT folder FROM chat_folders WHERE user_handle = $1 AND area = $2"
                + " AND folder <> ''").execute(Tuple.of(user, CHATS)).map(rows -> {
            Set<String> names = new HashSet<>();
            rows.forEach(row -> names.add(row.getString(0)));
            return names;
        }));
    }

    @Override
    public FolderUsage usage(String user, ChatFolder folder) {
        return db.call(c -> c.preparedQuery("SELECT coalesce(sum(size), 0)::bigint, coalesce(max(modified_ms), 0)"
                        + " FROM chats WHERE user_handle = $1 AND area = $2 AND folder = $3")
                .execute(Tuple.of(user, area(folder), folder.character()))
                .map(rows -> {
                    Row row = rows.iterator().next();
                    return new FolderUsage(row.getLong(0), row.getDouble(1));
                }));
    }

    @Override
    public Optional<InputStream> open(String user, ChatFolder folder, String name) throws IOException {
        return view(Place.of(user, folder, name), true).map(Channels::newInputStream);
    }

    @Override
    public Optional<AtHand> openAtHand(String user, ChatFolder folder, String name) throws IOException {
        Long chatId = db.call(c -> c.preparedQuery("SELECT chat_id FROM chats WHERE user_handle = $1 AND area = $2"
                + " AND folder = $3 AND name = $4").execute(Place.of(user, folder, name).tuple())
                .map(rows -> rows.size() == 0 ? null : rows.iterator().next().getLong(0)));
        return chatId == null ? Optional.empty() : copies.latest(user, chatId).map(copy ->
                new AtHand(Channels.newInputStream(copy.channel()), new Revision(chatId, copy.version())));
    }

    /** A chat's row and one of its versions: what {@link AtHand#version()} names here. */
    private record Revision(long chatId, long version) {
    }

    /** The draft's first bytes are those of the chat at that revision ({@link Draft#repeats}). */
    private record Repeat(Object revision, long bytes) {
    }

    /** The revision a draft may be saved over only ({@link Draft#expect}); null: the chat must not exist. */
    private record Expected(Object revision) {
        /** Whether the chat's row, as the save's upsert found or made it, is at that revision. */
        boolean holds(long chatId, long version) {
            return revision == null ? version == 0 : revision.equals(new Revision(chatId, version));
        }
    }

    @Override
    public Optional<Object> version(String user, ChatFolder folder, String name) {
        return Optional.ofNullable(db.call(c -> c.preparedQuery("SELECT chat_id, version FROM chats WHERE user_handle = $1"
                        + " AND area = $2 AND folder = $3 AND name = $4").execute(Place.of(user, folder, name).tuple())
                .map(rows -> rows.size() == 0 ? null : revision(rows.iterator().next()))));
    }

    private static Object revision(Row row) {
        return new Revision(row.getLong(0), row.getLong(1));
    }

    @Override
    public Optional<SeekableByteChannel> channel(String user, ChatFolder folder, String name) throws IOException {
        return view(Place.of(user, folder, name), false);
    }

    @Override
    public void write(String user, ChatFolder folder, String name, byte[] content) throws IOException {
        save(Place.of(user, folder, name), new Content(null, content), false, null, null);
    }

    /**
     * Keeps the lines that end at or before {@code keep} and ends in the tail: the line {@code keep} falls in (or
     * a last line without LF, which the tail continues) is rewritten as its kept part followed by the tail.
     */
    @Override
    public ChatFile replaceTail(String user, ChatFolder folder, String name, ChatFile expected, long keep, byte[] tail)
            throws IOException {
        Place place = Place.of(user, folder, name);
        if (keep > expected.size()) {
            throw new IOException("The chat is shorter than the part to keep");
        }
        // The chat as the caller read it, and its line that holds the cut, in one statement; the change below
        // then holds only if no write came between (its version).
        Row chat = db.call(c -> c.preparedQuery("SELECT c.chat_id, c.version, l.byte_offset, l.line FROM chats c"
                        + " LEFT JOIN LATERAL (SELECT byte_offset, line FROM chat_lines WHERE user_handle = c.user_handle"
                        + " AND chat_id = c.chat_id AND replaced_in IS NULL AND byte_offset < $5 ORDER BY byte_offset DESC"
                        + " LIMIT 1) l ON true WHERE c.user_handle = $1 AND c.area = $2 AND c.folder = $3 AND c.name = $4"
                        + " AND c.size = $6 AND c.modified_ms = $7")
                .execute(place.tuple().addLong(keep).addLong(expected.size()).addDouble(expected.modifiedMs()))
                .map(PgChatStore::first));
        if (chat == null && find(place).isEmpty()) {
            throw new NoSuchFileException(name);
        }
        if (chat == null) {
            throw ChatStore.changed();
        }
        long from = keep;
        byte[] rest = tail;
        if (chat.getValue(3) != null) {
            byte[] line = chat.getBuffer(3).getBytes();
            long start = chat.getLong(2);
            if (start + line.length > keep || line[line.length - 1] != '\n') {
                from = start;
                ByteArrayOutputStream joined = new ByteArrayOutputStream();
                joined.write(line, 0, Math.toIntExact(keep - start));
                joined.write(tail);
                rest = joined.toByteArray();
            }
        }
        long size = from + rest.length;
        long version = chat.getLong(1);
        Tuple change = lineChange(user, chat.getLong(0), version, from, rest, size);
        Row written = db.call(c -> c.preparedQuery(REPLACE_LINES).execute(change).map(PgChatStore::first));
        if (written == null) {
            throw ChatStore.changed(); // written meanwhile: its version moved on
        }
        return new ChatFile(name, written.getLong(0), written.getDouble(1));
    }

    /**
     * One statement that makes a chat's next version, if it is still at version $3: locks its row, deletes the
     * lines replaced long ago, marks its lines from byte $5 on as replaced, inserts the new ones ($6-$8: their
     * offsets, hashes and bytes) and sets its size ($9) and a later time. Its parts see the chat as it was when
     * the statement began, so they neither see the lines it inserts nor run when the version moved on (then no
     * row comes back).
     */
    private static final String REPLACE_LINES = "WITH chat AS (SELECT chat_id FROM chats WHERE user_handle = $1"
            + " AND chat_id = $2 AND version = $3 FOR UPDATE),"
            + " purged AS (DELETE FROM chat_lines WHERE user_handle = $1 AND chat_id = (SELECT chat_id FROM chat)"
            + " AND replaced_in IS NOT NULL AND replaced_at < now() - interval '" + REPLACED_KEPT + "'),"
            + " marked AS (UPDATE chat_lines SET replaced_in = $4, replaced_at = now() WHERE user_handle = $1"
            + " AND chat_id = (SELECT chat_id FROM chat) AND replaced_in IS NULL AND byte_offset >= $5),"
            + " added AS (INSERT INTO chat_lines (user_handle, chat_id, byte_offset, gen, hash, line)"
            + " SELECT $1, chat.chat_id, o, $4, h, l FROM chat, unnest($6::bigint[], $7::bytea[], $8::bytea[]) AS t(o, h, l))"
            + " UPDATE chats SET size = $9, modified_ms = greatest($10, modified_ms + 0.001), version = $4"
            + " WHERE user_handle = $1 AND chat_id = (SELECT chat_id FROM chat) RETURNING size, modified_ms";

    /** The arguments of {@link #REPLACE_LINES} that replace the chat's lines from {@code from} on by {@code rest}. */
    private static Tuple lineChange(String user, long chatId, long version, long from, byte[] rest, long size)
            throws IOException {
        List<Long> offsets = new ArrayList<>();
        List<Buffer> hashes = new ArrayList<>();
        List<Buffer> lines = new ArrayList<>();
        long[] offset = {from};
        ChatLines.splitKeepingBreaks(new ByteArrayInputStream(rest), (bytes, start, end) -> {
            offsets.add(offset[0]);
            hashes.add(Buffer.buffer(lineHash(bytes, start, end)));
            lines.add(Buffer.buffer(Arrays.copyOfRange(bytes, start, end)));
            offset[0] += end - start;
            return true;
        });
        return Tuple.of(user, chatId, version, version + 1, from, offsets.toArray(Long[]::new))
                .addArrayOfBuffer(hashes.toArray(Buffer[]::new)).addArrayOfBuffer(lines.toArray(Buffer[]::new))
                .addLong(size).addDouble(nowMs());
    }

    @Override
    public boolean rename(String user, ChatFolder folder, String from, String to) {
        Place source = Place.of(user, folder, from);
        PgDatabase.fileName(to, true);
        try {
            // ST copies the file, so a renamed chat is as new as the rename (recent chats sort by mtime)
            return db.call(c -> c.preparedQuery("UPDATE chats SET name = $5, modified_ms = $6, version = version + 1"
                            + " WHERE user_handle = $1 AND area = $2 AND folder = $3 AND name = $4")
                    .execute(source.tuple().addString(to).addDouble(nowMs())).map(rows -> rows.rowCount() == 1));
        } catch (PgException e) {
            if (UNIQUE_VIOLATION.equals(e.getSqlState())) {
                return false; // the target exists
            }
            throw e;
        }
    }

    @Override
    public boolean delete(String user, ChatFolder folder, String name) {
        return delete(Place.of(user, folder, name));
    }

    @Override
    public void deleteAll(String user) {
        Tuple where = Tuple.of(user);
        db.transaction(c -> c.preparedQuery("DELETE FROM chats WHERE user_handle = $1").execute(where)
                .compose(v -> c.preparedQuery("DELETE FROM chat_folders WHERE user_handle = $1").execute(where))
                .mapEmpty());
        copies.forgetAll(user);
    }

    @Override
    public boolean setModified(String user, ChatFolder folder, String name, double modifiedMs) {
        return setModified(Place.of(user, folder, name), modifiedMs);
    }

    @Override
    public boolean setBackupModified(String user, String name, double modifiedMs) {
        return setModified(Place.backup(user, name), modifiedMs);
    }

    private boolean setModified(Place place, double modifiedMs) {
        return db.call(c -> c.preparedQuery("UPDATE chats SET modified_ms = $5 WHERE user_handle = $1 AND area = $2"
                + " AND folder = $3 AND name = $4").execute(place.tuple().addDouble(modifiedMs))
                .map(rows -> rows.rowCount() == 1));
    }

    private boolean delete(Place place) {
        Row deleted = db.call(c -> c.preparedQuery("DELETE FROM chats WHERE user_handle = $1 AND area = $2 AND folder = $3"
                + " AND name = $4 RETURNING chat_id").execute(place.tuple()).map(PgChatStore::first));
        if (deleted != null) {
            copies.forget(place.user(), deleted.getLong(0));
        }
        return deleted != null;
    }

    @Override
    public boolean create(String user, ChatFolder folder, String name, InputStream content) throws IOException {
        return spooled(content, spool -> save(Place.of(user, folder, name), spool, true, null, null) != null);
    }

    @Override
    public Draft draft(String user) throws IOException {
        return new PgDraft(user);
    }

    /**
     * The draft is spooled to a temp file: its body arrives at the client's pace, with no connection held. Once
     * saved, the file is this node's copy of the version it made ({@link ChatCopies#keep}), so that the next save
     * from here finds its lines at hand at the chat's current version.
     */
    private final class PgDraft extends SpooledDraft {
        private final String user;
        private Repeat repeat;
        private Expected expected;

        PgDraft(String user) throws IOException {
            super(new SpoolFile(copies.newSpool(user), false));
            this.user = user;
        }

        @Override
        public void restart() throws IOException {
            super.restart();
            repeat = null;
        }

        @Override
        public void repeats(Object version, long bytes) {
            repeat = new Repeat(version, bytes);
        }

        @Override
        public void expect(Object version) {
            expected = new Expected(version);
        }

        @Override
        public void commit(ChatFolder folder, String name) throws IOException {
            spool.finish(false);
            Revision saved = save(Place.of(user, folder, name), new Content(spool.path(), null), false, repeat, expected);
            copies.keep(user, saved.chatId(), saved.version(), spool.path());
        }

        @Override
        public void close() {
            spool.close();
        }
    }

    @Override
    public List<ChatFile> backups(String user, String prefix) {
        return files("SELECT name, size, modified_ms FROM chats WHERE user_handle = $1 AND area = $2 AND folder = ''"
                + " AND starts_with(name, $3)", Tuple.of(user, BACKUPS, prefix));
    }

    @Override
    public void writeBackup(String user, String name, InputStream content) throws IOException {
        spooled(content, spool -> save(Place.backup(user, name), spool, false, null, null));
    }

    @Override
    public Optional<ChatFile> findBackup(String user, String name) {
        return find(Place.backup(user, name));
    }

    @Override
    public Optional<SeekableByteChannel> backupChannel(String user, String name) throws IOException {
        return view(Place.backup(user, name), false);
    }

    @Override
    public boolean deleteBackup(String user, String name) {
        return delete(Place.backup(user, name));
    }

    @Override
    public boolean moveFolder(String user, ChatFolder from, ChatFolder to) {
        checkCharacterFolder(from);
        checkCharacterFolder(to);
        try (PgDatabase.Session s = db.session()) {
            boolean moved = s.call(c -> c.preparedQuery("UPDATE chat_folders SET folder = $4 WHERE user_handle = $1"
                            + " AND area = $2 AND folder = $3 AND NOT EXISTS (SELECT 1 FROM chat_folders"
                            + " WHERE user_handle = $1 AND area = $2 AND folder = $4)")
                    .execute(Tuple.of(user, CHATS, from.character(), to.character())).map(rows -> rows.rowCount() == 1));
            if (!moved) {
                return false;
            }
            s.call(c -> c.preparedQuery("UPDATE chats SET folder = $4 WHERE user_handle = $1 AND area = $2 AND folder = $3")
                    .execute(Tuple.of(user, CHATS, from.character(), to.character())));
            s.commit();
            return true;
        } catch (PgException e) {
            if (UNIQUE_VIOLATION.equals(e.getSqlState())) {
                return false; // the target was made meanwhile
            }
            throw e;
        }
    }

    @Override
    public boolean deleteFolder(String user, ChatFolder folder) {
        checkCharacterFolder(folder);
        Tuple where = Tuple.of(user, CHATS, folder.character());
        return db.transaction(c -> c.preparedQuery("DELETE FROM chats WHERE user_handle = $1 AND area = $2 AND folder = $3")
                .execute(where)
                .compose(v -> c.preparedQuery("DELETE FROM chat_folders WHERE user_handle = $1 AND area = $2 AND folder = $3")
                        .execute(where))
                .map(rows -> rows.rowCount() == 1));
    }

    /** A character's own chat folder: never the chats root or the group chats (as FileChatStore). */
    private static void checkCharacterFolder(ChatFolder folder) {
        if (folder.group() || folder.character().isEmpty()) {
            throw new IllegalArgumentException("Not a character chat folder: " + folder);
        }
    }

    /** New content, a file's or in memory, readable from any line start on. */
    private record Content(Path file, byte[] bytes) {
        InputStream from(long offset) throws IOException {
            if (bytes != null) {
                return new ByteArrayInputStream(bytes, Math.toIntExact(offset), bytes.length - Math.toIntExact(offset));
            }
            FileChannel channel = FileChannel.open(file);
            channel.position(offset);
            return new BufferedInputStream(Channels.newInputStream(channel), 1 << 16);
        }

        long size() throws IOException {
            return bytes != null ? bytes.length : Files.size(file);
        }
    }

    @FunctionalInterface
    private interface SpoolWork<T> {
        T run(Content spool) throws IOException;
    }

    /** Runs the work on the content copied to a temp file: the database is not kept waiting on the stream. */
    private static <T> T spooled(InputStream content, SpoolWork<T> work) throws IOException {
        Path temp = Files.createTempFile("tankard-spool", ".jsonl");
        try {
            try (OutputStream out = Files.newOutputStream(temp)) {
                content.transferTo(out);
            }
            return work.run(new Content(temp, null));
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * Makes the content the chat (creating it, and its folder), writing only the lines from the first one that
     * differs from the stored chat; with {@code createOnly}, null and nothing written when the chat exists. Where
     * the chat is still at the revision the content repeats the start of, the lines from there on; else the
     * content's lines are compared with the stored ones by hash. With {@code expected}, a chat found at another
     * revision is left as it is ({@link ChatStore#changed}). Answers the revision made.
     */
    private Revision save(Place place, Content content, boolean createOnly, Repeat repeat, Expected expected)
            throws IOException {
        PgDatabase.fileName(place.name(), true);
        List<Line> lines = repeat == null ? index(content) : null; // hashed before the transaction, when needed
        try (PgDatabase.Session s = db.session()) {
            // Inserting the chat's row, or locking the one there (the no-op update), serialises its writers.
            String upsert = "INSERT INTO chats (user_handle, area, folder, name, size, modified_ms, version)"
                    + " VALUES ($1, $2, $3, $4, 0, 0, 0) ON CONFLICT (user_handle, area, folder, name) DO "
                    + (createOnly ? "NOTHING" : "UPDATE SET version = chats.version") + " RETURNING chat_id, version";
            Row chat = s.call(c -> c.preparedQuery(upsert).execute(place.tuple()).map(PgChatStore::first));
            if (chat == null) {
                return null;
            }
            long chatId = chat.getLong(0);
            long version = chat.getLong(1);
            if (expected != null && !expected.holds(chatId, version)) {
                throw ChatStore.changed(); // written by another node since the caller's check
            }
            s.call(c -> c.preparedQuery("INSERT INTO chat_folders (user_handle, area, folder) VALUES ($1, $2, $3)"
                    + " ON CONFLICT DO NOTHING").execute(Tuple.of(place.user(), place.area(), place.folder())));
            long size = content.size();
            long from = repeat != null && repeat.revision().equals(new Revision(chatId, version)) ? repeat.bytes()
                    : firstChange(s, place.user(), chatId, lines != null ? lines : index(content), size);
            try (InputStream rest = content.from(from)) {
                if (size - from <= WINDOW) { // one new message, an edit near the end: one statement
                    Tuple change = lineChange(place.user(), chatId, version, from, rest.readAllBytes(), size);
                    s.call(c -> c.preparedQuery(REPLACE_LINES).execute(change));
                } else {
                    replaceFrom(s, place.user(), chatId, version + 1, from, rest, size);
                }
            }
            s.commit();
            return new Revision(chatId, version + 1);
        }
    }

    /** The offset of the first of the content's lines that the stored chat does not hold at its place. */
    private static long firstChange(PgDatabase.Session s, String user, long chatId, List<Line> lines, long size) {
        Iterator<Line> stored = s.call(c -> c.preparedQuery("SELECT byte_offset, hash FROM chat_lines"
                            + " WHERE user_handle = $1 AND chat_id = $2 AND replaced_in IS NULL ORDER BY byte_offset")
                .execute(Tuple.of(user, chatId))
                .map(rows -> {
                    List<Line> read = new ArrayList<>(rows.size());
                    rows.forEach(row -> read.add(new Line(row.getLong(0), row.getBuffer(1).getBytes())));
                    return read.iterator();
                }));
        for (Line line : lines) {
            if (!stored.hasNext() || !stored.next().equals(line)) {
                return line.offset();
            }
        }
        return size;
    }

    /** A line of a chat: where it starts and its {@link #lineHash}. */
    private record Line(long offset, byte[] hash) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Line other && offset == other.offset && Arrays.equals(hash, other.hash);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(offset) * 31 + Arrays.hashCode(hash);
        }
    }

    /** The content's lines. */
    private static List<Line> index(Content content) throws IOException {
        List<Line> lines = new ArrayList<>();
        long[] offset = {0};
        try (InputStream in = content.from(0)) {
            ChatLines.splitKeepingBreaks(in, (bytes, from, to) -> {
                lines.add(new Line(offset[0], lineHash(bytes, from, to)));
                offset[0] += to - from;
                return true;
            });
        }
        return lines;
    }

    /**
     * In the session's transaction, making the chat's {@code version}: replaces the chat's lines from {@code from}
     * on by the lines of {@code rest}, inserted in batches, and gives the chat its new size and a later mtime.
     */
    private static void replaceFrom(PgDatabase.Session s, String user, long chatId, long version, long from,
                                    InputStream rest, long size) throws IOException {
        s.call(c -> c.preparedQuery("DELETE FROM chat_lines WHERE user_handle = $1 AND chat_id = $2"
                + " AND replaced_in IS NOT NULL AND replaced_at < now() - interval '" + REPLACED_KEPT + "'")
                .execute(Tuple.of(user, chatId))); // through chat_lines_replaced (V7), not the chat's every line
        s.call(c -> c.preparedQuery("UPDATE chat_lines SET replaced_in = $3, replaced_at = now() WHERE user_handle = $1"
                + " AND chat_id = $2 AND replaced_in IS NULL AND byte_offset >= $4").execute(Tuple.of(user, chatId, version, from)));
        List<Tuple> batch = new ArrayList<>();
        long[] offset = {from};
        long[] batched = {0};
        ChatLines.splitKeepingBreaks(rest, (bytes, start, end) -> {
            batch.add(Tuple.of(user, chatId, offset[0], version, Buffer.buffer(lineHash(bytes, start, end)),
                    Buffer.buffer(Arrays.copyOfRange(bytes, start, end))));
            offset[0] += end - start;
            batched[0] += end - start;
            if (batched[0] >= WINDOW) {
                insert(s, batch);
                batched[0] = 0;
            }
            return true;
        });
        insert(s, batch);
        if (offset[0] != size) {
            throw new IOException("The content changed while it was saved");
        }
        // strictly later than before, whatever the clock's grain: a stat read before never matches again
        s.call(c -> c.preparedQuery("UPDATE chats SET size = $3, modified_ms = greatest($4, modified_ms + 0.001),"
                        + " version = $5 WHERE user_handle = $1 AND chat_id = $2")
                .execute(Tuple.of(user, chatId, size, nowMs(), version)));
    }

    private static void insert(PgDatabase.Session s, List<Tuple> batch) {
        if (!batch.isEmpty()) {
            List<Tuple> rows = List.copyOf(batch);
            batch.clear();
            s.call(c -> c.preparedQuery("INSERT INTO chat_lines (user_handle, chat_id, byte_offset, gen, hash, line)"
                    + " VALUES ($1, $2, $3, $4, $5, $6)").executeBatch(rows));
        }
    }

    /**
     * A read of a chat (see the class comment), from this node's copy when it has one of the chat's version; with
     * {@code copy}, a read from the database that makes one (a stream, which reads the chat in order). Empty when
     * there is no such chat.
     */
    private Optional<SeekableByteChannel> view(Place place, boolean copy) throws IOException {
        Row chat = db.call(c -> c.preparedQuery("SELECT chat_id, size, version FROM chats WHERE user_handle = $1"
                + " AND area = $2 AND folder = $3 AND name = $4").execute(place.tuple()).map(PgChatStore::first));
        if (chat == null) {
            return Optional.empty();
        }
        long chatId = chat.getLong(0);
        long size = chat.getLong(1);
        long version = chat.getLong(2);
        Optional<SeekableByteChannel> copied = copies.open(place.user(), chatId, version, size);
        if (copied.isPresent()) {
            return copied;
        }
        View view = new View(place.user(), chatId, size, version);
        return Optional.of(copy ? copies.recording(place.user(), chatId, version, view) : view);
    }

    /** A chat as it was at one version, read window by window. */
    private final class View extends ReadOnlyChannel {
        private final String user;
        private final long chatId;
        private final long size;
        private final long version;
        private long windowStart;
        private byte[] window = new byte[0];
        private int windowSize = FIRST_READ_WINDOW;
        private boolean open = true;

        View(String user, long chatId, long size, long version) {
            this.user = user;
            this.chatId = chatId;
            this.size = size;
            this.version = version;
        }

        /** Reads the lines from the one holding {@code at} to about a window past it. */
        private void fetch(long at) throws IOException {
            boolean sequential = window.length > 0 && at == windowStart + window.length;
            windowSize = sequential ? Math.min(windowSize * 2, MAX_WINDOW) : FIRST_READ_WINDOW;
            String ofVersion = " WHERE user_handle = $1 AND chat_id = $2 AND gen <= $5"
                    + " AND (replaced_in IS NULL OR replaced_in > $5)";
            RowSet<Row> rows = db.call(c -> c.preparedQuery("SELECT byte_offset, line FROM chat_lines" + ofVersion
                    // the start of the line at $3: a backward index scan that stops at it (max() would scan the
                    // chat's rows up to it)
                    + " AND byte_offset < $4 AND byte_offset >= (SELECT byte_offset FROM chat_lines" + ofVersion
                    + " AND byte_offset <= $3 ORDER BY byte_offset DESC LIMIT 1) ORDER BY byte_offset")
                    .execute(Tuple.of(user, chatId, at, at + windowSize, version)));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            long start = -1;
            for (Row row : rows) {
                if (start < 0) {
                    start = row.getLong(0);
                }
                if (row.getLong(0) != start + bytes.size()) {
                    throw new IOException("The chat's lines do not follow each other");
                }
                bytes.write(row.getBuffer(1).getBytes());
            }
            if (start < 0 || start > at || start + bytes.size() <= at) {
                throw new IOException("The chat was deleted, or changed too long ago, while it was read");
            }
            windowStart = start;
            window = bytes.toByteArray();
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (!open) {
                throw new ClosedChannelException();
            }
            if (position >= size) {
                return -1;
            }
            if (position < windowStart || position >= windowStart + window.length) {
                fetch(position);
            }
            int from = Math.toIntExact(position - windowStart);
            int n = Math.min(dst.remaining(), window.length - from);
            dst.put(window, from, n);
            position += n;
            return n;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }

    private static Row first(RowSet<Row> rows) {
        return rows.size() == 0 ? null : rows.iterator().next();
    }

    private static double nowMs() {
        return FileTimes.millis(FileTime.from(Instant.now()));
    }

    /**
     * A line's CRC-32C and CRC-32 side by side: a save checks every line of the chat it is given, and the JDK computes
     * both with the CPU's own instructions, also under C1 (bin/jvm.options): 25 MB in 2.5 ms, where the 128-bit
     * MurmurHash3 stored before took 20 ms and SHA-256 some 200. Two CRCs of other polynomials miss a change only
     * when it is a multiple of both (about one in 2^64); they only tell a changed line of the user's own chat from an
     * unchanged one. A line stored with an older hash (16 or 32 bytes) never equals one, so the first save after an
     * upgrade writes the chat's lines anew.
     */
    static byte[] lineHash(byte[] bytes, int from, int to) {
        CRC32C castagnoli = new CRC32C();
        castagnoli.update(bytes, from, to - from);
        CRC32 ieee = new CRC32();
        ieee.update(bytes, from, to - from);
        return ByteBuffer.allocate(8).putInt((int) castagnoli.getValue()).putInt((int) ieee.getValue()).array();
    }
}
