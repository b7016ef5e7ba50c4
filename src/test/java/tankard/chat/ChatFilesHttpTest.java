package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
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
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rename, delete, export, search and the group chat info/delete/import over HTTP, with bad inputs. */
class ChatFilesHttpTest extends ServerTest {
    private static final String CHAT = Fixtures.text("chats/bramble-first-meeting.jsonl");
    private static final String HEADER = CHAT.substring(0, CHAT.indexOf('\n'));
    private static final long OLD = 1_700_000_000_000L;

    /** The default user's chats and groups, in the server's stores. */
    private UserFiles files() {
        return server.files();
    }

    /** Stores a chat (its path in ST's layout) last modified at {@link #OLD}; answers the path. */
    private String chat(String relative, String content) {
        files().write(relative, content);
        files().setModified(relative, OLD);
        return relative;
    }

    /** A chat file that exists but cannot be read (a link to itself: every open or stat fails). */
    private void unreadable(String relative) throws IOException {
        Path link = user(relative);
        Files.createDirectories(link.getParent());
        Files.createSymbolicLink(link, link.getFileName());
    }

    private void assertStatus(int status, String path, String body) {
        HttpResponse<Buffer> response = client.post(path, body);
        assertEquals(status, response.statusCode(), path + " " + body + ": " + response.bodyAsString());
        assertTrue(String.valueOf(response.getHeader("Content-Type")).startsWith("application/json"),
                "errors are JSON: " + response.bodyAsString());
    }

    @Test
    void renameMovesTheChatUnlessTheTargetExists() throws IOException {
        start(null);
        String original = chat("chats/Bramble/first.jsonl", CHAT);
        String other = chat("chats/Bramble/other.jsonl", HEADER);

        HttpResponse<Buffer> renamed = client.post("/api/chats/rename", "{\"is_group\":false,\"avatar_url\":\"Bramble.png\","
                + "\"original_file\":\"first.jsonl\",\"renamed_file\":\"A: new name?.jsonl\"}");
        assertEquals("{\"ok\":true,\"sanitizedFileName\":\"A new name\"}", renamed.bodyAsString());
        String moved = "chats/Bramble/A new name.jsonl";
        assertFalse(files().exists(original));
        assertEquals(CHAT, files().read(moved), "byte for byte");
        assertTrue(files().modifiedMs(moved) > OLD, "as new as the rename, like ST's copy");

        String onto = "{\"avatar_url\":\"Bramble.png\",\"original_file\":\"A new name.jsonl\",\"renamed_file\":\"other.jsonl\"}";
        HttpResponse<Buffer> taken = client.post("/api/chats/rename", onto);
        assertEquals(400, taken.statusCode());
        assertEquals("{\"error\":true}", taken.bodyAsString());
        assertEquals(HEADER, files().read(other), "the target is never overwritten");
        assertEquals(CHAT, files().read(moved));
        assertEquals("{\"error\":true}", client.post("/api/chats/rename",
                "{\"avatar_url\":\"Bramble.png\",\"original_file\":\"gone.jsonl\",\"renamed_file\":\"new.jsonl\"}").bodyAsString());

        // traversal: names are sanitized into the folder, folders must stay under chats/
        chat("chats/secret.jsonl", CHAT);
        assertEquals("{\"error\":true}", client.post("/api/chats/rename", "{\"avatar_url\":\"Bramble.png\","
                + "\"original_file\":\"../secret.jsonl\",\"renamed_file\":\"stolen.jsonl\"}").bodyAsString());
        assertTrue(files().exists("chats/secret.jsonl"));
        assertStatus(400, "/api/chats/rename", "{\"avatar_url\":\"../Bramble.png\",\"original_file\":\"other.jsonl\",\"renamed_file\":\"x.jsonl\"}");
        assertStatus(400, "/api/chats/rename", "{\"avatar_url\":\"..\",\"original_file\":\"other.jsonl\",\"renamed_file\":\"x.jsonl\"}");
        assertStatus(400, "/api/chats/rename", "{\"avatar_url\":\"Bramble.png\",\"original_file\":\"other.jsonl\",\"renamed_file\":\"..\"}");
        assertStatus(400, "/api/chats/rename", "{\"avatar_url\":\"Bramble.png\",\"original_file\":\"other.jsonl\",\"renamed_file\":7}");
        assertStatus(400, "/api/chats/rename", "{\"avatar_url\":\"Bramble.png\",\"original_file\":\"other.jsonl\"}");
        assertStatus(400, "/api/chats/rename", "{\"original_file\":\"other.jsonl\",\"renamed_file\":\"x.jsonl\"}");
        assertTrue(files().exists(other));

        String group = chat("group chats/Trip.jsonl", CHAT);
        assertEquals("{\"ok\":true,\"sanitizedFileName\":\"Hills\"}", client.post("/api/chats/rename",
                "{\"is_group\":true,\"original_file\":\"Trip.jsonl\",\"renamed_file\":\"Hills.jsonl\"}").bodyAsString());
        assertFalse(files().exists(group));
        assertEquals(CHAT, files().read("group chats/Hills.jsonl"));
    }

