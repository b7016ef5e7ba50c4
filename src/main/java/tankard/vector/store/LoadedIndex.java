package tankard.vector.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.core.Refusal;
import tankard.store.AtomicFiles;
import tankard.store.FileTimes;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One index in memory, with its journal. What a query scans stays in memory as columns: each vector quantized to
 * one byte per dimension (with its scale), its norm and its hash. Ids, metadata and full vectors wait in a
 * {@link Scratch} file for the few items a query returns or rescores (see {@link Similarity}), so 100,000 items of
 * 384 dimensions take about 45 MB rather than 250. The columns only grow at their end (a delete makes new ones), so
 * a query reads a snapshot without a lock while writers go on. Each change is one line appended to a journal segment
 * ({@code journal.<n>.jsonl}) and flushed to disk before it is acknowledged: an insert costs its own size, not the
 * index's. {@link #fold()} writes the items into {@code index.json} (temp file, fsync, rename) and then deletes the
 * segments it holds; after a clean stop the index alone holds everything, as ST expects. A crash between the two
 * replays segments whose changes the index already has: adding an item whose id is there is skipped, and the
 * deletes repeat to the same end, so replaying is harmless.
 * <p>
 * The index keeps the stat (size, times) of the {@code index.json} it read or wrote last. Before each use and
 * before a fold, an {@code index.json} whose stat is another (restored from a backup, edited, damaged by hand while
 * Tankard runs) is read again with the journal replayed on it, as a restart would read it, rather than answered from
 * memory and written over.
 */
final class LoadedIndex {
    private static final Logger LOG = LoggerFactory.getLogger(LoadedIndex.class);
    static final String INDEX = "index.json";
    private static final Pattern SEGMENT = Pattern.compile("journal\\.(\\d+)\\.jsonl");
    /** The heap an item takes besides its codes: scale, norm, record position and length, hash node. */
    private static final int ITEM_BYTES = 4 + 8 + 8 + 4 + 4 + 16;

    final Path folder;
    /** Held while {@link #fold()} writes the index, and by whoever deletes the folder. */
    final ReentrantLock folding = new ReentrantLock();
    private final Scratch scratch;

    // guarded by this
    private VectraCodec.Header header = VectraCodec.Header.EMPTY;
    private Columns columns = Columns.EMPTY;
    private int segment;
    private FileChannel journal;
    private long journalBytes;
    private boolean closed;
    /** The stat of the {@code index.json} last read or written (null: there was none); read without a lock. */
    private volatile FileTimes.Stat onDisk;
    /** Guarded by itself, not by this: a query never waits for a write's fsync. */
    private final Answers answers = new Answers();

    private LoadedIndex(Path folder, Scratch scratch) {
        this.folder = folder;
        this.scratch = scratch;
    }

