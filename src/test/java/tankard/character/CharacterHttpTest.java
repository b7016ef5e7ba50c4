package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.FileLayout;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CharacterHttpTest extends ServerTest {
    private static final String BRAMBLE = Fixtures.text("characters/bramble-v2.json");
    private static final String JUNIPER = Fixtures.text("characters/juniper-v3.json");
    private static final String OSRIC = Fixtures.text("characters/osric-v1.json");


    private UserFiles files() {
        return server.files();
    }

    private void putCard(String fileName, byte[] png) {
        files().write("characters/" + fileName, png);
    }

    private static Map<String, JsonNode> byAvatar(JsonNode list) {
        Map<String, JsonNode> map = new HashMap<>();
        list.forEach(c -> map.put(c.get("avatar").asText(), c));
        return map;
    }

    private static List<String> keys(JsonNode object) {
        List<String> keys = new ArrayList<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void allListsAV2CardAsStFrontendExpectsIt() throws IOException {
        TestServer.Client client = start(null);
        putCard("Bramble.png", Fixtures.card(BRAMBLE));
        files().write("chats/Bramble/a.jsonl", Fixtures.bytes("chats/bramble-first-meeting.jsonl"));
        files().setModified("chats/Bramble/a.jsonl", 1_700_000_000_123L);

        HttpResponse<Buffer> response = client.post("/api/characters/all", "{}");
        assertEquals(200, response.statusCode());
        assertTrue(response.getHeader("Content-Type").startsWith("application/json"));
        JsonNode list = json(response);
        assertEquals(1, list.size());
        JsonNode bramble = list.get(0);

        assertEquals(List.of("name", "description", "personality", "scenario", "first_mes", "mes_example",
                "creatorcomment", "avatar", "chat", "talkativeness", "fav", "tags", "spec", "spec_version", "data",
                "create_date", "json_data", "date_added", "chat_size", "date_last_chat", "data_size"), keys(bramble));
        assertEquals("Bramble.png", bramble.get("avatar").asText());
        assertEquals(BRAMBLE, bramble.get("json_data").asText());
        assertEquals("Bramble - 2025-01-02@10h00m00s000ms", bramble.get("chat").asText());
        assertEquals("0.5", bramble.get("talkativeness").textValue(), "string talkativeness stays a string");
        assertEquals("2025-01-02T10:00:00.000Z", bramble.get("create_date").asText());
        assertEquals(1162, bramble.get("chat_size").asLong());
        assertEquals("1700000000123", JsJson.compact(bramble.get("date_last_chat")));
        assertEquals(283, bramble.get("data_size").asInt());
        assertTrue(bramble.get("date_added").isNumber());
        assertTrue(Math.abs(bramble.get("date_added").asDouble() - System.currentTimeMillis()) < 60_000);
        assertEquals(JsJson.parse(BRAMBLE).get("data"), bramble.get("data"), "data is passed through untouched");
    }

    @Test
    @FileLayout // a file that is not a chat, put by hand in a chat folder: only a file system has one
    void chatSizeCountsEveryEntryOfTheChatFolder() throws IOException {
        TestServer.Client client = start(null);
        putCard("Bramble.png", Fixtures.card(BRAMBLE));
        Path chats = Files.createDirectories(server.userDir().resolve("chats/Bramble"));
        Files.write(chats.resolve("a.jsonl"), Fixtures.bytes("chats/bramble-first-meeting.jsonl"));
        Files.writeString(chats.resolve("notes.txt"), "12345");
        Files.setLastModifiedTime(chats.resolve("a.jsonl"), FileTime.fromMillis(1_700_000_000_123L));
        Files.setLastModifiedTime(chats.resolve("notes.txt"), FileTime.fromMillis(1_600_000_000_000L));

        JsonNode bramble = json(client.post("/api/characters/all", "{}")).get(0);
        assertEquals(1162 + 5, bramble.get("chat_size").asLong(), "every entry of the chat folder counts");
        assertEquals("1700000000123", JsJson.compact(bramble.get("date_last_chat")));
    }

    @Test
    void ccv3ChunkWinsOverCharaAndItsDataOverTheMirrors() throws IOException {
        TestServer.Client client = start(null);
        String stale = BRAMBLE.replace("Bramble", "Stale");
        putCard("Juniper.png", Fixtures.card(stale, JUNIPER));
        // keyword case does not matter and the ccv3 chunk may come first
        byte[] upperFirst = Fixtures.withText(Fixtures.withText(Fixtures.plainPng(), "CCV3", Fixtures.base64(JUNIPER)),
                "chara", Fixtures.base64(stale));
        putCard("Juniper2.png", upperFirst);

        Map<String, JsonNode> all = byAvatar(json(client.post("/api/characters/all", "{}")));
        for (String avatar : List.of("Juniper.png", "Juniper2.png")) {
            JsonNode juniper = all.get(avatar);
            assertEquals("Juniper", juniper.get("name").asText());
            assertEquals("The lamp needs oil.", juniper.get("first_mes").asText());
            assertEquals(JUNIPER, juniper.get("json_data").asText());
            assertFalse(juniper.has("talkativeness"), "a mirror missing from data.extensions is dropped");
            assertTrue(juniper.get("fav").asBoolean());
            assertEquals("Juniper - ", juniper.get("chat").asText().substring(0, 10));
            assertTrue(juniper.get("chat").asText().matches("Juniper - \\d{4}-\\d\\d-\\d\\d@\\d\\dh\\d\\dm\\d\\ds\\d{3}ms"));
            assertTrue(juniper.get("create_date").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"),
                    "create_date falls back to the file time as ISO");
            assertEquals("June", juniper.get("data").get("nickname").asText());
            assertEquals("0.30000000000000004", JsJson.compact(juniper.get("data").get("extensions").get("ratio")));
            assertEquals(86, juniper.get("data_size").asInt());
            assertEquals(0, juniper.get("chat_size").asInt());
            assertEquals(0, juniper.get("date_last_chat").asInt());
        }
    }

    @Test
    void v1CardIsConvertedLikeAnEditorSave() throws IOException {
        TestServer.Client client = start(null);
        putCard("Osric.png", Fixtures.card(OSRIC));
        JsonNode osric = json(client.post("/api/characters/all", "{}")).get(0);

        assertEquals(List.of("name", "description", "personality", "first_mes", "mes_example", "scenario",
                "creatorcomment", "talkativeness", "fav", "tags", "depth_prompt_prompt", "depth_prompt_depth",
                "create_date", "avatar", "chat", "spec", "spec_version", "data", "json_data", "date_added",
                "chat_size", "date_last_chat", "data_size"), keys(osric));
        assertEquals("chara_card_v2", osric.get("spec").asText());
        assertTrue(osric.get("fav").booleanValue(), "the string \"true\" counts");
        assertEquals("[\"knight\",\"old\"]", JsJson.compact(osric.get("tags")));
        assertEquals("2023-5-12 @21h 32m 29s 228ms", osric.get("create_date").asText());
        assertEquals(OSRIC, osric.get("json_data").asText());
        assertEquals(JsJson.parse("{\"name\":\"Osric\",\"description\":\"A retired knight.\",\"personality\":\"gruff\","
                + "\"scenario\":\"\",\"first_mes\":\"Hmph.\",\"mes_example\":\"\",\"creator_notes\":\"Old card.\","
                + "\"system_prompt\":\"\",\"post_history_instructions\":\"\",\"tags\":[\"knight\",\"old\"],\"creator\":\"\","
                + "\"character_version\":\"\",\"alternate_greetings\":[],\"extensions\":{\"talkativeness\":\"0.3\","
                + "\"fav\":true,\"world\":\"\",\"depth_prompt\":{\"prompt\":\"Osric is tired.\",\"depth\":2,\"role\":\"system\"}}}"),
                osric.get("data"));
        assertEquals("{\"prompt\":\"Osric is tired.\",\"depth\":2,\"role\":\"system\"}",
                JsJson.compact(osric.get("data").get("extensions").get("depth_prompt")));
        assertEquals(66, osric.get("data_size").asInt());
    }

    @Test
    void unreadableCardsAreSkippedNotFatal() throws IOException {
        TestServer.Client client = start(null);
        putCard("Bramble.png", Fixtures.card(BRAMBLE));
        byte[] badCrc = Fixtures.card(BRAMBLE);
        badCrc[indexOf(badCrc, "tEXt") + 6] ^= 0x01; // inside the card text: its chunk's CRC no longer matches
        putCard("badcrc.png", badCrc);
        // Only the text chunks of a card file are read, so only their CRCs are checked: a damaged image lists.
        byte[] badImage = Fixtures.card(BRAMBLE);
        badImage[indexOf(badImage, "IHDR") + 6] ^= 0x01;
        putCard("badimage.png", badImage);
        putCard("notpng.png", "hello".getBytes(StandardCharsets.UTF_8));
        putCard("nometa.png", Fixtures.plainPng());
        putCard("othertext.png", Fixtures.withText(Fixtures.plainPng(), "Comment", "made by a test"));
        putCard("badjson.png", Fixtures.card("{\"name\": oops"));
        putCard("array.png", Fixtures.card("[1,2]"));
        putCard("nulldata.png", Fixtures.card("{\"name\":\"N\",\"spec\":\"chara_card_v2\",\"data\":null}"));
        putCard("nameless.png", Fixtures.card(BRAMBLE.replace("\"name\":\"Bramble\"", "\"name\":\"\"")));
        byte[] cut = Fixtures.card(BRAMBLE);
        putCard("truncated.png", java.util.Arrays.copyOf(cut, cut.length - 12));
        files().createFolder("characters/folder.png");
        files().write("characters/Bramble.json", BRAMBLE); // ST lists PNG cards only

        HttpResponse<Buffer> response = client.post("/api/characters/all", "{}");
        assertEquals(200, response.statusCode());
        assertEquals(Set.of("Bramble.png", "badimage.png"), byAvatar(json(response)).keySet());

        for (String broken : List.of("badcrc.png", "notpng.png", "nometa.png", "badjson.png", "truncated.png")) {
            HttpResponse<Buffer> get = client.post("/api/characters/get", "{\"avatar_url\":\"" + broken + "\"}");
            assertEquals(200, get.statusCode());
            assertEquals("{\"date_added\":0,\"date_last_chat\":0,\"chat_size\":0}", get.bodyAsString());
        }
    }

    private static int indexOf(byte[] bytes, String ascii) {
        byte[] needle = ascii.getBytes(StandardCharsets.US_ASCII);
        outer:
        for (int i = 0; i + needle.length <= bytes.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (bytes[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalArgumentException(ascii + " not found");
    }

    @Test
    void base64IsReadLenientlyAsNodeDoes() throws IOException {
        TestServer.Client client = start(null);
        String encoded = Fixtures.base64(BRAMBLE).replace("=", "").replace('+', '-').replace('/', '_')
                .replaceAll("(.{60})", "$1\n");
        putCard("Bramble.png", Fixtures.withText(Fixtures.plainPng(), "chara", encoded));
        JsonNode list = json(client.post("/api/characters/all", "{}"));
        assertEquals(1, list.size());
        assertEquals(BRAMBLE, list.get(0).get("json_data").asText());
    }

    @Test
    void lazyLoadingAnswersShallowCharacters() throws IOException {
        TestServer.Client client = start("performance:\n  lazyLoadCharacters: true\n");
        putCard("Bramble.png", Fixtures.card(BRAMBLE));
        putCard("Juniper.png", Fixtures.card(JUNIPER));
        Map<String, JsonNode> all = byAvatar(json(client.post("/api/characters/all", "{}")));

        JsonNode bramble = all.get("Bramble.png");
        assertEquals(List.of("shallow", "name", "avatar", "chat", "fav", "date_added", "create_date", "date_last_chat",
                "chat_size", "data_size", "tags", "data"), keys(bramble));
        assertTrue(bramble.get("shallow").booleanValue());
        assertEquals("{\"name\":\"Bramble\",\"character_version\":\"1.0\",\"creator\":\"tankard\","
                + "\"creator_notes\":\"Test card for Tankard.\",\"tags\":[\"witch\",\"bees\"],"
                + "\"extensions\":{\"fav\":false,\"world\":\"\"}}", JsJson.compact(bramble.get("data")));
        JsonNode juniper = all.get("Juniper.png");
        assertEquals("{\"name\":\"Juniper\",\"character_version\":\"\",\"creator\":\"\",\"creator_notes\":\"\","
                + "\"tags\":[\"sea\"],\"extensions\":{\"fav\":true,\"world\":\"Coast\"}}", JsJson.compact(juniper.get("data")));

        JsonNode full = json(client.post("/api/characters/get", "{\"avatar_url\":\"Bramble.png\"}"));
        assertFalse(full.has("shallow"), "get always answers the full character");
        assertEquals(BRAMBLE, full.get("json_data").asText());
    }

    @Test
    void cacheIsKeyedByFileVersion() throws IOException {
        TestServer.Client client = start(null);
        String card = "characters/Bramble.png";
        files().write(card, Fixtures.card(BRAMBLE));
        long mtime = 1_650_000_000_000L;
        files().setModified(card, mtime);
        assertEquals("Bramble", json(client.post("/api/characters/all", "{}")).get(0).get("name").asText());

        // Same size, same mtime: the cached parse is used and the file is not read again.
        files().write(card, Fixtures.card(BRAMBLE.replace("Bramble", "Brambla")));
        files().setModified(card, mtime);
        assertEquals("Bramble", json(client.post("/api/characters/all", "{}")).get(0).get("name").asText());

        // A new mtime is a new version.
        files().setModified(card, 1_650_000_001_000L);
        assertEquals("Brambla", json(client.post("/api/characters/all", "{}")).get(0).get("name").asText());

        // So is a new size with the old mtime.
        files().write(card, Fixtures.card(BRAMBLE.replace("Bramble", "Bramblewood")));
        files().setModified(card, 1_650_000_001_000L);
        assertEquals("Bramblewood", json(client.post("/api/characters/all", "{}")).get(0).get("name").asText());
        assertEquals("Bramblewood", json(client.post("/api/characters/get", "{\"avatar_url\":\"Bramble.png\"}"))
                .get("name").asText());
    }

    @Test
    void manyCardsAreAllListed() throws IOException {
        TestServer.Client client = start(null);
        for (int i = 0; i < 120; i++) {
            putCard("card" + i + ".png", Fixtures.card(BRAMBLE.replace("Bramble", "Bramble " + i)));
        }
        JsonNode list = json(client.post("/api/characters/all", "{}"));
        assertEquals(120, list.size());
        List<String> avatars = new java.util.ArrayList<>();
        list.forEach(c -> avatars.add(c.get("avatar").asText()));
        List<String> sorted = new java.util.ArrayList<>(avatars);
        sorted.sort(null);
        assertEquals(sorted, avatars, "listed in file-name order, as ST's readdir gives them");
        Map<String, JsonNode> all = byAvatar(list);
        assertEquals("Bramble 77", all.get("card77.png").get("name").asText());
    }

    @Test
    void getValidatesTheAvatarName() throws IOException {
        TestServer.Client client = start(null);
        putCard("Bramble.png", Fixtures.card(BRAMBLE));
        files().write("secret.png", Fixtures.card(BRAMBLE));

        assertEquals(404, client.post("/api/characters/get", "{\"avatar_url\":\"Nobody.png\"}").statusCode());
        for (String bad : List.of("../secret.png", "..", ".", "a/b.png", "..\\\\secret.png")) {
            assertEquals(400, client.post("/api/characters/get", "{\"avatar_url\":\"" + bad + "\"}").statusCode(), bad);
        }
        assertEquals(400, client.post("/api/characters/get", "{}").statusCode());
        assertEquals(400, client.post("/api/characters/get", "{\"avatar_url\":{\"x\":1}}").statusCode());
        assertEquals(400, client.post("/api/characters/get", "{\"avatar_url\":").statusCode());
        assertEquals("Bramble", json(client.post("/api/characters/get", "{\"avatar_url\":\"Bramble.png\"}"))
                .get("name").asText());
    }

    @Test
    void characterChatsFollowStConventions() throws IOException {
        TestServer.Client client = start(null);
        putCard("Bramble.png", Fixtures.card(BRAMBLE));
        assertEquals("{\"error\":true}", client.post("/api/characters/chats", "{\"avatar_url\":\"Bramble.png\"}").bodyAsString());

        files().createFolder("chats/Bramble");
        assertEquals("[]", client.post("/api/characters/chats", "{\"avatar_url\":\"Bramble.png\"}").bodyAsString());

        String chats = "chats/Bramble/";
        files().write(chats + "First.jsonl", Fixtures.bytes("chats/bramble-first-meeting.jsonl"));
        files().write(chats + "Legacy.jsonl", Fixtures.bytes("chats/legacy-header.jsonl"));
        files().write(chats + "Corrupt.jsonl", "{\"chat_metadata\":{}}\n{\"mes\":\"no name\"}");
        files().write(chats + "Empty.jsonl", "");
        files().write(chats + "Trailing.jsonl", "{\"chat_metadata\":{}}\n{\"name\":\"B\",\"mes\":\"x\"}\n\n");
        files().write(chats + "notes.txt", "not a chat"); // on PostgreSQL a file of the user's folder, on no list
        files().setModified(chats + "Empty.jsonl", 1_700_000_000_500L);
        files().setModified(chats + "Legacy.jsonl", 1_700_000_000_000L);

        Map<String, JsonNode> simple = new HashMap<>();
        json(client.post("/api/characters/chats", "{\"avatar_url\":\"Bramble.png\",\"simple\":true}"))
                .forEach(c -> simple.put(c.get("file_name").asText(), c));
        assertEquals(5, simple.size());
        assertEquals("{\"file_name\":\"First.jsonl\",\"file_id\":\"First\"}", JsJson.compact(simple.get("First.jsonl")));

        Map<String, JsonNode> infos = new HashMap<>();
        json(client.post("/api/characters/chats", "{\"avatar_url\":\"Bramble.png\",\"metadata\":true}"))
                .forEach(c -> infos.put(c.get("file_id").asText(), c));
        assertEquals(4, infos.size(), "the corrupted chat is left out");
        assertEquals("{\"match\":true,\"file_id\":\"First\",\"file_name\":\"First.jsonl\",\"file_size\":\"1.13KB\","
                + "\"chat_items\":3,\"mes\":\"Mind the sting.\",\"last_mes\":\"2025-01-02T10:01:20.001Z\","
                + "\"chat_metadata\":{\"integrity\":\"6f1c2d4e-0a8b-4c3d-9e7f-112233445566\",\"tainted\":true,"
                + "\"note_prompt\":\"\"}}", JsJson.compact(infos.get("First")));
        assertEquals("{\"match\":true,\"file_id\":\"Legacy\",\"file_name\":\"Legacy.jsonl\",\"file_size\":\"180B\","
                + "\"chat_items\":1,\"mes\":\"Old times.\",\"last_mes\":\"May 12, 2023 9:32pm\"}",
                JsJson.compact(infos.get("Legacy")));
        assertEquals("{\"match\":false,\"file_id\":\"Empty\",\"file_name\":\"Empty.jsonl\",\"file_size\":\"0B\","
                + "\"chat_items\":0,\"mes\":\"[The chat is empty]\",\"last_mes\":1700000000500}",
                JsJson.compact(infos.get("Empty")));
        assertEquals(1, infos.get("Trailing").get("chat_items").asInt(), "trailing blank lines are ignored");

        assertEquals(400, client.post("/api/characters/chats", "{\"avatar_url\":\"../Bramble.png\"}").statusCode());
        assertEquals(400, client.post("/api/characters/chats", "{\"avatar_url\":\"...png\"}").statusCode());
    }
}
