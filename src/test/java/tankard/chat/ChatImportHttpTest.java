package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/chats/import} over HTTP: answers, file names, and the bad inputs that must write nothing. */
class ChatImportHttpTest extends ServerTest {
    private static final String HEADER = "{\"chat_metadata\":{},\"user_name\":\"unused\",\"character_name\":\"unused\"}";

    @BeforeEach
    void startServer() {
        start(null);
    }

    /** The frontend's import form: the file as {@code avatar}, its type, the target card and both names. */
    static HttpResponse<Buffer> importChat(TestServer.Client client, String fileName, byte[] content, String fileType,
                                           String avatarUrl, String... fields) {
        MultipartForm form = MultipartForm.create();
        if (content != null) {
            form.binaryFileUpload("avatar", fileName, Buffer.buffer(content), "application/octet-stream");
        }
        if (fileType != null) {
            form.attribute("file_type", fileType);
        }
        if (avatarUrl != null) {
            form.attribute("avatar_url", avatarUrl);
        }
        List<String> names = List.of(fields);
        form.attribute("character_name", names.isEmpty() ? "Bramble" : names.get(0));
        form.attribute("user_name", names.size() < 2 ? "Wren" : names.get(1));
        return TestServer.await(client.request(HttpMethod.POST, "/api/chats/import").sendMultipartForm(form));
    }

    private HttpResponse<Buffer> importChat(String content, String fileType, String... names) {
        return importChat(client, "chat." + fileType, content.getBytes(StandardCharsets.UTF_8), fileType, "Bramble.png", names);
    }

    /**
     * The character chats (under {@code chats/}, relative to it) in the server's store, and any other file left in
     * the user's {@code chats} folder on disk (a draft on files).
     */
    private List<String> chatFiles() throws IOException {
        Set<String> found = new TreeSet<>();
        server.files().chatPaths().stream().filter(p -> p.startsWith("chats/"))
                .forEach(p -> found.add(p.substring("chats/".length())));
        Path chats = user("chats");
        if (Files.isDirectory(chats)) {
            try (Stream<Path> files = Files.walk(chats)) {
                files.filter(Files::isRegularFile).forEach(p -> found.add(chats.relativize(p).toString()));
            }
        }
        return List.copyOf(found);
    }

    private String importedChat(HttpResponse<Buffer> response) {
        JsonNode answer = JsJson.parse(response.bodyAsString());
        assertEquals(200, response.statusCode());
        assertTrue(answer.path("res").asBoolean(), answer.toString());
        assertEquals(1, answer.path("fileNames").size());
        return document("chats/Bramble/" + answer.path("fileNames").get(0).textValue());
    }

    private void assertStError(HttpResponse<Buffer> response, String messagePart) throws IOException {
        assertEquals(200, response.statusCode(), "ST's answer for a file it cannot convert");
        JsonNode answer = JsJson.parse(response.bodyAsString());
        assertTrue(answer.path("error").asBoolean(), answer.toString());
        assertTrue(answer.path("message").asText().contains(messagePart), answer.toString());
        assertEquals(List.of(), chatFiles(), "nothing written");
    }

    private void assertBadRequest(HttpResponse<Buffer> response, String messagePart) throws IOException {
        assertEquals(400, response.statusCode(), response.bodyAsString());
        assertTrue(JsJson.parse(response.bodyAsString()).path("error").asText().contains(messagePart), response.bodyAsString());
        assertEquals(List.of(), chatFiles(), "nothing written");
    }

    @Test
    void anStChatWithoutChubValuesIsCopiedByteForByte() throws IOException {
        String chat = HEADER + "\n{\"name\":\"Bramble\",\"mes\":\"Hi\",\"extra\":{\"memory\":\"a summary\"}}\n";
        assertEquals(chat, importedChat(importChat(chat, "jsonl")), "the trailing LF survives: nothing was rewritten");
    }

    @Test
    void chubValuesAreFlattenedAndTheChatRewritten() throws IOException {
        String chat = "{\"user_name\":\"Wren\"}\r\n{\"mes\":{\"message\":\"Hi\"},\"swipes\":[{\"message\":\"Hi\"},\"Yo\", 1]}\nbroken\r\n0";
        assertEquals("{\"user_name\":\"Wren\"}\n{\"mes\":\"Hi\",\"swipes\":[\"Hi\",\"Yo\",1]}\nbroken\r\n0",
                importedChat(importChat(chat, "jsonl")), "parsed lines compact, unparsable and falsy lines verbatim");
    }

