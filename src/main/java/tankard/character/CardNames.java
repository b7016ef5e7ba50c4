package tankard.character;

import tankard.util.SafeNames;
import tankard.util.Sanitize;

import java.io.IOException;

/** Card file naming shared by every writer of new cards (editor, rename, import). */
final class CardNames {
    /** How many numbered names ST tries before giving up and reusing the plain one. */
    private static final int NAME_TRIES = 10_000;

    /** Whether a card with this internal name (file name without {@code .png}) exists. */
    @FunctionalInterface
    interface Taken {
        boolean test(String internalName) throws IOException;
    }

    /**
     * Held by every writer of new cards (editor, rename, duplicate, import) from choosing a free file name until
     * that file exists, so that two requests never pick the same one: they get the next names, as in ST, whose
     * single thread runs them one after the other.
     */
    static final Object ALLOCATION = new Object();

    private CardNames() {
    }

    /**
     * ST's getPngName: the sanitized name, else the name with 1, 2, … appended, else the name again.
     * {@link CardFormatException} when nothing of the name survives sanitizing; a 400 when the file name would be
     * too long for the file system, where ST's write fails (500).
     */
    static String unique(String name, Taken taken) throws IOException {
        String base = sanitized(name);
        for (int i = 0; i < NAME_TRIES; i++) {
            String candidate = i == 0 ? base : base + i;
            SafeNames.requireFits(candidate + ".png", "character name"); // before the lookup, which it would fail
            if (!taken.test(candidate)) {
                return candidate;
            }
        }
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