    @Test
    void deleteRemovesOneChatAndNothingElse() {
        start(null);
        String doomed = chat("chats/Bramble/doomed.jsonl", CHAT);
        String kept = chat("chats/Other/kept.jsonl", CHAT);

        assertEquals("{\"ok\":true}", client.post("/api/chats/delete",
                "{\"avatar_url\":\"Bramble.png\",\"chatfile\":\"doomed\"}").bodyAsString(), ".jsonl added");
        assertFalse(files().exists(doomed));
        assertStatus(400, "/api/chats/delete", "{\"avatar_url\":\"Bramble.png\",\"chatfile\":\"doomed.jsonl\"}");
        assertStatus(400, "/api/chats/delete", "{\"avatar_url\":\"Bramble.png\",\"chatfile\":\"../Other/kept.jsonl\"}");
        assertStatus(400, "/api/chats/delete", "{\"avatar_url\":\"../Other\",\"chatfile\":\"kept.jsonl\"}");
        assertStatus(400, "/api/chats/delete", "{\"avatar_url\":\"Other/..\",\"chatfile\":\"kept.jsonl\"}");
        assertStatus(400, "/api/chats/delete", "{\"avatar_url\":\"Bramble.png\"}");
        assertStatus(400, "/api/chats/delete", "{\"avatar_url\":\"Bramble.png\",\"chatfile\":[\"kept\"]}");
        assertStatus(400, "/api/chats/delete", "{\"chatfile\":\"kept.jsonl\"}");
        assertTrue(files().exists(kept));
    }

    @Test
    @FileLayout // a folder named like a chat: only a file system has one
    void deleteLeavesAFolderNamedLikeAChat() throws IOException {
        start(null);
        Files.createDirectories(user("chats/Bramble/folder.jsonl"));
        assertStatus(400, "/api/chats/delete", "{\"avatar_url\":\"Bramble.png\",\"chatfile\":\"folder.jsonl\"}");
        assertTrue(Files.isDirectory(user("chats/Bramble/folder.jsonl")), "folders are not chats");
    }

