package tankard.group;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.FileLayout;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GroupHttpTest extends ServerTest {
    @Test
    @FileLayout
    void allAddsDatesAndChatSizes() throws IOException {
        server = TestServer.start();
        Path groups = server.userDir().resolve("groups");
        Path chats = server.userDir().resolve("group chats");
        Files.writeString(groups.resolve("1700000000000.json"), "{\"id\":\"1700000000000\",\"name\":\"G1\","
                + "\"members\":[\"a.png\"],\"chat_size\":999,\"chats\":[\"c1\",\"c2\",\"missing\",17]}");
        Files.writeString(groups.resolve("1700000000001.json"), "{\"id\":\"1700000000001\",\"name\":\"G2\"}");
        Files.writeString(groups.resolve("broken.json"), "{");
        Files.writeString(chats.resolve("c1.jsonl"), "12345");
        Files.writeString(chats.resolve("c2.jsonl"), "123");
        Files.writeString(chats.resolve("17.jsonl"), "1234567");
        Files.setLastModifiedTime(chats.resolve("c1.jsonl"), FileTime.from(Instant.ofEpochMilli(1_700_000_000_500L)));
        Files.setLastModifiedTime(chats.resolve("c2.jsonl"), FileTime.from(Instant.ofEpochMilli(1_700_000_100_250L)));

        HttpResponse<Buffer> r = server.client().post("/api/groups/all", null);
        assertEquals(200, r.statusCode());
        JsonArray all = r.bodyAsJsonArray();
        assertEquals(2, all.size());
        JsonObject g1 = all.getJsonObject(0);
        assertEquals("G1", g1.getString("name"));
        assertEquals(8, g1.getLong("chat_size"));
        assertEquals(1_700_000_100_250L, g1.getLong("date_last_chat"));
        assertTrue(g1.getValue("date_added") instanceof Number);
        assertTrue(g1.getString("create_date").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"));
        assertEquals("[\"id\",\"name\",\"members\",\"chat_size\",\"chats\",\"date_added\",\"create_date\",\"date_last_chat\"]",
                new JsonArray(g1.fieldNames().stream().toList()).encode());
        JsonObject g2 = all.getJsonObject(1);
        assertEquals(0, g2.getLong("chat_size"));
        assertEquals(0, g2.getLong("date_last_chat"));
    }

    @Test
    void noGroupsIsAnEmptyList() {
        server = TestServer.start();
        assertEquals(new JsonArray(), server.client().post("/api/groups/all", null).bodyAsJsonArray());
    }

    @Test
    @FileLayout
    void createStoresStsGroupObjectWithDefaults() throws IOException {
        server = TestServer.start();
        long before = System.currentTimeMillis();
        HttpResponse<Buffer> r = server.client().post("/api/groups/create", "{\"name\":\"Tea party\",\"members\":[\"a.png\"],"
                + "\"avatar_url\":\"img/five.png\",\"allow_self_responses\":1,\"fav\":false,\"unknown\":\"dropped\","
                + "\"chat_metadata\":{\"x\":1}}");
        assertEquals(200, r.statusCode());
        String id = r.bodyAsJsonObject().getString("id");
        assertTrue(Long.parseLong(id) >= before, id);
        String expected = "{\"id\":\"" + id + "\",\"name\":\"Tea party\",\"members\":[\"a.png\"],\"avatar_url\":\"img/five.png\","
                + "\"allow_self_responses\":true,\"activation_strategy\":0,\"generation_mode\":0,\"disabled_members\":[],"
                + "\"fav\":false,\"chat_id\":\"" + id + "\",\"chats\":[\"" + id + "\"],\"auto_mode_delay\":5,"
                + "\"generation_mode_join_prefix\":\"\",\"generation_mode_join_suffix\":\"\"}";
        assertEquals(expected, r.bodyAsString());
        String file = Files.readString(server.userDir().resolve("groups").resolve(id + ".json"));
        assertTrue(file.startsWith("{\n    \"id\": \"" + id + "\",\n    \"name\": \"Tea party\",\n    \"members\": [\n        \"a.png\"\n    ],"), file);
        assertEquals(expected, new JsonObject(file).encode());
    }

    @Test
    @FileLayout
    void editStoresTheGroupAsSentWithoutLegacyMetadata() throws IOException {
        server = TestServer.start();
        TestServer.Client client = server.client();
        String body = "{\"id\":\"1700000000000\",\"name\":\"G1\",\"chats\":[\"c1\"],\"chat_size\":8,\"extra\":{\"kept\":[1.50]},"
                + "\"chat_metadata\":{},\"past_metadata\":{}}";
        HttpResponse<Buffer> r = client.post("/api/groups/edit", body);
        assertEquals(200, r.statusCode());
        assertEquals("{\"ok\":true}", r.bodyAsString());
        assertEquals("{\n    \"id\": \"1700000000000\",\n    \"name\": \"G1\",\n    \"chats\": [\n        \"c1\"\n    ],\n"
                + "    \"chat_size\": 8,\n    \"extra\": {\n        \"kept\": [\n            1.5\n        ]\n    }\n}",
                Files.readString(server.userDir().resolve("groups").resolve("1700000000000.json")));
        for (String bad : new String[]{"{\"name\":\"no id\"}", "{\"id\":\"\"}", "{\"id\":\"../escape\"}", "{\"id\":\"a\\\\b\"}",
                "{\"id\":\"con\"}", "{\"id\":\"" + "x".repeat(300) + "\"}"}) {
            assertEquals(400, client.post("/api/groups/edit", bad).statusCode(), bad);
        }
        try (var files = Files.list(server.userDir().resolve("groups"))) {
            assertEquals(1, files.count(), "a refused edit writes nothing");
        }
        assertTrue(Files.notExists(server.userDir().resolve("escape.json")));
    }

    @Test
    @FileLayout
    void deleteRemovesTheGroupAndItsListedChatsOnly() throws IOException {
        server = TestServer.start();
        TestServer.Client client = server.client();
        Path groupChats = server.userDir().resolve("group chats");
        Files.createDirectories(groupChats);
        for (String chat : new String[]{"c1", "c2", "42", "other"}) {
            Files.writeString(groupChats.resolve(chat + ".jsonl"), "{\"chat_metadata\":{}}");
        }
        Files.writeString(server.userDir().resolve("escape.jsonl"), "keep");
        assertEquals(200, client.post("/api/groups/edit",
                "{\"id\":\"g1\",\"name\":\"G1\",\"chats\":[\"c1\",\"c2\",42,\"missing\",\"../escape\"]}").statusCode());

        for (String bad : new String[]{"{}", "{\"id\":\"\"}", "{\"id\":\"../g1\"}", "[]", "{\"id\":\"CON\"}"}) {
            assertEquals(400, client.post("/api/groups/delete", bad).statusCode(), bad);
        }
        assertTrue(Files.exists(server.userDir().resolve("groups/g1.json")), "a refused delete deletes nothing");
        assertTrue(Files.isDirectory(server.userDir().resolve("groups")), "con does not name the folder itself");

        HttpResponse<Buffer> r = client.post("/api/groups/delete", "{\"id\":\"g1\"}");
        assertEquals(200, r.statusCode());
        assertEquals("{\"ok\":true}", r.bodyAsString());
        assertTrue(Files.notExists(server.userDir().resolve("groups/g1.json")));
        try (var files = Files.list(groupChats)) {
            assertEquals(List.of("other.jsonl"), files.map(f -> f.getFileName().toString()).toList(),
                    "the listed chats go (a number as ST names it), the unlisted one stays");
        }
        assertEquals("keep", Files.readString(server.userDir().resolve("escape.jsonl")));
        assertEquals(200, client.post("/api/groups/delete", "{\"id\":\"g1\"}").statusCode(), "gone already: still ok");
    }
}
