package tankard.character;

import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.util.StTime;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

/**
 * One user's list entries, keyed by card file name and valid while the file keeps its size and mtime, persisted
 * in a disposable cache file so a restart re-parses only changed cards.
 * <p>
 * The file is a log: a header, then one record per entry (see {@link #write}), appended in batches; the last
 * record of a name wins. A torn tail (crash while appending) is cut short or fails its CRC, and is cut off at
 * load. When dead records outweigh live ones the log is rewritten (atomically: temp file, fsync, rename).
 * <p>
 * Shallow templates stay in memory (they are small). Full templates are read from the log when a full list
 * first needs them and kept within the byte budget shared by all users ({@code performance.memoryCacheCapacity});
 * past it they are read from the log on every list. Thread-safe.
 */
final class CardIndex {
    private static final Logger LOG = LoggerFactory.getLogger(CardIndex.class);
    private static final long SAVE_SLACK = 8 << 20;
    /** A save's temp file this old was left by a killed process (a save takes seconds at most). */
    private static final Duration STALE_SAVE = Duration.ofMinutes(10);
    private static final long MAGIC = 0x544b_4349_0000_0002L; // "TKCI", format 2

    /** A card's list templates (none when the card cannot be listed) for one version of its file. */
    static final class Entry {
        final String name;
        final long size;
        final double modifiedMs;
        final ListTemplate shallow;
        private ListTemplate full;
        private long offset = -1;
        private long fullOffset;
        private int length;
        /** The serialised date_added and default create_date for a ctime: they rarely change, and cost to format. */
        private volatile Dates dates;
        /** What the library page reads of the card: taken from the shallow template when a page first needs it. */
        private volatile CardSummary summary;
        private volatile String descriptionPreview;

        Entry(String name, long size, double modifiedMs, ListTemplate full, ListTemplate shallow) {
            this.name = name;
            this.size = size;
            this.modifiedMs = modifiedMs;
            this.full = full;
            this.shallow = shallow;
        }

        Dates dates(double changedMs) {
            Dates known = dates;
            if (known == null || known.changedMs != changedMs) {
                known = new Dates(changedMs, JsJson.compactBytes(DoubleNode.valueOf(changedMs)),
                        JsJson.compactBytes(TextNode.valueOf(StTime.iso(Math.round(changedMs)))));
                dates = known;
            }
            return known;
        }

        /** Only for a listed entry. */
        CardSummary summary() {
            CardSummary known = summary;
            if (known == null) {
                known = CardSummary.of(shallow);
                summary = known;
            }
            return known;
        }

        boolean listed() {
            return shallow != null;
        }

        boolean matches(CardFile file) {
            return file.size() == size && file.modifiedMs() == modifiedMs;
        }
    }

    record Dates(double changedMs, byte[] added, byte[] created) {
    }

    private final Path file;
    private final Object saving = new Object();
    private final AtomicLong budget;
    private final Map<String, Entry> entries = new HashMap<>();
    private final List<Entry> unsaved = new ArrayList<>();
    private FileChannel log;
    private long liveBytes;

    /** Loads the log, if there is a usable one. */
    CardIndex(Path file, AtomicLong budget) {
        this.file = file;
        this.budget = budget;
        load();
    }

    synchronized Entry get(CardFile file) {
        Entry entry = entries.get(file.name());
        return entry != null && entry.matches(file) ? entry : null;
    }

    /**
     * Adds a new entry. Well over the memory budget (a first list of a big library), the new entries are saved
     * now, a batch at a time, so that they can be let go.
     */
    void put(Entry entry) {
        synchronized (this) {
            forget(entries.put(entry.name, entry));
            if (entry.full != null) {
                budget.addAndGet(-entry.full.weight());
            }
            unsaved.add(entry);
        }
        if (budget.get() < -SAVE_SLACK) {
            save();
        }
    }

    /** Drops the entries of cards that are no longer there. */
    synchronized void retain(Set<String> names) {
        entries.values().removeIf(entry -> {
            if (names.contains(entry.name)) {
                return false;
            }
            forget(entry);
            return true;
        });
    }

    synchronized boolean hasUnsaved() {
        return !unsaved.isEmpty();
    }