    @Test
    void exportAnswersTheRawFileOrItsVisibleMessages() {
        start(null);
        // an astral character astride the reader's 8192-character chunks, invalid UTF-8, a lone escape
        String padding = "x".repeat(8191 - HEADER.length() - 1);
        byte[] raw = (HEADER + "\n" + padding + "😀\u0001\"\\é").getBytes(StandardCharsets.UTF_8);
        byte[] invalid = new byte[raw.length + 2];
        System.arraycopy(raw, 0, invalid, 0, raw.length);
        invalid[raw.length] = (byte) 0xC3;
        invalid[raw.length + 1] = '\n';
        put("chats/Bramble/raw.jsonl", invalid);
        JsonNode jsonl = json(client.post("/api/chats/export", "{\"is_group\":false,\"avatar_url\":\"Bramble.png\","
                + "\"file\":\"raw.jsonl\",\"exportfilename\":\"raw.jsonl\",\"format\":\"jsonl\"}"));
        assertEquals("Chat saved to raw.jsonl", jsonl.get("message").asText());
        assertEquals(new String(invalid, StandardCharsets.UTF_8), jsonl.get("result").asText());

        chat("chats/Bramble/text.jsonl", HEADER + "\n"
                + "{\"name\":\"Bramble\",\"mes\":\"Hello\\r\\nthere\\rfriend\",\"extra\":{}}\r\n"
                + "{broken line\n\nnull\n\"text\"\n"
                + "{\"name\":\"Bramble\",\"mes\":\"hidden\",\"is_system\":true}\n"
                + "{\"name\":\"Bramble\",\"mes\":\"\",\"extra\":{\"display_text\":\"no mes, not shown\"}}\n"
                + "{\"mes\":\"shown\",\"extra\":{\"display_text\":7}}\n"
                + "{\"name\":\"Wren\",\"mes\":\"plain\",\"extra\":{\"display_text\":\"Shown instead\"}}\n");
        HttpResponse<Buffer> text = client.post("/api/chats/export", "{\"avatar_url\":\"Bramble.png\","
                + "\"file\":\"text.jsonl\",\"format\":\"txt\"}");
        assertEquals("{\"message\":\"Chat saved to undefined\",\"result\":\"Bramble: Hello\\nthere\\rfriend\\n\\n"
                + "undefined: 7\\n\\nWren: Shown instead\\n\\n\"}", text.bodyAsString(), "lines that are not JSON are skipped");

        HttpResponse<Buffer> missing = client.post("/api/chats/export",
                "{\"avatar_url\":\"Bramble.png\",\"file\":\"gone.jsonl\",\"format\":\"txt\"}");
        assertEquals(404, missing.statusCode());
        assertEquals("{\"message\":\"Could not find JSONL file to export. Source chat file: chats/Bramble/gone.jsonl.\"}",
                missing.bodyAsString());
        assertStatus(404, "/api/chats/export", "{\"is_group\":true,\"file\":\"../chats/Bramble/text.jsonl\",\"format\":\"txt\"}");
        assertStatus(400, "/api/chats/export", "{\"is_group\":false,\"file\":\"text.jsonl\",\"format\":\"txt\"}");
        assertStatus(400, "/api/chats/export", "{\"avatar_url\":\"../x.png\",\"file\":\"text.jsonl\"}");
        assertStatus(400, "/api/chats/export", "{\"avatar_url\":\"Bramble.png\"}");
        assertStatus(400, "/api/chats/export", "{\"avatar_url\":\"Bramble.png\",\"file\":{}}");
    }

    @Test
    void searchBadInputs() {
        start(null);
        chat("chats/Bramble/blank tail.jsonl", CHAT + "\n\n\r\n\n");
        chat("group chats/outside.jsonl", CHAT);
        files().write("groups/g.json", "{\"id\":\"g\",\"chats\":[\"../chats/Bramble/blank tail\",\"outside\",7]}");

        JsonNode found = json(client.post("/api/chats/search", "{\"query\":\"STING\",\"avatar_url\":\"Bramble.png\"}"));
        assertEquals("[{\"file_name\":\"blank tail\",\"file_size\":\"1.14KB\",\"message_count\":3,"
                + "\"last_mes\":\"2025-01-02T10:01:20.001Z\",\"preview_message\":\"Mind the sting.\"}]", JsJson.compact(found),
                "trailing blank lines neither hang nor count");
        assertEquals(List.of("outside"), JsJson.tree(json(client.post("/api/chats/search", "{\"group_id\":\"g\"}")))
                .findValuesAsText("file_name"), "group chat ids cannot reach out of the group chats folder");
        assertEquals("[]", client.post("/api/chats/search", "{\"group_id\":7}").bodyAsString(), "ids compare strictly");

        assertStatus(400, "/api/chats/search", "{\"query\":\"x\"}");
        assertStatus(400, "/api/chats/search", "{\"query\":5,\"avatar_url\":\"Bramble.png\"}");
        assertStatus(400, "/api/chats/search", "{\"avatar_url\":\"../Bramble.png\"}");
    }

