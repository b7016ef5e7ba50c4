package tankard.character;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a user's character cards live, keyed by (user handle, card file name). Names reaching a store are
 * already validated single path segments. Blocking: call from worker threads.
 */
public interface CardStore {
    /** Every card ({@code *.png}, case-sensitive) of the user, in no particular order. */
    List<CardFile> list(String user) throws IOException;

    Optional<CardFile> find(String user, String name) throws IOException;

    /** The card file's bytes; {@link java.nio.file.NoSuchFileException} when it is gone. */
    byte[] read(String user, String name) throws IOException;

    /** Replaces (or creates) the card file atomically. */
    void write(String user, String name, byte[] content) throws IOException;

    /**
     * Stores a new card file atomically; false (nothing written) when the name is taken, also by a writer at the
     * same moment, on this node or another: what allocating a name for a new card relies on.
     */
    boolean create(String user, String name, byte[] content) throws IOException;

    /**
     * Stores the card with the times of {@code entry} (its modification time, and where the store can set it, the
     * status change time ST reports as {@code date_added}): how data moving between stores keeps them.
     */
    void restore(String user, CardFile entry, byte[] content) throws IOException;

    /** Removes every card of the user. */
    default void deleteAll(String user) throws IOException {
        for (CardFile card : list(user)) {
            delete(user, card.name());
        }
    }

    /** Removes the card file; false when there was none. */
    boolean delete(String user, String name) throws IOException;

    /**
     * The card's JSON text as its file holds it (decoded from base64, not from UTF-8), reading as little of the
     * file as the format allows.
     */
    byte[] readCardText(String user, String name) throws IOException;

    /**
     * The card texts of these cards ({@link #readCardText}), by name; a card that is gone or whose text cannot be
     * read this way is left out (read it alone to learn why). Null where the store reads a card as cheaply alone
     * as in a batch (files, read in parallel by the parsers): only a store behind a network answers.
     */
    default Map<String, byte[]> readCardTexts(String user, List<String> names) throws IOException {
        return null;
    }

    /** The card in the file, parsed. */
    default CardData readCard(String user, String name) throws IOException {
        return CardCodec.readJson(readCardText(user, name));
    }
}
