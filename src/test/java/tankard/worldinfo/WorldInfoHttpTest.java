package tankard.worldinfo;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.store.DocumentStore;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;
import tankard.testing.StNames;
import tankard.testing.TestServer;
import tankard.testing.UserDocuments;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/worldinfo/*} over HTTP (ST: src/endpoints/worldinfo.js), with the refusals that write nothing. */
class WorldInfoHttpTest extends ServerTest {
    /** A book as the frontend saves it: entries keyed by uid, in the order they were added. */
    private static final String BOOK = "{\"entries\":{\"10\":{\"uid\":10,\"key\":[\"comet\"],\"content\":\"Ice.\",\"order\":1.0,"
            + "\"probability\":100,\"scanDepth\":null,\"gen\":851234567890123456789},\"2\":{\"uid\":2,\"key\":[\"tide\"],"
            + "\"content\":\"Salt\\u00e9 \\\"wet\\\"\",\"depth\":4,\"ratio\":1e-7,\"triggers\":[]}},\"name\":\"Sea\",\"extensions\":{}}";
    /** {@code JSON.stringify(JSON.parse(BOOK), null, 4)}, but that ST rounds the 21-digit gen to a double. */
    private static final String BOOK_ON_DISK = """
            {
                "entries": {
                    "2": {
                        "uid": 2,
                        "key": [
                            "tide"
                        ],
                        "content": "Salté \\"wet\\"",
                        "depth": 4,
                        "ratio": 1e-7,
                        "triggers": []
                    },
                    "10": {
                        "uid": 10,
                        "key": [
                            "comet"
                        ],
                        "content": "Ice.",
                        "order": 1,
                        "probability": 100,
                        "scanDepth": null,
                        "gen": 851234567890123456789
                    }
                },
                "name": "Sea",
                "extensions": {}
            }""";

    private Path worlds;

    @BeforeEach
    void start() {
        start(null);
        worlds = server.userDir().resolve("worlds");
    }

    /**
     * Seeds a file of the worlds folder through the server's store, whatever its name: on files the file itself, so
     * that a listing also meets names the store would not hold as books (A.JSON, d.txt).
     */
    private void seedWorld(String name, String text) {
        server.putDocument(DocumentStore.Folder.WORLDS, name, text);
    }

    @Test
    void getAnswersTheBookOrAnEmptyOne() throws IOException {
        seedWorld("Eldoria.json", "{\n    \"entries\": {\"0\": {\"uid\": 0, \"order\": 1e-7, \"gen\": 851234567890123400}}\n}");
        HttpResponse<Buffer> r = client.post("/api/worldinfo/get", "{\"name\":\"Eldoria\"}");
        assertEquals(200, r.statusCode());
        assertEquals("{\"entries\":{\"0\":{\"uid\":0,\"order\":1e-7,\"gen\":851234567890123400}}}", r.bodyAsString());
        assertEquals("{\"entries\":{}}", client.post("/api/worldinfo/get", "{\"name\":\"Missing\"}").bodyAsString());
    }

    @Test
    void badNamesAndBrokenFiles() throws IOException {
        server.putDocument(DocumentStore.Folder.ROOT, "secrets.json", "{}");
        seedWorld("Broken.json", "{");
        assertEquals(400, client.post("/api/worldinfo/get", "{}").statusCode());
        assertEquals("{\"entries\":{}}", client.post("/api/worldinfo/get", "{\"name\":\"../secrets\"}").bodyAsString(),
                "ST reads worlds/..secrets.json, which is not there");
        HttpResponse<Buffer> broken = client.post("/api/worldinfo/get", "{\"name\":\"Broken\"}");
        assertEquals(500, broken.statusCode());
        assertEquals("The lorebook file of \"Broken\" is not valid JSON", json(broken).path("error").asText(), broken.bodyAsString());
    }

