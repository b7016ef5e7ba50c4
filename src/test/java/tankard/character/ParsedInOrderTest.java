package tankard.character;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParsedInOrderTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static CardIndex.Entry entry(CardFile file) {
        return new CardIndex.Entry(file.name(), file.size(), file.modifiedMs(), null, null);
    }

    @Test
    void entriesComeInFileOrderAndOnlyUnknownFilesAreParsedAWindowAhead() throws Exception {
        List<CardFile> files = new ArrayList<>();
        List<CardIndex.Entry> known = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            CardFile file = new CardFile("c" + i + ".png", i, i, i);
            files.add(file);
            known.add(i % 3 == 0 ? entry(file) : null); // every third one is in the index
        }
        List<String> startedNames = Collections.synchronizedList(new ArrayList<>());
        int window = 8;
        ParsedInOrder entries = new ParsedInOrder(files, known, file -> {
            startedNames.add(file.name());
            return pool.submit(() -> {
                Thread.sleep((file.size() * 7) % 5); // finish out of order
                return entry(file);
            });
        }, window);
        for (int i = 0; i < files.size(); i++) {
            CardIndex.Entry entry = entries.get(i);
            assertEquals(files.get(i).name(), entry.name);
            if (known.get(i) != null) {
                assertSame(known.get(i), entry);
            }
            assertTrue(startedNames.size() <= (i + window + 1) * 2 / 3 + 1, "no more than a window ahead");
        }
        List<String> unknownNames = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            if (known.get(i) == null) {
                unknownNames.add(files.get(i).name());
            }
        }
        assertEquals(unknownNames, startedNames, "each unknown card parsed once, in file order");
    }

    @Test
    void aFailedParseSurfacesWhenItsEntryIsRead() throws IOException {
        List<CardFile> files = List.of(new CardFile("a.png", 1, 1, 1), new CardFile("b.png", 1, 1, 1));
        List<CardIndex.Entry> known = new ArrayList<>(Collections.nCopies(2, null));
        ParsedInOrder entries = new ParsedInOrder(files, known, file -> pool.submit(() -> {
            if (file.name().equals("b.png")) {
                throw new IllegalStateException("boom");
            }
            return entry(file);
        }), 4);
        assertEquals("a.png", entries.get(0).name);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> entries.get(1));
        assertEquals("boom", e.getMessage());
    }
}