    @Test
    void groupInfoTellsMissingAndCorruptedChatsApart() {
        start(null);
        chat("group chats/ok.jsonl", CHAT + "\n\n");
        chat("group chats/blank.jsonl", "\n\r\n\n");
        chat("group chats/empty.jsonl", "");
        assertEquals("{\"match\":true,\"file_id\":\"ok\",\"file_name\":\"ok.jsonl\",\"file_size\":\"1.14KB\",\"chat_items\":3,"
                + "\"mes\":\"Mind the sting.\",\"last_mes\":\"2025-01-02T10:01:20.001Z\"}",
                client.post("/api/chats/group/info", "{\"id\":\"ok\"}").bodyAsString());
        assertEquals("{}", client.post("/api/chats/group/info", "{\"id\":\"blank\"}").bodyAsString(),
                "only line breaks: corrupted, where ST never answers");
        assertEquals("{\"match\":false,\"file_id\":\"empty\",\"file_name\":\"empty.jsonl\",\"file_size\":\"0B\",\"chat_items\":0,"
                + "\"mes\":\"[The chat is empty]\",\"last_mes\":1700000000000}",
                client.post("/api/chats/group/info", "{\"id\":\"empty\"}").bodyAsString());
        assertStatus(404, "/api/chats/group/info", "{\"id\":\"missing\"}");
        assertStatus(404, "/api/chats/group/info", "{\"id\":\"../chats/x\"}");
        assertStatus(400, "/api/chats/group/info", "{}");
        assertStatus(400, "/api/chats/group/info", "{\"id\":\"con\"}"); // sanitizes to nothing
    }

    @Test
    void groupDeleteAndImport() {
        start(null);
        String doomed = chat("group chats/doomed.jsonl", CHAT);
        assertEquals("{\"ok\":true}", client.post("/api/chats/group/delete", "{\"id\":\"doomed\"}").bodyAsString());
        assertFalse(files().exists(doomed));
        assertStatus(400, "/api/chats/group/delete", "{\"id\":\"doomed\"}");
        assertStatus(400, "/api/chats/group/delete", "{}");
        String outside = chat("chats/x.jsonl", CHAT);
        assertStatus(400, "/api/chats/group/delete", "{\"id\":\"../chats/x\"}");
        assertTrue(files().exists(outside));

        byte[] upload = (CHAT + "\n\u0000 not even JSON \u00ff").getBytes(StandardCharsets.UTF_8);
        String first = importGroupChat(upload).get("res").asText();
        String second = importGroupChat(upload).get("res").asText();
        assertTrue(first.matches("\\d{4}-\\d\\d-\\d\\d@\\d\\dh\\d\\dm\\d\\ds\\d{3}ms"), first);
        assertFalse(first.equals(second), "two imports never share a name");
        assertArrayEquals(upload, files().bytes("group chats/" + first + ".jsonl"), "byte for byte");
        assertArrayEquals(upload, files().bytes("group chats/" + second + ".jsonl"));

        HttpResponse<Buffer> none = TestServer.await(client.request(HttpMethod.POST, "/api/chats/group/import")
                .sendMultipartForm(MultipartForm.create().attribute("x", "y")));
        assertEquals(400, none.statusCode());
    }

