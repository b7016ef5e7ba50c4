package tankard.vector.store;

import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tankard.core.Refusal;
import tankard.store.AtomicFiles;
import tankard.store.FileTimes;
import tankard.user.UserDirs;
import tankard.util.Threads;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The vector store on disk in ST's layout: a Vectra {@code index.json} per index, kept in memory within a byte
 * budget, with a journal beside it (see {@link LoadedIndex}). Journals are folded into the index on a thread of
 * their own when the index has been idle for a while, when a journal grows large, and at shutdown. Each use first
 * reads an index again whose {@code index.json} changed on disk ({@link LoadedIndex#refresh}).
 */
public final class FileVectorStore implements VectorStore {
    private static final Logger LOG = LoggerFactory.getLogger(FileVectorStore.class);
    /** A journal this large is folded even while writes go on: about 2,000 items of 384 dimensions. */
    private static final long FOLD_BYTES = 16L << 20;

    private final Path dataRoot;
    private final long budgetBytes;
    private final long idleMillis;
    private final Path scratch;
    private final Map<Path, CompletableFuture<LoadedIndex>> loaded = new ConcurrentHashMap<>();
    private final Map<Path, Long> lastUse = new ConcurrentHashMap<>();
    private final Set<Path> foldScheduled = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor folder = Threads.timer("vector-fold");

    /**
     * @param dataRoot    the data root whose users' {@code vectors/} folders hold the indexes
     * @param budgetBytes how much of the heap loaded indexes may take before the least recently used leave memory
     * @param idleMillis  how long an index goes without changes before its journal is folded into it
     * @param scratch     where loaded indexes keep what is not in memory (see {@link Scratch}); Tankard's own
     */
    public FileVectorStore(Path dataRoot, long budgetBytes, long idleMillis, Path scratch) {
        this.dataRoot = dataRoot;
        this.budgetBytes = budgetBytes;
        this.idleMillis = idleMillis;
        this.scratch = scratch;
        Scratch.sweep(scratch);
        // close() lets a running fold finish and drops the waiting ones; it never interrupts one, since an
        // interrupt during a read closes the scratch file's channel for good
        folder.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    private Path vectors(String user) {
        return UserDirs.of(dataRoot, user).vectors();
    }

    @Override
    public void insert(String user, CollectionKey key, List<VectorItem> items) {
        if (items.isEmpty()) {
            return;
        }
        Path at = key.folder(vectors(user));
        write(at, index -> index.insert(items));
    }

    @Override
    public void delete(String user, CollectionKey key, Set<Double> hashes) {
        Path at = key.folder(vectors(user));
        if (hashes.isEmpty() || !Files.isDirectory(at)) {
            return;
        }
        write(at, index -> index.delete(hashes));
    }

    @FunctionalInterface
    private interface Change {
        void apply(LoadedIndex index) throws IOException;
    }

    private void write(Path at, Change change) {
        while (true) {
            LoadedIndex index = open(at);
            try {
                change.apply(index);
            } catch (ClosedChannelException e) {
                if (index.readable()) {
                    throw new UncheckedIOException("Cannot write the vector index in " + at, e);
                }
                evictIfClosed(at); // its scratch file is gone: read it again and retry
                continue;
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot write the vector index in " + at, e);
            } catch (Refusal refused) {
                if (index.closed() && refused.kind() == Refusal.Kind.UNAVAILABLE) {
                    continue; // it left memory meanwhile: open it again
                }
                throw refused;
            }
            scheduleFold(at, index);
            trim(at);
            return;
        }
    }

    @Override
    public List<Match> query(String user, CollectionKey key, float[] vector, int topK) {
        Path at = key.folder(vectors(user));
        if (!Files.isDirectory(at)) {
            return List.of();
        }
        for (int attempt = 0; ; attempt++) {
            LoadedIndex.Snapshot snapshot = open(at).snapshot();
            trim(at);
            if (snapshot.size() == 0) {
                return List.of();
            }
            Similarity.checkDimensions(snapshot, vector);
            try {
                return snapshot.top(vector, topK);
            } catch (ClosedChannelException e) {
                if (attempt == 2) {
                    throw Refusal.unavailable("The vector index is being deleted or closed; try again");
                }
                evictIfClosed(at); // it left memory meanwhile, or lost its scratch file: read it again
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the vector index in " + at, e);
            }
        }
    }

    @Override
    public List<JsonNode> hashes(String user, CollectionKey key) {
        Path at = key.folder(vectors(user));
        if (!Files.isDirectory(at)) {
            return List.of();
        }
        LoadedIndex.Snapshot snapshot = open(at).snapshot();
        return snapshot.hashes();
    }

    @Override
    public void purge(String user, List<String> sources, String collection) {
        for (String source : sources) {
            deleteFolder(vectors(user).resolve(source).resolve(collection));
        }
    }

    @Override
    public void purgeAll(String user, List<String> sources) {
        for (String source : sources) {
            deleteFolder(vectors(user).resolve(source));
        }
    }

    @Override
    public List<StoredIndex> indexes(String user) {
        Path vectors = vectors(user);
        List<StoredIndex> found = new ArrayList<>();
        if (!Files.isDirectory(vectors)) {
            return found;
        }
        try (Stream<Path> files = Files.walk(vectors, 4)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String path = CollectionKey.VECTORS_FOLDER + "/" + vectors.relativize(file).toString().replace('\\', '/');
                Optional<CollectionKey> key = CollectionKey.ofIndexPath(path);
                if (key.isEmpty() || !file.getFileName().toString().equals(CollectionKey.INDEX_FILE)
                        || !Files.isRegularFile(file)) {
                    continue;
                }
                foldPending(file.getParent());
                found.add(new StoredIndex(key.get(), FileTimes.stat(file).modifiedMs()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the vector indexes of " + user, e);
        }
        found.sort(Comparator.comparing((StoredIndex index) -> index.key().indexPath(),
                tankard.util.FileNames.BYTE_ORDER));
        return found;
    }

    @Override
    public Optional<InputStream> open(String user, CollectionKey key) {
        Path at = key.folder(vectors(user));
        foldPending(at);
        try {
            return Optional.of(Files.newInputStream(at.resolve(CollectionKey.INDEX_FILE)));
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the vector index in " + at, e);
        }
    }

    /** Writes what the index's journal holds into its {@code index.json} (a journal a crash left too). */
    private void foldPending(Path at) {
        try {
            if (loaded.containsKey(at) || !LoadedIndex.segments(at).isEmpty()) {
                open(at).fold();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot fold the vector journal into " + at, e);
        }
    }

    @Override
    public void restore(String user, CollectionKey key, IndexContent content, double modifiedMs) {
        Path at = key.folder(vectors(user));
        LoadedIndex index = unload(at);
        try {
            for (int n : LoadedIndex.segments(at)) {
                Files.deleteIfExists(at.resolve(LoadedIndex.segmentName(n)));
            }
            Files.createDirectories(at);
            Path file = at.resolve(CollectionKey.INDEX_FILE);
            AtomicFiles.write(file, channel -> {
                try (InputStream in = content.open()) {
                    in.transferTo(Channels.newOutputStream(channel));
                }
            });
            Files.setLastModifiedTime(file, FileTime.from(Math.round(modifiedMs * 1000), TimeUnit.MICROSECONDS));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the vector index in " + at, e);
        } finally {
            if (index != null) {
                index.folding.unlock();
            }
        }
    }

    /** Takes one index out of memory, waiting for its fold; it is returned with its fold lock held (null: none). */
    private LoadedIndex unload(Path at) {
        CompletableFuture<LoadedIndex> entry = loaded.remove(at);
        lastUse.remove(at);
        if (entry == null || entry.isCompletedExceptionally()) {
            return null;
        }
        LoadedIndex index = entry.join();
        index.folding.lock();
        index.close();
        return index;
    }

    /** Takes the indexes under the folder out of memory, waiting for any fold of theirs, and deletes it. */
    private void deleteFolder(Path root) {
        List<LoadedIndex> inside = new ArrayList<>();
        for (Path at : loaded.keySet()) {
            if (!at.startsWith(root)) {
                continue;
            }
            CompletableFuture<LoadedIndex> entry = loaded.remove(at);
            lastUse.remove(at);
            if (entry != null && !entry.isCompletedExceptionally()) {
                LoadedIndex index = entry.join(); // one still loading is waited for
                index.folding.lock();
                index.close();
                inside.add(index);
            }
        }
        try {
            AtomicFiles.deleteTree(root);
        } finally {
            inside.forEach(index -> index.folding.unlock());
        }
    }

    /** The index in memory, loading it first (once, however many ask at the same time). */
    private LoadedIndex open(Path at) {
        lastUse.put(at, System.nanoTime());
        CompletableFuture<LoadedIndex> mine = new CompletableFuture<>();
        CompletableFuture<LoadedIndex> existing = loaded.putIfAbsent(at, mine);
        if (existing != null) {
            LoadedIndex index;
            try {
                index = existing.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
            try {
                index.refresh(); // an index.json changed on disk meanwhile is read again
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the vector index in " + at, e);
            }
            return index;
        }
        try {
            LoadedIndex index = LoadedIndex.load(at, scratch);
            mine.complete(index);
            if (index.journalBytes() > 0) {
                scheduleFold(at, index); // what a crash left in the journal
            }
            return index;
        } catch (IOException | RuntimeException e) {
            loaded.remove(at, mine);
            UncheckedIOException failure = new UncheckedIOException("Cannot read the vector index in " + at,
                    e instanceof IOException io ? io : new IOException(e));
            mine.completeExceptionally(failure);
            throw failure;
        }
    }

    private void scheduleFold(Path at, LoadedIndex index) {
        long delay = index.journalBytes() >= FOLD_BYTES ? 0 : idleMillis;
        if (foldScheduled.add(at)) {
            folder.schedule(() -> foldWhenIdle(at, index), delay, TimeUnit.MILLISECONDS);
        }
    }

    private void foldWhenIdle(Path at, LoadedIndex index) {
        foldScheduled.remove(at);
        Long used = lastUse.get(at);
        boolean idle = used == null || System.nanoTime() - used >= TimeUnit.MILLISECONDS.toNanos(idleMillis);
        if (!idle && index.journalBytes() < FOLD_BYTES) {
            scheduleFold(at, index);
            return;
        }
        try {
            index.fold();
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("Cannot fold the vector journal into {} (it stays in the journal): {}", at, e.getMessage());
            evictIfClosed(at);
        }
    }

    /** Drops a loaded index whose scratch file is gone (its channel closed), so that the next use reads it again. */
    private void evictIfClosed(Path at) {
        CompletableFuture<LoadedIndex> entry = loaded.get(at);
        if (entry != null && entry.isDone() && !entry.isCompletedExceptionally() && !entry.join().readable()
                && loaded.remove(at, entry)) {
            entry.join().close();
        }
    }

    /** Lets the least recently used indexes leave memory while they take more than the budget. */
    private void trim(Path current) {
        long total = 0;
        for (CompletableFuture<LoadedIndex> index : loaded.values()) {
            total += index.isDone() && !index.isCompletedExceptionally() ? index.join().bytes() : 0;
        }
        if (total <= budgetBytes) {
            return;
        }
        List<Path> byAge = new ArrayList<>(loaded.keySet());
        byAge.sort(Comparator.comparingLong(at -> lastUse.getOrDefault(at, 0L)));
        for (Path at : byAge) {
            if (total <= budgetBytes) {
                break;
            }
            CompletableFuture<LoadedIndex> entry = loaded.get(at);
            if (at.equals(current) || entry == null || !entry.isDone() || entry.isCompletedExceptionally()) {
                continue;
            }
            LoadedIndex index = entry.join();
            if (index.journalBytes() > 0 || index.folding.isLocked()) {
                continue; // fold first; it leaves memory on a later pass
            }
            index.close();
            loaded.remove(at, entry);
            total -= index.bytes();
        }
    }

    @Override
    public void close() {
        folder.shutdown();
        try {
            folder.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (CompletableFuture<LoadedIndex> entry : loaded.values()) {
            if (!entry.isDone() || entry.isCompletedExceptionally()) {
                continue;
            }
            LoadedIndex index = entry.join();
            try {
                index.fold();
            } catch (IOException | UncheckedIOException e) {
                LOG.warn("Cannot fold the vector journal into {} at shutdown (it stays in the journal): {}",
                        index.folder, e.getMessage());
            }
            index.close();
        }
        loaded.clear();
    }
}
