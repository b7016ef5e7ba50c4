package tankard.character;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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
        List<String> handedOn = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger started = new AtomicInteger();
        int window = 8;
        try (ParsedInOrder entries = new ParsedInOrder(files, known, file -> {
            started.incrementAndGet();
            try {
                Thread.sleep((file.size() * 7) % 5); // finish out of order
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return entry(file);
        }, pool, entry -> handedOn.add(entry.name), window)) {
            for (int i = 0; i < files.size(); i++) {
                CardIndex.Entry entry = entries.get(i);
                assertEquals(files.get(i).name(), entry.name);
                if (known.get(i) != null) {
                    assertSame(known.get(i), entry);
                }
                assertTrue(started.get() <= (i + window + 1) * 2 / 3 + 1, "no more than a window ahead");
            }
        }
        List<String> parsedNames = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            if (known.get(i) == null) {
                parsedNames.add(files.get(i).name());
            }
        }
        assertEquals(parsedNames, handedOn, "each parsed entry handed on once, in file order");
        assertEquals(parsedNames.size(), started.get());
    }

    @Test
    void closingCancelsTheParsesNotRead() throws Exception {
        List<CardFile> files = new ArrayList<>();
        List<CardIndex.Entry> known = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            files.add(new CardFile("c" + i + ".png", i, i, i));
            known.add(null);
        }
        ExecutorService single = Executors.newSingleThreadExecutor();
        AtomicInteger parsed = new AtomicInteger();
        try (ParsedInOrder entries = new ParsedInOrder(files, known, file -> {
            parsed.incrementAndGet();
            return entry(file);
        }, single, entry -> { }, 20)) {
            entries.get(0);
        }
        single.shutdown();
        assertTrue(single.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(parsed.get() < files.size(), "the client went away: the rest is not parsed");
    }

    @Test
    void aFailedParseSurfacesWhenItsEntryIsRead() {
        List<CardFile> files = List.of(new CardFile("a.png", 1, 1, 1), new CardFile("b.png", 1, 1, 1));
        List<CardIndex.Entry> known = new ArrayList<>(Collections.nCopies(2, null));
        ParsedInOrder entries = new ParsedInOrder(files, known, file -> {
            if (file.name().equals("b.png")) {
                throw new IllegalStateException("boom");
            }
            return entry(file);
        }, pool, entry -> { }, 4);
        try (entries) {
            assertEquals("a.png", entries.get(0).name);
            IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, () -> entries.get(1));
            assertEquals("boom", e.getMessage());
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
