package tankard.store;

import org.junit.jupiter.api.Test;
import tankard.store.DocumentStore.Folder;
import tankard.store.DocumentStore.Outcome;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every {@link DocumentStore} does, written once; a subclass per store supplies it. */
public abstract class DocumentStoreContract {
    /** A store with no documents; the subclass cleans up after each test. */
    protected abstract DocumentStore store();

    protected static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The counter document's value: updated by {@link #increment}. */
    protected static int counter(Optional<byte[]> content) {
        return content.map(bytes -> Integer.parseInt(new String(bytes, StandardCharsets.UTF_8))).orElse(0);
    }

    /** Adds one to the counter document, answering the value it found. */
    protected static int increment(DocumentStore store, String user) {
        return store.update(user, Folder.ROOT, "stats.json", current -> {
            int found = counter(current);
            return Outcome.store(utf8(Integer.toString(found + 1)), found);
        });
    }

    @Test
    void aDocumentReadsBackByteForByte() {
        DocumentStore store = store();
        // a BOM, CRLF, a tab, a lone invalid UTF-8 byte and no final newline: nothing is re-encoded or trimmed
        byte[] odd = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '\r', '\n', '\t', '"', (byte) 0xFF, '"', ':', '1', '}'};
        store.write("alice", Folder.ROOT, "settings.json", odd);
        store.write("alice", Folder.OPENAI_SETTINGS, "Default.json", new byte[0]);

