package tankard.vector.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.core.Refusal;
import tankard.store.AtomicFiles;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One index in memory, with its journal. The items live in an array that only grows at its end (a delete makes a
 * new one), so a query reads a snapshot without a lock while writers go on. Each change is one line appended to a
 * journal segment ({@code journal.<n>.jsonl}) and flushed to disk before it is acknowledged: an insert costs its own
 * size, not the index's. {@link #fold()} writes the items into {@code index.json} (temp file, fsync, rename) and then
 * deletes the segments it holds; after a clean stop the index alone holds everything, as ST expects. A crash between
 * the two replays segments whose changes the index already has: adding an item whose id is there is skipped, and
 * the deletes repeat to the same end, so replaying is harmless.
 */
final class LoadedIndex {
    private static final Logger LOG = LoggerFactory.getLogger(LoadedIndex.class);
    static final String INDEX = "index.json";
    private static final Pattern SEGMENT = Pattern.compile("journal\\.(\\d+)\\.jsonl");

    final Path folder;
    /** Held while {@link #fold()} writes the index, and by whoever deletes the folder. */
    final ReentrantLock folding = new ReentrantLock();

    // guarded by this
    private VectraCodec.Header header = VectraCodec.Header.EMPTY;
    private VectorItem[] items = new VectorItem[16];
    private int size;
    private int dimensions;
    private long bytes;
    private int segment;
    private FileChannel journal;
    private long journalBytes;
    private boolean closed;

    private LoadedIndex(Path folder) {
        this.folder = folder;
    }

    /** A read-only view of the items at one moment. */
    record Snapshot(VectorItem[] items, int size, int dimensions) {
    }

    /** Reads the index and replays its journal; a folder without one is an empty index. */
    static LoadedIndex load(Path folder) throws IOException {
        LoadedIndex index = new LoadedIndex(folder);
        synchronized (index) {
            if (Files.isDirectory(folder)) { // what a fold cut short by a crash left
                AtomicFiles.deleteStaleTemps(folder.resolve(INDEX), Duration.ZERO);
            }
            index.readIndex();
            List<Integer> segments = segments(folder);
            for (int n : segments) {
                Path file = folder.resolve(segmentName(n));
                index.replay(file);
                index.journalBytes += Math.max(1, Files.size(file)); // a fold writes what replay gave
            }
            index.segment = segments.isEmpty() ? 0 : segments.get(segments.size() - 1) + 1;
        }
        return index;
    }

    private void readIndex() throws IOException {
        Path file = folder.resolve(INDEX);
        try (InputStream in = Files.newInputStream(file)) {
            header = VectraCodec.read(in, this::append);
        } catch (NoSuchFileException e) {
            // a new index
        } catch (IOException e) {
            // Tankard never leaves an index half-written; this one came from elsewhere. Keep it for the user to
            // look at, rather than deleting it as ST does.
            Path aside = folder.resolve(INDEX + ".unreadable-" + System.currentTimeMillis());
            LOG.warn("The vector index {} cannot be read ({}); moved to {} and starting it empty", file,
                    e.getMessage(), aside.getFileName());
            clear();
            Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    private void clear() {
        items = new VectorItem[16];
        size = 0;
        dimensions = 0;
        bytes = 0;
        header = VectraCodec.Header.EMPTY;
    }

    /** Applies a segment's lines; a torn last line (a write that was never acknowledged) is cut off. */
    private void replay(Path file) throws IOException {
        byte[] content = Files.readAllBytes(file);
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < size; i++) {
            ids.add(items[i].id());
        }
        int start = 0;
        while (start < content.length) {
            int end = start;
            while (end < content.length && content[end] != '\n') {
                end++;
            }
            if (end == content.length || !applyLine(content, start, end - start, ids)) {
                LOG.warn("Cutting an unfinished change off the vector journal {} at byte {}", file, start);
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.truncate(start);
                    channel.force(true);
                }
                return;
            }
            start = end + 1;
        }
    }

