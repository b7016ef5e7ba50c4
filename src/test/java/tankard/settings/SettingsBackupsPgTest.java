package tankard.settings;

import tankard.store.StripedLocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.store.DocumentStore;
import tankard.store.DocumentStore.Folder;
import tankard.testing.PgDocuments;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Settings snapshots on PostgreSQL: taken, skipped when identical to the newest, pruned to the newest ones. */
class SettingsBackupsPgTest {
    private final PgDocuments pg = new PgDocuments();
    private final DocumentStore documents = pg.store;
    private final SettingsBackups backups = new SettingsBackups(documents, new StripedLocks(4), 1,
            (delay, task) -> task.run(), System::currentTimeMillis);

    @AfterEach
    void cleanUp() {
        pg.close();
    }

    @Test
    void snapshotsAreTakenSkippedAndPrunedAsOnFiles() throws Exception {
        backups.backup("alice", true);
        assertEquals(List.of(), backups.snapshots("alice"), "no settings, no snapshot");

        byte[] first = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        documents.write("alice", Folder.ROOT, SettingsService.FILE, first);
        backups.backup("alice", true);
        backups.backup("alice", true);
        List<DocumentStore.Entry> one = backups.snapshots("alice");
        assertEquals(1, one.size(), "an identical snapshot is skipped");
        assertTrue(one.get(0).name().startsWith("settings_alice_"), one.toString());

        Thread.sleep(1100); // snapshot names have seconds, as ST's
        byte[] second = "{\"a\":2}".getBytes(StandardCharsets.UTF_8);
        documents.write("alice", Folder.ROOT, SettingsService.FILE, second);
        backups.backup("alice", true);
        List<DocumentStore.Entry> kept = backups.snapshots("alice");
        assertEquals(1, kept.size(), "pruned to numberOfBackups");
        assertArrayEquals(second, documents.read("alice", Folder.BACKUPS, kept.get(0).name()).orElseThrow());
    }
}