        assertArrayEquals(odd, store.read("alice", Folder.ROOT, "settings.json").orElseThrow());
        assertArrayEquals(new byte[0], store.read("alice", Folder.OPENAI_SETTINGS, "Default.json").orElseThrow());
        assertTrue(store.read("alice", Folder.ROOT, "secrets.json").isEmpty());
        assertTrue(store.read("nobody", Folder.THEMES, "Dark.json").isEmpty());
    }

    @Test
    void aWriteReplacesTheWholeDocument() {
        DocumentStore store = store();
        store.write("alice", Folder.THEMES, "Dark.json", utf8("{\"name\":\"Dark\",\"long\":\"" + "x".repeat(5000) + "\"}"));
        store.write("alice", Folder.THEMES, "Dark.json", utf8("{}"));
        assertArrayEquals(utf8("{}"), store.read("alice", Folder.THEMES, "Dark.json").orElseThrow());
    }

    @Test
    void aListingIsInNodeReaddirOrderWithSizesAndTimes() {
        DocumentStore store = store();
        double before = System.currentTimeMillis() - 5_000;
        // written out of order; U+FF5E sorts before the emoji's surrogates by code point though not by UTF-16 unit
        for (String name : List.of("b.json", "\uD83D\uDE00.json", "a.json", "\uFF5E.json", "B.json", "é.json")) {
            store.write("alice", Folder.INSTRUCT, name, utf8("\"" + name + "\""));
        }
        List<DocumentStore.Entry> entries = store.list("alice", Folder.INSTRUCT);

        assertEquals(List.of("B.json", "a.json", "b.json", "é.json", "\uFF5E.json", "\uD83D\uDE00.json"),
                entries.stream().map(DocumentStore.Entry::name).toList());
        for (DocumentStore.Entry entry : entries) {
            assertEquals(utf8("\"" + entry.name() + "\"").length, entry.size(), entry.name());
            assertTrue(entry.modifiedMs() > before && entry.changedMs() > before, entry.toString());
        }
        assertEquals(List.of(), store.list("alice", Folder.CONTEXT));
        assertEquals(List.of(), store.list("bob", Folder.INSTRUCT));
    }

    @Test
    void aRestoredDocumentKeepsItsModificationTime() {
        DocumentStore store = store();
        double older = 1_600_000_000_123.0; // 2020, to the millisecond
        double newer = 1_700_000_000_456.0;
        store.restore("alice", Folder.BACKUPS, new DocumentStore.Entry("settings_alice_2.json", 0, newer, newer), utf8("2"));
        store.restore("alice", Folder.BACKUPS, new DocumentStore.Entry("settings_alice_1.json", 0, older, older), utf8("1"));

        List<DocumentStore.Entry> entries = store.list("alice", Folder.BACKUPS);
        assertEquals(List.of(older, newer), entries.stream().map(DocumentStore.Entry::modifiedMs).toList());
        assertArrayEquals(utf8("1"), store.read("alice", Folder.BACKUPS, "settings_alice_1.json").orElseThrow());
    }

    @Test
    void theDocumentsAreTheFilesOfTheKnownFolders() {
        for (String path : List.of("settings.json", "stats.json", "worlds/Lore.json", "OpenAI Settings/Default.json",
                "backups/settings_alice_1.json", "sysprompt/.migrated", "worlds/notes.txt")) {
            assertTrue(DocumentStore.isDocument(path), path);
        }
        for (String path : List.of("content.log", ".hidden", "backups/chat_alice_1.jsonl", "chats/Alice/1.jsonl",
                "worlds/sub/Lore.json", "characters/Alice.json", "worlds/")) {
            assertFalse(DocumentStore.isDocument(path), path);
        }
    }

    @Test
    void deleteAllDeletesEveryDocumentOfTheUserAndNoOtherUsers() {
        DocumentStore store = store();
        for (String user : List.of("alice", "bob")) {
            store.write(user, Folder.ROOT, "settings.json", utf8("{}"));
            store.write(user, Folder.WORLDS, "Lore.json", utf8("{}"));
            store.write(user, Folder.BACKUPS, "settings_" + user + "_1.json", utf8("{}"));
        }
        store.deleteAll("alice");

        for (Folder folder : Folder.values()) {
            assertEquals(List.of(), store.list("alice", folder), folder.name());
        }
        assertTrue(store.read("alice", Folder.ROOT, "settings.json").isEmpty());
        assertEquals(List.of("Lore.json"), store.list("bob", Folder.WORLDS).stream().map(DocumentStore.Entry::name).toList());
        assertTrue(store.read("bob", Folder.ROOT, "settings.json").isPresent());
    }

    @Test
    void deleteAnswersWhetherThereWasADocument() {
        DocumentStore store = store();
        store.write("alice", Folder.BACKUPS, "settings_alice_20260101-000000.json", utf8("{}"));

        assertTrue(store.delete("alice", Folder.BACKUPS, "settings_alice_20260101-000000.json"));
        assertFalse(store.delete("alice", Folder.BACKUPS, "settings_alice_20260101-000000.json"));
        assertFalse(store.delete("alice", Folder.BACKUPS, "never.json"));
        assertTrue(store.read("alice", Folder.BACKUPS, "settings_alice_20260101-000000.json").isEmpty());
        assertEquals(List.of(), store.list("alice", Folder.BACKUPS));
    }

    @Test
    void usersAndFoldersNeverSeeOneAnother() {
        DocumentStore store = store();
        store.write("alice", Folder.ROOT, "secrets.json", utf8("{\"api_key_openai\":\"alice\"}"));
        store.write("bob", Folder.ROOT, "secrets.json", utf8("{\"api_key_openai\":\"bob\"}"));
        store.write("alice", Folder.BACKUPS, "secrets.json", utf8("old"));

        assertArrayEquals(utf8("{\"api_key_openai\":\"alice\"}"), store.read("alice", Folder.ROOT, "secrets.json").orElseThrow());
        assertArrayEquals(utf8("{\"api_key_openai\":\"bob\"}"), store.read("bob", Folder.ROOT, "secrets.json").orElseThrow());
        assertTrue(store.delete("bob", Folder.ROOT, "secrets.json"));
        assertTrue(store.read("alice", Folder.ROOT, "secrets.json").isPresent());
        assertArrayEquals(utf8("old"), store.read("alice", Folder.BACKUPS, "secrets.json").orElseThrow());
    }

    @Test
    void concurrentUpdatesAreAllApplied() throws Exception {
        DocumentStore store = store();
        int threads = 8;
        int each = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Integer>>> runs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                runs.add(pool.submit(() -> IntStream.range(0, each).mapToObj(i -> increment(store, "alice")).toList()));
            }
            Set<Integer> seen = new HashSet<>();
            for (Future<List<Integer>> run : runs) {
                seen.addAll(run.get(120, TimeUnit.SECONDS));
            }
            // each update found the value the one before it left: no two read the same, none was lost
            assertEquals(threads * each, seen.size());
            assertEquals(threads * each, counter(store.read("alice", Folder.ROOT, "stats.json")));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anUpdateThatKeepsOrFailsChangesNothing() {
        DocumentStore store = store();
        assertEquals("none", store.update("alice", Folder.ROOT, "secrets.json",
                current -> Outcome.keep(current.isPresent() ? "some" : "none")));
        assertTrue(store.read("alice", Folder.ROOT, "secrets.json").isEmpty());

        store.write("alice", Folder.ROOT, "secrets.json", utf8("{}"));
        IllegalStateException thrown = new IllegalStateException("refused");
        assertSame(thrown, assertThrows(IllegalStateException.class, () -> store.update("alice", Folder.ROOT,
                "secrets.json", current -> {
                    throw thrown;
                })));
        assertArrayEquals(utf8("{}"), store.read("alice", Folder.ROOT, "secrets.json").orElseThrow());
    }

    @Test
    void namesThatAreNotOnePathSegmentAreRefused() {
        DocumentStore store = store();
        for (String name : List.of("", ".", "..", "../secrets.json", "a/b.json", "a\\b.json")) {
            assertThrows(IllegalArgumentException.class, () -> store.read("alice", Folder.WORLDS, name), name);
            assertThrows(IllegalArgumentException.class, () -> store.write("alice", Folder.WORLDS, name, utf8("{}")), name);
            assertThrows(IllegalArgumentException.class, () -> store.read(name, Folder.ROOT, "settings.json"), name);
        }
    }
}