    @Test
    void listNamesBooksByContentOrFileName() throws IOException {
        seedWorld("b.json", "{\"entries\":{},\"name\":\"Bee\",\"extensions\":{\"x\":1}}");
        seedWorld("A.JSON", "{\"entries\":{},\"name\":\"\"}");
        seedWorld("c.json", "not json");
        seedWorld("d.txt", "{}");
        HttpResponse<Buffer> r = client.post("/api/worldinfo/list", null);
        assertEquals(200, r.statusCode());
        assertEquals(new JsonArray()
                .add(new JsonObject().put("file_id", "A").put("name", "A").put("extensions", new JsonObject()))
                .add(new JsonObject().put("file_id", "b").put("name", "Bee").put("extensions", new JsonObject().put("x", 1)))
                .add(new JsonObject().put("file_id", "c").put("name", "c").put("extensions", new JsonObject())),
                r.bodyAsJsonArray());
    }

    @Test
    void editWritesTheBookPrettyPrintedUnderItsSanitizedName() throws IOException {
        HttpResponse<Buffer> r = client.post("/api/worldinfo/edit", "{\"name\":\"Sea: Deep?\",\"data\":" + BOOK + "}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"ok\":true}", r.bodyAsString());
        assertEquals(BOOK_ON_DISK, document("worlds/Sea Deep.json"));
        assertEquals(JsJson.parse(BOOK_ON_DISK), json(client.post("/api/worldinfo/get", "{\"name\":\"Sea Deep\"}")));

        // overwrites; a new empty book is how the frontend creates one
        assertEquals(200, client.post("/api/worldinfo/edit", "{\"name\":\"Sea Deep\",\"data\":{\"entries\":{}}}").statusCode());
        assertEquals("{\n    \"entries\": {}\n}", document("worlds/Sea Deep.json"));
        assertEquals(List.of("Sea Deep.json"), worldFiles(), "no temp files left");
    }

    @Test
    void editRefusesBadNamesAndBooksAndWritesNothing() throws IOException {
        server.putDocument(DocumentStore.Folder.ROOT, "secrets.json", "{\"api_key\":\"keep\"}");
        String book = "{\"entries\":{}}";
        assertRefused(client.post("/api/worldinfo/edit", "{\"data\":" + book + "}"), "World file must have a name");
        assertRefused(client.post("/api/worldinfo/edit", "{\"name\":\"\",\"data\":" + book + "}"), "World file must have a name");
        assertRefused(client.post("/api/worldinfo/edit", "{\"name\":\"Sea\"}"), "Is not a valid world info file");
        assertRefused(client.post("/api/worldinfo/edit", "{\"name\":\"Sea\",\"data\":\"{\\\"entries\\\":{}}\"}"), "Is not a valid world info file");
        assertRefused(client.post("/api/worldinfo/edit", "{\"name\":\"Sea\",\"data\":[" + book + "]}"), "Is not a valid world info file");
        assertRefused(client.post("/api/worldinfo/edit", "{\"name\":\"Sea\",\"data\":{\"name\":\"Sea\"}}"), "Is not a valid world info file");
        assertRefused(client.post("/api/worldinfo/edit", "{\"name\":{\"a\":1},\"data\":" + book + "}"), null);
        for (String name : List.of("con", "x".repeat(231))) {
            assertRefused(client.post("/api/worldinfo/edit", "{\"name\":\"" + name + "\",\"data\":" + book + "}"), null);
        }
        assertRefused(client.post("/api/worldinfo/edit", "{\"name\":\"Sea\",\"data\":{\"entries\":{}"), null);
        // not JSON: Express reads the body as {}
        HttpResponse<Buffer> form = TestServer.Client.send(client.request(HttpMethod.POST, "/api/worldinfo/edit")
                .putHeader("Content-Type", "text/plain"), Buffer.buffer("{\"name\":\"Sea\",\"data\":" + book + "}"));
        assertRefused(form, "World file must have a name");
        assertEquals(List.of(), worldFiles());
        assertEquals("{\"api_key\":\"keep\"}", document("secrets.json"));

        // the longest name whose file (and its temp file) fits
        assertEquals(200, client.post("/api/worldinfo/edit", "{\"name\":\"" + "x".repeat(230) + "\",\"data\":" + book + "}").statusCode());
        assertEquals(List.of("x".repeat(230) + ".json"), worldFiles());
    }