    /**
     * The items as columns. Item {@code i}'s codes are {@code dimensions} bytes of block {@code i / BLOCK}, from
     * {@code (i % BLOCK)·dimensions}: blocks of a fixed size, so the codes grow without copies and without room to
     * spare. A scale that is NaN marks an item the codes do not describe (its vector has another length, or no
     * finite largest component): queries always score it exactly.
     */
    private record Columns(int size, int dimensions, byte[][] codes, float[] scales, double[] norms, long[] records,
                   int[] recordLengths, JsonNode[] hashes) {
        static final int BLOCK_BITS = 10;
        static final int BLOCK = 1 << BLOCK_BITS;
        static final Columns EMPTY = new Columns(0, 0, new byte[0][], new float[0], new double[0], new long[0],
                new int[0], new JsonNode[0]);

        /** Room for one more at the end: these arrays when there is, else new ones (blocks are shared). */
        Columns roomForOne(int dimensionsOfNext) {
            int dims = size == 0 ? dimensionsOfNext : dimensions;
            boolean roomy = size < scales.length && (size >> BLOCK_BITS) < codes.length && dims == dimensions;
            if (roomy) {
                return this;
            }
            byte[][] blocks = dims == dimensions ? codes : new byte[0][];
            if ((size >> BLOCK_BITS) >= blocks.length) {
                blocks = Arrays.copyOf(blocks, blocks.length + 1);
                blocks[blocks.length - 1] = new byte[BLOCK * dims];
            }
            int capacity = size < scales.length ? scales.length : Math.max(16, scales.length * 2);
            return new Columns(size, dims, blocks, Arrays.copyOf(scales, capacity), Arrays.copyOf(norms, capacity),
                    Arrays.copyOf(records, capacity), Arrays.copyOf(recordLengths, capacity),
                    Arrays.copyOf(hashes, capacity));
        }

        Columns withSize(int newSize) {
            return new Columns(newSize, dimensions, codes, scales, norms, records, recordLengths, hashes);
        }

        /** The first {@code count} items only, without the blocks past them. */
        Columns cutTo(int count) {
            Arrays.fill(hashes, count, size, null);
            byte[][] blocks = Arrays.copyOf(codes, (count + BLOCK - 1) >> BLOCK_BITS);
            return new Columns(count, count == 0 ? 0 : dimensions, blocks, scales, norms, records, recordLengths,
                    hashes);
        }

        byte[] block(int i) {
            return codes[i >> BLOCK_BITS];
        }

        int offset(int i) {
            return (i & (BLOCK - 1)) * dimensions;
        }

        /** Quantizes the vector into row {@code i}: the largest component becomes ±127. */
        void set(int i, VectorItem item, long record, int recordLength) {
            float[] vector = item.vector();
            float largest = 0;
            for (float v : vector) {
                largest = Math.max(largest, Math.abs(v));
            }
            float scale = largest / 127;
            boolean described = vector.length == dimensions && Float.isFinite(scale);
            scales[i] = described ? scale : Float.NaN;
            byte[] block = block(i);
            int row = offset(i);
            for (int j = 0; j < dimensions; j++) {
                block[row + j] = described && scale > 0 ? (byte) Math.round(vector[j] / scale) : 0;
            }
            norms[i] = item.norm();
            records[i] = record;
            recordLengths[i] = recordLength;
            hashes[i] = item.hash();
        }

        /** Moves row {@code from} to row {@code to} (a delete closing the gaps, {@code to < from}). */
        void move(int from, int to) {
            System.arraycopy(block(from), offset(from), block(to), offset(to), dimensions);
            scales[to] = scales[from];
            norms[to] = norms[from];
            records[to] = records[from];
            recordLengths[to] = recordLengths[from];
            hashes[to] = hashes[from];
        }

        /** A copy to change while readers of this one go on. */
        Columns copy() {
            byte[][] blocks = new byte[codes.length][];
            for (int b = 0; b < blocks.length; b++) {
                blocks[b] = codes[b].clone();
            }
            return new Columns(size, dimensions, blocks, scales.clone(), norms.clone(), records.clone(),
                    recordLengths.clone(), hashes.clone());
        }
    }

    /** A read-only view of the items at one moment. */
    final class Snapshot {
        private final Columns columns;

        private Snapshot(Columns columns) {
            this.columns = columns;
        }

        int size() {
            return columns.size();
        }

        int dimensions() {
            return columns.dimensions();
        }

        /** The block of codes that holds item {@code i}'s. */
        byte[] block(int i) {
            return columns.block(i);
        }

        /** Where in its block item {@code i}'s codes start. */
        int offset(int i) {
            return columns.offset(i);
        }

        float scale(int i) {
            return columns.scales()[i];
        }

        double norm(int i) {
            return columns.norms()[i];
        }

        /** Every item's hash as stored, in order: the same list while the items are the same. */
        List<JsonNode> hashes() {
            return hashesOf(columns);
        }

        /** {@link Similarity#top}, kept for a few vectors while the items are the same. */
        List<Match> top(float[] query, int topK) throws IOException {
            return topOf(this, query, topK);
        }

        /** The item's full vector, from the scratch file. */
        float[] vector(int i) throws IOException {
            return scratch.vector(columns.records()[i], columns.recordLengths()[i]);
        }

        /** The whole item, from the scratch file. */
        VectorItem item(int i) throws IOException {
            return scratch.item(columns.records()[i], columns.recordLengths()[i], columns.norms()[i]);
        }
    }

