package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code characters/all} at scale: the persisted index, changes behind the server's back, the streamed bytes. */
class CharacterListTest {
    private static final String BRAMBLE = Fixtures.text("characters/bramble-v2.json");
    private static final String JUNIPER = Fixtures.text("characters/juniper-v3.json");
    private static final String OSRIC = Fixtures.text("characters/osric-v1.json");

    private final Path work = TestServer.tempDir();
    private TestServer server;
    private TestServer.Client client;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close(); // deletes the work folder
        } else {
            TestServer.deleteTree(work);
        }
    }

    /**
     * (Re)starts the server on the same work folder and, on PostgreSQL, the same database, so the data and the
     * card index survive.
     */
    private void start(String configYaml) throws IOException {
        if (server != null) {
            server = server.restart(configYaml == null ? "" : configYaml);
        } else {
            Files.createDirectories(work.resolve("public"));
            Files.writeString(work.resolve("public/index.html"), "<!doctype html>");
            if (configYaml != null) {
                Files.writeString(work.resolve("config.yaml"), configYaml);
            }
            server = TestServer.startIn(work);
        }
        client = server.client();
    }

    /** The card file of that name, in ST's layout ({@link UserFiles}). */
    private static String card(String name) {
        return "characters/" + name;
    }

    private UserFiles files() {
        return server.files();
    }

    private byte[] all() {
        var response = client.post("/api/characters/all", "{}");
        assertEquals(200, response.statusCode());
        return response.body().getBytes();
    }

    private List<String> names() {
        List<String> names = new ArrayList<>();
        JsJson.parse(all()).forEach(c -> names.add(c.get("name").asText()));
        return names;
    }

    private Path index() {
        return server.dataRoot.resolve("_cache/tankard-cards/default-user.idx");
    }

    /** The index is saved a moment after a list that found changes. */
    private void awaitIndexSaved(long atLeast) throws InterruptedException, IOException {
        for (int i = 0; i < 200 && !(Files.exists(index()) && Files.size(index()) >= atLeast); i++) {
            Thread.sleep(50);
        }
        assertTrue(Files.exists(index()) && Files.size(index()) >= atLeast, "the card index was saved");
    }

    @Test
    void anUnchangedCardIsNotReparsedAfterARestart() throws Exception {
        start(null);
        String file = card("Bramble.png");
        files().write(file, Fixtures.card(BRAMBLE));
        long mtime = 1_650_000_000_000L;
        files().setModified(file, mtime);
        assertEquals(List.of("Bramble"), names());
        awaitIndexSaved(100);

        // The trick: new content of the same size under the same mtime. A server that re-parsed the card would
        // answer the new name; one that trusts its index (keyed by name, size and mtime) answers the old one.
        start(null);
        files().write(file, Fixtures.card(BRAMBLE.replace("Bramble", "Brambla")));
        files().setModified(file, mtime);
        assertEquals(List.of("Bramble"), names());

        // A new mtime is a new version, after a restart too.
        files().setModified(file, 1_650_000_001_000L);
        assertEquals(List.of("Brambla"), names());
    }

    @Test
    void aStoppingServerSavesTheIndexAtOnce() throws Exception {
        start(null);
        files().write(card("Bramble.png"), Fixtures.card(BRAMBLE));
        assertEquals(List.of("Bramble"), names());
        assertFalse(Files.exists(index()), "saved a moment after the list, not yet");
        server.tankard.close().toCompletionStage().toCompletableFuture().join();
        assertTrue(Files.exists(index()) && Files.size(index()) >= 100, "saved on the way down");
    }

    @Test
    void filesAddedChangedOrRemovedBehindTheServersBackArePickedUp() throws Exception {
        start(null);
        files().write(card("Bramble.png"), Fixtures.card(BRAMBLE));
        files().write(card("Juniper.png"), Fixtures.card(JUNIPER));
        assertEquals(Set.of("Bramble", "Juniper"), new HashSet<>(names()));

        files().write(card("Osric.png"), Fixtures.card(OSRIC));
        files().delete(card("Juniper.png"));
        files().write(card("Bramble.png"), Fixtures.card(BRAMBLE.replace("Bramble", "Bramblewood")));
        assertEquals(Set.of("Bramblewood", "Osric"), new HashSet<>(names()));

        // and after a restart from the saved index
        awaitIndexSaved(100);
        start(null);
        files().delete(card("Osric.png"));
        assertEquals(List.of("Bramblewood"), names());
    }

    @Test
    void aBrokenIndexIsIgnored() throws Exception {
        start(null);
        files().write(card("Bramble.png"), Fixtures.card(BRAMBLE));
        Files.createDirectories(index().getParent());
        Files.writeString(index(), "not an index at all");
        start(null);
        assertEquals(List.of("Bramble"), names());
        awaitIndexSaved(100); // rewritten whole
        byte[] saved = Files.readAllBytes(index());
        Files.write(index(), java.util.Arrays.copyOf(saved, saved.length - 7)); // a torn tail
        start(null);
        assertEquals(List.of("Bramble"), names());
    }

    /** Each element of the list is byte for byte the character {@code get} builds as a tree. */
    @Test
    void theStreamedListHasTheBytesOfTheCharactersTrees() throws Exception {
        start(null);
        files().write(card("Bramble.png"), Fixtures.card(BRAMBLE));
        files().write(card("Juniper.png"), Fixtures.card(BRAMBLE, JUNIPER));
        files().write(card("Osric.png"), Fixtures.card(OSRIC.replaceFirst("\\{", "{\"chat\":\"Osric - fixed\",")));
        // a card text with what its json_data must escape or keep: line breaks and tabs between tokens, escapes,
        // non-ASCII text, and bytes that are not UTF-8 (read as replacement characters)
        byte[] odd = ("{\r\n\t\"name\": \"Élodie \\\"🍺\\\" \\u0001\\\\\",\n\t\"description\": \"\u2028 x\\n" + "é".repeat(300)
                + "\", \"chat\": \"Élodie - fixed\", \"bad\": \"\u00ff\"\n}").getBytes(StandardCharsets.UTF_8);
        odd[odd.length - 5] = (byte) 0xC3; // the ÿ's first byte alone
        odd[odd.length - 4] = '!';
        files().write(card("Elodie.png"), Fixtures.withText(Fixtures.plainPng(), "chara", java.util.Base64.getEncoder().encodeToString(odd)));
        files().write("chats/Juniper/a.jsonl", "{}\n{\"mes\":\"hi\"}\n");
        files().setModified("chats/Juniper/a.jsonl", 1_700_000_000_123L);

        String list = withoutNow(new String(all(), StandardCharsets.UTF_8));
        StringBuilder expected = new StringBuilder("[");
        for (JsonNode character : JsJson.parse(list)) {
            String avatar = character.get("avatar").asText();
            String get = client.post("/api/characters/get", "{\"avatar_url\":\"" + avatar + "\"}").bodyAsString();
            expected.append(expected.length() > 1 ? "," : "").append(withoutNow(get));
        }
        assertEquals(expected.append("]").toString(), list);
        assertTrue(list.contains("\"json_data\":\"{\\r\\n\\t\\\"name\\\": \\\"Élodie"), list);
        assertTrue(list.contains("\"bad\\\": \\\"\ufffd!\\\"\\n}\""), list);
        assertTrue(list.contains("\"chat\":\"Juniper - NOW\""), "a card without a chat name gets one with the time");
        assertEquals(list, withoutNow(new String(all(), StandardCharsets.UTF_8)), "the warm list");
    }

    /** The default chat name holds the current time; get and all are asked at different moments. */
    private static String withoutNow(String json) {
        return json.replaceAll("\"Juniper - \\d{4}-\\d\\d-\\d\\d@\\d\\dh\\d\\dm\\d\\ds\\d{3}ms\"", "\"Juniper - NOW\"");
    }

    /** A crowd's first page loads at once: each card is parsed once, not once per list, and every list is whole. */
    @Test
    void listsAskedForAtOnceParseEachCardOnce() throws Exception {
        start(null);
        for (int i = 0; i < 400; i++) {
            files().write(card("c" + i + ".png"), Fixtures.card(cardJson(i, "d".repeat(2000))));
        }
        List<java.util.concurrent.CompletableFuture<byte[]>> lists = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            lists.add(java.util.concurrent.CompletableFuture.supplyAsync(this::all));
        }
        byte[] first = lists.get(0).join();
        assertEquals(400, JsJson.parse(first).size());
        for (var list : lists) {
            assertArrayEquals(first, list.join());
        }
        assertEquals(400, characters().parsedCards());
    }

    private CharacterService characters() {
        return server.tankard.features().stream().filter(CharacterFeature.class::isInstance)
                .map(feature -> ((CharacterFeature) feature).characters()).findFirst().orElseThrow();
    }

    /** Cards found at start are parsed in the background and their index saved, before any list asks. */
    @Test
    void aLibraryFoundAtStartIsParsedBeforeTheFirstList() throws Exception {
        start(null);
        for (int i = 0; i < 300; i++) {
            files().write(card("c" + i + ".png"), Fixtures.card(cardJson(i, "d".repeat(2000))));
        }
        start(null);
        awaitIndexSaved(300 * 2000);
        assertEquals(300, characters().parsedCards(), "parsed with no list asked for");
        assertEquals(300, JsJson.parse(all()).size());
        assertEquals(300, characters().parsedCards(), "the first list parsed nothing more");
    }

    /**
     * Many cards, with a memory budget so small that the first list must save entries to let them go, and every
     * full entry is then read back from the saved index.
     */
    @Test
    void twoThousandCardsListTheSameFromMemoryAndFromDisk() throws Exception {
        start("performance:\n  memoryCacheCapacity: 1kb\n");
        for (int i = 0; i < 2000; i++) {
            String json = "{\"name\":\"C" + i + "\",\"chat\":\"c\",\"spec\":\"chara_card_v2\",\"data\":{\"name\":\"C" + i
                    + "\",\"description\":\"" + "d".repeat(4000 + i % 50) + "\"}}";
            files().write(card("c" + i + ".png"), Fixtures.card(json));
        }
        byte[] cold = all();
        assertEquals(2000, JsJson.parse(cold).size());
        // 2,000 entries of about 8 KB are far over the budget: the first list saved them as it went
        assertTrue(Files.size(index()) > 8 << 20, "saved during the first list");
        awaitIndexSaved(2000 * 8000);
        assertArrayEquals(cold, all(), "warm, read back from the index file");
        start("performance:\n  memoryCacheCapacity: 1kb\n");
        assertArrayEquals(cold, all(), "after a restart");
    }

    /**
     * An index whose log is mostly replaced records is rewritten: the records only on disk are copied over, and
     * a restart reads the same list as a fresh parse gives.
     */
    @Test
    void anIndexOfMostlyReplacedRecordsIsRewrittenKeepingTheOthers() throws Exception {
        String config = "performance:\n  memoryCacheCapacity: 1kb\n";
        start(config);
        for (int i = 0; i < 300; i++) {
            files().write(card("c" + i + ".png"), Fixtures.card(cardJson(i, "d".repeat(4000))));
        }
        all();
        server.tankard.close().toCompletionStage().toCompletableFuture().join(); // saves the index now
        long firstSize = Files.size(index());
        long largest = firstSize;
        long smallestAfterGrowing = Long.MAX_VALUE;
        for (int round = 1; round <= 4; round++) {
            start(config);
            for (int i = 0; i < 150; i++) {
                files().write(card("c" + i + ".png"), Fixtures.card(cardJson(i, "r".repeat(4000 + round))));
            }
            all();
            server.tankard.close().toCompletionStage().toCompletableFuture().join();
            long size = Files.size(index());
            if (largest > firstSize) {
                smallestAfterGrowing = Math.min(smallestAfterGrowing, size);
            }
            largest = Math.max(largest, size);
        }
        assertTrue(largest > firstSize * 4 / 3, "replaced records piled up");
        assertTrue(smallestAfterGrowing < firstSize * 11 / 10, "then the log was rewritten with the live ones");
        start(config);
        byte[] fromIndex = all();
        server.tankard.close().toCompletionStage().toCompletableFuture().join();
        Files.delete(index());
        start(config);
        assertArrayEquals(all(), fromIndex, "the same as parsing every card");
    }

    private static String cardJson(int i, String description) {
        return "{\"name\":\"C" + i + "\",\"chat\":\"c\",\"spec\":\"chara_card_v2\",\"data\":{\"name\":\"C" + i
                + "\",\"description\":\"" + description + "\"}}";
    }
}