    @Test
    void namesAreCleanedAsStCleansThemAndNothingIsWrittenOutsideTheFolder() throws IOException {
        String book = "{\"entries\":{}}";
        Set<Path> before = UserDocuments.all(server);
        Set<Path> written = new HashSet<>();
        for (StNames.Case c : StNames.CASES) {
            String name = StNames.json(c.name());
            HttpResponse<Buffer> saved = client.post("/api/worldinfo/edit", "{\"name\":" + name + ",\"data\":" + book + "}");
            if (c.withJson() == null) {
                assertRefused(saved, null);
                assertRefused(client.post("/api/worldinfo/get", "{\"name\":" + name + "}"), null);
                assertRefused(client.post("/api/worldinfo/delete", "{\"name\":" + name + "}"), null);
                continue;
            }
            assertEquals(200, saved.statusCode(), c.name());
            assertEquals("{\n    \"entries\": {}\n}", document("worlds/" + c.withJson()), c.name());
            assertEquals(book, client.post("/api/worldinfo/get", "{\"name\":" + name + "}").bodyAsString());
            written.add(worlds.resolve(c.withJson()));
        }
        StNames.assertOnlyAdded(server, before, written);
        for (StNames.Case c : StNames.CASES) {
            if (c.withJson() != null) {
                assertEquals(200, client.post("/api/worldinfo/delete", "{\"name\":" + StNames.json(c.name()) + "}").statusCode());
            }
        }
        StNames.assertOnlyAdded(server, before, Set.of());
    }

    @Test
    void deleteRemovesTheBookOnly() throws IOException {
        seedWorld("Sea.json", "{\"entries\":{}}");
        server.putDocument(DocumentStore.Folder.ROOT, "secrets.json", "{}");
        assertRefused(client.post("/api/worldinfo/delete", "{}"), null);
        assertEquals(404, client.post("/api/worldinfo/delete", "{\"name\":\"../secrets\"}").statusCode());
        assertEquals(404, client.post("/api/worldinfo/delete", "{\"name\":\"Land\"}").statusCode());
        assertTrue(hasDocument("secrets.json"));

        HttpResponse<Buffer> r = client.post("/api/worldinfo/delete", "{\"name\":\"Sea\"}");
        assertEquals(200, r.statusCode());
        assertEquals("OK", r.bodyAsString());
        assertEquals(List.of(), worldFiles());
        assertEquals(404, client.post("/api/worldinfo/delete", "{\"name\":\"Sea\"}").statusCode());
    }

    @Test
    void importStoresTheUploadAsSentUnderTheFilesName() throws IOException {
        String sent = "{\"entries\": {\"3\": {\"uid\": 3, \"key\": [\"moon\"], \"order\": 1.50}, \"1\": {\"uid\": 1}}, \"name\": \"Sky\"}\n";
        HttpResponse<Buffer> r = importBook("Sky Lore?.lorebook", sent.getBytes(StandardCharsets.UTF_8), null);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("{\"name\":\"Sky Lore\"}", r.bodyAsString());
        assertEquals(sent, document("worlds/Sky Lore.json"), "kept byte for byte, not re-formatted");

        // the frontend's conversion of a foreign format wins over the file, which may not even be JSON
        String converted = "{\"entries\":{\"0\":{\"uid\":0,\"key\":[\"star\"],\"content\":\"Bright\"}},\"originalData\":{\"lorebookVersion\":5}}";
        r = importBook("Sky Lore.png", Fixtures.plainPng(), converted);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(converted, document("worlds/Sky Lore.json"), "an existing book is overwritten");

        // converted books can be large: a form field far beyond Netty's default attribute size
        String large = "{\"entries\":{\"0\":{\"uid\":0,\"content\":\"" + "lore ".repeat(100_000) + "\"}}}";
        r = importBook("Large.json", "{}".getBytes(StandardCharsets.UTF_8), large);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(large, document("worlds/Large.json"));

        // a byte-order mark is dropped (ST refuses such a file; its own reader could not parse it back)
        r = importBook("bom.json", ("\uFEFF" + sent).getBytes(StandardCharsets.UTF_8), null);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(sent, document("worlds/bom.json"));
        assertEquals(List.of("Large.json", "Sky Lore.json", "bom.json"), worldFiles());
    }

