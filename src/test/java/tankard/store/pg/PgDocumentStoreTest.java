package tankard.store.pg;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.store.DocumentStore.Outcome;
import tankard.store.DocumentStoreContract;
import tankard.testing.PgScratch;
import tankard.testing.ScratchDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PgDocumentStoreTest extends DocumentStoreContract {
    private final ScratchDatabase pg = new ScratchDatabase();
    private final PgScratch scratch = pg.scratch;

    @AfterEach
    void cleanUp() {
        pg.close();
    }

    @Override
    protected DocumentStore store() {
        return new PgDocumentStore(pg.node(scratch.settings()));
    }

    @Test
    void theRowKeepsTheBytesAsWritten() throws Exception {
        byte[] odd = {'{', '\r', '\n', (byte) 0xFF, 0, '}'};
        store().write("alice", Folder.OPENAI_SETTINGS, "Default.json", odd);
        try (Connection c = scratch.connect(); Statement s = c.createStatement();
             ResultSet row = s.executeQuery("SELECT handle, folder, name, content FROM documents")) {
            row.next();
            assertEquals("alice/OpenAI Settings/Default.json",
                    row.getString(1) + "/" + row.getString(2) + "/" + row.getString(3));
            assertArrayEquals(odd, row.getBytes(4));
        }
    }

    @Test
    void updatesFromTwoNodesOnOneDatabaseAreAllApplied() throws Exception {
        List<DocumentStore> nodes = List.of(store(), store());
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                DocumentStore node = nodes.get(t % 2);
                runs.add(pool.submit(() -> {
                    for (int i = 0; i < 20; i++) {
                        increment(node, "alice");
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(160, counter(nodes.get(0).read("alice", Folder.ROOT, "stats.json")));
    }

    @Test
    void anUpdateCutByTheDatabaseGoingAwayLeavesThePreviousDocument() {
        DocumentStore store = store();
        store.write("alice", Folder.ROOT, "secrets.json", utf8("{\"old\":true}"));
        Refusal refusal = assertThrows(Refusal.class, () -> store.update("alice", Folder.ROOT, "secrets.json",
                current -> {
                    scratch.terminateConnections(); // between the locked read and the write
                    return Outcome.store(utf8("{\"new\":true}"), null);
                }));
        assertEquals(Refusal.Kind.UNAVAILABLE, refusal.kind());
        assertArrayEquals(utf8("{\"old\":true}"), store.read("alice", Folder.ROOT, "secrets.json").orElseThrow());
    }
}