    private JsonNode importGroupChat(byte[] content) {
        MultipartForm form = MultipartForm.create().binaryFileUpload("avatar", "group.jsonl", Buffer.buffer(content),
                "application/octet-stream");
        return json(TestServer.await(client.request(HttpMethod.POST, "/api/chats/group/import").sendMultipartForm(form)));
    }

    @Test
    void listingsSurviveTrailingBlankLines() {
        start(null);
        chat("chats/Bramble/tail.jsonl", CHAT + "\r\n\r\n\n");
        chat("chats/Bramble/blank.jsonl", "\n\n");
        JsonNode list = json(client.post("/api/characters/chats", "{\"avatar_url\":\"Bramble.png\",\"metadata\":true}"));
        assertEquals(1, list.size(), "a file of line breaks is corrupted: " + list);
        assertEquals(3, list.get(0).get("chat_items").asInt());
        assertEquals("Mind the sting.", list.get(0).get("mes").asText());
        assertTrue(list.get(0).get("chat_metadata").has("integrity"));
    }

    @Test
    @FileLayout // a chat file that cannot be read (a link to itself): only a file system has one
    void unreadableChatsFailExportSearchGroupInfoAndListings() throws IOException {
        start(null);
        chat("chats/Bramble/ok.jsonl", CHAT);
        unreadable("chats/Bramble/loop.jsonl");
        HttpResponse<Buffer> export = client.post("/api/chats/export", "{\"avatar_url\":\"Bramble.png\",\"file\":\"loop.jsonl\",\"format\":\"jsonl\"}");
        assertEquals(500, export.statusCode());
        assertTrue(json(export).get("message").asText().startsWith("Could not read JSONL file to export."));

        assertStatus(500, "/api/chats/search", "{\"avatar_url\":\"Bramble.png\"}");

        HttpResponse<Buffer> listing = client.post("/api/characters/chats", "{\"avatar_url\":\"Bramble.png\"}");
        assertEquals("{\"error\":true}", listing.bodyAsString(), "ST's answer when a folder cannot be listed");

        unreadable("group chats/loop.jsonl");
        HttpResponse<Buffer> info = client.post("/api/chats/group/info", "{\"id\":\"loop\"}");
        assertEquals(500, info.statusCode());
        assertTrue(json(info).get("error").asText().contains("loop.jsonl"), info.bodyAsString());
    }

    @Test
    void aRenameRacingASaveNeverLosesTheSave() throws Exception {
        start("backups:\n  chat:\n    enabled: false\n");
        String header = "{\"user_name\":\"unused\",\"character_name\":\"unused\",\"chat_metadata\":{}}";
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < 40; i++) {
                chat("chats/Bramble/r" + i + ".jsonl", header + "\n{\"mes\":\"old\"}");
                CountDownLatch go = new CountDownLatch(1);
                String save = "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"r" + i + "\",\"chat\":[" + header + ",{\"mes\":\"newest\"}]}";
                String rename = "{\"avatar_url\":\"Bramble.png\",\"original_file\":\"r" + i + ".jsonl\",\"renamed_file\":\"s" + i + ".jsonl\"}";
                Future<Integer> saved = pool.submit(() -> {
                    go.await();
                    return client.post("/api/chats/save", save).statusCode();
                });
                Future<Integer> renamed = pool.submit(() -> {
                    go.await();
                    return client.post("/api/chats/rename", rename).statusCode();
                });
                go.countDown();
                assertEquals(200, saved.get());
                assertEquals(200, renamed.get());
                String before = "chats/Bramble/r" + i + ".jsonl";
                String after = "chats/Bramble/s" + i + ".jsonl";
                String newest = header + "\n{\"mes\":\"newest\"}";
                // the save went first (renamed with the rename) or after (a new chat under the old name)
                assertTrue(files().read(after).equals(newest) && !files().exists(before)
                        || files().exists(before) && files().read(before).equals(newest), "round " + i);
            }
        } finally {
            pool.shutdown();
        }
    }
}
