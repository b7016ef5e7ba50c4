package tankard.character;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The list entries of card files in file order: those the index knows at once, the others parsed by a pool a
 * window ahead of the reader. A first list is thus written while its cards are parsed on every core, with no
 * more than a window of parsed entries waiting. Each parsed entry is handed on (to the index) when it is read.
 * One reader; {@link #close()} cancels the parses not read.
 */
final class ParsedInOrder implements AutoCloseable {
    private final List<CardFile> files;
    private final List<CardIndex.Entry> known;
    private final Function<CardFile, CardIndex.Entry> parse;
    private final ExecutorService pool;
    private final Consumer<CardIndex.Entry> parsed;
    private final int window;
    /** The parses submitted and not read yet, in file order. */
    private final Deque<Future<CardIndex.Entry>> pending = new ArrayDeque<>();
    private int submitted;

    /**
     * @param known  per file, its entry from the index, or null when it must be parsed
     * @param parse  reads a card file into its entry; runs on the pool
     * @param parsed takes each parsed entry, in file order, as it is read
     */
    ParsedInOrder(List<CardFile> files, List<CardIndex.Entry> known, Function<CardFile, CardIndex.Entry> parse,
                  ExecutorService pool, Consumer<CardIndex.Entry> parsed, int window) {
        this.files = files;
        this.known = known;
        this.parse = parse;
        this.pool = pool;
        this.parsed = parsed;
        this.window = window;
    }

    /** The entry of the i-th file; i goes up by one from 0, call after call. */
    CardIndex.Entry get(int i) throws IOException {
        for (; submitted < files.size() && submitted <= i + window; submitted++) {
            if (known.get(submitted) == null) {
                CardFile file = files.get(submitted);
                pending.add(pool.submit(() -> parse.apply(file)));
            }
        }
        CardIndex.Entry entry = known.get(i);
        if (entry == null) {
            entry = await(pending.remove());
            parsed.accept(entry);
        }
        return entry;
    }

    @Override
    public void close() {
        pending.forEach(future -> future.cancel(false));
        pending.clear();
    }

    private static CardIndex.Entry await(Future<CardIndex.Entry> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while reading cards", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        }
    }
}
