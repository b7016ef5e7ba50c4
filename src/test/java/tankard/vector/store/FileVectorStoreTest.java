package tankard.vector.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.json.JsJson;
import tankard.user.UserDirs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contract on files, and what is the file store's own: its journals and the files on disk. */
class FileVectorStoreTest extends VectorStoreContract {
    @TempDir
    Path root;

    @Override
    VectorStore open(long budgetBytes) {
        return new FileVectorStore(root, budgetBytes, 60_000, root.resolve("scratch")); // folds only at close
    }

    private FileVectorStore store() {
        return (FileVectorStore) open();
    }

    private List<Long> hashes(VectorStore store) {
        return hashes(store, KEY);
    }

    private Path folder() {
        return KEY.folder(UserDirs.of(root, USER).vectors());
    }

    private List<String> files() throws IOException {
        try (Stream<Path> files = Files.list(folder())) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void changesSurviveAReopenThroughTheJournalAndAfterTheFold() throws IOException {
        FileVectorStore store = store();
        store.insert(USER, KEY, List.of(item(1), item(2)));
        store.delete(USER, KEY, Set.of(1.0));
        store.insert(USER, KEY, List.of(item(3)));
        assertEquals(List.of("index.json", "journal.0.jsonl"), files());
        // a second store on the same folder, as after a crash: the journal is replayed
        assertEquals(List.of(2L, 3L), hashes(store()));

        store.close();
        assertEquals(List.of("index.json"), files());
        assertEquals(2, JsJson.parse(Files.readAllBytes(folder().resolve("index.json"))).get("items").size());
        assertEquals(List.of(2L, 3L), hashes(store()));
    }

    @Test
    void anIdleFoldWritesAnIndexChangedOnDiskWithTheJournalOnItNotMemorysCopy() throws Exception {
        FileVectorStore store = new FileVectorStore(root, 1 << 30, 300, root.resolve("scratch"));
        store.insert(USER, KEY, List.of(item(1), item(2)));
        Path index = folder().resolve("index.json");
        for (int i = 0; i < 200 && files().size() > 1; i++) {
            Thread.sleep(25); // the journal folded in the background
        }
        assertEquals(List.of("index.json"), files());
        assertEquals(List.of(1L, 2L), hashes(store));
        byte[] folded = Files.readAllBytes(index);

        store.insert(USER, KEY, List.of(item(3)));
        Files.write(index, VectraCodec.EMPTY_INDEX); // emptied by hand while the insert waits in the journal
        for (int i = 0; i < 200 && files().size() > 1; i++) {
            Thread.sleep(25);
        }
        assertEquals(List.of("index.json"), files());
        assertTrue(folded.length > Files.size(index));
        assertEquals(List.of(3L), hashes(JsJson.parse(Files.readAllBytes(index))));
        assertEquals(List.of(3L), hashes(store));
        store.close();
    }

    private static List<Long> hashes(com.fasterxml.jackson.databind.JsonNode index) {
        return index.get("items").findValues("hash").stream().map(com.fasterxml.jackson.databind.JsonNode::asLong)
                .toList();
    }

    @Test
    void aJournalReplayedOverTheIndexItWasFoldedIntoChangesNothing() throws IOException {
        FileVectorStore store = store();
        store.insert(USER, KEY, List.of(item(1), item(2)));
        store.delete(USER, KEY, Set.of(2.0));
        store.insert(USER, KEY, List.of(item(2), item(4)));
        byte[] journal = Files.readAllBytes(folder().resolve("journal.0.jsonl"));
        store.close();
        // as if the crash came after the index was renamed and before the journal was deleted
        Files.write(folder().resolve("journal.0.jsonl"), journal);
        FileVectorStore reopened = store();
        assertEquals(List.of(1L, 2L, 4L), hashes(reopened).stream().sorted().toList());
        assertEquals(3, hashes(reopened).size(), "no item twice");
    }

    @Test
    void aTornLastLineIsCutOffAndTheRestKept() throws IOException {
        FileVectorStore store = store();
        store.insert(USER, KEY, List.of(item(1)));
        store.insert(USER, KEY, List.of(item(2)));
        Path journal = folder().resolve("journal.0.jsonl");
        long whole = Files.size(journal);
        Files.writeString(journal, "{\"add\":[{\"id\":\"x\",\"metadata\":{\"hash\":3},\"vec", StandardOpenOption.APPEND);
        FileVectorStore reopened = store();
        assertEquals(List.of(1L, 2L), hashes(reopened));
        assertEquals(whole, Files.size(journal));
        reopened.insert(USER, KEY, List.of(item(5)));
        assertEquals(List.of(1L, 2L, 5L), hashes(store()));
    }

    @Test
    void theLeastRecentlyUsedIndexLeavesMemoryOnceFolded() throws Exception {
        FileVectorStore store = new FileVectorStore(root, 1, 0, root.resolve("scratch")); // every index over budget, folded at once
        CollectionKey other = new CollectionKey("webllm", "other", "model");
        store.insert(USER, KEY, List.of(item(1)));
        store.insert(USER, other, List.of(item(7)));
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (Files.exists(folder().resolve("journal.0.jsonl")) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(Files.notExists(folder().resolve("journal.0.jsonl")), "folded when idle");
        assertEquals(List.of(1L), hashes(store));
        assertEquals(List.of(7L), hashes(store, other));
        store.close();
    }

    @Test
    void whatAJournalHoldsIsFoldedBeforeAnIndexIsListedOrRead() throws IOException {
        FileVectorStore store = store();
        store.insert(USER, KEY, List.of(item(1), item(2)));
        assertEquals(List.of("index.json", "journal.0.jsonl"), files());
        byte[] read = read(store, KEY);
        assertEquals(List.of("index.json"), files());
        assertArrayEquals(Files.readAllBytes(folder().resolve("index.json")), read);
        assertEquals(2, JsJson.parse(read).get("items").size());

        store.insert(USER, KEY, List.of(item(3)));
        // a store that did not write it: what a crash left in the journal
        assertEquals(1, store().indexes(USER).size());
        assertEquals(List.of("index.json"), files());
        assertEquals(3, JsJson.parse(Files.readAllBytes(folder().resolve("index.json"))).get("items").size());
    }

    @Test
    void aRestoreWritesTheFileWithItsTimeAndDropsAJournal() throws IOException {
        FileVectorStore store = store();
        store.insert(USER, KEY, List.of(item(1)));
        restore(store, KEY, utf8(ST_INDEX), 1_600_000_000_123.5);
        assertEquals(List.of("index.json"), files());
        assertArrayEquals(utf8(ST_INDEX), Files.readAllBytes(folder().resolve("index.json")));
        assertEquals(1_600_000_000_123L, Files.getLastModifiedTime(folder().resolve("index.json")).toMillis());
        assertEquals(3, store().hashes(USER, KEY).size());
    }
}
