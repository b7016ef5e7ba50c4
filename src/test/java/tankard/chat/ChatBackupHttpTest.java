package tankard.chat;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.OpenFiles;
import tankard.testing.ServerTest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chat backups browser, {@code /api/backups/chat/get|delete|download}, over HTTP with bad inputs. */
class ChatBackupHttpTest extends ServerTest {
    private static final String CHAT = Fixtures.text("chats/bramble-first-meeting.jsonl");
    private static final String HEADER = "{\"chat_metadata\":{\"integrity\":\"x\"},\"user_name\":\"unused\",\"character_name\":\"unused\"}";
    private static final String MESSAGE = "{\"name\":\"Bram\",\"is_user\":false,\"send_date\":\"2026-01-05T09:02:00.000Z\","
            + "\"mes\":\"Dawn, ÉCLAIR 日本.\",\"extra\":{}}";
    /** 2026-01-01T10:00:00.250Z */
    private static final long MTIME = 1_767_261_600_250L;

    /** Stores a file of the backups folder (a chat backup, or a settings snapshot); answers its path there. */
    private String backup(String name, String content) {
        String path = "backups/" + name;
        put(path, content.getBytes(StandardCharsets.UTF_8));
        server.files().setModified(path, MTIME);
        return path;
    }

    private HttpResponse<Buffer> post(String path, String name) {
        return client.post(path, "{\"name\":" + JsJson.compact(JsJson.tree(name)) + "}");
    }

    private void assertJsonError(int status, HttpResponse<Buffer> response) {
        assertEquals(status, response.statusCode(), response.bodyAsString());
        assertTrue(String.valueOf(response.getHeader("Content-Type")).startsWith("application/json"),
                "errors are JSON: " + response.bodyAsString());
    }

    @Test
    void listsEveryChatBackupWithItsPreviewAndSkipsCorruptedOnes() throws IOException {
        start(null);
        assertEquals("[]", client.post("/api/backups/chat/get", "{}").bodyAsString(), "no backups folder yet");

        backup("chat_bram_20260105-090200.jsonl", HEADER + "\r\n" + MESSAGE);
        backup("chat_blank_20260105-090200.jsonl", HEADER + "\n" + MESSAGE + "\n\n"); // ST would hang here
        backup("chat_empty_20260102-000000.jsonl", "");
        backup("chat_header_20260106-000000.jsonl", HEADER);
        backup("chat_broken_20260104-000000.jsonl", HEADER + "\n{\"name\":\"Bram\",\"mes\":\"cut off");
        backup("chat_nameless_20260104-000000.jsonl", HEADER + "\n{\"mes\":\"no name\"}");
        backup("notes_bram.jsonl", HEADER + "\n" + MESSAGE);
        backup("chat_readme.txt", "not a chat");
        backup("settings_default-user_20260101-100000.json", "{}");
        Files.createDirectories(user("backups/chat_folder.jsonl"));

        String info = "{\"match\":true,\"file_id\":\"%s\",\"file_name\":\"%s.jsonl\",\"file_size\":\"%s\",\"chat_items\":%d,"
                + "\"mes\":%s,\"last_mes\":\"%s\"}";
        String mes = JsJson.compact(JsJson.tree("Dawn, ÉCLAIR 日本."));
        List<String> expected = new ArrayList<>();
        expected.add(String.format(info, "chat_blank_20260105-090200", "chat_blank_20260105-090200", "196B", 1, mes,
                "2026-01-05T09:02:00.000Z"));
        expected.add(String.format(info, "chat_bram_20260105-090200", "chat_bram_20260105-090200", "195B", 1, mes,
                "2026-01-05T09:02:00.000Z"));
        expected.add("{\"match\":false,\"file_id\":\"chat_empty_20260102-000000\",\"file_name\":\"chat_empty_20260102-000000.jsonl\","
                + "\"file_size\":\"0B\",\"chat_items\":0,\"mes\":\"[The chat is empty]\",\"last_mes\":1767261600250}");
        expected.add(String.format(info, "chat_header_20260106-000000", "chat_header_20260106-000000", "82B", 0,
                "\"[The message is empty]\"", "2026-01-01T10:00:00.250Z"));
        HttpResponse<Buffer> list = client.post("/api/backups/chat/get", "");
        assertEquals(200, list.statusCode());
        assertEquals("[" + String.join(",", expected) + "]", list.bodyAsString());
    }

