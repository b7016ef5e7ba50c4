package tankard.content;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.character.CardCodec;
import tankard.image.Images;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;
import tankard.testing.TestServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/content/*} over HTTP, the content sites' fixed origins rebased onto a mock on loopback. */
class ContentImportHttpTest extends ServerTest {
    private static final byte[] PNG = TestImages.image("png", 4, 4);
    private Vertx mockVertx;
    private MockCompletionServer mock;

    @BeforeEach
    void startMock() {
        mockVertx = Vertx.vertx();
        mock = MockCompletionServer.start(mockVertx);
        mock.route("/avatar.png", r -> r.response().putHeader("Content-Type", "image/png").end(Buffer.buffer(PNG)));
        mock.route("/chub/api/characters/alice/mapmaker", r -> json(r, "{\"node\":{\"topics\":[\"maps\"],\"max_res_url\":\""
                + mock.origin() + "/avatar.png\",\"definition\":{\"name\":\"Mapmaker\",\"personality\":\"Draws maps\","
                + "\"first_message\":\"Hello\",\"extensions\":{\"x\":1}}}}"));
        mock.route("/chub/api/lorebooks/alice/atlas", r -> json(r, "{\"node\":{\"id\":42}}"));
        mock.route("/chub/api/v4/projects/42/repository/files/raw%252Fsillytavern_raw.json/raw",
                r -> json(r, "{\"entries\":{}}"));
        mock.route("/risu/api/v1/download/png-v3/abc123", r -> r.response().end(Buffer.buffer(PNG)));
        mock.route("/pyg/api/export/character/0a1b2c3d-0000-1111-2222-333344445555/v2", r -> json(r,
                "{\"character\":{\"spec\":\"chara_card_v2\",\"data\":{\"name\":\"Pyg\",\"avatar\":\"" + mock.origin() + "/avatar.png\"}}}"));
        mock.route("/janny/api/v1/download", r -> json(r, mock.lastCall("/janny/api/v1/download").body().contains(
                "\"characterId\":\"0a1b2c3d-0000-1111-2222-333344445556\"")
                ? "{\"status\":\"ok\",\"downloadUrl\":\"" + mock.origin() + "/files/card.png\"}" : "{\"status\":\"error\"}"));
        perchance("a1", "{\"addCharacter\":{\"name\":\"Advisor\",\"roleInstruction\":\"Gives advice\",\"uuid\":\"u-1\","
                + "\"avatar\":{\"url\":\"data:image/png;base64," + Base64.getEncoder().encodeToString(PNG) + "\"}}}");
        perchance("b2", "{\"addCharacter\":{\"metaTitle\":\"Someone\",\"avatar\":{\"url\":\"" + mock.origin()
                + "/files/face.jpg\"}}}");
        perchance("c3", "{\"notACharacter\":{}}");
        mock.route("/files/face.jpg", r -> r.response().putHeader("Content-Type", "image/jpeg")
                .end(Buffer.buffer(TestImages.image("jpg", 6, 6))));
        mock.route("/files/card.png", r -> r.response().putHeader("Content-Type", "image/png").end(Buffer.buffer(PNG)));
        mock.route("/files/noext", r -> r.response().putHeader("Content-Type", "image/png").end(Buffer.buffer(PNG)));
        mock.route("/files/huge.png", r -> r.response().putHeader("Content-Length", "999999999999").write("start"));
        start(TestServer.providerOrigins(Map.of("https://api.chub.ai", mock.origin() + "/chub",
                "https://realm.risuai.net", mock.origin() + "/risu",
                "https://server.pygmalion.chat", mock.origin() + "/pyg",
                "https://api.jannyai.com", mock.origin() + "/janny",
                "https://user.uploads.dev", mock.origin() + "/perchance")) + "whitelistImportDomains: [127.0.0.1]\n");
    }

