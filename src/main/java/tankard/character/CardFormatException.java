package tankard.character;

/** A card file whose data cannot be read (not a PNG, bad CRC, no card chunk, not JSON). */
public final class CardFormatException extends RuntimeException {
    public CardFormatException(String message) {
        super(message, null, false, false);
    }
}