    @Test
    void downloadSendsTheBackupAsAnAttachment() throws IOException {
        start(null);
        backup("chat_bram_20260105-090200.jsonl", CHAT);
        HttpResponse<Buffer> download = post("/api/backups/chat/download", "chat_bram_20260105-090200.jsonl");
        assertEquals(200, download.statusCode());
        assertArrayEquals(CHAT.getBytes(StandardCharsets.UTF_8), download.body().getBytes(), "byte for byte");
        assertEquals("attachment; filename=\"chat_bram_20260105-090200.jsonl\"", download.getHeader("Content-Disposition"));
        assertEquals("application/octet-stream", download.getHeader("Content-Type"));
        assertEquals(String.valueOf(CHAT.getBytes(StandardCharsets.UTF_8).length), download.getHeader("Content-Length"));
        assertEquals("Thu, 01 Jan 2026 10:00:00 GMT", download.getHeader("Last-Modified"));

        backup("chat_日本.jsonl", "");
        HttpResponse<Buffer> empty = post("/api/backups/chat/download", "chat_日本.jsonl");
        assertEquals(200, empty.statusCode());
        assertEquals(0, empty.body() == null ? 0 : empty.body().length());
        assertEquals("attachment; filename=\"chat_??.jsonl\"; filename*=UTF-8''chat_%E6%97%A5%E6%9C%AC.jsonl",
                empty.getHeader("Content-Disposition"), "content-disposition's fallback for names beyond Latin-1");

        backup("chat_ünï cöde.jsonl", "");
        assertEquals("attachment; filename=\"chat_ünï cöde.jsonl\"",
                post("/api/backups/chat/download", "chat_ünï cöde.jsonl").getHeader("Content-Disposition"),
                "Latin-1 names go out as Latin-1 bytes, as from Node");

        // a name is sanitized (as ST does), so it names a file of the backups folder or nothing
        put("chats/secret.jsonl", HEADER.getBytes(StandardCharsets.UTF_8));
        backup("chatssecret.jsonl", HEADER);
        assertJsonError(404, post("/api/backups/chat/download", "chat_gone.jsonl"));
        assertJsonError(404, post("/api/backups/chat/download", "chat_bram_20260105-090200")); // no extension added
        assertJsonError(404, post("/api/backups/chat/download", "chat_../chats/secret.jsonl"));
        assertJsonError(400, post("/api/backups/chat/download", "../chats/secret.jsonl"));
        assertJsonError(400, post("/api/backups/chat/download", "chatssecret.jsonl"));
        assertJsonError(400, post("/api/backups/chat/download", ".."));
        Files.createDirectories(user("backups/chat_folder.jsonl"));
        assertJsonError(404, post("/api/backups/chat/download", "chat_folder.jsonl"));
        assertJsonError(400, client.post("/api/backups/chat/download", "{}"));
        assertJsonError(400, client.post("/api/backups/chat/download", "{\"name\":7}"));
    }

    @Test
    void deleteRemovesOnlyChatBackups() throws IOException {
        start(null);
        String old = backup("chat_bram_20260105-090200.jsonl", CHAT);
        String kept = backup("chat_bram_20260106-090200.jsonl", CHAT);
        String settings = backup("settings_default-user_20260101-100000.json", "{}");
        String secret = "chats/secret.jsonl";
        put(secret, HEADER.getBytes(StandardCharsets.UTF_8));

        HttpResponse<Buffer> deleted = post("/api/backups/chat/delete", "chat_bram_20260105-090200.jsonl");
        assertEquals(200, deleted.statusCode());
        assertEquals("OK", deleted.bodyAsString(), "ST's sendStatus(200)");
        assertFalse(hasDocument(old));
        assertTrue(hasDocument(kept));
        assertJsonError(404, post("/api/backups/chat/delete", "chat_bram_20260105-090200.jsonl"));

        assertJsonError(400, post("/api/backups/chat/delete", "settings_default-user_20260101-100000.json"));
        assertJsonError(400, post("/api/backups/chat/delete", "../chats/secret.jsonl"));
        assertJsonError(404, post("/api/backups/chat/delete", "chat_/../../chats/secret.jsonl"));
        assertJsonError(400, post("/api/backups/chat/delete", ""));
        assertJsonError(400, client.post("/api/backups/chat/delete", "{}"));
        assertJsonError(400, client.post("/api/backups/chat/delete", "{\"name\":[\"chat_bram_20260106-090200.jsonl\"]}"));
        Path folder = Files.createDirectories(user("backups/chat_folder.jsonl"));
        assertJsonError(404, post("/api/backups/chat/delete", "chat_folder.jsonl"));
        assertTrue(Files.isDirectory(folder));
        assertTrue(hasDocument(settings));
        assertTrue(hasDocument(secret));
        assertTrue(hasDocument(kept));
    }

    @Test
    void aSavedChatsBackupIsListedAndDownloadsAsSaved() throws IOException {
        start(null); // backups on: the first save of a chat is backed up at once
        String body = "{\"ch_name\":\"Bramble\",\"file_name\":\"first\",\"avatar_url\":\"Bramble.png\",\"chat\":["
                + String.join(",", CHAT.split("\n")) + "]}";
        assertEquals(200, client.post("/api/chats/save", body).statusCode());

        HttpResponse<Buffer> list = client.post("/api/backups/chat/get", "{}");
        assertEquals(1, json(list).size(), list.bodyAsString());
        String name = json(list).get(0).get("file_name").asText();
        assertTrue(name.startsWith("chat_bramble_"), name);
        assertEquals(CHAT.split("\n").length - 1, json(list).get(0).get("chat_items").asInt());
        byte[] saved = documentBytes("chats/Bramble/first.jsonl");
        assertArrayEquals(saved, post("/api/backups/chat/download", name).body().getBytes());
        assertEquals(List.of(name), server.files().backupNames(""));
    }

    @Test
    void savesInOneBackupWindowLeaveNoHandleOnTheChatsTheyReplaced() throws Exception {
        start(null); // the first save is backed up, the later ones wait for the window's end, each replacing the last
        for (int i = 0; i < 5; i++) {
            String body = "{\"ch_name\":\"Bramble\",\"file_name\":\"first\",\"avatar_url\":\"Bramble.png\",\"chat\":["
                    + String.join(",", CHAT.split("\n")) + ",{\"mes\":\"save " + i + "\"}]}";
            assertEquals(200, client.post("/api/chats/save", body).statusCode());
        }
        OpenFiles.awaitNoDeletedUnder(server.userDir().getParent());
    }
}
