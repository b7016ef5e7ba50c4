package tankard.character;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.testing.PgScratch;
import tankard.testing.ScratchDatabase;


import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PgCardStoreTest extends CardStoreContract {
    private final ScratchDatabase database = new ScratchDatabase();
    private final PgScratch scratch = database.scratch;

    @Override
    CardStore open() {
        return new PgCardStore(database.db);
    }

    @AfterEach
    void cleanUp() {
        database.close();
    }

    @Test
    void aRestoredCardKeepsTheDateItWasAdded() throws Exception {
        byte[] png = card("Old");
        open().restore("alice", new CardFile("old.png", png.length, 1_600_000_000_123.0, 1_500_000_000_000.0), png);
        assertEquals(1_500_000_000_000.0, open().find("alice", "old.png").orElseThrow().changedMs());
    }

    @Test
    void everyWriteMovesTheCardsTimesOnSoThatACacheSeesIt() throws Exception {
        CardStore store = open();
        double modified = 0;
        double changed = 0;
        for (int i = 0; i < 20; i++) {
            store.write("alice", "a.png", card("version " + i));
            CardFile card = store.find("alice", "a.png").orElseThrow();
            assertTrue(card.modifiedMs() > modified && card.changedMs() > changed, i + ": " + card);
            modified = card.modifiedMs();
            changed = card.changedMs();
        }
    }

    @Test
    void aWriteCutOffFromTheDatabaseKeepsTheLastAcknowledgedCard() throws Exception {
        CardStore store = open();
        byte[] before = card("before");
        store.write("alice", "a.png", before);
        scratch.terminateConnections();
        byte[] after = card("after");
        try {
            store.write("alice", "a.png", after);
        } catch (Refusal refusal) {
            assertEquals(Refusal.Kind.UNAVAILABLE, refusal.kind());
            assertArrayEquals(before, open().read("alice", "a.png"));
            return;
        }
        assertArrayEquals(after, open().read("alice", "a.png"));
    }
}
