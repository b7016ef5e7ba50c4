package tankard.character;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The card texts the parses of one list (or of the start-up preparation) need, read in batches in the list's
 * order where the store reads batches ({@link CardStore#readCardTexts}: the database), so that a first list of
 * 5,000 cards takes some twenty round trips, not 5,000; elsewhere, and for a card a batch left out, one card at a
 * time. Shared by the parser threads; a text is handed out once and then forgotten.
 */
final class CardTexts {
    static final int BATCH = 256;

    private final CardStore cards;
    private final String user;
    private final List<String> names;
    private final Map<String, Integer> batchOf = new HashMap<>();
    private final Map<Integer, Map<String, byte[]>> batches = new ConcurrentHashMap<>();

    /** @param names the cards to be parsed, in the order the parses start */
    CardTexts(CardStore cards, String user, List<String> names) {
        this.cards = cards;
        this.user = user;
        this.names = names;
        for (int i = 0; i < names.size(); i++) {
            batchOf.put(names.get(i), i / BATCH);
        }
    }

    /** The card's text ({@link CardStore#readCardText}, with its failures). */
    byte[] text(String name) throws IOException {
        Integer batch = batchOf.get(name);
        if (batch != null) {
            byte[] text = batch(batch).remove(name);
            if (text != null) {
                return text;
            }
        }
        return cards.readCardText(user, name);
    }

    /** The batch's texts, read by the first parse that needs one (the others of the batch wait for it). */
    private Map<String, byte[]> batch(int batch) throws IOException {
        Map<String, byte[]> texts = batches.get(batch);
        if (texts != null) {
            return texts;
        }
        synchronized (this) {
            texts = batches.get(batch);
            if (texts == null) {
                Map<String, byte[]> read = cards.readCardTexts(user,
                        names.subList(batch * BATCH, Math.min(names.size(), (batch + 1) * BATCH)));
                texts = read == null ? new ConcurrentHashMap<>() : new ConcurrentHashMap<>(read);
                batches.put(batch, texts);
            }
        }
        return texts;
    }
}
