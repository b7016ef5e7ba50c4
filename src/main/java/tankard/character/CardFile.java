package tankard.character;

/**
 * A stored card: its file name (the character's key, {@code avatar}) and the stat values ST reports.
 *
 * @param modifiedMs last modification, epoch ms with fraction (cache version)
 * @param changedMs  status change time, epoch ms with fraction: ST's {@code date_added}
 */
public record CardFile(String name, long size, double modifiedMs, double changedMs) {
    /** Whether a file of {@code characters/} is a card: a name ending in {@code .png}, case-sensitive, as ST's glob. */
    public static boolean isCardName(String name) {
        return name.endsWith(".png");
    }

    CardCache.Key key(String user) {
        return new CardCache.Key(user, name, modifiedMs, size);
    }
}