    /**
     * The full template, from memory or read back from the log (and kept when the budget allows: a warm full
     * list then comes from memory, a lazy-mode server never holds them).
     */
    synchronized ListTemplate full(Entry entry) throws IOException {
        if (entry.full != null) {
            return entry.full;
        }
        // A list that started before a rewrite of the log may ask for an entry replaced since: check it is the one.
        byte[] part = checked(entry.fullOffset, entry.offset + entry.length);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(part == null ? new byte[0] : part));
        if (part == null || !in.readUTF().equals(entry.name) || in.readLong() != entry.size
                || in.readDouble() != entry.modifiedMs) {
            throw new IOException("The card index entry of " + entry.name + " was replaced");
        }
        ListTemplate full = ListTemplate.read(in);
        if (entries.get(entry.name) == entry && budget.get() >= full.weight()) {
            budget.addAndGet(-full.weight());
            entry.full = full;
        }
        return full;
    }

    /** A listed card's description preview (see CardSummary), read from its full template once per version. */
    String descriptionPreview(Entry entry) throws IOException {
        String known = entry.descriptionPreview;
        if (known == null) {
            known = CardSummary.descriptionPreview(full(entry));
            entry.descriptionPreview = known;
        }
        return known;
    }

    /**
     * Appends the new entries to the log (or rewrites it), then lets go of full templates over the budget. The
     * file is written without holding the index, so lists go on meanwhile; one save runs at a time.
     */
    void save() {
        synchronized (saving) {
            Batch batch;
            synchronized (this) {
                batch = batch();
                if (batch == null) {
                    return;
                }
            }
            try {
                FileChannel written = batch.rewrite ? writeLog(batch) : appendTo(batch);
                synchronized (this) {
                    install(batch, written);
                    release();
                }
            } catch (IOException | UncheckedIOException e) {
                synchronized (this) {
                    unsaved.addAll(0, batch.unsaved); // kept in memory, tried again later
                    cutBack(batch);
                }
                LOG.warn("Cannot save the card index {}: {}", file, e.toString());
            }
        }
    }

    /**
     * What a save writes: the new entries, or every live one when the log is rewritten, with their full templates
     * as they were when it was taken (null: the record is copied from the log). Writing fills in where.
     */
    private static final class Batch {
        final boolean rewrite;
        final List<Entry> unsaved;
        final List<Entry> entries = new ArrayList<>();
        final List<ListTemplate> fulls = new ArrayList<>();
        long start;
        long[] lengths;
        long[] headLengths;

        Batch(boolean rewrite, List<Entry> unsaved) {
            this.rewrite = rewrite;
            this.unsaved = unsaved;
        }

        /** Writes the records one after the other from the position; where they end. */
        long write(FileChannel channel, long position, FileChannel log) throws IOException {
            start = position;
            lengths = new long[entries.size()];
            headLengths = new long[entries.size()];
            for (int i = 0; i < entries.size(); i++) {
                Entry entry = entries.get(i);
                byte[] record;
                if (fulls.get(i) == null && entry.listed()) { // only on disk: copied as it is
                    record = read(log, entry.offset, entry.length);
                    headLengths[i] = entry.fullOffset - entry.offset - 8;
                } else {
                    record = record(entry, fulls.get(i), headLengths, i);
                }
                lengths[i] = record.length;
                position += writeAt(channel, position, record);
            }
            return position;
        }
    }

    /** Takes the unsaved entries and what to write of them; null when there is nothing to save. */
    private Batch batch() {
        if (unsaved.isEmpty()) {
            return null;
        }
        boolean rewrite;
        try {
            rewrite = log == null || liveBytes > 0 && log.size() > 2 * liveBytes + (1 << 20);
        } catch (IOException e) {
            rewrite = true;
        }
        Batch batch = new Batch(rewrite, new ArrayList<>(unsaved));
        unsaved.clear();
        for (Entry entry : rewrite ? entries.values() : batch.unsaved) {
            if (entries.get(entry.name) == entry) {
                batch.entries.add(entry);
                batch.fulls.add(entry.full);
            }
        }
        return batch;
    }

    /** After a failed append, cuts off what it wrote, which a later append would otherwise bury. */
    private void cutBack(Batch batch) {
        if (!batch.rewrite && batch.lengths != null) {
            try {
                log.truncate(batch.start);
            } catch (IOException e) {
                LOG.debug("Cannot cut back the card index {}: {}", file, e.toString()); // a torn tail, cut at load
            }
        }
    }

    /** Gives the written entries their place in the log (unless replaced meanwhile), which becomes the new log. */
    private void install(Batch batch, FileChannel written) {
        long position = batch.start;
        for (int i = 0; i < batch.entries.size(); i++) {
            Entry entry = batch.entries.get(i);
            if (entries.get(entry.name) == entry) {
                if (!batch.rewrite) {
                    liveBytes += batch.lengths[i];
                }
                entry.offset = position;
                entry.fullOffset = position + 8 + batch.headLengths[i];
                entry.length = (int) batch.lengths[i];
            }
            position += batch.lengths[i];
        }
        if (batch.rewrite) {
            closeLog();
            log = written;
            liveBytes = 0;
            for (Entry entry : entries.values()) {
                if (entry.offset >= 0) {
                    liveBytes += entry.length;
                }
            }
        }
    }

    private void release() {
        for (Entry entry : entries.values()) {
            if (budget.get() >= 0) {
                return;
            }
            if (entry.full != null && entry.offset >= 0) {
                budget.addAndGet(entry.full.weight());
                entry.full = null;
            }
        }
    }

    private void forget(Entry old) {
        if (old == null) {
            return;
        }
        if (old.full != null) {
            budget.addAndGet(old.full.weight());
        }
        if (old.offset >= 0) {
            liveBytes -= old.length;
        }
    }

    /** Writes every live entry to a new log that replaces the old one atomically; the new log, open. */
    private FileChannel writeLog(Batch batch) throws IOException {
        FileChannel old = log;
        AtomicFiles.write(file, channel -> batch.write(channel, writeHeader(channel), old));
        return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    /** Appends the batch's records to the log, durably; the log. */
    private FileChannel appendTo(Batch batch) throws IOException {
        batch.write(log, log.size(), log);
        log.force(false);
        return log;
    }

    private static int writeAt(FileChannel channel, long position, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            channel.write(buffer, position + buffer.position());
        }
        return bytes.length;
    }

    /**
     * A record is two checked parts: {@code [length][crc32][part]} each. The head (name, size, mtime, shallow
     * template) is read at load; the full part (name, size, mtime again, to check it is the right one, and the
     * full template) only when a full list needs it. The head's length goes to {@code headLengths[i]}.
     */
    private static byte[] record(Entry entry, ListTemplate fullTemplate, long[] headLengths, int i) {
        try {
            ByteArrayOutputStream head = new ByteArrayOutputStream(1024);
            DataOutputStream out = new DataOutputStream(head);
            identity(out, entry);
            out.writeBoolean(entry.listed());
            if (entry.listed()) {
                entry.shallow.write(out);
            }
            ByteArrayOutputStream full = new ByteArrayOutputStream(entry.listed() ? fullTemplate.bytes().length + 256 : 0);
            if (entry.listed()) {
                out = new DataOutputStream(full);
                identity(out, entry);
                fullTemplate.write(out);
            }
            ByteBuffer record = ByteBuffer.allocate(16 + head.size() + full.size());
            part(record, head);
            part(record, full);
            headLengths[i] = head.size();
            return record.array();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory: does not happen
        }
    }

    private static void identity(DataOutputStream out, Entry entry) throws IOException {
        out.writeUTF(entry.name);
        out.writeLong(entry.size);
        out.writeDouble(entry.modifiedMs);
    }

    private static void part(ByteBuffer record, ByteArrayOutputStream part) {
        CRC32 crc = new CRC32();
        crc.update(part.toByteArray());
        record.putInt(part.size()).putInt((int) crc.getValue()).put(part.toByteArray());
    }

    private static long writeHeader(FileChannel channel) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(8).putLong(MAGIC).flip();
        while (header.hasRemaining()) {
            channel.write(header, header.position());
        }
        return 8;
    }

    private void load() {
        AtomicFiles.deleteStaleTemps(file, STALE_SAVE);
        try {
            log = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            LOG.warn("Cannot open the card index {}: {}", file, e.toString());
            return;
        }
        try {
            long size = log.size();
            if (size < 8 || ByteBuffer.wrap(read(log, 0, 8)).getLong() != MAGIC) {
                throw new IOException("not a card index of this version");
            }
            long position = 8;
            while (true) {
                byte[] head = checked(position, size);
                if (head == null) {
                    break;
                }
                long fullOffset = position + 8 + head.length;
                byte[] fullHeader = fullOffset + 8 <= size ? read(log, fullOffset, 8) : null;
                long fullLength = fullHeader == null ? -1 : ByteBuffer.wrap(fullHeader).getInt() & 0xffffffffL;
                if (fullLength < 0 || fullLength > size - fullOffset - 8) {
                    break; // a torn tail
                }
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(head));
                String name = in.readUTF();
                long fileSize = in.readLong();
                double modifiedMs = in.readDouble();
                ListTemplate shallow = in.readBoolean() ? ListTemplate.read(in) : null;
                Entry entry = new Entry(name, fileSize, modifiedMs, null, shallow);
                entry.offset = position;
                entry.fullOffset = fullOffset;
                entry.length = (int) (fullOffset + 8 + fullLength - position);
                forget(entries.put(name, entry));
                liveBytes += entry.length;
                position += entry.length;
            }
            if (size > position) {
                log.truncate(position);
            }
        } catch (IOException e) {
            LOG.warn("Ignoring the card index {}: {}", file, e.toString());
            entries.values().forEach(this::forget);
            entries.clear();
            liveBytes = 0;
            closeLog();
        }
    }

    /** The part {@code [length][crc32][bytes]} at the position, or null when it is cut short or damaged. */
    private byte[] checked(long position, long end) throws IOException {
        if (position + 8 > end) {
            return null;
        }
        ByteBuffer header = ByteBuffer.wrap(read(log, position, 8));
        long length = header.getInt() & 0xffffffffL;
        if (length > end - position - 8) {
            return null;
        }
        byte[] part = read(log, position + 8, (int) length);
        CRC32 crc = new CRC32();
        crc.update(part);
        return (int) crc.getValue() == header.getInt() ? part : null;
    }

    private static byte[] read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                throw new EOFException("The card index was cut short");
            }
        }
        return buffer.array();
    }

    private void closeLog() {
        if (log != null) {
            try {
                log.close();
            } catch (IOException ignored) {
                // nothing was pending
            }
            log = null;
        }
    }

    static Path fileFor(Path cacheFolder, String user) throws IOException {
        Files.createDirectories(cacheFolder);
        return cacheFolder.resolve(user + ".idx");
    }
}
