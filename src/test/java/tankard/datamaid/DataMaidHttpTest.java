package tankard.datamaid;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataMaidHttpTest extends ServerTest {
    @BeforeEach
    void start() throws IOException {
        start(null);
        put("characters/Ann.png", new byte[] {1});
        text("chats/Ann/first.jsonl", String.join("\n",
                "{\"user_name\":\"You\",\"character_name\":\"Ann\",\"chat_metadata\":{\"attachments\":[{\"url\":\"/user/files/att.txt\"}],"
                        + "\"chat_backgrounds\":[\"user/images/bg%20one.png\"]}}",
                "{\"name\":\"Ann\",\"mes\":\"hi\",\"extra\":{\"image\":\"/user/images/Ann/used.png\",\"media\":[{\"url\":\"user/images/Ann/media.png\"},{\"url\":\"https://example.com/x.png\"}]}}",
                "{\"name\":\"You\",\"mes\":\"file\",\"is_user\":true,\"extra\":{\"files\":[{\"url\":\"/user/files/used.txt\"}],\"image_swipes\":[\"user/images/swipe.png\"]}}",
                "not json"));
        text("settings.json", "{\"extension_settings\":{\"attachments\":[{\"url\":\"/user/files/global.txt\"}],"
                + "\"character_attachments\":{\"Ann.png\":[{\"url\":\"/user/files/char.txt\"}],\"Bad.png\":7}}}");
        for (String file : List.of("user/images/Ann/used.png", "user/images/Ann/media.png", "user/images/Ann/loose.png",
                "user/images/top.png", "user/images/swipe.png", "user/images/bg one.png", "user/files/used.txt",
                "user/files/att.txt", "user/files/global.txt", "user/files/char.txt", "user/files/loose.txt",
                "chats/Gone/old.jsonl", "chats/Gone/notes.txt", "group chats/current.jsonl", "group chats/past.jsonl",
                "group chats/orphan.jsonl", "thumbnails/avatar/Ann.png", "thumbnails/avatar/Gone.png",
                "backgrounds/kept.png", "thumbnails/bg/kept.png", "thumbnails/bg/gone.png", "thumbnails/persona/p.png",
                "backups/chat_Ann_20240101-000000.jsonl", "backups/settings_default-user_20240101-000000.json",
                "backups/settings_other_20240101-000000.json")) {
            text(file, "content of " + file);
        }
        text("groups/1.json", "{\"id\":\"1\",\"chat_id\":\"current\",\"chats\":[\"current\",\"past\"]}");
    }

    @Test
    void reportListsWhatStWouldOffer() {
        JsonObject body = client.post("/api/data-maid/report", "{}").bodyAsJsonObject();
        assertTrue(body.getString("token").matches("[0-9a-f]{64}"));
        JsonObject report = body.getJsonObject("report");
        assertEquals(List.of("images", "files", "chats", "groupChats", "avatarThumbnails", "backgroundThumbnails",
                "personaThumbnails", "chatBackups", "settingsBackups"), new ArrayList<>(report.fieldNames()));
        Map<String, List<String>> names = new TreeMap<>();
        report.forEach(e -> names.put(e.getKey(), ((JsonArray) e.getValue()).stream()
                .map(o -> ((JsonObject) o).getString("name")).toList()));
        assertEquals(List.of("loose.png", "top.png"), names.get("images"), "in readdir order: the Ann folder sorts first");
        assertEquals(List.of("loose.txt"), names.get("files"));
        assertEquals(List.of("old.jsonl"), names.get("chats"));
        assertEquals(List.of("orphan.jsonl"), names.get("groupChats"));
        assertEquals(List.of("Gone.png"), names.get("avatarThumbnails"));
        assertEquals(List.of("gone.png"), names.get("backgroundThumbnails"));
        assertEquals(List.of("p.png"), names.get("personaThumbnails"));
        assertEquals(List.of("chat_Ann_20240101-000000.jsonl"), names.get("chatBackups"));
        assertEquals(List.of("settings_default-user_20240101-000000.json"), names.get("settingsBackups"));

        JsonObject loose = report.getJsonArray("images").getJsonObject(0);
        assertEquals("Ann", loose.getString("parent"));
        assertEquals("content of user/images/Ann/loose.png".length(), loose.getInteger("size"));
        assertTrue(loose.getDouble("mtime") > 0);
        assertTrue(loose.getString("hash").matches("[0-9a-f]{64}"));
        assertFalse(report.getJsonArray("files").getJsonObject(0).containsKey("parent"));
    }

    @Test
    void aChatWithInvalidUtf8StillProtectsTheFilesItRefersTo() throws IOException {
        byte[] chat = "{\"user_name\":\"You\"}\n{\"mes\":\"caf? \",\"extra\":{\"image\":\"user/images/top.png\"}}"
                .getBytes(StandardCharsets.UTF_8);
        chat[new String(chat, StandardCharsets.US_ASCII).indexOf('?')] = (byte) 0xe9; // Latin-1, not UTF-8
        put("chats/Ann/second.jsonl", chat);
        JsonArray images = client.post("/api/data-maid/report", "{}").bodyAsJsonObject()
                .getJsonObject("report").getJsonArray("images");
        assertEquals(List.of("loose.png"), images.stream().map(o -> ((JsonObject) o).getString("name")).toList());
    }

    @Test
    void reportedFilesCanBeViewedAndDeletedByHash() throws IOException {
        JsonObject body = client.post("/api/data-maid/report", "{}").bodyAsJsonObject();
        String token = body.getString("token");
        String loosePng = hash(body, "images", "loose.png");
        String chatBackup = hash(body, "chatBackups", "chat_Ann_20240101-000000.jsonl");

        HttpResponse<Buffer> view = client.get("/api/data-maid/view?token=" + token + "&hash=" + loosePng);
        assertEquals(200, view.statusCode());
        assertEquals("image/png", view.getHeader("Content-Type"));
        assertEquals("content of user/images/Ann/loose.png", view.bodyAsString());

        HttpResponse<Buffer> deleted = client.post("/api/data-maid/delete",
                new JsonObject().put("token", token).put("hashes", new JsonArray().add(loosePng).add(chatBackup).add("f".repeat(64)).add(5)).encode());
        assertEquals(204, deleted.statusCode());
        assertFalse(server.files().exists("user/images/Ann/loose.png"));
        assertFalse(server.files().exists("backups/chat_Ann_20240101-000000.jsonl"));
        assertTrue(server.files().exists("user/images/top.png"));
        assertEquals(404, client.get("/api/data-maid/view?token=" + token + "&hash=" + loosePng).statusCode());

        assertEquals(204, client.post("/api/data-maid/finalize", "{\"token\":\"" + token + "\"}").statusCode());
        assertEquals(403, client.get("/api/data-maid/view?token=" + token + "&hash=" + hash(body, "images", "top.png")).statusCode());
    }

    @Test
    void looseChatsAndChatBackupsAreViewedAndDeletedByHash() {
        JsonObject body = client.post("/api/data-maid/report", "{}").bodyAsJsonObject();
        String token = body.getString("token");
        JsonObject chat = body.getJsonObject("report").getJsonArray("chats").getJsonObject(0);
        assertEquals("Gone", chat.getString("parent"));
        assertEquals("content of chats/Gone/old.jsonl".length(), chat.getInteger("size"));
        assertTrue(chat.getDouble("mtime") > 0);
        String old = chat.getString("hash");
        String orphan = hash(body, "groupChats", "orphan.jsonl");
        String backup = hash(body, "chatBackups", "chat_Ann_20240101-000000.jsonl");

        for (Map.Entry<String, String> viewed : Map.of(old, "content of chats/Gone/old.jsonl",
                orphan, "content of group chats/orphan.jsonl",
                backup, "content of backups/chat_Ann_20240101-000000.jsonl").entrySet()) {
            HttpResponse<Buffer> view = client.get("/api/data-maid/view?token=" + token + "&hash=" + viewed.getKey());
            assertEquals(200, view.statusCode());
            assertEquals(viewed.getValue(), view.bodyAsString());
        }

        assertEquals(204, client.post("/api/data-maid/delete", new JsonObject().put("token", token)
                .put("hashes", new JsonArray().add(old).add(orphan)).encode()).statusCode());
        assertFalse(server.files().exists("chats/Gone/old.jsonl"));
        assertTrue(server.files().exists("chats/Gone/notes.txt"));
        assertFalse(server.files().exists("group chats/orphan.jsonl"));
        assertTrue(server.files().exists("group chats/current.jsonl"));
        assertEquals(404, client.get("/api/data-maid/view?token=" + token + "&hash=" + old).statusCode());
    }

    @Test
    void badRequestsAre4xxAndDeleteNothing() throws IOException {
        JsonObject first = client.post("/api/data-maid/report", "{}").bodyAsJsonObject();
        JsonObject body = client.post("/api/data-maid/report", "{}").bodyAsJsonObject();
        String token = body.getString("token");
        String top = hash(body, "images", "top.png");
        String stale = first.getString("token");
        assertFalse(stale.equals(token));

        Map<String, Integer> posts = Map.of(
                "{}", 400,
                "{\"token\":\"\",\"hashes\":[\"" + top + "\"]}", 400,
                "{\"token\":\"" + token + "\"}", 400,
                "{\"token\":\"" + token + "\",\"hashes\":[]}", 400,
                "{\"token\":\"" + token + "\",\"hashes\":\"" + top + "\"}", 400,
                "{\"token\":\"" + stale + "\",\"hashes\":[\"" + top + "\"]}", 403,
                "{\"token\":{\"t\":1},\"hashes\":[\"" + top + "\"]}", 403,
                "{\"token\":\"../../etc\",\"hashes\":[\"../user/images/top.png\"]}", 403);
        posts.forEach((json, status) -> assertEquals(status, client.post("/api/data-maid/delete", json).statusCode(), json));
        assertEquals(204, client.post("/api/data-maid/delete",
                "{\"token\":\"" + token + "\",\"hashes\":[\"../user/images/top.png\",\"/etc/passwd\"]}").statusCode());

        assertEquals(400, client.post("/api/data-maid/finalize", "{}").statusCode());
        assertEquals(403, client.post("/api/data-maid/finalize", "{\"token\":\"" + stale + "\"}").statusCode());
        assertEquals(400, client.get("/api/data-maid/view?token=" + token).statusCode());
        assertEquals(400, client.get("/api/data-maid/view?hash=" + top).statusCode());
        assertEquals(403, client.get("/api/data-maid/view?token=" + stale + "&hash=" + top).statusCode());
        assertEquals(404, client.get("/api/data-maid/view?token=" + token + "&hash=../settings.json").statusCode());

        assertTrue(server.files().exists("user/images/top.png"));
        assertTrue(server.files().exists("user/images/Ann/loose.png"));
        assertTrue(server.files().exists("backups/chat_Ann_20240101-000000.jsonl"));
    }

    private static String hash(JsonObject body, String category, String name) {
        return body.getJsonObject("report").getJsonArray(category).stream()
                .map(o -> (JsonObject) o).filter(o -> o.getString("name").equals(name))
                .findFirst().orElseThrow().getString("hash");
    }

    private void text(String relative, String text) throws IOException {
        put(relative, text.getBytes(StandardCharsets.UTF_8));
    }
}