    /**
     * An index that lives in memory only, without a folder or a journal: what a store that keeps the items elsewhere
     * (PostgreSQL) loads them into with {@link #add} and changes with {@link #add} and {@link #remove} once they are
     * stored there.
     */
    static LoadedIndex inMemory(Path scratchFolder) throws IOException {
        return new LoadedIndex(null, Scratch.create(scratchFolder));
    }

    /** Adds the items at the end, as they are stored elsewhere (no journal, no dimension check). */
    synchronized void add(List<VectorItem> items) throws IOException {
        if (closed) {
            throw Refusal.unavailable("The vector index is being deleted or closed; try again");
        }
        for (VectorItem item : items) {
            append(item);
        }
    }

    /** Removes the items whose hash is one of these, as they were deleted elsewhere (no journal). */
    synchronized void remove(Set<Double> hashes) throws IOException {
        if (closed) {
            throw Refusal.unavailable("The vector index is being deleted or closed; try again");
        }
        removeAll(hashes, false);
    }

    /** Reads the index and replays its journal; a folder without one is an empty index. */
    static LoadedIndex load(Path folder, Path scratchFolder) throws IOException {
        LoadedIndex index = new LoadedIndex(folder, Scratch.create(scratchFolder));
        try {
            synchronized (index) {
                if (Files.isDirectory(folder)) { // what a fold cut short by a crash left
                    AtomicFiles.deleteStaleTemps(folder.resolve(INDEX), Duration.ZERO);
                }
                index.read();
            }
            return index;
        } catch (IOException | RuntimeException e) {
            index.scratch.close();
            throw e;
        }
    }

    /** Reads the index and replays its journal into this, empty. Under this. */
    private void read() throws IOException {
        List<Integer> segments = segments(folder);
        Set<String> ids = segments.isEmpty() ? null : new HashSet<>(); // only replay needs them
        readIndex(ids);
        for (int n : segments) {
            Path file = folder.resolve(segmentName(n));
            replay(file, ids);
            journalBytes += Math.max(1, Files.size(file)); // a fold writes what replay gave
        }
        segment = segments.isEmpty() ? 0 : segments.get(segments.size() - 1) + 1;
    }