    /** A Perchance character file, gzipped JSON, at {@code /file/<id><30 zeros>.gz}. */
    private void perchance(String id, String json) {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(json.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        mock.route("/perchance/file/" + id + "0".repeat(30) + ".gz", r -> r.response().end(Buffer.buffer(gz.toByteArray())));
    }

    @AfterEach
    void stopMock() {
        mockVertx.close();
    }

    private static void json(io.vertx.core.http.HttpServerRequest request, String body) {
        request.response().putHeader("Content-Type", "application/json").end(body);
    }

    private HttpResponse<Buffer> importUrl(String url) {
        return client.post("/api/content/importURL", new JsonObject().put("url", url).encode());
    }

    private void assertNothingWritten() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(server.userDir())) {
            assertTrue(files.noneMatch(p -> p.toString().contains("Mapmaker") || p.toString().endsWith(".part")));
        }
    }

    @Test
    void chubCharacterBecomesAPngCard() {
        HttpResponse<Buffer> r = importUrl("https://chub.ai/characters/alice/mapmaker");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("image/png", r.getHeader("Content-Type"));
        assertEquals("character", r.getHeader("X-Custom-Content-Type"));
        assertEquals("attachment; filename=\"Mapmaker.png\"", r.getHeader("Content-Disposition"));
        JsonNode card = CardCodec.readPng(r.body().getBytes()).json();
        assertEquals("Mapmaker", card.path("data").path("name").asText());
        assertEquals("Draws maps", card.path("data").path("description").asText());
        assertEquals("Hello", card.path("data").path("first_mes").asText());
        assertEquals("alice", card.path("data").path("creator").asText());
        assertEquals("maps", card.path("data").path("tags").path(0).asText());

        r = client.post("/api/content/importUUID", "{\"url\":\"alice/mapmaker\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("character", r.getHeader("X-Custom-Content-Type"));
    }

    @Test
    void chubLorebookIsItsJson() {
        HttpResponse<Buffer> r = importUrl("https://www.characterhub.org/lorebooks/alice/atlas");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("lorebook", r.getHeader("X-Custom-Content-Type"));
        assertEquals("attachment; filename=\"atlas.json\"", r.getHeader("Content-Disposition"));
        assertEquals("{\"entries\":{}}", r.bodyAsString());
    }

    @Test
    void risuPygmalionAndGenericHosts() {
        HttpResponse<Buffer> r = importUrl("https://realm.risuai.net/character/abc123");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertArrayEquals(PNG, r.body().getBytes());
        assertEquals("attachment; filename=\"abc123.png\"", r.getHeader("Content-Disposition"));

        r = importUrl("https://pygmalion.chat/character/0a1b2c3d-0000-1111-2222-333344445555");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("Pyg", CardCodec.readPng(r.body().getBytes()).json().path("data").path("name").asText());

        r = importUrl("https://janitorai.com/characters/0a1b2c3d-0000-1111-2222-333344445556_character-x");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertArrayEquals(PNG, r.body().getBytes());
        assertEquals("attachment; filename=\"0a1b2c3d-0000-1111-2222-333344445556.png\"", r.getHeader("Content-Disposition"));
        r = importUrl("https://janitorai.com/characters/0a1b2c3d-0000-1111-2222-333344445557_character-x");
        assertEquals(500, r.statusCode(), r.bodyAsString());

        r = importUrl(mock.origin() + "/files/card.png?x=1");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("attachment; filename=\"card.png\"", r.getHeader("Content-Disposition"));
        r = importUrl(mock.origin() + "/files/noext");
        assertEquals("attachment; filename=\"noext.png\"", r.getHeader("Content-Disposition"));
    }

    @Test
    void perchanceCharactersBecomePngCards() {
        HttpResponse<Buffer> r = client.post("/api/content/importUUID",
                "{\"url\":\"Personality_Advisor~a1" + "0".repeat(30) + ".gz\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("character", r.getHeader("X-Custom-Content-Type"));
        assertEquals("attachment; filename=\"Advisor.png\"", r.getHeader("Content-Disposition"));
        JsonNode card = CardCodec.readPng(r.body().getBytes()).json();
        // read from the card's ccv3 chunk, which the writer adds beside the V2 one as ST's does
        assertEquals("{\"spec\":\"chara_card_v3\",\"spec_version\":\"3.0\",\"data\":{\"name\":\"Advisor\",\"first_mes\":\"\","
                + "\"tags\":[],\"description\":\"Gives advice\",\"creator\":\"\",\"creator_notes\":\"\",\"alternate_greetings\":[],"
                + "\"character_version\":\"\",\"mes_example\":\"\",\"post_history_instructions\":\"\",\"system_prompt\":\"\","
                + "\"scenario\":\"\",\"personality\":\"\",\"extensions\":{\"perchance_data\":{\"slug\":\"a1" + "0".repeat(30)
                + ".gz\",\"char_url\":\"https://user.uploads.dev/file/a1" + "0".repeat(30) + ".gz\",\"uuid\":\"u-1\","
                + "\"avatar_url\":null,\"folder_path\":null,\"folder_name\":null,\"custom_data\":{}}}}}",
                JsJson.compact(card));
        assertArrayEquals(new int[]{4, 4}, Images.dimensions(r.body().getBytes()), "the data URL's image");

        r = importUrl("https://perchance.org/ai-character-chat?data=Someone~b2" + "0".repeat(30) + ".gz");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("attachment; filename=\"Unnamed%20Perchance%20Character.png\"", r.getHeader("Content-Disposition"));
        JsonNode data = CardCodec.readPng(r.body().getBytes()).json().path("data");
        assertEquals("Someone", data.path("creator").asText());
        assertEquals(mock.origin() + "/files/face.jpg", data.path("extensions").path("perchance_data").path("avatar_url").asText());
        assertArrayEquals(new int[]{6, 6}, Images.dimensions(r.body().getBytes()), "the JPEG avatar became the PNG");

        r = client.post("/api/content/importUUID", "{\"url\":\"Odd~c3" + "0".repeat(30) + ".gz\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("Invalid Perchance character data"), r.bodyAsString());
        assertEquals(404, client.post("/api/content/importUUID", "{\"url\":\"Gone~d4" + "0".repeat(30) + ".gz\"}").statusCode());
        assertEquals(404, importUrl("https://perchance.org/ai-character-chat").statusCode());
    }

    @Test
    void badImportsAreClearErrors() throws IOException {
        assertEquals(400, client.post("/api/content/importURL", "{}").statusCode());
        assertEquals(400, client.post("/api/content/importUUID", "{\"url\":5}").statusCode());
        assertEquals(404, importUrl("https://example.com/card.png").statusCode());
        assertEquals(404, importUrl("not a url").statusCode());
        assertEquals(404, importUrl("https://realm.risuai.net/other/abc").statusCode());
        assertEquals(404, importUrl("https://janitorai.com/characters/no-uuid").statusCode());
        assertEquals(404, importUrl(" https://aicharactercards.com/card").statusCode()); // a URL with spaces around it
        HttpResponse<Buffer> r = importUrl("https://chub.ai/characters/alice/missing");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsJsonObject().getString("error").contains("Failed to fetch character metadata"), r.bodyAsString());
        r = importUrl(mock.origin() + "/files/huge.png");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsJsonObject().getString("error").contains("larger than"), r.bodyAsString());
        mock.close();
        r = importUrl("https://chub.ai/characters/alice/mapmaker");
        assertEquals(502, r.statusCode());
        assertTrue(r.bodyAsJsonObject().getString("error").contains("are you offline?"), r.bodyAsString());
        assertNothingWritten();
    }

    @Test
    void theOutboundFilterAppliesToContentSites() {
        server.close();
        start(TestServer.providerOrigins(Map.of("https://api.chub.ai", mock.origin() + "/chub"))
                + "privateAddressWhitelist:\n  enabled: true\n  allowedRanges: []\n");
        HttpResponse<Buffer> r = importUrl("https://chub.ai/characters/alice/mapmaker");
        assertEquals(400, r.statusCode());
        assertTrue(r.bodyAsJsonObject().getString("error").contains("Blocked request to private IP address"), r.bodyAsString());
        assertTrue(mock.calls().isEmpty());
    }
}
