package tankard.character;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * The list entries of card files in file order: those the index knows at once, the others parsed by a pool a
 * window ahead of the reader. A first list is thus written while its cards are parsed on every core, with no
 * more than a window of parsed entries waiting, and a reader that stops early leaves at most a window of parses
 * behind (their entries still reach the index). One reader.
 */
final class ParsedInOrder {
    private final List<CardFile> files;
    private final List<CardIndex.Entry> known;
    private final Function<CardFile, Future<CardIndex.Entry>> parse;
    private final int window;
    /** The parses started and not read yet, in file order. */
    private final Deque<Future<CardIndex.Entry>> pending = new ArrayDeque<>();
    private int started;

    /**
     * @param known per file, its entry from the index, or null when it must be parsed
     * @param parse starts the parse of a card file into its entry (or joins one under way)
     */
    ParsedInOrder(List<CardFile> files, List<CardIndex.Entry> known, Function<CardFile, Future<CardIndex.Entry>> parse,
                  int window) {
        this.files = files;
        this.known = known;
        this.parse = parse;
        this.window = window;
    }

    /** The entry of the i-th file; i goes up by one from 0, call after call. */
    CardIndex.Entry get(int i) throws IOException {
        for (; started < files.size() && started <= i + window; started++) {
            if (known.get(started) == null) {
                pending.add(parse.apply(files.get(started)));
            }
        }
        CardIndex.Entry entry = known.get(i);
        return entry != null ? entry : await(pending.remove());
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