    @Test
    void importCleansTheFilesNameAsStDoes() throws IOException {
        byte[] book = "{\"entries\":{}}".getBytes(StandardCharsets.UTF_8);
        // multer keeps what follows the last separator, then sanitize drops ?*<>|"
        assertEquals("{\"name\":\"Night Shift\"}", importBook("../up/Night Shift?.json", book, null).bodyAsString());
        assertEquals("{\"name\":\"qz\"}", importBook("..\\q*<>|\"z.json", book, null).bodyAsString());
        assertRefused(importBook("up/..", book, null), null); // multer drops a file without a name: no file, a 400
        assertEquals(List.of("Night Shift.json", "qz.json"), worldFiles());
    }

    @Test
    void importRefusesWhatIsNotABookAndWritesNothing() throws IOException {
        byte[] book = "{\"entries\":{}}".getBytes(StandardCharsets.UTF_8);
        assertRefused(client.post("/api/worldinfo/import", "{\"entries\":{}}"), null); // JSON, not a multipart upload
        assertRefused(importBook("a.json", "{\"entries\":".getBytes(StandardCharsets.UTF_8), null), "Is not a valid world info file");
        assertRefused(importBook("a.json", "{\"name\":\"x\"}".getBytes(StandardCharsets.UTF_8), null), "Is not a valid world info file");
        assertRefused(importBook("a.json", "[{\"entries\":{}}]".getBytes(StandardCharsets.UTF_8), null), "Is not a valid world info file");
        assertRefused(importBook("a.json", "\"entries\"".getBytes(StandardCharsets.UTF_8), null), "Is not a valid world info file");
        assertRefused(importBook("a.png", Fixtures.plainPng(), null), "Is not a valid world info file");
        assertRefused(importBook("a.json", book, "{\"kind\":\"memory\"}"), "Is not a valid world info file");
        assertRefused(importBook("con.json", book, null), "World file must have a name");
        assertRefused(importBook("???", book, null), "World file must have a name");
        assertRefused(importBook("x".repeat(231) + ".json", book, null), null);
        MultipartForm wrongField = MultipartForm.create().binaryFileUpload("file", "a.json", Buffer.buffer(book), "application/json");
        assertRefused(send(wrongField), null);
        assertEquals(List.of(), worldFiles());
        assertFalse(hasDocument("secrets.json"));
    }

