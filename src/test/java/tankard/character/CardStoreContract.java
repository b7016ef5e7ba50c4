package tankard.character;

import org.junit.jupiter.api.Test;
import tankard.testing.Fixtures;

import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every card store does, run on each of them by a subclass. */
abstract class CardStoreContract {
    /** The store under test, made anew over the same place on each call (as a restart would). */
    abstract CardStore open();

    static byte[] card(String name) {
        return Fixtures.card("{\"name\":\"" + name + " (V1)\"}",
                "{\"spec\":\"chara_card_v3\",\"data\":{\"name\":\"" + name + "\",\"description\":\"Ünïcode ✓\"}}");
    }

    @Test
    void aCardIsStoredByteForByteAndFoundWithItsSize() throws Exception {
        byte[] png = card("Seraphina");
        open().write("alice", "Seraphina.png", png);
        CardStore store = open();
        assertArrayEquals(png, store.read("alice", "Seraphina.png"));
        CardFile found = store.find("alice", "Seraphina.png").orElseThrow();
        assertEquals("Seraphina.png", found.name());
        assertEquals(png.length, found.size());
        assertTrue(found.modifiedMs() > 0 && found.changedMs() > 0, found.toString());
        assertEquals(List.of(found), store.list("alice"));
        assertEquals(Optional.empty(), store.find("alice", "Nobody.png"));
    }

    @Test
    void theCardTextIsTheCcv3ChunksAndACardIsReadFromIt() throws Exception {
        CardStore store = open();
        store.write("alice", "a.png", card("Aqua"));
        assertEquals("{\"spec\":\"chara_card_v3\",\"data\":{\"name\":\"Aqua\",\"description\":\"Ünïcode ✓\"}}",
                new String(store.readCardText("alice", "a.png"), StandardCharsets.UTF_8));
        assertEquals("Aqua", store.readCard("alice", "a.png").json().path("data").path("name").asText());
        store.write("alice", "plain.png", Fixtures.plainPng());
        assertThrows(CardFormatException.class, () -> store.readCardText("alice", "plain.png"));
        assertArrayEquals(Fixtures.plainPng(), store.read("alice", "plain.png"), "any PNG is stored as it is");
    }

    @Test
    void aBatchOfCardTextsIsEachCardsTextOrNothingWhereTheStoreReadsThemAlone() throws Exception {
        CardStore store = open();
        store.write("alice", "a.png", card("Aqua"));
        store.write("alice", "b.png", card("Bree"));
        store.write("alice", "broken.png", new byte[]{1, 2, 3});
        store.write("bob", "c.png", card("Cole"));
        Map<String, byte[]> texts = store.readCardTexts("alice", List.of("a.png", "b.png", "broken.png", "c.png", "gone.png"));
        if (texts != null) {
            assertEquals(Set.of("a.png", "b.png"), texts.keySet(), "another user's card, a broken one and a gone one are left out");
            assertArrayEquals(store.readCardText("alice", "a.png"), texts.get("a.png"));
            assertArrayEquals(store.readCardText("alice", "b.png"), texts.get("b.png"));
        }
    }

    @Test
    void cardsAreListedInReaddirOrderAndEachUserHasTheirOwn() throws Exception {
        CardStore store = open();
        for (String name : List.of("b", "a", "C", "é", "10", "9")) {
            store.write("alice", name + ".png", card(name));
        }
        store.write("bob", "z.png", card("z"));
        assertEquals(List.of("10.png", "9.png", "C.png", "a.png", "b.png", "é.png"),
                open().list("alice").stream().map(CardFile::name).toList());
        assertEquals(List.of("z.png"), open().list("bob").stream().map(CardFile::name).toList());
        assertEquals(List.of(), open().list("carol"));
        assertThrows(NoSuchFileException.class, () -> open().read("bob", "a.png"));
    }

