package tankard.chat;

import tankard.store.AtomicFiles;
import tankard.util.Hashes;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * The undo journal of a tail save made in place: which chat, where it is cut, its mtime, and its old bytes from
 * the cut to its end. It is written and fsynced (with its folder) before the chat is touched and deleted once
 * the chat's new end is durable, so a journal found later means the save did not finish: the chat is rolled
 * back (as if the save never happened). A journal that does not check out (a crash while it was written) is
 * dropped: the chat was not touched yet. Named {@code .tankard-journal.<hash of the chat's name>} next to the
 * chat, so the name stays short and ST, which lists {@code *.jsonl}, never sees it.
 */
final class TailJournal {
    private static final String PREFIX = ".tankard-journal.";
    private static final Pattern NAME = Pattern.compile(Pattern.quote(PREFIX) + "[0-9a-f]{32}");
    private static final byte[] MAGIC = "TANKARD-TAIL-JOURNAL-1\n".getBytes(StandardCharsets.US_ASCII);

    /** What the chat was from {@code cut} on, and its mtime. */
    record Entry(String chat, long cut, FileTime modified, byte[] old) {
    }

    private TailJournal() {
    }

    static Path of(Path chat) {
        return chat.resolveSibling(PREFIX + Hashes.sha256Hex(chat.getFileName().toString()).substring(0, 32));
    }

    /** Only this process's own names: a chat called {@code .tankard-journal.x.jsonl} is a chat. */
    static boolean isJournal(String name) {
        return NAME.matcher(name).matches();
    }

    /** Writes the journal durably: its bytes and its name in the folder. */
    static void write(Path journal, Entry entry) throws IOException {
        byte[] name = entry.chat().getBytes(StandardCharsets.UTF_8);
        ByteBuffer bytes = ByteBuffer.allocate(MAGIC.length + 4 + name.length + 8 + 8 + 4 + entry.old().length + 8);
        bytes.put(MAGIC).putInt(name.length).put(name).putLong(entry.cut())
                .putLong(entry.modified().to(TimeUnit.NANOSECONDS)).putInt(entry.old().length).put(entry.old());
        CRC32 crc = new CRC32();
        crc.update(bytes.array(), 0, bytes.position());
        bytes.putLong(crc.getValue()).flip();
        try (FileChannel channel = FileChannel.open(journal, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true);
        }
        AtomicFiles.syncFolder(journal.getParent());
    }

    /** The journal's entry; empty when it is incomplete or damaged (or gone). */
    static Optional<Entry> read(Path journal) throws IOException {
        ByteBuffer bytes;
        try {
            bytes = ByteBuffer.wrap(Files.readAllBytes(journal));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        try {
            byte[] magic = new byte[MAGIC.length];
            bytes.get(magic);
            byte[] name = new byte[bytes.getInt()];
            bytes.get(name);
            long cut = bytes.getLong();
            long modified = bytes.getLong();
            byte[] old = new byte[bytes.getInt()];
            bytes.get(old);
            CRC32 crc = new CRC32();
            crc.update(bytes.array(), 0, bytes.position());
            if (!ByteBuffer.wrap(magic).equals(ByteBuffer.wrap(MAGIC)) || bytes.getLong() != crc.getValue() || bytes.hasRemaining()) {
                return Optional.empty();
            }
            return Optional.of(new Entry(new String(name, StandardCharsets.UTF_8), cut,
                    FileTime.from(modified, TimeUnit.NANOSECONDS), old));
        } catch (RuntimeException e) { // BufferUnderflow, a negative length: cut short or damaged
            return Optional.empty();
        }
    }

    /** Deletes the journal durably: once it is gone, the save it guarded stands. */
    static void delete(Path journal) throws IOException {
        Files.deleteIfExists(journal);
        AtomicFiles.syncFolder(journal.getParent());
    }
}