    @Test
    void aNullSwipeMakesStGiveUpFlatteningAndCopyTheUpload() throws IOException {
        String chat = "{\"user_name\":\"Wren\"}\n{\"mes\":{\"message\":\"Hi\"},\"swipes\":[null]}";
        assertEquals(chat, importedChat(importChat(chat, "jsonl")));
    }

    @Test
    void aLargeUploadIsConvertedALineAtATime() throws IOException {
        StringBuilder upload = new StringBuilder(HEADER);
        StringBuilder expected = new StringBuilder(HEADER);
        for (int i = 0; i < 3000; i++) { // lines across the reader's buffers
            String line = "{\"name\":\"Bramble\",\"mes\":\"message " + i + " é " + "x".repeat(i % 97) + "\"}";
            upload.append('\n').append(line);
            expected.append('\n').append(line);
        }
        upload.append("\n{\"mes\": {\"message\":\"Chub\"}}\n").append("{\"mes\":\"after\"}");
        expected.append("\n{\"mes\":\"Chub\"}\n").append("{\"mes\":\"after\"}");
        assertEquals(expected.toString(), importedChat(importChat(upload.toString(), "jsonl")));

        String givenUp = upload + "\n{\"swipes\":[null]}";
        assertEquals(givenUp, importedChat(importChat(givenUp, "jsonl")), "a null swipe at the end: the upload as it is");
        assertEquals(2, chatFiles().size(), "no draft left");
    }

    @Test
    void caiToolsGivesOneChatPerHistoryWithDistinctNames() throws IOException {
        String cai = "{\"histories\":{\"histories\":[{\"msgs\":[{\"src\":{\"is_human\":true},\"text\":\"a\"}]},"
                + "{\"msgs\":[]},{\"msgs\":[{\"src\":{},\"text\":\"c\"}]}]}}";
        HttpResponse<Buffer> response = importChat(cai, "json", "", "");
        JsonNode names = JsJson.parse(response.bodyAsString()).path("fileNames");
        assertEquals(3, names.size(), response.bodyAsString());
        assertEquals(3, chatFiles().size(), "three files, none overwritten");
        assertTrue(names.get(0).textValue().startsWith("Character - "), "an empty name falls back as in ST");
        String third = document("chats/Bramble/" + names.get(2).textValue());
        assertTrue(third.startsWith(HEADER + "\n{\"name\":\"Character\",\"send_date\":\""), "is_user left out when undefined: " + third);
        assertTrue(third.endsWith("\",\"mes\":\"c\",\"extra\":{}}"), third);
        assertEquals(HEADER, document("chats/Bramble/" + names.get(1).textValue()));

        HttpResponse<Buffer> empty = importChat("{\"histories\":{\"histories\":[]}}", "json");
        assertEquals("{\"res\":true,\"fileNames\":[]}", empty.bodyAsString());
    }

    @Test
    void namesAreSanitizedSoTheyCannotLeaveTheFolder() throws IOException {
        HttpResponse<Buffer> response = importChat("{\"messages\":[{\"msg\":\"hi\",\"userId\":\"u\"}]}", "json",
                "../../evil", "..\\me");
        String name = JsJson.parse(response.bodyAsString()).path("fileNames").get(0).textValue();
        assertTrue(name.startsWith("....evil - "), name);
        assertTrue(document("chats/Bramble/" + name).contains("{\"name\":\"..me\",\"is_user\":true,"));
    }

    @Test
    void risuTimesBecomeSendDatesAndABadTimeFailsTheImport() throws IOException {
        String risu = "{\"type\":\"risuChat\",\"data\":{\"message\":[{\"role\":\"user\",\"data\":\"x\",\"time\":\"1714554000000\"},"
                + "{\"role\":\"char\",\"name\":null,\"time\":8.64e15}]}}";
        assertEquals(HEADER + "\n{\"name\":\"Wren\",\"is_user\":true,\"send_date\":\"2024-05-01T09:00:00.000Z\",\"mes\":\"x\",\"extra\":{}}"
                        + "\n{\"name\":\"Bramble\",\"is_user\":false,\"send_date\":\"+275760-09-13T00:00:00.000Z\",\"mes\":\"\",\"extra\":{}}",
                importedChat(importChat(risu, "json")));
        for (String chat : server.files().chatNames("chats/Bramble")) {
            assertTrue(server.files().delete("chats/Bramble/" + chat));
        }
        assertStError(importChat("{\"type\":\"risuChat\",\"data\":{\"message\":[{\"time\":\"soon\"}]}}", "json"), "not a valid date");
    }