    @Test
    void aCardIsReplacedAndDeletedAndWhatIsGoneIsNoSuchFile() throws Exception {
        CardStore store = open();
        store.write("alice", "a.png", card("first"));
        byte[] second = card("second");
        store.write("alice", "a.png", second);
        assertArrayEquals(second, open().read("alice", "a.png"));
        assertEquals("second", open().readCard("alice", "a.png").json().path("data").path("name").asText());
        assertTrue(store.delete("alice", "a.png"));
        assertFalse(store.delete("alice", "a.png"));
        assertThrows(NoSuchFileException.class, () -> open().read("alice", "a.png"));
        assertThrows(NoSuchFileException.class, () -> open().readCardText("alice", "a.png"));
        assertEquals(List.of(), open().list("alice"));
    }

    @Test
    void aNameThatIsNotOnePathSegmentIsRefused() {
        CardStore store = open();
        for (String bad : List.of("../x.png", "a/b.png", "..", "nul\0.png")) {
            assertThrows(IllegalArgumentException.class, () -> store.write("alice", bad, card("x")), bad);
            assertThrows(IllegalArgumentException.class, () -> store.read("alice", bad), bad);
        }
    }

    @Test
    void eightWritersOfOneCardLeaveOneWholeVersion() throws Exception {
        CardStore store = open();
        List<byte[]> versions = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            versions.add(card("writer " + i + " " + "x".repeat(5000)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (byte[] version : versions) {
                writes.add(pool.submit(() -> {
                    for (int n = 0; n < 10; n++) {
                        store.write("alice", "a.png", version);
                    }
                    return null;
                }));
            }
            for (Future<?> write : writes) {
                write.get();
            }
        } finally {
            pool.shutdown();
        }
        byte[] stored = open().read("alice", "a.png");
        assertTrue(versions.stream().anyMatch(v -> java.util.Arrays.equals(v, stored)), "a mix of versions");
        String name = open().readCard("alice", "a.png").json().path("data").path("name").asText();
        assertArrayEquals(versions.get(Integer.parseInt(name.substring(7, 8))), stored, "text and image of one write");
    }

    @Test
    void createStoresOnlyANewCard() throws Exception {
        CardStore store = open();
        assertTrue(store.create("alice", "a.png", card("first")));
        assertFalse(store.create("alice", "a.png", card("second")));
        assertEquals("first", open().readCard("alice", "a.png").json().path("data").path("name").asText());
        assertTrue(store.create("bob", "a.png", card("bob's")), "each user has their own names");
    }

    @Test
    void eightImportsOfOneNameAtOnceGetEightNames() throws Exception {
        CardStore store = open();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<String> names = new ArrayList<>();
        try {
            List<Future<String>> claims = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                byte[] png = card("Twin " + i);
                claims.add(pool.submit(() -> CardNames.claim("Twin", store, "alice", png)));
            }
            for (Future<String> claim : claims) {
                names.add(claim.get());
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(List.of("Twin", "Twin1", "Twin2", "Twin3", "Twin4", "Twin5", "Twin6", "Twin7"),
                names.stream().sorted().toList());
        for (String name : names) {
            String stored = open().readCard("alice", name + ".png").json().path("data").path("name").asText();
            assertEquals(names.indexOf(name), Integer.parseInt(stored.substring(5)), "each import kept its own card");
        }
    }

    @Test
    void aRestoredCardKeepsItsModificationTimeAndDeleteAllEmptiesTheUsersLibrary() throws Exception {
        CardStore store = open();
        byte[] png = card("Old");
        store.restore("alice", new CardFile("old.png", png.length, 1_600_000_000_123.0, 1_500_000_000_000.0), png);
        CardFile found = open().find("alice", "old.png").orElseThrow();
        assertEquals(1_600_000_000_123.0, found.modifiedMs());
        assertArrayEquals(png, open().read("alice", "old.png"));
        store.write("bob", "b.png", card("Bob"));

        store.deleteAll("alice");
        assertEquals(List.of(), open().list("alice"));
        assertEquals(1, open().list("bob").size());
    }
}