    /**
     * A card's embedded lorebook survives import and reads back unchanged; once the frontend has turned it into a
     * world linked to the card, an editor save embeds that world's entries in ST's character-book form.
     */
    @Test
    void embeddedLorebookRoundTrips() throws IOException {
        String characterBook = "{\"name\":\"Atlas\",\"scan_depth\":3,\"extensions\":{\"tool\":1},\"entries\":[{\"keys\":[\"north\"],"
                + "\"content\":\"Cold\",\"extensions\":{\"depth\":2},\"enabled\":true,\"insertion_order\":50,\"id\":7,"
                + "\"position\":\"after_char\",\"constant\":false}]}";
        String card = "{\"spec\":\"chara_card_v2\",\"spec_version\":\"2.0\",\"data\":{\"name\":\"Cartographer\",\"description\":\"Maps\","
                + "\"personality\":\"\",\"scenario\":\"\",\"first_mes\":\"Hi\",\"mes_example\":\"\",\"creator_notes\":\"\","
                + "\"system_prompt\":\"\",\"post_history_instructions\":\"\",\"alternate_greetings\":[],\"tags\":[],\"creator\":\"\","
                + "\"character_version\":\"\",\"extensions\":{},\"character_book\":" + characterBook + "}}";
        MultipartForm form = MultipartForm.create()
                .binaryFileUpload("avatar", "carto.png", Buffer.buffer(Fixtures.card(card)), "image/png")
                .attribute("file_type", "png");
        HttpResponse<Buffer> imported = TestServer.await(client.request(HttpMethod.POST, "/api/characters/import")
                .sendMultipartForm(form));
        assertEquals(200, imported.statusCode(), imported.bodyAsString());
        String avatar = json(imported).get("file_name").asText() + ".png";
        JsonNode character = json(client.post("/api/characters/get", "{\"avatar_url\":\"" + avatar + "\"}"));
        assertEquals(JsJson.parse(characterBook), character.at("/data/character_book"));

        // what the frontend's "Import Card Lore" saves: the converted entries and the original book
        String world = "{\"entries\":{\"7\":{\"uid\":7,\"key\":[\"north\"],\"keysecondary\":[],\"comment\":\"\",\"content\":\"Cold\","
                + "\"constant\":false,\"selective\":false,\"order\":50,\"position\":1,\"disable\":false,\"depth\":2,"
                + "\"displayIndex\":0,\"extensions\":{\"depth\":2}}},\"originalData\":" + characterBook + "}";
        assertEquals(200, client.post("/api/worldinfo/edit", "{\"name\":\"Atlas\",\"data\":" + world + "}").statusCode());
        String edit = JsJson.compact(JsJson.object().put("avatar_url", avatar).put("ch_name", "Cartographer")
                .put("first_mes", "Hi").put("world", "Atlas").put("json_data", character.get("json_data").asText()));
        HttpResponse<Buffer> edited = client.post("/api/characters/edit", edit);
        assertEquals(200, edited.statusCode(), edited.bodyAsString());
        JsonNode saved = json(client.post("/api/characters/get", "{\"avatar_url\":\"" + avatar + "\"}"));
        assertEquals("Atlas", saved.at("/data/extensions/world").asText());
        JsonNode embedded = saved.at("/data/character_book");
        assertEquals("Atlas", embedded.get("name").asText());
        assertEquals(1, embedded.get("entries").size());
        JsonNode entry = embedded.get("entries").get(0);
        assertEquals(7, entry.get("id").asInt());
        assertEquals("[\"north\"]", JsJson.compact(entry.get("keys")));
        assertEquals(50, entry.get("insertion_order").asInt());
        assertEquals("after_char", entry.get("position").asText());
        assertTrue(entry.get("use_regex").booleanValue());
        assertEquals(1, entry.at("/extensions/position").asInt());
        assertEquals(0, entry.at("/extensions/display_index").asInt());
    }

    private HttpResponse<Buffer> importBook(String fileName, byte[] content, String convertedData) {
        MultipartForm form = MultipartForm.create().binaryFileUpload("avatar", fileName, Buffer.buffer(content), "application/octet-stream");
        if (convertedData != null) {
            form.attribute("convertedData", convertedData);
        }
        return send(form);
    }

    private HttpResponse<Buffer> send(MultipartForm form) {
        return TestServer.await(client.request(HttpMethod.POST, "/api/worldinfo/import").sendMultipartForm(form));
    }

    /** A 400 with a JSON error (the given message, when there is one). */
    private static void assertRefused(HttpResponse<Buffer> r, String message) {
        assertEquals(400, r.statusCode(), r.bodyAsString());
        JsonNode error = json(r).get("error");
        assertTrue(error != null && error.isTextual(), r.bodyAsString());
        if (message != null) {
            assertEquals(message, error.asText());
        }
    }

    /** The books as the store lists them and any other file left in the folder (a temp file), sorted. */
    private List<String> worldFiles() {
        return UserDocuments.folder(server, "worlds");
    }
}
