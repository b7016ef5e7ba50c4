package tankard.character;

import tankard.store.AtomicFiles;
import tankard.store.FileTimes;
import tankard.user.UserDirs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A card's PNG as a file of this node, for what sends or reads files (the {@code /characters/} route, thumbnails):
 * on the file store the card file itself; on a store elsewhere (the database) a copy under the data root's
 * {@code _cache/tankard-card-images}, taken again whenever the card's stored time or size is not the copy's. The
 * copy is a cache only: the store's version decides what is sent. Blocking.
 */
public final class CardImages {
    /** The data root's folder of copies (a node's own scratch, never moved with the data). */
    public static final String CACHE_FOLDER = "_cache/tankard-card-images";

    private final CardStore cards;
    private final Path dataRoot;
    private final boolean storeIsFiles;

    /** @param storeIsFiles whether the cards are the data root's files themselves (the file store) */
    public CardImages(CardStore cards, Path dataRoot, boolean storeIsFiles) {
        this.cards = cards;
        this.dataRoot = dataRoot;
        this.storeIsFiles = storeIsFiles;
    }

    /**
     * The file of the user's card of that name (a plain file name); a missing file when there is no such card. A
     * name that is no card's ({@link CardFile#isCardName}) is the file of that name in {@code characters/}.
     */
    public Path file(String user, String name) throws IOException {
        if (storeIsFiles || !CardFile.isCardName(name)) {
            return UserDirs.of(dataRoot, user).characters().resolve(name);
        }
        Path copy = dataRoot.resolve(CACHE_FOLDER).resolve(user).resolve(name);
        Optional<CardFile> card = cards.find(user, name);
        if (card.isEmpty()) {
            Files.deleteIfExists(copy);
            return copy;
        }
        if (!FileTimes.isCopy(copy, card.get().size(), card.get().modifiedMs())) {
            byte[] bytes;
            try {
                bytes = cards.read(user, name);
            } catch (NoSuchFileException deletedMeanwhile) {
                Files.deleteIfExists(copy);
                return copy;
            }
            Files.createDirectories(copy.getParent());
            AtomicFiles.write(copy, bytes);
            // A card changed between its stat and its read is copied again at the next look, its time differing.
            Files.setLastModifiedTime(copy, FileTimes.stamp(card.get().modifiedMs()));
        }
        return copy;
    }
}
