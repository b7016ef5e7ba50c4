package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tankard's windowed chat API: read the end of a chat, save a new end behind an optimistic cursor. */
class ChatWindowHttpTest extends ServerTest {
    private static final String HEADER = "{\"chat_metadata\":{\"integrity\":\"w\"},\"user_name\":\"unused\"}";
    private static final String CHAT = "\"avatar_url\":\"Bramble.png\",\"file_name\":\"w\"";

    private static String message(int i) {
        return "{\"name\":\"N\",\"mes\":\"message " + i + " é\",\"extra\":{}}";
    }

    private static List<String> messages(int from, int to) {
        List<String> list = new ArrayList<>();
        for (int i = from; i < to; i++) {
            list.add(message(i));
        }
        return list;
    }

    private Path file() {
        return user("chats/Bramble/w.jsonl");
    }

    private void saveWhole(List<String> messages) {
        String chat = HEADER + (messages.isEmpty() ? "" : "," + String.join(",", messages));
        assertEquals(200, client.post("/api/chats/save", "{" + CHAT + ",\"chat\":[" + chat + "]}").statusCode());
    }

    private JsonNode tail(int count) {
        HttpResponse<Buffer> r = client.post("/api/tankard/chats/tail", "{" + CHAT + ",\"count\":" + count + "}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return json(r);
    }

    private HttpResponse<Buffer> saveTail(JsonNode cursor, List<String> messages) {
        return client.post("/api/tankard/chats/tail/save", "{" + CHAT + ",\"cursor\":" + JsJson.compact(cursor)
                + ",\"messages\":[" + String.join(",", messages) + "]}");
    }

    @Test
    void theEndOfAChatIsReadWithItsCursor() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        saveWhole(messages(0, 10));
        JsonNode window = tail(3);
        assertEquals(JsJson.parse(HEADER), window.get("header"));
        assertEquals(JsJson.parse("[" + String.join(",", messages(7, 10)) + "]"), window.get("messages"));
        byte[] bytes = Files.readAllBytes(file());
        int offset = window.at("/cursor/offset").intValue();
        assertEquals(String.join("\n", messages(7, 10)), new String(bytes, offset, bytes.length - offset, StandardCharsets.UTF_8),
                "the window starts at the cursor's offset");
        assertEquals(bytes.length, window.at("/cursor/size").longValue());
        assertEquals(10, tail(20).get("messages").size(), "at most every message, never the header");
        assertEquals(0, tail(0).get("messages").size());
    }

    @Test
    void aNewEndIsSavedAsAWholeSaveWouldWriteIt() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        saveWhole(messages(0, 10));
        JsonNode cursor = tail(3).get("cursor");
        List<String> end = new ArrayList<>(messages(7, 9));
        end.add("{\"name\":\"N\",\"mes\":\"edited\" , \"n\":1.50}");
        end.add(message(10));
        HttpResponse<Buffer> saved = saveTail(cursor, end);
        assertEquals(200, saved.statusCode(), saved.bodyAsString());
        List<String> all = new ArrayList<>(messages(0, 9));
        all.add("{\"name\":\"N\",\"mes\":\"edited\",\"n\":1.5}");
        all.add(message(10));
        String expected = HEADER + "\n" + String.join("\n", all);
        assertEquals(expected, Files.readString(file()));
        assertEquals("[" + expected.replace("\n", ",") + "]",
                client.post("/api/chats/get", "{" + CHAT + "}").bodyAsString());

        JsonNode next = json(saved).get("cursor");
        assertEquals(cursor.get("offset"), next.get("offset"), "the window starts where it did");
        assertEquals(Files.size(file()), next.get("size").longValue());
        assertEquals(200, saveTail(next, messages(7, 8)).statusCode(), "the next save goes on from the answered cursor");
        assertEquals(HEADER + "\n" + String.join("\n", messages(0, 8)), Files.readString(file()));
    }

    @Test
    void aStaleCursorIsAConflictAndChangesNothing() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        saveWhole(messages(0, 5));
        JsonNode cursor = tail(2).get("cursor");
        saveWhole(messages(0, 6)); // another window saved the whole chat meanwhile
        String before = Files.readString(file());
        HttpResponse<Buffer> stale = saveTail(cursor, messages(3, 4));
        assertEquals(409, stale.statusCode());
        assertTrue(json(stale).get("error").asText().contains("read it again"));
        assertEquals(before, Files.readString(file()));
    }

    @Test
    void anEmptyEndRemovesTheWindowAndBadCursorsAreRefused() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        saveWhole(messages(0, 4));
        JsonNode cursor = tail(2).get("cursor");
        assertEquals(200, saveTail(cursor, List.of()).statusCode());
        assertEquals(HEADER + "\n" + String.join("\n", messages(0, 2)), Files.readString(file()), "no trailing LF");

        JsonNode fresh = tail(1).get("cursor");
        JsonNode inside = JsJson.object().put("offset", fresh.get("offset").longValue() + 1).put("size", fresh.get("size").longValue())
                .put("mtime", fresh.get("mtime").doubleValue());
        assertEquals(400, saveTail(inside, messages(9, 10)).statusCode(), "not the start of a line");
        JsonNode header = JsJson.object().put("offset", 0).put("size", fresh.get("size").longValue()).put("mtime", fresh.get("mtime").doubleValue());
        assertEquals(400, saveTail(header, messages(9, 10)).statusCode(), "the header is not part of a window");
        assertEquals(400, client.post("/api/tankard/chats/tail/save", "{" + CHAT + ",\"messages\":[]}").statusCode());
        assertEquals(404, client.post("/api/tankard/chats/tail", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"none\",\"count\":1}").statusCode());
        assertEquals(400, client.post("/api/tankard/chats/tail", "{\"avatar_url\":\"../x.png\",\"file_name\":\"w\",\"count\":1}").statusCode());
    }

    @Test
    void groupChatsAndHeaderOnlyChatsHaveWindowsToo() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        assertEquals(200, client.post("/api/chats/group/save", "{\"id\":\"g1\",\"chat\":[" + HEADER + "]}").statusCode());
        HttpResponse<Buffer> r = client.post("/api/tankard/chats/tail", "{\"id\":\"g1\",\"count\":5}");
        JsonNode window = json(r);
        assertEquals(0, window.get("messages").size());
        HttpResponse<Buffer> saved = client.post("/api/tankard/chats/tail/save", "{\"id\":\"g1\",\"cursor\":"
                + JsJson.compact(window.get("cursor")) + ",\"messages\":[" + message(0) + "," + message(1) + "]}");
        assertEquals(200, saved.statusCode(), saved.bodyAsString());
        assertEquals(HEADER + "\n" + message(0) + "\n" + message(1), Files.readString(user("group chats/g1.jsonl")));
    }
}