    private boolean applyLine(byte[] content, int offset, int length, Set<String> ids) {
        try (JsonParser parser = VectraCodec.parser(content, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT || parser.nextToken() != JsonToken.FIELD_NAME) {
                return false;
            }
            String op = parser.currentName();
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                return false;
            }
            if (op.equals("add")) {
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    VectorItem item = VectraCodec.item(parser);
                    if (ids.add(item.id())) {
                        append(item);
                    }
                }
            } else if (op.equals("delete")) {
                Set<Double> hashes = new HashSet<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    hashes.add(parser.getDoubleValue());
                }
                removeAll(hashes).forEach(removed -> ids.remove(removed.id()));
            } else {
                return false;
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void append(VectorItem item) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        items[size++] = item;
        bytes += item.bytes();
        if (dimensions == 0) {
            dimensions = item.vector().length;
        }
    }

    /** Removes the items whose hash is one of these; the removed ones. */
    private List<VectorItem> removeAll(Set<Double> hashes) {
        VectorItem[] kept = new VectorItem[Math.max(16, items.length)];
        List<VectorItem> removed = new ArrayList<>();
        int count = 0;
        long keptBytes = 0;
        for (int i = 0; i < size; i++) {
            if (matches(items[i].hash(), hashes)) {
                removed.add(items[i]);
            } else {
                kept[count++] = items[i];
                keptBytes += items[i].bytes();
            }
        }
        items = kept;
        size = count;
        bytes = keptBytes;
        if (size == 0) {
            dimensions = 0;
        }
        return removed;
    }

    /** Vectra's {@code $in} on {@code metadata.hash}: only a stored number equal to one of them. */
    private static boolean matches(JsonNode hash, Set<Double> hashes) {
        return hash != null && hash.isNumber() && hashes.contains(hash.asDouble());
    }

    synchronized Snapshot snapshot() {
        return new Snapshot(items, size, dimensions);
    }

    synchronized long bytes() {
        return bytes;
    }

    synchronized boolean closed() {
        return closed;
    }

    /** Adds the items after their journal line is on disk. */
    synchronized void insert(List<VectorItem> added) throws IOException {
        int length = added.get(0).vector().length;
        if (dimensions != 0 && length != dimensions) {
            throw Refusal.badRequest("This collection holds vectors of " + dimensions + " dimensions, the new ones "
                    + "have " + length + ": the embedding model changed; purge the collection and vectorize it again");
        }
        log(json -> VectraCodec.writeAdd(json, added));
        for (VectorItem item : added) {
            append(item);
        }
    }

    synchronized void delete(Set<Double> hashes) throws IOException {
        boolean any = false;
        for (int i = 0; i < size && !any; i++) {
            any = matches(items[i].hash(), hashes);
        }
        if (any) {
            log(json -> VectraCodec.writeDelete(json, hashes));
            removeAll(hashes);
        }
    }

    @FunctionalInterface
    private interface Line {
        void write(JsonGenerator json) throws IOException;
    }

    /** Appends one line to the journal and flushes it to the disk. */
    private void log(Line line) throws IOException {
        if (closed) {
            throw Refusal.unavailable("The vector index is being deleted or closed; try again");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try (JsonGenerator json = VectraCodec.generator(out)) {
            line.write(json);
        }
        out.write('\n');
        if (journal == null) {
            Files.createDirectories(folder);
            boolean fresh = !Files.exists(folder.resolve(INDEX));
            journal = FileChannel.open(folder.resolve(segmentName(segment)), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            AtomicFiles.syncFolder(folder);
            if (fresh) { // as ST, a new index is there at once (written empty), so ST sees the collection
                AtomicFiles.write(folder.resolve(INDEX), VectraCodec.EMPTY_INDEX);
            }
        }
        ByteBuffer buffer = ByteBuffer.wrap(out.toByteArray());
        long position = journal.position();
        try {
            while (buffer.hasRemaining()) {
                journal.write(buffer);
            }
            journal.force(false);
        } catch (IOException e) {
            journal.truncate(position); // nothing half-written stays behind a failed change
            throw e;
        }
        journalBytes += buffer.limit();
    }

    synchronized long journalBytes() {
        return journalBytes;
    }

    /**
     * Writes the items into {@code index.json} and deletes the journal segments it then holds. Writers go on
     * meanwhile, into the next segment.
     */
    void fold() throws IOException {
        folding.lock();
        try {
            Snapshot snapshot;
            VectraCodec.Header written;
            int last;
            synchronized (this) {
                if (closed || journalBytes == 0) {
                    return;
                }
                snapshot = snapshot();
                written = header;
                last = segment;
                closeJournal();
                segment++;
                journalBytes = 0;
            }
            try {
                Files.createDirectories(folder);
                AtomicFiles.write(folder.resolve(INDEX), channel -> {
                    BufferedOutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), 1 << 16);
                    VectraCodec.write(out, written, snapshot.items(), snapshot.size());
                    out.flush();
                });
            } catch (IOException | UncheckedIOException e) {
                synchronized (this) {
                    journalBytes = Math.max(journalBytes, 1); // still to fold
                }
                throw e;
            }
            for (int n : segments(folder)) {
                if (n <= last) {
                    Files.deleteIfExists(folder.resolve(segmentName(n)));
                }
            }
            AtomicFiles.syncFolder(folder);
        } finally {
            folding.unlock();
        }
    }

    /** Stops taking changes (before the folder is deleted, or when the index leaves memory). */
    synchronized void close() {
        closed = true;
        closeJournal();
    }

    private void closeJournal() {
        if (journal != null) {
            try {
                journal.close();
            } catch (IOException e) {
                LOG.warn("Cannot close the vector journal in {}: {}", folder, e.getMessage());
            }
            journal = null;
        }
    }

    private static String segmentName(int n) {
        return "journal." + n + ".jsonl";
    }

    private static List<Integer> segments(Path folder) throws IOException {
        List<Integer> found = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return found;
        }
        try (Stream<Path> files = Files.list(folder)) {
            files.forEach(file -> {
                Matcher m = SEGMENT.matcher(file.getFileName().toString());
                if (m.matches()) {
                    found.add(Integer.parseInt(m.group(1)));
                }
            });
        }
        found.sort(null);
        return found;
    }
}
