package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;
import tankard.util.LenientBase64;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CharacterEditHttpTest extends ServerTest {
    private static final String BRAMBLE = Fixtures.text("characters/bramble-v2.json");

    /** A card around a real image with an extra ancillary chunk, whose JSON carries members ST does not know. */
    private static byte[] richCard() {
        ObjectNode card = (ObjectNode) JsJson.parse(BRAMBLE);
        card.put("x_tool", "kept");
        ((ObjectNode) card.get("data")).put("nickname", "Bee");
        ((ObjectNode) card.get("data").get("extensions")).putObject("chub").put("id", 42);
        byte[] png = Fixtures.withText(TestImages.image("png", 40, 60), "Comment", "made by a test");
        return Fixtures.withText(png, "chara", Fixtures.base64(JsJson.compact(card)));
    }

    private UserFiles userFiles() {
        return server.files();
    }

    private byte[] cardBytes(String name) {
        return userFiles().bytes("characters/" + name);
    }

    /** The JSON of one text chunk of a card file. */
    private static JsonNode chunk(byte[] png, String keyword) {
        for (PngChunks.Text text : PngChunks.texts(png)) {
            if (text.keyword().equals(keyword)) {
                return JsJson.parse(LenientBase64.decode(text.text()));
            }
        }
        return null;
    }

    /** Every chunk but the card text, as type → concatenated raw bytes (header, data, CRC). */
    private static List<String> imageChunks(byte[] png) {
        List<String> chunks = new ArrayList<>();
        for (PngChunks.Chunk chunk : PngChunks.read(png)) {
            boolean card = chunk.type().equals("tEXt") && (new String(png, chunk.offset(), 5, StandardCharsets.ISO_8859_1).equals("chara")
                    || new String(png, chunk.offset(), 4, StandardCharsets.ISO_8859_1).equals("ccv3"));
            if (!card) {
                chunks.add(chunk.type() + ":" + Arrays.toString(Arrays.copyOfRange(png, chunk.offset() - 8, chunk.offset() + chunk.length() + 4)));
            }
        }
        return chunks;
    }

    private List<String> types(byte[] png) {
        return PngChunks.read(png).stream().map(PngChunks.Chunk::type).toList();
    }

    private HttpResponse<Buffer> multipart(String path, Map<String, String> fields, byte[] avatar, String fileName) {
        MultipartForm form = MultipartForm.create();
        fields.forEach(form::attribute);
        if (avatar != null) {
            form.binaryFileUpload("avatar", fileName, Buffer.buffer(avatar), "application/octet-stream");
        }
        var request = client.request(HttpMethod.POST, path);
        return TestServer.await(request.sendMultipartForm(form));
    }

    /** The names in a folder of the user's ({@code characters}, {@code chats}, {@code chats/Rose}), sorted. */
    private List<String> files(String folder) {
        return userFiles().list(folder);
    }

    private Path thumbnail(String name) throws IOException {
        return put("thumbnails/avatar/" + name, new byte[]{1, 2, 3});
    }

    // --- create

    @Test
    void createWritesBothChunksAllocatesNamesAndMakesTheChatFolder() throws IOException {
        start(null);
        HttpResponse<Buffer> first = multipart("/api/characters/create",
                Map.of("ch_name", "Ann", "description", "desc", "tags", "a, b,,", "fav", "true",
                        "json_data", "{\"x_tool\":1,\"data\":{\"nickname\":\"A\"}}"), null, null);
        assertEquals(200, first.statusCode());
        assertTrue(first.getHeader("Content-Type").startsWith("text/html"));
        assertEquals("Ann.png", first.bodyAsString());
        assertEquals("Ann1.png", client.post("/api/characters/create", "{\"ch_name\":\"Ann\"}").bodyAsString());
        assertEquals("Ann2.png", client.post("/api/characters/create", "{\"ch_name\":\"A/n:n\"}").bodyAsString(),
                "the name is sanitized before allocation");
        assertTrue(userFiles().hasFolder("chats/Ann"));
        assertTrue(userFiles().hasFolder("chats/Ann1"));

        byte[] png = cardBytes("Ann.png");
        List<String> types = types(png);
        assertEquals(List.of("tEXt", "tEXt", "IEND"), types.subList(types.size() - 3, types.size()),
                "chara and ccv3 right before IEND");
        JsonNode chara = chunk(png, "chara");
        JsonNode ccv3 = chunk(png, "ccv3");
        assertEquals("chara_card_v2", chara.get("spec").asText());
        assertEquals("chara_card_v3", ccv3.get("spec").asText());
        assertEquals("3.0", ccv3.get("spec_version").asText());
        assertEquals(1, chara.get("x_tool").asInt(), "json_data members survive");
        assertEquals("A", chara.get("data").get("nickname").asText());
        assertEquals(List.of("a", "b"), JsJson.MAPPER.convertValue(chara.get("data").get("tags"), List.class));
        assertTrue(chara.get("fav").booleanValue());
        assertEquals(0.5, chara.get("talkativeness").asDouble());
        assertNull(chara.get("create_date"));
        assertEquals("{\"prompt\":\"\",\"depth\":4,\"role\":\"system\"}",
                JsJson.compact(chara.get("data").get("extensions").get("depth_prompt")));

        JsonNode listed = json(client.post("/api/characters/get", "{\"avatar_url\":\"Ann.png\"}"));
        assertEquals("Ann", listed.get("name").asText());
        assertEquals("desc", listed.get("data").get("description").asText());
    }

    @Test
    void createWithAnUploadCropsAndResizesIt() throws IOException {
        start(null);
        String crop = URLEncoder.encode("{\"x\":10,\"y\":0,\"width\":100,\"height\":150,\"want_resize\":true}", StandardCharsets.UTF_8);
        HttpResponse<Buffer> r = multipart("/api/characters/create?crop=" + crop, Map.of("ch_name", "Pic"),
                TestImages.image("jpeg", 200, 150), "pic.jpg");
        assertEquals("Pic.png", r.bodyAsString());
        BufferedImage image = TestImages.decode(cardBytes("Pic.png"));
        assertEquals(512, image.getWidth());
        assertEquals(768, image.getHeight());

        multipart("/api/characters/create", Map.of("ch_name", "Raw"), TestImages.image("png", 30, 20), "raw.png");
        BufferedImage kept = TestImages.decode(cardBytes("Raw.png"));
        assertEquals(30, kept.getWidth(), "without crop the size is kept");
        assertEquals(20, kept.getHeight());
    }

    @Test
    void createRefusesBadInputAndWritesNothing() throws IOException {
        start(null);
        assertEquals(400, multipart("/api/characters/create", Map.of("ch_name", "Bad"),
                "not an image".getBytes(StandardCharsets.UTF_8), "x.png").statusCode());
        assertEquals(400, client.post("/api/characters/create", "{\"ch_name\":\"X\",\"file_name\":\"../evil\"}").statusCode());
        assertEquals(400, client.post("/api/characters/create", "{\"ch_name\":\"X\",\"file_name\":\"a/b\"}").statusCode());
        for (String dots : List.of(".", "..")) {
            assertEquals(400, client.post("/api/characters/create", "{\"ch_name\":\"X\",\"file_name\":\"" + dots + "\"}")
                    .statusCode(), dots + ": a card of that name would have no chat folder");
        }
        var tooLong = client.post("/api/characters/get", "{\"avatar_url\":\"" + "x".repeat(300) + ".png\"}");
        assertEquals("400 {\"error\":\"A name in the request is too long for the file system\"}",
                tooLong.statusCode() + " " + tooLong.bodyAsString());
        assertEquals(400, client.post("/api/characters/create", "{\"description\":\"no name\"}").statusCode());
        assertEquals(400, client.post("/api/characters/create", "{\"ch_name\":").statusCode());
        assertEquals(List.of(), files("characters"));
        assertEquals(List.of(), files("chats"));
        assertFalse(server.files().exists("evil.png"));
    }

    // --- edit

    @Test
    void editChangesOnlyTheTextChunksAndKeepsUnknownFields() throws IOException {
        start(null);
        byte[] before = richCard();
        put("characters/Bramble.png", before);
        Path thumb = thumbnail("Bramble.png");
        String jsonData = json(client.post("/api/characters/get", "{\"avatar_url\":\"Bramble.png\"}")).get("json_data").asText();

        HttpResponse<Buffer> r = multipart("/api/characters/edit", Map.of("avatar_url", "Bramble.png",
                "ch_name", "Bramble Rose", "description", "new desc", "json_data", jsonData,
                "chat", "Bramble - my chat", "create_date", "2025-01-02T10:00:00.000Z",
                "extensions", "{\"chub\":{\"full\":true}}"), null, null);
        assertEquals(200, r.statusCode());
        assertEquals("OK", r.bodyAsString());

        byte[] after = cardBytes("Bramble.png");
        assertEquals(imageChunks(before), imageChunks(after), "IHDR, IDAT and other chunks are byte-identical");
        assertEquals(List.of("IHDR", "IDAT", "tEXt", "tEXt", "tEXt", "IEND"), types(after));
        JsonNode chara = chunk(after, "chara");
        assertEquals("Bramble Rose", chara.get("name").asText());
        assertEquals("new desc", chara.get("data").get("description").asText());
        assertEquals("kept", chara.get("x_tool").asText());
        assertEquals("Bee", chara.get("data").get("nickname").asText());
        assertEquals("{\"id\":42,\"full\":true}", JsJson.compact(chara.get("data").get("extensions").get("chub")));
        assertEquals("Bramble - my chat", chara.get("chat").asText());
        assertEquals("2025-01-02T10:00:00.000Z", chara.get("create_date").asText());
        assertEquals("chara_card_v3", chunk(after, "ccv3").get("spec").asText());
        assertTrue(Files.exists(thumb), "the image did not change, so the thumbnail stays");

        JsonNode listed = json(client.post("/api/characters/get", "{\"avatar_url\":\"Bramble.png\"}"));
        assertEquals("Bramble Rose", listed.get("name").asText(), "the cached card is not served after an edit");
    }

    @Test
    void editTakesFormFieldsLargerThanNettysDefault() throws IOException {
        start(null);
        put("characters/Bramble.png", richCard());
        String description = "Long description. ".repeat(4000); // 72 KB: ST's default Seraphina has over 8 KB in a field
        HttpResponse<Buffer> r = multipart("/api/characters/edit", Map.of("avatar_url", "Bramble.png",
                "ch_name", "Bramble", "description", description), null, null);
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(description, chunk(cardBytes("Bramble.png"), "chara").get("data").get("description").asText());
    }

    @Test
    void editWithANewImageReplacesItAndDropsTheThumbnail() throws IOException {
        start(null);
        put("characters/Bramble.png", richCard());
        Path thumb = thumbnail("Bramble.png");
        HttpResponse<Buffer> r = multipart("/api/characters/edit", Map.of("avatar_url", "Bramble.png", "ch_name", "Bramble"),
                TestImages.image("png", 16, 24), "new.png");
        assertEquals(200, r.statusCode());
        assertFalse(Files.exists(thumb));
        assertEquals(16, TestImages.decode(cardBytes("Bramble.png")).getWidth());
    }

    @Test
    void editRefusesBadInputAndChangesNothing() throws IOException {
        start(null);
        byte[] before = richCard();
        put("characters/Bramble.png", before);
        assertEquals(400, client.post("/api/characters/edit", "{\"ch_name\":\"X\"}").statusCode());
        assertEquals(400, client.post("/api/characters/edit", "{\"avatar_url\":\"../Bramble.png\",\"ch_name\":\"X\"}").statusCode());
        assertEquals(400, client.post("/api/characters/edit", "{\"avatar_url\":\"Bramble.png\",\"ch_name\":\".\"}").statusCode());
        assertEquals(400, client.post("/api/characters/edit", "{\"avatar_url\":\"Bramble.png\",\"ch_name\":\"\"}").statusCode());
        assertEquals(400, client.post("/api/characters/edit", "{\"avatar_url\":\"Bramble.png\"").statusCode());
        assertEquals(404, client.post("/api/characters/edit", "{\"avatar_url\":\"Nobody.png\",\"ch_name\":\"X\"}").statusCode());
        assertEquals(400, multipart("/api/characters/edit", Map.of("avatar_url", "Bramble.png", "ch_name", "X"),
                "GIF89a nonsense".getBytes(StandardCharsets.UTF_8), "x.gif").statusCode());
        assertArrayEquals(before, cardBytes("Bramble.png"));
        assertEquals(List.of("Bramble.png"), files("characters"));
    }

    // --- edit-attribute, merge-attributes

    @Test
    void editAttributeSetsTopLevelAndData() throws IOException {
        start(null);
        put("characters/Bramble.png", richCard());
        assertEquals(200, client.post("/api/characters/edit-attribute",
                "{\"avatar_url\":\"Bramble.png\",\"ch_name\":\"Bramble\",\"field\":\"scenario\",\"value\":\"A boat.\"}").statusCode());
        JsonNode chara = chunk(cardBytes("Bramble.png"), "chara");
        assertEquals("A boat.", chara.get("scenario").asText());
        assertEquals("A boat.", chara.get("data").get("scenario").asText());
        assertEquals("kept", chara.get("x_tool").asText());

        byte[] before = cardBytes("Bramble.png");
        assertEquals(400, client.post("/api/characters/edit-attribute",
                "{\"avatar_url\":\"Bramble.png\",\"ch_name\":\"Bramble\",\"field\":\"nonsense\",\"value\":1}").statusCode());
        assertEquals(400, client.post("/api/characters/edit-attribute",
                "{\"avatar_url\":\"Bramble.png\",\"ch_name\":\"Bramble\",\"field\":\"json_data\",\"value\":1}").statusCode());
        assertEquals(400, client.post("/api/characters/edit-attribute",
                "{\"avatar_url\":\"a/Bramble.png\",\"ch_name\":\"Bramble\",\"field\":\"scenario\",\"value\":1}").statusCode());
        assertArrayEquals(before, cardBytes("Bramble.png"));
    }

    @Test
    void mergeAttributesDeepMergesUnsetsAndValidates() throws IOException {
        start(null);
        byte[] before = richCard();
        put("characters/Bramble.png", before);
        HttpResponse<Buffer> ok = client.post("/api/characters/merge-attributes",
                "{\"avatar\":\"Bramble.png\",\"json_data\":\"ignored\",\"x_tool\":\"__@@UNSET@@__\","
                        + "\"data\":{\"extensions\":{\"fav\":true,\"chub\":{\"extra\":[1]}}}}");
        assertEquals(200, ok.statusCode());
        byte[] after = cardBytes("Bramble.png");
        assertEquals(imageChunks(before), imageChunks(after));
        JsonNode chara = chunk(after, "chara");
        assertNull(chara.get("x_tool"));
        assertNull(chara.get("json_data"));
        assertEquals("Bramble.png", chara.get("avatar").asText());
        assertEquals("{\"id\":42,\"extra\":[1]}", JsJson.compact(chara.get("data").get("extensions").get("chub")));
        assertTrue(chara.get("data").get("extensions").get("fav").booleanValue());
        assertEquals("witch", chara.get("data").get("tags").get(0).asText(), "untouched members stay");

        HttpResponse<Buffer> invalid = client.post("/api/characters/merge-attributes",
                "{\"avatar\":\"Bramble.png\",\"name\":\"__@@UNSET@@__\",\"spec\":\"__@@UNSET@@__\"}");
        assertEquals(400, invalid.statusCode());
        assertEquals("Validation failed for Bramble.png", json(invalid).get("message").asText());
        assertEquals("spec", json(invalid).get("error").asText());
        assertArrayEquals(after, cardBytes("Bramble.png"), "an invalid merge writes nothing");
        assertEquals(400, client.post("/api/characters/merge-attributes", "{\"avatar\":\"../x.png\",\"a\":1}").statusCode());
        assertEquals(400, client.post("/api/characters/merge-attributes", "{\"avatar\":\"Nobody.png\",\"a\":1}").statusCode());
    }

    @Test
    void bulkMergeReportsUpdatedSkippedAndFailed() throws IOException {
        start(null);
        put("characters/A.png", richCard());
        put("characters/B.png", Fixtures.card("{\"name\":\"B\",\"description\":\"\",\"personality\":\"\",\"scenario\":\"\","
                + "\"first_mes\":\"\",\"mes_example\":\"\"}"));
        put("characters/Broken.png", Fixtures.plainPng());
        JsonNode result = json(client.post("/api/characters/merge-attributes",
                "{\"avatars\":[],\"data\":{\"data\":{\"extensions\":{\"world\":\"W\"}}},\"filter\":{\"path\":\"data.extensions\"}}"));
        assertEquals("[\"A.png\"]", JsJson.compact(result.get("updated")));
        assertEquals("[\"B.png\"]", JsJson.compact(result.get("skipped")));
        assertEquals("[\"Broken.png\"]", JsJson.compact(result.get("failed")));
        assertEquals("W", chunk(cardBytes("A.png"), "chara").get("data").get("extensions").get("world").asText());

        JsonNode listed = json(client.post("/api/characters/merge-attributes",
                "{\"avatars\":[\"B.png\"],\"data\":{\"creator\":\"me\"}}"));
        assertEquals("[\"B.png\"]", JsJson.compact(listed.get("updated")));
        assertEquals(400, client.post("/api/characters/merge-attributes", "{\"avatars\":[\"../A.png\"],\"data\":{}}").statusCode());
        assertEquals(400, client.post("/api/characters/merge-attributes", "{\"avatars\":[\"A.txt\"],\"data\":{}}").statusCode());
        HttpResponse<Buffer> noData = client.post("/api/characters/merge-attributes", "{\"avatars\":[\"A.png\"],\"data\":[1]}");
        assertEquals(400, noData.statusCode());
        assertEquals("No valid update data provided.", json(noData).get("message").asText());
    }

    // --- edit-avatar

    @Test
    void editAvatarReplacesTheImageKeepsTheJsonAndDropsTheThumbnail() throws IOException {
        start(null);
        byte[] before = richCard();
        put("characters/Bramble.png", before);
        Path thumb = thumbnail("Bramble.png");
        String crop = URLEncoder.encode("{\"x\":0,\"y\":0,\"width\":8,\"height\":8}", StandardCharsets.UTF_8);
        HttpResponse<Buffer> r = multipart("/api/characters/edit-avatar?crop=" + crop, Map.of("avatar_url", "Bramble.png"),
                TestImages.image("bmp", 20, 20), "new.bmp");
        assertEquals(200, r.statusCode());
        byte[] after = cardBytes("Bramble.png");
        assertEquals(8, TestImages.decode(after).getWidth());
        assertEquals(chunk(before, "chara"), chunk(after, "chara"));
        assertFalse(Files.exists(thumb));
        assertFalse(types(after).contains("tEXt") && PngChunks.texts(after).stream().anyMatch(t -> t.keyword().equals("Comment")),
                "the new image carries none of the old ancillary chunks");

        assertEquals(400, multipart("/api/characters/edit-avatar", Map.of("avatar_url", "Bramble.png"), null, null).statusCode());
        assertEquals(400, multipart("/api/characters/edit-avatar", Map.of(), TestImages.image("png", 4, 4), "a.png").statusCode());
        assertEquals(400, multipart("/api/characters/edit-avatar", Map.of("avatar_url", "../Bramble.png"),
                TestImages.image("png", 4, 4), "a.png").statusCode());
        assertEquals(400, multipart("/api/characters/edit-avatar", Map.of("avatar_url", "Bramble.png"),
                new byte[]{1, 2, 3}, "a.png").statusCode());
        assertArrayEquals(after, cardBytes("Bramble.png"));
    }

    // --- rename, delete, duplicate

    @Test
    void renameMovesTheChatsAndAllocatesAFreeName() throws IOException {
        start(null);
        put("characters/Bramble.png", richCard());
        put("characters/Rose.png", richCard());
        put("chats/Bramble/one.jsonl", "{}\n".getBytes(StandardCharsets.UTF_8));
        Path thumb = thumbnail("Bramble.png");
        HttpResponse<Buffer> r = client.post("/api/characters/rename", "{\"avatar_url\":\"Bramble.png\",\"new_name\":\"Ro:se\"}");
        assertEquals(200, r.statusCode());
        assertEquals("{\"avatar\":\"Rose1.png\"}", r.bodyAsString());
        assertEquals(List.of("Rose.png", "Rose1.png"), files("characters"));
        assertEquals(List.of("one.jsonl"), files("chats/Rose1"));
        assertFalse(userFiles().hasFolder("chats/Bramble"));
        assertFalse(Files.exists(thumb));
        JsonNode chara = chunk(cardBytes("Rose1.png"), "chara");
        assertEquals("Rose", chara.get("name").asText());
        assertEquals("Rose", chara.get("data").get("name").asText());
        assertEquals("kept", chara.get("x_tool").asText());

        assertEquals(400, client.post("/api/characters/rename", "{\"avatar_url\":\"Rose.png\"}").statusCode());
        assertEquals(400, client.post("/api/characters/rename", "{\"avatar_url\":\"../Rose.png\",\"new_name\":\"X\"}").statusCode());
        assertEquals(404, client.post("/api/characters/rename", "{\"avatar_url\":\"Gone.png\",\"new_name\":\"X\"}").statusCode());
        assertEquals(List.of("Rose.png", "Rose1.png"), files("characters"));
    }

    @Test
    void deleteRemovesTheCardThumbnailAndOptionallyTheChats() throws IOException {
        start(null);
        put("characters/A.png", richCard());
        put("characters/B.png", richCard());
        put("chats/A/a.jsonl", new byte[]{'{', '}'});
        put("chats/B/b.jsonl", new byte[]{'{', '}'});
        Path thumb = thumbnail("A.png");
        assertEquals(200, client.post("/api/characters/delete", "{\"avatar_url\":\"A.png\"}").statusCode());
        assertFalse(Files.exists(thumb));
        assertTrue(hasDocument("chats/A/a.jsonl"), "chats stay unless asked");
        assertEquals(200, client.post("/api/characters/delete", "{\"avatar_url\":\"B.png\",\"delete_chats\":true}").statusCode());
        assertFalse(userFiles().hasFolder("chats/B"));
        assertEquals(List.of(), files("characters"));
        assertEquals(List.of(), JsJson.MAPPER.convertValue(json(client.post("/api/characters/all", "{}")), List.class));

        assertEquals(400, client.post("/api/characters/delete", "{\"avatar_url\":\"A.png\"}").statusCode());
        assertEquals(400, client.post("/api/characters/delete", "{}").statusCode());
        assertEquals(400, client.post("/api/characters/delete", "{\"avatar_url\":\"../chats\",\"delete_chats\":true}").statusCode());
        assertEquals(403, client.post("/api/characters/delete", "{\"avatar_url\":\"a:b.png\"}").statusCode());
        assertTrue(hasDocument("chats/A/a.jsonl"));
    }

    @Test
    void duplicateCopiesBytesUnderTheNextNumber() throws IOException {
        start(null);
        byte[] card = richCard();
        put("characters/Ann.png", card);
        put("chats/Ann/a.jsonl", new byte[]{'{', '}'});
        assertEquals("{\"path\":\"Ann_1.png\"}", client.post("/api/characters/duplicate", "{\"avatar_url\":\"Ann.png\"}").bodyAsString());
        assertEquals("Ann_2.png", json(client.post("/api/characters/duplicate", "{\"avatar_url\":\"Ann.png\"}")).get("path").asText());
        assertEquals("Ann_3.png", json(client.post("/api/characters/duplicate", "{\"avatar_url\":\"Ann_1.png\"}")).get("path").asText());
        assertArrayEquals(card, cardBytes("Ann_3.png"));
        assertFalse(userFiles().hasFolder("chats/Ann_1"), "chats are not copied");
        assertEquals(404, client.post("/api/characters/duplicate", "{\"avatar_url\":\"Nobody.png\"}").statusCode());
        assertEquals(400, client.post("/api/characters/duplicate", "{\"avatar_url\":\"../Ann.png\"}").statusCode());
        assertEquals(400, client.post("/api/characters/duplicate", "{}").statusCode());
    }

    // --- export

    @Test
    void exportPngKeepsTheImageAndUnsetsPrivateFields() throws IOException {
        start(null);
        ObjectNode json = (ObjectNode) JsJson.parse(BRAMBLE);
        json.put("fav", true);
        ((ObjectNode) json.get("data").get("extensions")).put("fav", true);
        byte[] stored = Fixtures.withText(TestImages.image("png", 10, 10), "chara", Fixtures.base64(JsJson.compact(json)));
        put("characters/Bramble Bee.png", stored);
        HttpResponse<Buffer> png = client.post("/api/characters/export", "{\"format\":\"png\",\"avatar_url\":\"Bramble Bee.png\"}");
        assertEquals(200, png.statusCode());
        assertEquals("image/png", png.getHeader("Content-Type"));
        assertEquals("attachment; filename=\"Bramble%20Bee.png\"", png.getHeader("Content-Disposition"));
        byte[] exported = png.body().getBytes();
        assertEquals(imageChunks(stored), imageChunks(exported));
        for (String keyword : List.of("chara", "ccv3")) {
            JsonNode card = chunk(exported, keyword);
            assertFalse(card.get("fav").booleanValue());
            assertFalse(card.get("data").get("extensions").get("fav").booleanValue());
            assertNull(card.get("chat"));
        }
        assertArrayEquals(stored, cardBytes("Bramble Bee.png"), "export does not change the stored card");

        HttpResponse<Buffer> text = client.post("/api/characters/export", "{\"format\":\"json\",\"avatar_url\":\"Bramble Bee.png\"}");
        assertEquals(200, text.statusCode());
        assertTrue(text.getHeader("Content-Type").startsWith("application/json"));
        assertTrue(text.bodyAsString().startsWith("{\n    \"name\": \"Bramble\""));
        JsonNode exportedJson = json(text);
        assertNull(exportedJson.get("chat"));
        assertFalse(exportedJson.get("fav").booleanValue());

        assertEquals(400, client.post("/api/characters/export", "{\"format\":\"gif\",\"avatar_url\":\"Bramble Bee.png\"}").statusCode());
        assertEquals(400, client.post("/api/characters/export", "{\"avatar_url\":\"Bramble Bee.png\"}").statusCode());
        assertEquals(400, client.post("/api/characters/export", "{\"format\":\"png\",\"avatar_url\":\"../x.png\"}").statusCode());
        assertEquals(404, client.post("/api/characters/export", "{\"format\":\"json\",\"avatar_url\":\"None.png\"}").statusCode());
    }

    @Test
    void editorSaveEmbedsTheLinkedLorebook() throws IOException {
        start(null);
        put("worlds/Marsh.json", ("{\"entries\":{\"1\":{\"uid\":1,\"key\":[\"bog\"],\"keysecondary\":[],\"comment\":\"Bog\","
                + "\"content\":\"Wet.\",\"constant\":false,\"selective\":true,\"order\":100,\"position\":0,\"disable\":false,"
                + "\"displayIndex\":0,\"depth\":2},\"0\":{\"uid\":0,\"key\":[\"reed\"],\"content\":\"Tall.\",\"position\":1,"
                + "\"disable\":true}}}").getBytes(StandardCharsets.UTF_8));
        client.post("/api/characters/create", "{\"ch_name\":\"Lore\",\"world\":\"Marsh\"}");
        JsonNode book = chunk(cardBytes("Lore.png"), "chara").get("data").get("character_book");
        assertEquals("Marsh", book.get("name").asText());
        assertEquals(0, book.get("entries").get(0).get("id").asInt(), "entries in JavaScript key order");
        assertFalse(book.get("entries").get(0).get("enabled").booleanValue());
        assertEquals("after_char", book.get("entries").get(0).get("position").asText());
        JsonNode bog = book.get("entries").get(1);
        assertEquals("before_char", bog.get("position").asText());
        assertEquals(2, bog.get("extensions").get("depth").asInt());
        assertEquals(0, bog.get("extensions").get("position").asInt());
        assertTrue(bog.get("extensions").get("match_scenario").isBoolean());
    }
}
