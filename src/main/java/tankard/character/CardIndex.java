package tankard.character;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.store.AtomicFiles;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 * The file is a log: a header, then records {@code [length][crc32][entry]}, appended in batches; the last
 * record of a name wins. A torn tail (crash while appending) fails its CRC and is cut off at load. When dead
 * records outweigh live ones the log is rewritten (atomically: temp file, fsync, rename).
 * <p>
 * Shallow templates stay in memory (they are small); full templates stay within the shared byte budget
 * ({@code performance.memoryCacheCapacity}) and are read back from the log when they were let go. Thread-safe.
 */
final class CardIndex {
    private static final Logger LOG = LoggerFactory.getLogger(CardIndex.class);
    private static final long MAGIC = 0x544b_4349_0000_0001L; // "TKCI", format 1

    /** A card's list templates (none when the card cannot be listed) for one version of its file. */
    static final class Entry {
        final String name;
        final long size;
        final double modifiedMs;
        final ListTemplate shallow;
        private ListTemplate full;
        private long offset = -1;
        private int length;

        Entry(String name, long size, double modifiedMs, ListTemplate full, ListTemplate shallow) {
            this.name = name;
            this.size = size;
            this.modifiedMs = modifiedMs;
            this.full = full;
            this.shallow = shallow;
        }

        boolean listed() {
            return shallow != null;
        }

        boolean matches(CardFile file) {
            return file.size() == size && file.modifiedMs() == modifiedMs;
        }
    }

    private final Path file;
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

    synchronized void put(Entry entry) {
        forget(entries.put(entry.name, entry));
        if (entry.full != null) {
            budget.addAndGet(-entry.full.weight());
        }
        unsaved.add(entry);
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

    /** The full template, from memory or read back from the log. */
    synchronized ListTemplate full(Entry entry) throws IOException {
        if (entry.full != null) {
            return entry.full;
        }
        ByteBuffer record = ByteBuffer.allocate(entry.length);
        while (record.hasRemaining()) {
            if (log.read(record, entry.offset + record.position()) < 0) {
                throw new EOFException("The card index " + file + " was cut short");
            }
        }
        // A list that started before a rewrite of the log may ask for an entry replaced since: check it is the one.
        CRC32 crc = new CRC32();
        crc.update(record.array(), 8, entry.length - 8);
        if (record.getInt(0) != entry.length - 8 || record.getInt(4) != (int) crc.getValue()) {
            throw new IOException("The card index entry of " + entry.name + " was replaced");
        }
        Entry saved = decode(new DataInputStream(new ByteArrayInputStream(record.array(), 8, entry.length - 8)));
        if (!saved.name.equals(entry.name) || saved.size != entry.size || saved.modifiedMs != entry.modifiedMs) {
            throw new IOException("The card index entry of " + entry.name + " was replaced");
        }
        return saved.full;
    }

    /** Appends the new entries to the log, then lets go of full templates over the budget. */
    synchronized void save() {
        if (unsaved.isEmpty()) {
            return;
        }
        try {
            if (log == null || liveBytes > 0 && log.size() > 2 * liveBytes + (1 << 20)) {
                rewrite();
            } else {
                long position = log.size();
                for (Entry entry : unsaved) {
                    if (entries.get(entry.name) == entry) {
                        position += append(log, position, entry);
                    }
                }
                log.force(false);
            }
            unsaved.clear();
            release();
        } catch (IOException e) {
            LOG.warn("Cannot save the card index {}: {}", file, e.toString());
        }
    }

    synchronized void close() {
        closeLog();
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

    /** Writes every live entry to a new log that replaces the old one atomically. */
    private void rewrite() throws IOException {
        List<Entry> live = new ArrayList<>(entries.values());
        long[] offsets = new long[live.size()];
        AtomicFiles.write(file, channel -> {
            long position = writeHeader(channel);
            for (int i = 0; i < live.size(); i++) {
                Entry entry = live.get(i);
                if (entry.full == null) {
                    entry.full = full(entry); // briefly over budget while it is copied
                    offsets[i] = position;
                    position += append(channel, position, entry);
                    entry.full = null;
                } else {
                    offsets[i] = position;
                    position += append(channel, position, entry);
                }
            }
        });
        closeLog();
        log = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        liveBytes = 0;
        for (int i = 0; i < live.size(); i++) {
            live.get(i).offset = offsets[i];
            liveBytes += live.get(i).length;
        }
    }

    private long append(FileChannel channel, long position, Entry entry) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(entry.full == null ? 256 : entry.full.bytes().length + 1024);
        DataOutputStream out = new DataOutputStream(body);
        out.writeUTF(entry.name);
        out.writeLong(entry.size);
        out.writeDouble(entry.modifiedMs);
        out.writeBoolean(entry.listed());
        if (entry.listed()) {
            entry.full.write(out);
            entry.shallow.write(out);
        }
        byte[] bytes = body.toByteArray();
        CRC32 crc = new CRC32();
        crc.update(bytes);
        ByteBuffer record = ByteBuffer.allocate(8 + bytes.length).putInt(bytes.length).putInt((int) crc.getValue()).put(bytes).flip();
        int length = record.remaining();
        while (record.hasRemaining()) {
            channel.write(record, position + record.position());
        }
        entry.offset = position;
        entry.length = length;
        liveBytes += length;
        return length;
    }

    private static long writeHeader(FileChannel channel) throws IOException {
        ByteBuffer header = ByteBuffer.allocate(8).putLong(MAGIC).flip();
        while (header.hasRemaining()) {
            channel.write(header, header.position());
        }
        return 8;
    }

    private static Entry decode(DataInputStream in) throws IOException {
        String name = in.readUTF();
        long size = in.readLong();
        double modifiedMs = in.readDouble();
        if (!in.readBoolean()) {
            return new Entry(name, size, modifiedMs, null, null);
        }
        ListTemplate full = ListTemplate.read(in);
        return new Entry(name, size, modifiedMs, full, ListTemplate.read(in));
    }

    private void load() {
        try {
            log = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            LOG.warn("Cannot open the card index {}: {}", file, e.toString());
            return;
        }
        long position = 8;
        try (InputStream stream = new BufferedInputStream(Channels.newInputStream(log.position(0)), 1 << 16)) {
            DataInputStream in = new DataInputStream(stream);
            if (in.readLong() != MAGIC) {
                throw new IOException("not a card index of this version");
            }
            while (true) {
                int length;
                try {
                    length = in.readInt();
                } catch (EOFException end) {
                    break;
                }
                int crc = in.readInt();
                if (length < 0 || length > log.size() - position - 8) {
                    break;
                }
                byte[] body = new byte[length];
                in.readFully(body);
                CRC32 check = new CRC32();
                check.update(body);
                if ((int) check.getValue() != crc) {
                    break;
                }
                Entry entry = decode(new DataInputStream(new ByteArrayInputStream(body)));
                entry.offset = position;
                entry.length = length + 8;
                forget(entries.put(entry.name, entry));
                liveBytes += entry.length;
                if (entry.full != null) {
                    budget.addAndGet(-entry.full.weight());
                }
                position += length + 8;
            }
            release();
            reopenAt(position);
        } catch (IOException e) {
            LOG.warn("Ignoring the card index {}: {}", file, e.toString());
            entries.values().forEach(this::forget);
            entries.clear();
            liveBytes = 0;
            closeLog();
        }
    }

    /** Cuts off a torn tail, and keeps the channel open for appends and reads. */
    private void reopenAt(long end) throws IOException {
        // closing the stream closed the channel
        log = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        if (log.size() > end) {
            log.truncate(end);
        }
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
