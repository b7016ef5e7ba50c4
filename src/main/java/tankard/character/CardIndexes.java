package tankard.character;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The users' card indexes, loaded on a user's first list, saved a moment after a list found changes (so a burst
 * of lists writes once). They live in {@code <data root>/_cache/tankard-cards/<handle>.idx}: a disposable
 * cache that ST ignores; deleting it only costs one re-parse.
 */
public final class CardIndexes {
    private static final long SAVE_DELAY_MS = 1000;

    private final Path folder;
    private final AtomicLong budget;
    private final ScheduledExecutorService saver;
    private final Map<String, CardIndex> indexes = new ConcurrentHashMap<>();
    private final Map<CardIndex, Boolean> pendingSaves = new ConcurrentHashMap<>();

    /**
     * @param memoryBytes the heap budget for full list entries shared by all users
     *                    ({@code performance.memoryCacheCapacity}); entries beyond it are read from disk
     * @param saver       a single-threaded timer for the saves
     */
    public CardIndexes(Path dataRoot, long memoryBytes, ScheduledExecutorService saver) {
        this.folder = dataRoot.resolve("_cache").resolve("tankard-cards");
        this.budget = new AtomicLong(memoryBytes);
        this.saver = saver;
    }

    CardIndex of(String user) {
        return indexes.computeIfAbsent(user, handle -> {
            try {
                return new CardIndex(CardIndex.fileFor(folder, handle), budget);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    void saveLater(CardIndex index) {
        if (pendingSaves.putIfAbsent(index, Boolean.TRUE) == null) {
            saver.schedule(() -> {
                pendingSaves.remove(index);
                index.save();
            }, SAVE_DELAY_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** Saves now what waits to be saved: at shutdown, so that the next start does not parse those cards again. */
    public void savePending() {
        for (CardIndex index : pendingSaves.keySet()) {
            pendingSaves.remove(index);
            index.save();
        }
    }
}
