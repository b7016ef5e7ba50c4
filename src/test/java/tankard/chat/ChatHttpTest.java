package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.FileLayout;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;
import tankard.testing.FileLayout;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChatHttpTest extends ServerTest {
    private static final String CHAT = Fixtures.text("chats/bramble-first-meeting.jsonl");
    private static final String INTEGRITY = "6f1c2d4e-0a8b-4c3d-9e7f-112233445566";


    /** Backups off unless a test turns them on, so they do not interfere. */
    @Override
    protected TestServer.Client start(String configYaml) {
        return super.start(configYaml == null ? "backups:\n  chat:\n    enabled: false\n" : configYaml);
    }

    /** The default user's chats, backups and other files, in the server's stores. */
    private UserFiles files() {
        return server.files();
    }

    /** A save body whose chat array holds the given JSONL lines verbatim. */
    private static String saveBody(String avatar, String fileName, String jsonl, String extra) {
        return "{\"ch_name\":\"Bramble\",\"file_name\":" + JsJson.compact(JsJson.tree(fileName)) + ",\"avatar_url\":"
                + JsJson.compact(JsJson.tree(avatar)) + ",\"chat\":[" + String.join(",", jsonl.split("\n", -1)) + "]"
                + extra + "}";
    }

    private List<String> backupNames() {
        return files().backupNames("").stream().sorted().toList();
    }

    /** Stores a chat backup with that modification time. */
    private void oldBackup(String name, String content, long modifiedMs) {
        files().write("backups/" + name, content);
        files().setModified("backups/" + name, modifiedMs);
    }

    @Test
    void firstVisitCreatesTheFolderAndAnswersAnEmptyObject() {
        TestServer.Client client = start(null);
        String get = "{\"ch_name\":\"Bramble\",\"file_name\":\"Bramble - 2025\",\"avatar_url\":\"Bramble.png\"}";
        HttpResponse<Buffer> first = client.post("/api/chats/get", get);
        assertEquals(200, first.statusCode());
        assertEquals("{}", first.bodyAsString());
        assertTrue(files().chatFolderExists("chats/Bramble"));

        assertEquals("[]", client.post("/api/chats/get", get).bodyAsString(), "a missing chat reads as []");
        assertEquals("{}", client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\"}").bodyAsString());
        assertEquals("{}", client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"\"}").bodyAsString());
    }

    @Test
    void saveWritesTheClientsLinesAndGetReadsThemBack() throws IOException {
        TestServer.Client client = start(null);
        HttpResponse<Buffer> save = client.post("/api/chats/save", saveBody("Bramble.png", "Bramble - first", CHAT, ""));
        assertEquals(200, save.statusCode());
        assertEquals("{\"ok\":true}", save.bodyAsString());

        assertArrayEquals(CHAT.getBytes(StandardCharsets.UTF_8), files().bytes("chats/Bramble/Bramble - first.jsonl"),
                "one compact line per element, LF, no trailing newline, number lexemes kept");

        HttpResponse<Buffer> get = client.post("/api/chats/get",
                "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"Bramble - first\"}");
        assertEquals(200, get.statusCode());
        assertEquals("[" + CHAT.replace("\n", ",") + "]", get.bodyAsString());
    }

    @Test
    void saveWritesWhatStWritesForJsonNoBrowserSends() throws IOException {
        TestServer.Client client = start(null);
        String body = "{ \"avatar_url\" : \"Bramble.png\", \"file_name\": \"c\",\n \"chat\": [\n"
                + "  { \"chat_metadata\" : { \"integrity\" : \"x\" } , \"user_name\":\"unused\" },\n"
                + "  {\"name\":\"A b\", \"n\": 1.50, \"big\": 12345678901234567890123, \"e\": 1E+2, \"s\": \"a  \\\" b\"},\n"
                + "  null, 0, \"line\", [ 1 , 2 ]\n] }";
        assertEquals(200, client.post("/api/chats/save", body).statusCode());
        assertEquals("{\"chat_metadata\":{\"integrity\":\"x\"},\"user_name\":\"unused\"}\n"
                        + "{\"name\":\"A b\",\"n\":1.5,\"big\":1.2345678901234568e+22,\"e\":100,\"s\":\"a  \\\" b\"}\n"
                        + "null\n0\n\"line\"\n[1,2]",
                files().read("chats/Bramble/c.jsonl"));

        // get drops what ST's loader drops: falsy values
        assertEquals("[{\"chat_metadata\":{\"integrity\":\"x\"},\"user_name\":\"unused\"},"
                        + "{\"name\":\"A b\",\"n\":1.5,\"big\":1.2345678901234568e+22,\"e\":100,\"s\":\"a  \\\" b\"},"
                        + "\"line\",[1,2]]",
                client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\"}").bodyAsString());
    }

    @Test
    void aLineTheSaveRepeatsIsWrittenAsJsonStringifyPrintsItWhenItWasStoredInAnotherSpelling() {
        TestServer.Client client = start(null);
        String header = "{\"user_name\":\"You\",\"character_name\":\"Bramble\",\"chat_metadata\":{}}";
        String handEdited = "{\"name\": \"Bramble\", \"mes\": \"spaced by hand\"}";
        files().write("chats/Bramble/c.jsonl", header + "\n" + handEdited);
        // a read leaves the chat at hand on this node (on PostgreSQL a copy: ChatStore#openAtHand)
        assertEquals(200, client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\"}").statusCode());
        String added = "{\"name\": \"You\", \"mes\": \"new\"}";
        // as ST's frontend orders the members: the card's avatar after the chat (its folder is guessed from ch_name)
        assertEquals(200, client.post("/api/chats/save", "{\"ch_name\":\"Bramble\",\"file_name\":\"c\",\"chat\":["
                + header + "," + handEdited + "," + added + "],\"avatar_url\":\"Bramble.png\"}").statusCode());
        String asSt = header + "\n{\"name\":\"Bramble\",\"mes\":\"spaced by hand\"}\n{\"name\":\"You\",\"mes\":\"new\"}";
        assertEquals(asSt, files().read("chats/Bramble/c.jsonl"), "every line as ST's trySaveChat writes it");

        assertEquals(200, client.post("/api/chats/save", "{\"ch_name\":\"Bramble\",\"file_name\":\"c\",\"chat\":["
                + asSt.replace("\n", ",") + "],\"avatar_url\":\"Bramble.png\"}").statusCode());
        assertEquals(asSt, files().read("chats/Bramble/c.jsonl"), "the lines it repeats, stored as ST prints them");
    }

    @Test
    void aSaveRepeatingStoredLinesIsStillRefusedWhenItIsNotJson() {
        TestServer.Client client = start(null);
        String header = "{\"user_name\":\"You\",\"chat_metadata\":{}}";
        String line = "{\"name\":\"Bramble\",\"mes\":\"hello\"}";
        files().write("chats/Bramble/c.jsonl", header + "\n" + line);
        assertEquals(200, client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\"}").statusCode());
        for (String broken : new String[]{header + "," + line + " x", header + "," + line + "}", header + "," + line}) {
            assertEquals(400, client.post("/api/chats/save", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\",\"chat\":["
                    + broken + "]" + (broken.endsWith(line) ? "" : "}")).statusCode(), broken);
        }
        assertEquals(header + "\n" + line, files().read("chats/Bramble/c.jsonl"));
    }

    @Test
    void getSkipsLinesThatDoNotParse() throws IOException {
        TestServer.Client client = start(null);
        files().write("chats/Bramble/mixed.jsonl",
                "{\"chat_metadata\":{}}\r\n{broken\n\n{\"name\":\"B\",\"mes\":\"ok\"} \n{\"a\":1} {\"b\":2}\nfalse\n\"\"\n{\"mes\":\"last\"}\n");
        assertEquals("[{\"chat_metadata\":{}},{\"name\":\"B\",\"mes\":\"ok\"},{\"mes\":\"last\"}]",
                client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"mixed\"}").bodyAsString());
        files().write("chats/Bramble/empty.jsonl", "");
        assertEquals("[]", client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"empty\"}").bodyAsString());
    }

    @Test
    void aChatEndingWithALineFeedReadsTheSameEveryTime() throws IOException {
        TestServer.Client client = start(null);
        files().write("chats/Bramble/c.jsonl", CHAT + "\n");
        String get = "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\"}";
        String array = "[" + CHAT.replace("\n", ",") + "]";
        assertEquals(array, client.post("/api/chats/get", get).bodyAsString());
        assertEquals(array, client.post("/api/chats/get", get).bodyAsString(), "the second read, from what the first found");
    }

    @Test
    void getFindsTheFolderSaveWroteForANumericAvatarUrl() {
        TestServer.Client client = start(null);
        String save = "{\"avatar_url\":1.50,\"file_name\":\"c\",\"chat\":[{\"user_name\":\"u\"}]}";
        assertEquals(200, client.post("/api/chats/save", save).statusCode());
        HttpResponse<Buffer> get = client.post("/api/chats/get", "{\"avatar_url\":1.50,\"file_name\":\"c\"}");
        assertEquals(200, get.statusCode(), get.bodyAsString());
        assertEquals("[{\"user_name\":\"u\"}]", get.bodyAsString(), "String(avatar_url) names the folder in both");
        assertEquals(400, client.post("/api/chats/get", "{\"avatar_url\":[\"a\"]}").statusCode());
    }

    @Test
    @FileLayout // a folder where a chat file would be: only a file system has one
    void aChatThatCannotBeReadIsAServerErrorNotAnEmptyChat() throws IOException {
        TestServer.Client client = start(null);
        Files.createDirectories(server.userDir().resolve("chats/Bramble/broken.jsonl"));
        HttpResponse<Buffer> get = client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"broken\"}");
        assertEquals(500, get.statusCode());
        assertTrue(json(get).has("error"));
    }

    @Test
    void integrityMismatchIsRefusedUnlessForced() throws IOException {
        TestServer.Client client = start(null);
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "c", CHAT, "")).statusCode());
        String file = "chats/Bramble/c.jsonl";
        String other = CHAT.replace(INTEGRITY, "11111111-2222-3333-4444-555555555555").replace("Mind the sting.", "Changed.");

        HttpResponse<Buffer> conflict = client.post("/api/chats/save", saveBody("Bramble.png", "c", other, ""));
        assertEquals(400, conflict.statusCode());
        assertEquals("{\"error\":\"integrity\"}", conflict.bodyAsString());
        assertEquals(CHAT, files().read(file), "nothing written");

        assertEquals(400, client.post("/api/chats/save", saveBody("Bramble.png", "c", other, ",\"force\":false")).statusCode());
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "c", other, ",\"force\":true")).statusCode());
        assertEquals(other, files().read(file));

        // the same token passes; a request without a token passes; a stored file without one passes
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "c", other, "")).statusCode());
        String noToken = CHAT.replace("\"integrity\":\"" + INTEGRITY + "\",", "");
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "c", noToken, "")).statusCode());
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "c", CHAT, "")).statusCode());
        assertEquals(CHAT, files().read(file));
    }

    @Test
    void integrityCheckCanBeTurnedOff() throws IOException {
        TestServer.Client client = start("backups:\n  chat:\n    enabled: false\n    checkIntegrity: false\n");
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "c", CHAT, "")).statusCode());
        String other = CHAT.replace(INTEGRITY, "something-else");
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "c", other, "")).statusCode());
        assertEquals(other, files().read("chats/Bramble/c.jsonl"), "the second save replaced the first");
    }

    @Test
    void badSavesWriteNothing() throws IOException {
        TestServer.Client client = start(null);
        HttpResponse<Buffer> notArray = client.post("/api/chats/save",
                "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\",\"chat\":{\"0\":{}}}");
        assertEquals(400, notArray.statusCode());
        assertEquals("{\"error\":\"The request's body.chat is not an array.\"}", notArray.bodyAsString());
        assertEquals(400, client.post("/api/chats/save", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\"}").statusCode());
        assertEquals(400, client.post("/api/chats/save", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\",\"chat\":[{]}").statusCode());
        assertEquals(400, client.post("/api/chats/save", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\",\"chat\":[]} x").statusCode());
        assertEquals(400, client.post("/api/chats/save", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\",\"chat\":[{}").statusCode());
        assertEquals(400, client.post("/api/chats/save", "[{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\",\"chat\":[]}]").statusCode());
        assertEquals(400, client.post("/api/chats/save", "{\"file_name\":\"c\",\"chat\":[]}").statusCode());
        assertEquals(400, client.post("/api/chats/save", "{\"avatar_url\":\"Bramble.png\",\"chat\":[]}").statusCode());
        for (String avatar : List.of("../Bramble.png", "..", "a/b.png", "x\\\\y.png", "...png")) {
            assertEquals(400, client.post("/api/chats/save", saveBody(avatar, "c", CHAT, "")).statusCode(), avatar);
            assertEquals(400, client.post("/api/chats/get",
                    "{\"avatar_url\":" + JsJson.compact(JsJson.tree(avatar)) + ",\"file_name\":\"c\"}").statusCode(), avatar);
        }
        assertEquals(400, client.post("/api/chats/save", saveBody("Bramble.png", "con", CHAT, "")).statusCode(),
                "a chat name that sanitizes to nothing");
        try (Stream<Path> written = Files.walk(server.userDir())) {
            assertFalse(written.anyMatch(p -> p.toString().endsWith(".jsonl")));
        }
        assertEquals(List.of(), files().chatNames("chats/Bramble"));

        // path separators in the chat name are removed, not followed
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "../../x", CHAT, "")).statusCode());
        assertTrue(files().exists("chats/Bramble/....x.jsonl"));
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "", "", "")).statusCode());
        assertEquals(0, files().bytes("chats/Bramble/.jsonl").length, "an empty chat array is a 0-byte file");
    }

    @Test
    void savesAreBackedUpAndPruned() throws IOException {
        TestServer.Client client = start("backups:\n  common:\n    numberOfBackups: 2\n  chat:\n    throttleInterval: 0\n");
        for (int i = 0; i < 3; i++) {
            oldBackup("chat_default_bramble_2020010" + i + "-000000.jsonl", "old " + i, 1_600_000_000_000L + i);
        }
        files().write("backups/chat_other_20200101-000000.jsonl", "other");

        assertEquals(200, client.post("/api/chats/save", saveBody("default_Bramble.png", "c", CHAT, "")).statusCode());
        List<String> names = backupNames();
        assertEquals(3, names.size(), names.toString());
        assertTrue(names.contains("chat_default_bramble_20200102-000000.jsonl"), "the newest old one survives");
        assertTrue(names.contains("chat_other_20200101-000000.jsonl"), "other keys are not pruned");
        String fresh = names.stream().filter(n -> n.matches("chat_default_bramble_\\d{8}-\\d{6}\\.jsonl")
                && !n.startsWith("chat_default_bramble_2020")).findFirst().orElseThrow();
        assertEquals(CHAT, files().read("backups/" + fresh), "a byte copy of the saved chat");

        assertEquals(200, client.post("/api/chats/group/save",
                "{\"id\":\"2025-03-07@09h05m02s042ms\",\"chat\":[" + CHAT.replace("\n", ",") + "]}").statusCode());
        assertTrue(backupNames().stream().anyMatch(n -> n.matches("chat_2025_03_07_09h05m02s042ms_\\d{8}-\\d{6}\\.jsonl")));
    }

    @Test
    void totalBackupsCanBeCapped() throws IOException {
        TestServer.Client client = start("backups:\n  chat:\n    throttleInterval: 0\n    maxTotalBackups: 1\n");
        oldBackup("chat_other_20200101-000000.jsonl", "other", 1_600_000_000_000L);
        assertEquals(200, client.post("/api/chats/save", saveBody("Bramble.png", "c", CHAT, "")).statusCode());
        List<String> names = backupNames();
        assertEquals(1, names.size());
        assertTrue(names.get(0).startsWith("chat_bramble_"));
    }

    @Test
    void backupsAreThrottledWithATrailingBackupOfTheLatestSave() throws Exception {
        TestServer.Client client = start("backups:\n  chat:\n    throttleInterval: 1500\n");
        assertEquals(200, client.post("/api/chats/save", saveBody("Alpha.png", "c", CHAT, "")).statusCode());
        assertEquals(200, client.post("/api/chats/save", saveBody("Beta.png", "c", CHAT, "")).statusCode());
        String latest = CHAT.replace("Mind the sting.", "Latest.");
        assertEquals(200, client.post("/api/chats/save", saveBody("Gamma.png", "c", latest, "")).statusCode());
        List<String> now = backupNames();
        assertEquals(1, now.size(), now.toString());
        assertTrue(now.get(0).startsWith("chat_alpha_"));

        long deadline = System.currentTimeMillis() + 10_000;
        while (backupNames().size() < 2 && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        List<String> later = backupNames();
        assertEquals(2, later.size(), later.toString());
        String trailing = later.stream().filter(n -> !n.startsWith("chat_alpha_")).findFirst().orElseThrow();
        assertTrue(trailing.startsWith("chat_gamma_"), "the trailing backup is of the latest save");
        assertEquals(latest, files().read("backups/" + trailing));
    }

    @Test
    void groupChatsRoundTrip() throws IOException {
        TestServer.Client client = start(null);
        String id = "2025-03-07@09h05m02s042ms";
        assertEquals("[]", client.post("/api/chats/group/get", "{\"id\":\"" + id + "\"}").bodyAsString());
        assertEquals(200, client.post("/api/chats/group/save",
                "{\"id\":\"" + id + "\",\"chat\":[" + CHAT.replace("\n", ",") + "]}").statusCode());
        assertEquals(CHAT, files().read("group chats/" + id + ".jsonl"));
        assertEquals("[" + CHAT.replace("\n", ",") + "]",
                client.post("/api/chats/group/get", "{\"id\":\"" + id + "\"}").bodyAsString());

        String other = CHAT.replace(INTEGRITY, "different");
        assertEquals("{\"error\":\"integrity\"}", client.post("/api/chats/group/save",
                "{\"id\":\"" + id + "\",\"chat\":[" + other.replace("\n", ",") + "]}").bodyAsString());
        assertEquals(400, client.post("/api/chats/group/get", "{}").statusCode());
        assertEquals(400, client.post("/api/chats/group/save", "{\"chat\":[]}").statusCode());
        assertEquals(400, client.post("/api/chats/group/save", "{\"id\":\"x\",\"chat\":\"no\"}").statusCode());
        assertEquals(200, client.post("/api/chats/group/save", "{\"id\":\"../../escape\",\"chat\":[]}").statusCode());
        assertTrue(files().exists("group chats/....escape.jsonl"));
    }

    @Test
    void recentChatsListEverythingNewestFirstWithPinsOnTop() throws IOException {
        TestServer.Client client = start(null);
        files().write("characters/Bramble.png", Fixtures.card(Fixtures.text("characters/bramble-v2.json")));
        files().write("characters/Juniper.png", Fixtures.card(Fixtures.text("characters/juniper-v3.json")));
        writeChat("chats/Bramble/b-old.jsonl", CHAT, 1_000);
        writeChat("chats/Bramble/b-new.jsonl", CHAT, 5_000);
        writeChat("chats/Juniper/j.jsonl", Fixtures.text("chats/legacy-header.jsonl"), 4_000);
        writeChat("chats/Juniper/corrupt.jsonl", "{\"chat_metadata\":{}}\n{\"mes\":\"no name\"}", 9_000);
        writeChat("chats/Nobody/orphan.jsonl", CHAT, 8_000); // no card: not listed
        writeChat("chats/loose.jsonl", CHAT, 3_000);
        writeChat("group chats/g1.jsonl", CHAT, 6_000);
        writeChat("group chats/g-unlisted.jsonl", CHAT, 7_000);
        writeChat("chats/Bramble/empty.jsonl", "", 2_000);
        files().write("groups/1700000000000.json",
                "{\n    \"id\": \"1700000000000\",\n    \"name\": \"Crew\",\n    \"chats\": [\n        \"g1\",\n        \"missing\"\n    ]\n}");
        files().write("groups/broken.json", "{");

        JsonNode all = json(client.post("/api/chats/recent", "{}"));
        assertEquals(List.of("g1.jsonl", "b-new.jsonl", "j.jsonl", "loose.jsonl", "empty.jsonl", "b-old.jsonl"),
                fileNames(all), "newest first; corrupted, unlisted and orphaned chats left out");
        assertEquals("{\"match\":true,\"file_id\":\"g1\",\"file_name\":\"g1.jsonl\",\"file_size\":\"1.13KB\",\"chat_items\":3,"
                + "\"mes\":\"Mind the sting.\",\"last_mes\":\"2025-01-02T10:01:20.001Z\",\"group\":\"1700000000000\"}",
                JsJson.compact(all.get(0)));
        assertEquals("Bramble.png", all.get(1).get("avatar").asText());
        assertEquals("Juniper.png", all.get(2).get("avatar").asText());
        assertFalse(all.get(3).has("avatar") || all.get(3).has("group"), "loose chats have no owner");
        assertEquals("{\"match\":false,\"file_id\":\"empty\",\"file_name\":\"empty.jsonl\",\"file_size\":\"0B\","
                + "\"chat_items\":0,\"mes\":\"[The chat is empty]\",\"last_mes\":1700000002000,\"avatar\":\"Bramble.png\"}",
                JsJson.compact(all.get(4)));
        assertFalse(all.get(0).has("chat_metadata"));

        // max + pinned slots, taken before corrupted files are dropped (ST's order of work)
        ObjectNode request = JsJson.object().put("max", 2).put("metadata", true);
        ArrayNode pinned = request.putArray("pinned");
        pinned.addObject().put("file_name", "b-old.jsonl").put("avatar", "Bramble.png");
        pinned.addObject().put("file_name", "b-old.jsonl").put("avatar", "Juniper.png"); // matches nothing
        JsonNode limited = json(client.post("/api/chats/recent", JsJson.compact(request)));
        assertEquals(List.of("b-old.jsonl", "g1.jsonl", "b-new.jsonl"), fileNames(limited));
        assertEquals(INTEGRITY, limited.get(0).get("chat_metadata").get("integrity").asText());

        assertEquals("[]", client.post("/api/chats/recent", "{\"max\":\"many\"}").bodyAsString(), "parseInt NaN");
        assertEquals(List.of("g1.jsonl"), fileNames(json(client.post("/api/chats/recent", "{\"max\":\"2.9\"}"))));
    }

    private void writeChat(String relative, String content, long mtimeOffset) {
        files().write(relative, content);
        files().setModified(relative, 1_700_000_000_000L + mtimeOffset);
    }

    private static List<String> fileNames(JsonNode list) {
        return java.util.stream.StreamSupport.stream(list.spliterator(), false)
                .map(c -> c.get("file_name").asText()).toList();
    }
}