    @Test
    void koboldTakesItsNamesFromTheSaveAndTrimsLikeJavaScript() throws IOException {
        String kobold = "{\"savedsettings\":{\"chatopponent\":\"Bee||$||Other\"},\"prompt\":\"\",\"actions\":[\"\\u00a0{{[INPUT]}}hi\\u2028\"]}";
        String chat = importedChat(importChat(kobold, "json"));
        assertTrue(chat.startsWith(HEADER + "\n{\"name\":\"undefined\",\"is_user\":true,\"mes\":\"hi\",\"send_date\":"), chat);
    }

    @Test
    void filesStCannotConvertAnswerItsErrorAndWriteNothing() throws IOException {
        assertStError(importChat("{\"histories\":", "json"), "not valid JSON");
        assertStError(importChat("\uFEFF{\"messages\":[]}", "json"), "not valid JSON");
        assertStError(importChat("{\"something\":\"else\"}", "json"), "Unknown chat format");
        assertStError(importChat("[1,2]", "json"), "Unknown chat format");
        assertStError(importChat("null", "json"), "Unknown chat format");
        assertStError(importChat("{\"savedsettings\":null}", "json"), "savedsettings");
        assertStError(importChat("{\"savedsettings\":{},\"actions\":[5]}", "json"), "not text");
        assertStError(importChat("{\"histories\":{\"histories\":[{\"msgs\":[{\"text\":\"a\"}]}]}}", "json"), "message");
        assertStError(importChat("{\"messages\":[null]}", "json"), "message");
        assertStError(importChat("{\"data_visible\":[[\"a\",\"b\"],null]}", "json"), "null");
        assertStError(importChat("{\"not\":\"a header\"}\n{}", "jsonl"), "header");
        assertStError(importChat("\uFEFF{\"user_name\":\"x\"}", "jsonl"), "header");
        assertStError(importChat("", "jsonl"), "header");
    }

    @Test
    void badRequestsAreRefusedClearlyAndWriteNothing() throws IOException {
        byte[] chat = (HEADER + "\n{\"mes\":\"hi\"}").getBytes(StandardCharsets.UTF_8);
        assertBadRequest(importChat(client, "a.jsonl", null, "jsonl", "Bramble.png"), "No chat file");
        assertBadRequest(importChat(client, "a.txt", chat, "txt", "Bramble.png"), "file_type");
        assertBadRequest(importChat(client, "a.jsonl", chat, null, "Bramble.png"), "file_type");
        assertBadRequest(importChat(client, "a.jsonl", chat, "jsonl", null), "avatar_url");
        assertBadRequest(importChat(client, "a.jsonl", chat, "jsonl", "../Bramble.png"), "avatar_url");
        assertBadRequest(importChat(client, "a.jsonl", chat, "jsonl", "..\\Bramble.png"), "avatar_url");
        assertBadRequest(importChat(client, "a.jsonl", chat, "jsonl", "a/b.png"), "avatar_url");
        assertBadRequest(importChat(client, "a.jsonl", chat, "jsonl", "Bramble.png", "x".repeat(250)), "too long");
        byte[] broken = {'{', '"', 'u', 's', 'e', 'r', '_', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xC3, '"', '}'};
        assertBadRequest(importChat(client, "a.jsonl", broken, "jsonl", "Bramble.png"), "UTF-8");
        assertBadRequest(importChat(client, "a.json", broken, "json", "Bramble.png"), "UTF-8");
    }

    @Test
    void importsIntoAFolderThatDoesNotExistYet() throws IOException {
        assertFalse(server.files().chatFolderExists("chats/Juniper"));
        HttpResponse<Buffer> response = importChat(client, "a.jsonl", HEADER.getBytes(StandardCharsets.UTF_8), "jsonl", "Juniper.png");
        String name = JsJson.parse(response.bodyAsString()).path("fileNames").get(0).textValue();
        assertArrayEquals(HEADER.getBytes(StandardCharsets.UTF_8), documentBytes("chats/Juniper/" + name));
    }
}
