package tankard.chat;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;
import tankard.util.StTime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chat fixtures of compat-tests/chats against what ST 1.18.0 does with them: every import format gives
 * the bytes ST wrote for the same upload (chats/import/expected, recorded with record-chat-imports.py; the
 * import-time send dates masked as {@code @NOW@}), and every ST-format chat survives save + get and import
 * byte for byte.
 */
class ChatImportCompatTest extends ServerTest {
    private static final Path IMPORTS = Fixtures.path("chats/import");
    private static final Pattern SEND_DATE = Pattern.compile("\"send_date\":\"(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z)\"");
    private static final Pattern IMPORTED_NAME = Pattern.compile("Bramble - (\\d{4}-\\d\\d-\\d\\d@\\d\\dh\\d\\dm\\d\\ds\\d{3}ms) imported\\.jsonl");

    @BeforeEach
    void startServer() {
        start(null);
    }

    @Test
    void everyImportFormatWritesWhatSillyTavernWrites() throws IOException {
        List<Path> fixtures;
        try (Stream<Path> files = Files.list(IMPORTS)) {
            fixtures = files.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path fixture : fixtures) {
            String stem = fixture.getFileName().toString().replaceFirst("\\.[a-z]+$", "");
            long before = System.currentTimeMillis();
            List<String> names = importOk(fixture);
            long after = System.currentTimeMillis();
            List<Path> expected = expectedFiles(stem);
            assertTrue(!expected.isEmpty() && expected.size() == names.size(), stem + ": one expected file per chat");
            for (int i = 0; i < names.size(); i++) {
                Matcher name = IMPORTED_NAME.matcher(names.get(i));
                assertTrue(name.matches(), stem + ": file name " + names.get(i));
                String humanized = name.group(1);
                assertTrue(humanized.compareTo(StTime.humanized(before)) >= 0 && humanized.compareTo(StTime.humanized(after + names.size())) <= 0,
                        stem + ": the name carries the import time");
                String actual = maskNow(Files.readString(user("chats/Bramble/" + names.get(i))), before, after);
                assertEquals(Files.readString(expected.get(i)), actual, stem + " → " + names.get(i));
            }
        }
    }

    @Test
    void stFormatChatsSurviveSaveGetAndImportByteForByte() throws IOException {
        for (String fixture : List.of("chats/summarized-with-extensions.jsonl", "chats/bramble-first-meeting.jsonl",
                "chats/legacy-header.jsonl")) {
            byte[] chat = Fixtures.bytes(fixture);
            String lines = new String(chat, StandardCharsets.UTF_8);
            // the frontend sends the parsed lines as one JSON array
            String body = "{\"ch_name\":\"Bramble\",\"file_name\":\"round trip\",\"avatar_url\":\"Bramble.png\",\"force\":true,"
                    + "\"chat\":[" + String.join(",", lines.split("\n")) + "]}";
            assertEquals(200, client.post("/api/chats/save", body).statusCode(), fixture);
            assertEquals(lines, Files.readString(user("chats/Bramble/round trip.jsonl")), fixture + " saved");
            HttpResponse<Buffer> get = client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"round trip\"}");
            assertEquals("[" + String.join(",", lines.split("\n")) + "]", get.bodyAsString(), fixture + " read back");

            List<String> names = importOk(Fixtures.path(fixture));
            assertEquals(1, names.size());
            assertEquals(lines, Files.readString(user("chats/Bramble/" + names.get(0))), fixture + " imported");
        }
    }

    private List<String> importOk(Path fixture) throws IOException {
        String file = fixture.getFileName().toString();
        HttpResponse<Buffer> response = ChatImportHttpTest.importChat(client, file, Files.readAllBytes(fixture),
                file.endsWith(".jsonl") ? "jsonl" : "json", "Bramble.png");
        assertEquals(200, response.statusCode(), file);
        JsonNode answer = JsJson.parse(response.bodyAsString());
        assertTrue(answer.path("res").asBoolean(), file + ": " + answer);
        List<String> names = new ArrayList<>();
        answer.path("fileNames").forEach(n -> names.add(n.textValue()));
        return names;
    }

    /** The expected file, or its numbered files when the fixture holds several chats. */
    private static List<Path> expectedFiles(String stem) {
        Path single = IMPORTS.resolve("expected/" + stem + ".jsonl");
        if (Files.exists(single)) {
            return List.of(single);
        }
        List<Path> numbered = new ArrayList<>();
        for (int i = 1; Files.exists(IMPORTS.resolve("expected/" + stem + "-" + i + ".jsonl")); i++) {
            numbered.add(IMPORTS.resolve("expected/" + stem + "-" + i + ".jsonl"));
        }
        return numbered;
    }

    /** Send dates stamped during the import (and only those) become {@code @NOW@}, as in the expected files. */
    private static String maskNow(String chat, long before, long after) {
        return SEND_DATE.matcher(chat).replaceAll(m -> {
            long time = Instant.parse(m.group(1)).toEpochMilli();
            return time >= before && time <= after ? "\"send_date\":\"@NOW@\"" : Matcher.quoteReplacement(m.group());
        });
    }
}