    /** The stat of {@code index.json}; null when there is none. */
    private FileTimes.Stat stat() throws IOException {
        try {
            return FileTimes.stat(folder.resolve(INDEX));
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    /**
     * Reads {@code index.json} and the journal again when the file is not the one this index read or wrote last
     * (one stat when it is). Blocking; waits for a fold under way only when the file changed.
     */
    void refresh() throws IOException {
        if (folder == null || Objects.equals(stat(), onDisk)) {
            return;
        }
        folding.lock();
        try {
            synchronized (this) {
                reloadIfChanged();
            }
        } finally {
            folding.unlock();
        }
    }

    /** {@link #refresh}'s work, under this and the fold lock. */
    private void reloadIfChanged() throws IOException {
        FileTimes.Stat now = stat();
        if (closed || Objects.equals(now, onDisk)) {
            return;
        }
        LOG.info("The vector index {} changed on disk; reading it again", folder.resolve(INDEX));
        closeJournal();
        columns = Columns.EMPTY; // readers of the old columns go on: their records stay in the scratch file
        header = VectraCodec.Header.EMPTY;
        journalBytes = 0;
        read();
    }

    private void readIndex(Set<String> ids) throws IOException {
        Path file = folder.resolve(INDEX);
        onDisk = stat(); // before reading: a change made meanwhile is noticed at the next use
        try (InputStream in = Files.newInputStream(file)) {
            header = VectraCodec.read(in, item -> {
                try {
                    append(item);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                if (ids != null) {
                    ids.add(item.id());
                }
            });
        } catch (NoSuchFileException e) {
            // a new index
        } catch (UncheckedIOException e) {
            throw e.getCause(); // the scratch file, not the index
        } catch (IOException e) {
            // Tankard never leaves an index half-written; this one came from elsewhere. Keep it for the user to
            // look at, rather than deleting it as ST does.
            Path aside = folder.resolve(INDEX + ".unreadable-" + System.currentTimeMillis());
            LOG.warn("The vector index {} cannot be read ({}); moved to {} and starting it empty", file,
                    e.getMessage(), aside.getFileName());
            columns = Columns.EMPTY;
            header = VectraCodec.Header.EMPTY;
            if (ids != null) {
                ids.clear();
            }
            Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
            onDisk = null;
        }
    }

    /** Applies a segment's lines; a torn last line (a write that was never acknowledged) is cut off. */
    private void replay(Path file, Set<String> ids) throws IOException {
        byte[] content = Files.readAllBytes(file);
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

    /** Applies one journal line; false when it is not a whole change. */
    private boolean applyLine(byte[] content, int offset, int length, Set<String> ids) throws IOException {
        String op;
        List<VectorItem> added = new ArrayList<>();
        Set<Double> deleted = new HashSet<>();
        try (JsonParser parser = VectraCodec.parser(content, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT || parser.nextToken() != JsonToken.FIELD_NAME) {
                return false;
            }
            op = parser.currentName();
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                return false;
            }
            if (op.equals("add")) {
                while (parser.nextToken() == JsonToken.START_OBJECT) {
                    added.add(VectraCodec.item(parser));
                }
            } else if (op.equals("delete")) {
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    deleted.add(parser.getDoubleValue());
                }
            } else {
                return false;
            }
        } catch (IOException e) {
            return false;
        }
        for (VectorItem item : added) {
            if (ids.add(item.id())) {
                append(item);
            }
        }
        for (VectorItem removed : removeAll(deleted, true)) {
            ids.remove(removed.id());
        }
        return true;
    }

    private void append(VectorItem item) throws IOException {
        long record = scratch.end();
        addRow(item, record, scratch.append(item));
    }

    private void addRow(VectorItem item, long record, int recordLength) {
        Columns room = columns.roomForOne(item.vector().length);
        room.set(room.size(), item, record, recordLength);
        columns = room.withSize(room.size() + 1);
    }

    /** Removes the items whose hash is one of these; the removed ones, when asked (read back from the scratch). */
    private List<VectorItem> removeAll(Set<Double> hashes, boolean wanted) throws IOException {
        List<VectorItem> removed = new ArrayList<>();
        if (hashes.isEmpty()) {
            return removed;
        }
        Snapshot before = new Snapshot(columns);
        Columns kept = columns.copy(); // readers of the old snapshot go on undisturbed
        int count = 0;
        for (int i = 0; i < kept.size(); i++) {
            if (!matches(kept.hashes()[i], hashes)) {
                kept.move(i, count++);
            } else if (wanted) {
                removed.add(before.item(i));
            }
        }
        columns = kept.cutTo(count);
        return removed;
    }

    /** Vectra's {@code $in} on {@code metadata.hash}: only a stored number equal to one of them. */
    private static boolean matches(JsonNode hash, Set<Double> hashes) {
        return hash != null && hash.isNumber() && hashes.contains(hash.asDouble());
    }

    /**
     * What was answered for the items as they are now: the prompts of a long chat list the collection's hashes and
     * search it with the same text again at each regeneration and swipe. A change makes new columns, so nothing
     * answered before it is reused.
     */
    private static final class Answers {
        private static final int QUERIES_KEPT = 8;
        private Columns of;
        private List<JsonNode> hashes;
        private final List<Query> queries = new ArrayList<>();

        /** Forgets what was answered for other columns. */
        void at(Columns columns) {
            if (of != columns) {
                of = columns;
                hashes = null;
                queries.clear();
            }
        }
    }

    /** A query vector (the same array, as the search texts' vectors are kept) and its matches. */
    private record Query(float[] vector, int topK, List<Match> matches) {
    }

    private List<JsonNode> hashesOf(Columns of) {
        synchronized (answers) {
            if (answers.of == of && answers.hashes != null) {
                return answers.hashes;
            }
        }
        List<JsonNode> hashes = Collections.unmodifiableList(Arrays.asList(Arrays.copyOf(of.hashes(), of.size())));
        synchronized (answers) {
            answers.at(of);
            answers.hashes = hashes;
        }
        return hashes;
    }

    private List<Match> topOf(Snapshot snapshot, float[] vector, int topK) throws IOException {
        Columns of = snapshot.columns;
        synchronized (answers) {
            if (answers.of == of) {
                for (Query query : answers.queries) {
                    if (query.vector() == vector && query.topK() == topK) {
                        return query.matches();
                    }
                }
            }
        }
        List<Match> matches = List.copyOf(Similarity.top(snapshot, vector, topK));
        synchronized (answers) {
            answers.at(of);
            answers.queries.add(new Query(vector, topK, matches));
            if (answers.queries.size() > Answers.QUERIES_KEPT) {
                answers.queries.remove(0);
            }
        }
        return matches;
    }

    synchronized Snapshot snapshot() {
        return new Snapshot(columns);
    }

    /** Roughly what the index holds on the heap, for the memory budget. */
    synchronized long bytes() {
        return (long) columns.codes().length * Columns.BLOCK * columns.dimensions()
                + (long) columns.scales().length * ITEM_BYTES;
    }

    synchronized boolean closed() {
        return closed;
    }

    /** Whether queries and folds can still read the items' records. */
    boolean readable() {
        return scratch.open();
    }

    /** Adds the items after their journal line is on disk. */
    synchronized void insert(List<VectorItem> added) throws IOException {
        int length = added.get(0).vector().length;
        int dimensions = columns.dimensions();
        if (dimensions != 0 && length != dimensions) {
            throw Refusal.badRequest("This collection holds vectors of " + dimensions + " dimensions, the new ones "
                    + "have " + length + ": the embedding model changed; purge the collection and vectorize it again");
        }
        // the records first: when the scratch file fails, nothing is in the journal yet
        long[] records = new long[added.size()];
        int[] lengths = new int[added.size()];
        for (int i = 0; i < records.length; i++) {
            records[i] = scratch.end();
            lengths[i] = scratch.append(added.get(i));
        }
        log(json -> VectraCodec.writeAdd(json, added));
        for (int i = 0; i < records.length; i++) {
            addRow(added.get(i), records[i], lengths[i]);
        }
    }

    synchronized void delete(Set<Double> hashes) throws IOException {
        boolean any = false;
        for (int i = 0; i < columns.size() && !any; i++) {
            any = matches(columns.hashes()[i], hashes);
        }
        if (any) {
            log(json -> VectraCodec.writeDelete(json, hashes));
            removeAll(hashes, false);
        }
    }

    @FunctionalInterface
    private interface Line {
        void write(JsonGenerator json) throws IOException;
    }

    /** Appends one line to the journal and flushes it to the disk; a batch of any size goes out as it is written. */
    private void log(Line line) throws IOException {
        if (closed) {
            throw Refusal.unavailable("The vector index is being deleted or closed; try again");
        }
        if (journal == null) {
            Files.createDirectories(folder);
            boolean fresh = !Files.exists(folder.resolve(INDEX));
            journal = FileChannel.open(folder.resolve(segmentName(segment)), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            AtomicFiles.syncFolder(folder);
            if (fresh) { // as ST, a new index is there at once (written empty), so ST sees the collection
                AtomicFiles.write(folder.resolve(INDEX), VectraCodec.EMPTY_INDEX);
                onDisk = stat();
            }
        }
        long position = journal.size();
        try {
            OutputStream out = new BufferedOutputStream(Channels.newOutputStream(journal), 1 << 16);
            try (JsonGenerator json = VectraCodec.generator(out)) { // leaves the journal open
                line.write(json);
            }
            out.write('\n');
            out.flush();
            journal.force(false);
        } catch (IOException | RuntimeException e) {
            journal.truncate(position); // nothing half-written stays behind a failed change
            throw e;
        }
        journalBytes += journal.size() - position;
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
                reloadIfChanged(); // never over a file changed on disk: what it holds, with the journal on it
                if (journalBytes == 0) {
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
                    VectraCodec.write(out, written, snapshot.size(), snapshot::item);
                    out.flush();
                });
                onDisk = stat();
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
        try {
            scratch.close();
        } catch (IOException e) {
            LOG.warn("Cannot close the vector scratch file of {}: {}", folder, e.getMessage());
        }
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

    /** Whether a file name is that of a journal segment. */
    static boolean isSegmentName(String name) {
        return SEGMENT.matcher(name).matches();
    }

    static String segmentName(int n) {
        return "journal." + n + ".jsonl";
    }

    static List<Integer> segments(Path folder) throws IOException {
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
