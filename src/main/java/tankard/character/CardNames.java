package tankard.character;

import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.io.IOException;

/** Card file naming shared by every writer of new cards (editor, rename, import). */
final class CardNames {
    /** How many numbered names ST tries before giving up and reusing the plain one. */
    private static final int NAME_TRIES = 10_000;

    private CardNames() {
    }

    /**
     * ST's getPngName made one step with the write: stores a new card of the user under the sanitized name, else
     * the name with 1, 2, … appended, the first that is free; when every try is taken, over the plain name, as ST.
     * Each try is the store's atomic create, so two writers, on one node or two, never take the same name.
     * Answers the internal name (the file name without {@code .png}). {@link CardFormatException} when nothing of
     * the name survives sanitizing; a 400 when the file name would be too long for the file system, where ST's
     * write fails (500).
     */
    static String claim(String name, CardStore cards, String user, byte[] content) throws IOException {
        String base = sanitized(name);
        for (int i = 0; i < NAME_TRIES; i++) {
            String candidate = i == 0 ? base : base + i;
            SafeNames.requireFits(candidate + ".png", "character name"); // before the store, which it would fail
            if (cards.create(user, candidate + ".png", content)) {
                return candidate;
            }
        }
        cards.write(user, base + ".png", content);
        return base;
    }

    /** The name sanitized as a file name; {@link CardFormatException} when nothing of it survives. */
    static String sanitized(String name) {
        String sanitized = Sanitize.filename(name);
        if (sanitized.isEmpty()) {
            throw new CardFormatException("The card's name is empty or not usable as a file name");
        }
        return sanitized;
    }

    /** Node's {@code path.parse(name).name}: the name without its last extension (a leading dot is no extension). */
    static String baseName(String name) {
        int dot = name.lastIndexOf('.');
        return dot <= 0 ? name : name.substring(0, dot);
    }
}
