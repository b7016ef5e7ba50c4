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
import java.util.stream.Stream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

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

    private static final String FILE = "chats/Bramble/w.jsonl";

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
        byte[] bytes = documentBytes(FILE);
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
        assertEquals(expected, document(FILE));
        assertEquals("[" + expected.replace("\n", ",") + "]",
                client.post("/api/chats/get", "{" + CHAT + "}").bodyAsString());

        JsonNode next = json(saved).get("cursor");
        assertEquals(cursor.get("offset"), next.get("offset"), "the window starts where it did");
        assertEquals(documentBytes(FILE).length, next.get("size").longValue());
        assertEquals(200, saveTail(next, messages(7, 8)).statusCode(), "the next save goes on from the answered cursor");
        assertEquals(HEADER + "\n" + String.join("\n", messages(0, 8)), document(FILE));
    }

    @Test
    void aStaleCursorIsAConflictAndChangesNothing() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        saveWhole(messages(0, 5));
        JsonNode cursor = tail(2).get("cursor");
        saveWhole(messages(0, 6)); // another window saved the whole chat meanwhile
        String before = document(FILE);
        HttpResponse<Buffer> stale = saveTail(cursor, messages(3, 4));
        assertEquals(409, stale.statusCode());
        assertTrue(json(stale).get("error").asText().contains("read it again"));
        assertEquals(before, document(FILE));
    }

    @Test
    void anEmptyEndRemovesTheWindowAndBadCursorsAreRefused() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        saveWhole(messages(0, 4));
        JsonNode cursor = tail(2).get("cursor");
        assertEquals(200, saveTail(cursor, List.of()).statusCode());
        assertEquals(HEADER + "\n" + String.join("\n", messages(0, 2)), document(FILE), "no trailing LF");

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
        assertEquals(HEADER + "\n" + message(0) + "\n" + message(1), document("group chats/g1.jsonl"));
    }

    @Test
    void twoSavesFromOneCursorConflictHoweverCloseTheyAre() throws IOException {
        start("backups:\n  chat:\n    enabled: false\n");
        saveWhole(messages(0, 5));
        for (int i = 0; i < 20; i++) {
            JsonNode cursor = tail(1).get("cursor");
            assertEquals(200, saveTail(cursor, messages(10 + i, 11 + i)).statusCode());
            String after = document(FILE);
            // the same number of bytes again, at once: only the mtime tells the two files apart
            assertEquals(409, saveTail(cursor, messages(30 + i, 31 + i)).statusCode(), "save " + i);
            assertEquals(after, document(FILE));
        }
    }

    @Test
    void getsAndListingsDuringTailSavesSeeOneWholeChatOrTheOther() throws Exception {
        start("backups:\n  chat:\n    enabled: false\n");
        List<String> base = messages(0, 3000);
        List<List<String>> ends = List.of(List.of("{\"name\":\"A\",\"mes\":\"" + "a".repeat(3000) + "\"}", message(1)),
                List.of(message(7), message(8), "{\"name\":\"B\",\"mes\":\"b\"}"));
        List<String> whole = new ArrayList<>();
        for (List<String> end : ends) {
            List<String> all = new ArrayList<>(base);
            all.addAll(end);
            whole.add("[" + HEADER + "," + String.join(",", all) + "]");
        }
        List<String> first = new ArrayList<>(base);
        first.addAll(ends.get(0));
        saveWhole(first);
        AtomicBoolean saving = new AtomicBoolean(true);
        AtomicInteger saves = new AtomicInteger();
        Thread saver = new Thread(() -> {
            try {
                for (int i = 0; i < 150; i++) {
                    JsonNode cursor = tail(ends.get(i % 2).size()).get("cursor");
                    assertEquals(200, saveTail(cursor, ends.get((i + 1) % 2)).statusCode());
                    saves.incrementAndGet();
                }
            } finally {
                saving.set(false);
            }
        });
        saver.start();
        int gets = 0;
        while (saving.get()) {
            String got = client.post("/api/chats/get", "{" + CHAT + "}").bodyAsString();
            assertTrue(got.equals(whole.get(0)) || got.equals(whole.get(1)), "a whole chat, one or the other");
            JsonNode listed = json(client.post("/api/characters/chats", "{\"avatar_url\":\"Bramble.png\"}"));
            String preview = listed.get(0).get("chat_items").intValue() + " " + listed.get(0).get("mes").asText();
            assertTrue(preview.equals("3002 message 1 é") || preview.equals("3003 b"), preview);
            gets++;
        }
        saver.join();
        assertEquals(150, saves.get(), "every save went through");
        assertTrue(gets > 10, "gets ran alongside: " + gets);
        assertEquals(List.of("w.jsonl"), server.files().chatNames("chats/Bramble"));
        if (Files.isDirectory(user("chats/Bramble"))) { // on files: no temp or journal file is left beside it
            try (Stream<Path> left = Files.list(user("chats/Bramble"))) {
                assertEquals(List.of("w.jsonl"), left.map(p -> p.getFileName().toString()).toList());
            }
        }
    }
}
