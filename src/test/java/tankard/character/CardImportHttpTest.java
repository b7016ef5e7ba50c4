package tankard.character;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Fixtures;
import tankard.testing.ServerTest;
import tankard.testing.TestImages;
import tankard.testing.TestServer;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code POST /api/characters/import} for every format, and its refusals (ST: src/endpoints/characters.js, /import).
 */
class CardImportHttpTest extends ServerTest {
    private static final String V2 = """
            {"spec":"chara_card_v2","spec_version":"2.0","name":"ignored","chat":"private chat","fav":true,
             "data":{"name":"Mira/Vale","description":"A cartographer","personality":"calm","scenario":"a map room",
             "first_mes":"Hello","mes_example":"","creator_notes":"","system_prompt":"","post_history_instructions":"",
             "alternate_greetings":["Hi"],"tags":["maps"],"creator":"me","character_version":"1",
             "extensions":{"fav":true,"talkativeness":"0.7","custom":{"kept":1}}},"unknown_top":42}""";

    @BeforeEach
    void startServer() {
        start(null);
    }

    private HttpResponse<Buffer> upload(String fileName, byte[] bytes, String type, String... fields) {
        MultipartForm form = MultipartForm.create().binaryFileUpload("avatar", fileName, Buffer.buffer(bytes), "application/octet-stream");
        if (type != null) {
            form.attribute("file_type", type);
        }
        for (int i = 0; i < fields.length; i += 2) {
            form.attribute(fields[i], fields[i + 1]);
        }
        return TestServer.await(client.request(HttpMethod.POST, "/api/characters/import").sendMultipartForm(form)
                .toCompletionStage().toCompletableFuture());
    }

    private JsonNode storedCard(String internal) throws IOException {
        return CardCodec.readPng(documentBytes("characters/" + internal + ".png")).json();
    }

    private String chara(String internal) throws IOException {
        byte[] png = documentBytes("characters/" + internal + ".png");
        return PngChunks.texts(png).stream().filter(t -> t.keyword().equals("chara")).findFirst()
                .map(t -> new String(Base64.getDecoder().decode(t.text()), StandardCharsets.UTF_8)).orElseThrow();
    }

    /** Every file of the user, in the stores and on disk, for "nothing written" checks. */
    private List<String> userFiles() {
        return server.files().paths();
    }

    static byte[] pngWithText(byte[] png, String keyword, String text) {
        byte[] data = (keyword + "\0" + text).getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int afterHeader = 8 + 8 + 13 + 4;
        out.write(png, 0, afterHeader);
        out.writeBytes(new byte[]{(byte) (data.length >>> 24), (byte) (data.length >>> 16), (byte) (data.length >>> 8), (byte) data.length});
        byte[] typed = new byte[4 + data.length];
        System.arraycopy("tEXt".getBytes(StandardCharsets.ISO_8859_1), 0, typed, 0, 4);
        System.arraycopy(data, 0, typed, 4, data.length);
        out.writeBytes(typed);
        CRC32 crc = new CRC32();
        crc.update(typed);
        long c = crc.getValue();
        out.writeBytes(new byte[]{(byte) (c >>> 24), (byte) (c >>> 16), (byte) (c >>> 8), (byte) c});
        out.write(png, afterHeader, png.length - afterHeader);
        return out.toByteArray();
    }

    static String b64(String json) {
        return Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void pngV2CardImportsWithSanitizedNameAndPrivateFieldsCleared() throws IOException {
        byte[] png = pngWithText(TestImages.image("png", 40, 60), "chara", b64(V2));
        HttpResponse<Buffer> response = upload("mira.png", png, "png");
        assertEquals(200, response.statusCode(), response.bodyAsString());
        assertEquals("MiraVale", json(response).get("file_name").asText());
        JsonNode card = storedCard("MiraVale");
        assertEquals("chara_card_v3", card.get("spec").asText()); // the ccv3 chunk wins
        assertEquals("MiraVale", card.get("name").asText());
        assertEquals("MiraVale", card.at("/data/name").asText());
        assertEquals("A cartographer", card.get("description").asText());
        assertFalse(card.get("fav").asBoolean());
        assertFalse(card.at("/data/extensions/fav").asBoolean());
        assertEquals(1, card.at("/data/extensions/custom/kept").asInt());
        assertEquals(42, card.get("unknown_top").asInt());
        assertTrue(card.get("chat").asText().startsWith("MiraVale - "));
        assertTrue(card.get("create_date").asText().endsWith("Z"));
        assertEquals("chara_card_v2", JsJson.parse(chara("MiraVale")).get("spec").asText());
        // the image is re-encoded at its size
        assertEquals(40, TestImages.decode(documentBytes("characters/MiraVale.png")).getWidth());

        HttpResponse<Buffer> again = upload("mira.png", png, "png");
        assertEquals("MiraVale1", json(again).get("file_name").asText());
    }

    @Test
    void ccv3ChunkWinsOverChara() throws IOException {
        byte[] png = pngWithText(pngWithText(TestImages.image("png", 8, 8), "chara", b64(V2)), "ccv3",
                b64(V2.replace("Mira/Vale", "Vee").replace("chara_card_v2", "chara_card_v3").replace("\"2.0\"", "\"3.0\"")));
        HttpResponse<Buffer> response = upload("x.png", png, "png");
        assertEquals("Vee", json(response).get("file_name").asText());
    }

    @Test
    void pngV1CardIsConvertedToV2() throws IOException {
        String v1 = "{\"name\":\"Old\",\"description\":\"d\",\"personality\":\"p\",\"first_mes\":\"hi\",\"creator_notes\":\"Creator's notes go here. real\",\"tags\":\"a, b\"}";
        HttpResponse<Buffer> response = upload("old.png", pngWithText(TestImages.image("png", 8, 8), "chara", b64(v1)), "png");
        assertEquals("Old", json(response).get("file_name").asText());
        JsonNode card = JsJson.parse(chara("Old"));
        assertEquals("chara_card_v2", card.get("spec").asText());
        assertEquals(" real", card.at("/data/creator_notes").asText());
        assertEquals("a", card.at("/data/tags/0").asText());
        assertEquals("p", card.at("/data/personality").asText());
        assertEquals(4, card.at("/data/extensions/depth_prompt/depth").asInt());
    }

    @Test
    void jsonCardsOfEachVersionImportOntoTheDefaultAvatar() throws IOException {
        assertEquals("MiraVale", json(upload("c.json", utf8(V2), "json")).get("file_name").asText());
        String v3 = V2.replace("chara_card_v2", "chara_card_v3").replace("\"2.0\"", "\"3.0\"")
                .replace("\"creator_notes\":\"\"", "\"creator_notes\":\"\",\"nickname\":\"M\",\"group_only_greetings\":[]");
        assertEquals("MiraVale1", json(upload("c.json", utf8(v3), "json")).get("file_name").asText());
        assertEquals("M", storedCard("MiraVale1").at("/data/nickname").asText());
        assertEquals("Plain", json(upload("v1.json", utf8("{\"name\":\"Plain\",\"description\":\"v1\"}"), "json")).get("file_name").asText());
        assertEquals("v1", storedCard("Plain").at("/data/description").asText());
        assertEquals("Pyg", json(upload("g.json", utf8("{\"char_name\":\"Pyg\",\"char_persona\":\"persona\",\"char_greeting\":\"yo\",\"world_scenario\":\"w\"}"), "json")).get("file_name").asText());
        JsonNode pyg = storedCard("Pyg");
        assertEquals("persona", pyg.at("/data/description").asText());
        assertEquals("yo", pyg.at("/data/first_mes").asText());
        assertEquals("w", pyg.at("/data/scenario").asText());
        assertTrue(pyg.get("chat").asText().startsWith("undefined - "));
        BufferedImageSize size = BufferedImageSize.of(documentBytes("characters/Plain.png"));
        assertEquals(512, size.width);
        assertEquals(768, size.height);
    }

    @Test
    void concurrentImportsOfOneNameGetDistinctFiles() throws IOException {
        int count = 8;
        List<java.util.concurrent.CompletableFuture<HttpResponse<Buffer>>> pending = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            MultipartForm form = MultipartForm.create()
                    .binaryFileUpload("avatar", "c.json", Buffer.buffer(utf8(V2.replace("A cartographer", "copy " + i))), "application/json")
                    .attribute("file_type", "json");
            pending.add(client.request(HttpMethod.POST, "/api/characters/import").sendMultipartForm(form)
                    .toCompletionStage().toCompletableFuture());
        }
        java.util.Set<String> names = new java.util.TreeSet<>();
        java.util.Set<String> descriptions = new java.util.TreeSet<>();
        for (var response : pending) {
            String name = json(TestServer.await(response)).get("file_name").asText();
            names.add(name);
            descriptions.add(storedCard(name).at("/data/description").asText());
        }
        // As ST names them one after the other: MiraVale, MiraVale1, ... and no card overwrote another
        assertEquals(count, names.size(), names.toString());
        assertTrue(names.contains("MiraVale") && names.contains("MiraVale" + (count - 1)), names.toString());
        assertEquals(count, descriptions.size(), descriptions.toString());
    }

    private record BufferedImageSize(int width, int height) {
        static BufferedImageSize of(byte[] png) {
            var image = TestImages.decode(png);
            return new BufferedImageSize(image.getWidth(), image.getHeight());
        }
    }

    @Test
    void yamlCardImports() throws IOException {
        String yaml = "name: Yara\ncontext: A desert guide\ngreeting: |\n  Welcome, traveller.\n";
        HttpResponse<Buffer> response = upload("y.yaml", utf8(yaml), "yaml");
        assertEquals("Yara", json(response).get("file_name").asText(), response.bodyAsString());
        JsonNode card = storedCard("Yara");
        assertEquals("A desert guide", card.at("/data/description").asText());
        assertEquals("Welcome, traveller.\n", card.at("/data/first_mes").asText());
        assertEquals("Yara1", json(upload("y.yml", utf8(yaml), "yml")).get("file_name").asText());
    }

    @Test
    void risuSpritesAreWrittenAndRemovedFromTheCard() throws IOException {
        String sprite = Base64.getEncoder().encodeToString(TestImages.image("png", 4, 4));
        String card = V2.replace("\"custom\":{\"kept\":1}", "\"custom\":{\"kept\":1},\"risuai\":{\"emotions\":[[\"joy\",\"" + sprite
                + "\"]],\"additionalAssets\":[[\"../evil\",\"" + sprite + "\"]],\"other\":1}");
        assertEquals(200, upload("r.json", utf8(card), "json").statusCode());
        assertTrue(server.files().exists("characters/MiraVale/joy.png"));
        assertTrue(server.files().exists("characters/MiraVale/..evil.png"));
        JsonNode stored = storedCard("MiraVale");
        assertFalse(stored.at("/data/extensions/risuai").has("emotions"));
        assertEquals(1, stored.at("/data/extensions/risuai/other").asInt());
    }

    @Test
    void charxImportsCardAvatarAndAssets() throws IOException {
        String card = """
                {"spec":"chara_card_v3","spec_version":"3.0","data":{"name":"Zed","description":"zip","personality":"",
                 "scenario":"","first_mes":"","mes_example":"","creator_notes":"","system_prompt":"","post_history_instructions":"",
                 "alternate_greetings":[],"tags":[],"creator":"","character_version":"","extensions":{},
                 "assets":[{"type":"icon","uri":"embeded://assets/icon/other.png","name":"other","ext":"png"},
                           {"type":"icon","uri":"embeded://assets/icon/main.png","name":"main","ext":"png"},
                           {"type":"emotion","uri":"embeded://assets/emotion/Very Happy.png","name":"Very Happy.png","ext":"png"},
                           {"type":"background","uri":"__asset:assets/bg/forest.jpg","name":"Forest","ext":"jpg"},
                           {"type":"other","uri":"embedded://assets/misc/map.webp","name":"","ext":"webp"},
                           {"type":"emotion","uri":"ccdefault:","name":"skip","ext":"png"}]}}""";
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("card.json", utf8(card));
        entries.put("assets/icon/other.png", TestImages.image("png", 10, 10));
        entries.put("assets/icon/main.png", TestImages.image("png", 30, 20));
        entries.put("assets/emotion/Very Happy.png", TestImages.image("png", 5, 5));
        entries.put("assets/bg/forest.jpg", TestImages.image("jpeg", 5, 5));
        entries.put("assets/misc/map.webp", utf8("pretend webp"));
        put("characters/Zed/very-happy.webp", utf8("old sprite"));
        HttpResponse<Buffer> response = upload("z.charx", Fixtures.zip(entries), "charx");
        assertEquals("Zed", json(response).get("file_name").asText(), response.bodyAsString());
        JsonNode stored = storedCard("Zed");
        assertEquals("zip", stored.at("/data/description").asText());
        assertFalse(stored.has("chat"));
        assertEquals(30, TestImages.decode(documentBytes("characters/Zed.png")).getWidth()); // the "main" icon
        assertTrue(server.files().exists("characters/Zed/very-happy.png"));
        assertFalse(server.files().exists("characters/Zed/very-happy.webp"));
        assertTrue(server.files().exists("characters/Zed/backgrounds/forest.jpg"));
        assertTrue(server.files().exists("user/images/Zed/misc-4.webp"));
    }

    @Test
    void aCharxWhoseAssetFolderWouldBeAnExistingCardFileIsRefusedAndWritesNothing() throws IOException {
        String card = """
                {"spec":"chara_card_v3","spec_version":"3.0","data":{"name":"Foo.png","description":"","personality":"",
                 "scenario":"","first_mes":"","mes_example":"","creator_notes":"","system_prompt":"","post_history_instructions":"",
                 "alternate_greetings":[],"tags":[],"creator":"","character_version":"","extensions":{},
                 "assets":[{"type":"background","uri":"embeded://assets/bg/forest.jpg","name":"Forest","ext":"jpg"}]}}""";
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("card.json", utf8(card));
        entries.put("assets/bg/forest.jpg", TestImages.image("jpeg", 5, 5));
        put("characters/Foo.png", TestImages.image("png", 4, 4));
        List<String> before = userFiles();
        HttpResponse<Buffer> response = upload("foo.charx", Fixtures.zip(entries), "charx");
        assertEquals(400, response.statusCode(), response.bodyAsString());
        assertEquals(before, userFiles(), "a refused import writes nothing");
    }

    @Test
    void byafImportsCardChatsBackgroundsAndAlternateIcons() throws IOException {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("manifest.json", utf8("{\"characters\":[\"characters/c1/character.json\"],\"scenarios\":[\"scenarios/s1.json\",\"scenarios/s2.json\"],\"author\":{\"name\":\"Ann\",\"backyardURL\":\"https://example.test/ann\"}}"));
        entries.put("characters/c1/character.json", utf8("""
                {"name":"Bo","displayName":"Bo the Brave","isNSFW":true,"persona":"{character} guards {user}.",
                 "loreItems":[{"key":"sword, shield","value":"Old steel"}],
                 "images":[{"path":"images/a.png","label":""},{"path":"images/b.png","label":"smile"}]}"""));
        entries.put("characters/c1/images/a.png", TestImages.image("png", 12, 18));
        entries.put("characters/c1/images/b.png", TestImages.image("png", 6, 6));
        entries.put("scenarios/s1.json", utf8("""
                {"title":"Gate","narrative":"At the gate","formattingInstructions":"Be brief","backgroundImage":"bg/gate.png",
                 "firstMessages":[{"text":"Halt, #{user}:"}],"exampleMessages":[{"text":"#{character}: Hm."}],
                 "messages":[{"type":"human","createdAt":"1700000000000","text":"hello"},
                             {"type":"ai","createdAt":"x","outputs":[{"text":"a","activeTimestamp":"2024-01-01T00:00:00Z","createdAt":"1700000000001"},
                                                                   {"text":"b","activeTimestamp":"2024-01-02T00:00:00Z","createdAt":"1700000000002"}]}]}"""));
        entries.put("scenarios/s2.json", utf8("{\"firstMessages\":[{\"text\":\"Another day\"}],\"backgroundImage\":\"bg/gate.png\",\"messages\":[]}"));
        entries.put("bg/gate.png", TestImages.image("png", 4, 4));
        HttpResponse<Buffer> response = upload("b.byaf", Fixtures.zip(entries), "byaf", "user_name", "Alex");
        assertEquals("Bo the Brave", json(response).get("file_name").asText(), response.bodyAsString());
        JsonNode card = storedCard("Bo the Brave");
        assertEquals("Bo", card.get("name").asText());
        assertEquals("{{char}} guards {{user}}.", card.at("/data/description").asText());
        assertEquals("<START>\n{{char}}: Hm.", card.at("/data/mes_example").asText());
        assertEquals("Another day", card.at("/data/alternate_greetings/0").asText());
        assertEquals("shield", card.at("/data/character_book/entries/0/keys/1").asText());
        assertEquals("nsfw", card.at("/data/tags/0").asText());
        assertEquals("Bo the Brave", card.at("/data/extensions/display_name").asText());
        assertEquals("https://example.test/ann", card.at("/data/creator_notes").asText());
        assertTrue(server.files().exists("user/images/Bo the Brave/Bo the Brave_bg (1).png"));
        assertTrue(server.files().exists("characters/Bo/smile (1).png"));
        List<String> files = server.files().chatNames("chats/Bo the Brave");
        assertEquals(2, files.size());
        String gate = document("chats/Bo the Brave/" + files.stream().filter(f -> f.startsWith("Gate - ")).findFirst().orElseThrow());
        List<String> lines = gate.lines().toList();
        assertEquals(4, lines.size());
        JsonNode header = JsJson.parse(lines.get(0));
        assertEquals("/user/images/Bo the Brave/Bo the Brave_bg (1).png", header.at("/chat_metadata/chat_backgrounds/0").asText());
        assertEquals("url(\"/user/images/Bo%20the%20Brave/Bo%20the%20Brave_bg%20(1).png\")", header.at("/chat_metadata/custom_background").asText());
        assertEquals("Alex", JsJson.parse(lines.get(2)).get("name").asText());
        JsonNode ai = JsJson.parse(lines.get(3));
        assertEquals("b", ai.get("mes").asText());
        assertEquals(1, ai.get("swipe_id").asInt());
        assertEquals(1700000000002L, ai.get("send_date").asLong());
        assertTrue(card.get("chat").asText().startsWith("Gate - "));
    }

    /** A BYAF archive of the character {@code name} (display name {@code displayName}), two images and a background. */
    private static byte[] byaf(String name, String displayName) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        entries.put("manifest.json", utf8("{\"characters\":[\"c/character.json\"],\"scenarios\":[\"s.json\"]}"));
        entries.put("c/character.json", utf8("{\"name\":\"" + name + "\",\"displayName\":\"" + displayName
                + "\",\"images\":[{\"path\":\"a.png\",\"label\":\"\"},{\"path\":\"b.png\",\"label\":\"smile\"}]}"));
        entries.put("c/a.png", TestImages.image("png", 4, 4));
        entries.put("c/b.png", TestImages.image("png", 6, 6));
        entries.put("s.json", utf8("{\"backgroundImage\":\"gate.png\",\"messages\":[]}"));
        entries.put("gate.png", TestImages.image("png", 5, 5));
        return Fixtures.zip(entries);
    }

    @Test
    void byafAssetsTakeNamesNotYetTakenInTheirFolders() throws IOException {
        put("characters/Bo/smile (1).png", utf8("older smile"));
        put("user/images/Bo/Bo_bg (1).png", utf8("older background"));
        HttpResponse<Buffer> response = upload("b.byaf", byaf("Bo", "Bo"), "byaf");
        assertEquals("Bo", json(response).get("file_name").asText(), response.bodyAsString());
        assertEquals("older smile", document("characters/Bo/smile (1).png"));
        assertEquals(6, TestImages.decode(documentBytes("characters/Bo/smile (2).png")).getWidth());
        assertEquals("older background", document("user/images/Bo/Bo_bg (1).png"));
        assertEquals(5, TestImages.decode(documentBytes("user/images/Bo/Bo_bg (2).png")).getWidth());
    }

    @Test
    void aByafWhoseIconsWouldLandAmongTheCardsIsRefusedAndWritesNothing() throws IOException {
        // the name "..." sanitizes to nothing: ST puts the alternate icons in characters/ itself, where the cards are
        List<String> before = userFiles();
        HttpResponse<Buffer> response = upload("b.byaf", byaf("...", "Bo"), "byaf");
        assertEquals(400, response.statusCode(), response.bodyAsString());
        assertTrue(json(response).get("error").asBoolean(), response.bodyAsString());
        assertEquals(before, userFiles(), "a refused import writes nothing");
    }

    @Test
    void risuSpritesKeepTheSpritesTheCharacterHas() throws IOException {
        put("characters/MiraVale/joy.webp", utf8("older joy"));
        String sprite = Base64.getEncoder().encodeToString(TestImages.image("png", 4, 4));
        String card = V2.replace("\"custom\":{\"kept\":1}", "\"custom\":{\"kept\":1},\"risuai\":{\"emotions\":[[\"joy\",\""
                + sprite + "\"],[\"calm\",\"" + sprite + "\"]]}");
        assertEquals(200, upload("r.json", utf8(card), "json").statusCode());
        assertEquals("older joy", document("characters/MiraVale/joy.webp"));
        assertFalse(server.files().exists("characters/MiraVale/joy.png"));
        assertTrue(server.files().exists("characters/MiraVale/calm.png"));
    }

    @Test
    void preservedNameReplacesTheCardAndItsThumbnail() throws IOException {
        put("characters/Keep.png", utf8("old"));
        put("thumbnails/avatar/Keep.png", utf8("old thumb"));
        HttpResponse<Buffer> response = upload("c.json", utf8(V2), "json", "preserved_name", "Keep.png");
        assertEquals("Keep", json(response).get("file_name").asText());
        assertEquals("MiraVale", storedCard("Keep").get("name").asText());
        assertFalse(server.files().exists("thumbnails/avatar/Keep.png"));
    }

    private void assertRefused(String fileName, byte[] bytes, String type, String messagePart, String... fields) throws IOException {
        List<String> before = userFiles();
        HttpResponse<Buffer> response = upload(fileName, bytes, type, fields);
        assertEquals(400, response.statusCode(), response.bodyAsString());
        JsonNode body = json(response);
        assertTrue(body.get("error").asBoolean());
        assertTrue(body.get("message").asText().contains(messagePart), body.toString());
        assertEquals(before, userFiles(), "a refused import writes nothing");
    }

    @Test
    void badInputIsRefusedWithAMessageAndWritesNothing() throws IOException {
        byte[] good = pngWithText(TestImages.image("png", 8, 8), "chara", b64(V2));
        assertRefused("t.png", java.util.Arrays.copyOf(good, good.length - 20), "png", "cut short");
        byte[] badCrc = good.clone();
        badCrc[40] ^= 1;
        assertRefused("c.png", badCrc, "png", "CRC");
        assertRefused("n.png", TestImages.image("png", 8, 8), "png", "metadata");
        assertRefused("j.png", pngWithText(TestImages.image("png", 8, 8), "chara", b64("{not json")), "png", "JSON");
        assertRefused("b.png", pngWithText(TestImages.image("png", 8, 8), "chara", "!!!!"), "png", "JSON");
        assertRefused("x.txt", utf8("hello"), "txt", "Unsupported format");
        assertRefused("x.json", utf8("{\"hello\":1}"), "json", "not a character card");
        assertRefused("x.json", utf8("[1,2]"), "json", "not a JSON object");
        assertRefused("x.json", utf8("{\"name\":\"..\"}"), "json", "name");
        assertRefused("x.yaml", utf8("name: [unclosed"), "yaml", "YAML");
        assertRefused("x.yaml", utf8("- a\n- b\n"), "yaml", "mapping");
        assertRefused("x.charx", utf8("not a zip"), "charx", "ZIP");
        assertRefused("x.charx", Fixtures.zip(Map.of("readme.txt", utf8("x"))), "charx", "card.json");
        assertRefused("x.charx", Fixtures.zip(Map.of("card.json", utf8("{\"name\":\"NoSpec\"}"))), "charx", "spec");
        Map<String, byte[]> traversal = new LinkedHashMap<>();
        traversal.put("card.json", utf8(V2));
        traversal.put("../../escape.png", utf8("x"));
        assertRefused("x.charx", Fixtures.zip(traversal), "charx", "outside");
        assertRefused("x.charx", Fixtures.zip(Map.of("card.json", new byte[8 << 20])), "charx", "zip bomb");
        assertRefused("x.byaf", Fixtures.zip(Map.of("manifest.json", utf8("{\"characters\":[]}"))), "byaf", "character");
        assertRefused("c.json", utf8(V2), "json", "preserved_name", "preserved_name", "..");
        assertFalse(server.files().hasFolder("characters/MiraVale"));
    }

    @Test
    void cardOverTheSizeLimitIsRefused() throws IOException {
        byte[] big = new byte[CardImporter.MAX_CARD_BYTES + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        assertRefused("big.json", big, "json", "larger than");
    }

    @Test
    void importWithoutAFileIsA400() {
        MultipartForm form = MultipartForm.create().attribute("file_type", "png");
        HttpResponse<Buffer> response = TestServer.await(client.request(HttpMethod.POST, "/api/characters/import")
                .sendMultipartForm(form).toCompletionStage().toCompletableFuture());
        assertEquals(400, response.statusCode());
    }

    @Test
    void pngWriterKeepsTheImageChunksAndReplacesTheCardChunks() {
        byte[] image = pngWithText(TestImages.image("png", 8, 8), "Comment", "kept");
        byte[] once = CardWriter.write(pngWithText(image, "ChArA", b64("{\"old\":1}")), "{\"name\":\"N\",\"spec\":\"chara_card_v2\"}");
        List<PngChunks.Text> texts = PngChunks.texts(once);
        assertEquals(List.of("Comment", "chara", "ccv3"), texts.stream().map(PngChunks.Text::keyword).toList());
        assertEquals("{\"name\":\"N\",\"spec\":\"chara_card_v3\",\"spec_version\":\"3.0\"}",
                new String(Base64.getDecoder().decode(texts.get(2).text()), StandardCharsets.UTF_8));
        List<String> types = PngChunks.read(once).stream().map(PngChunks.Chunk::type).toList();
        assertEquals(List.of("IHDR", "tEXt", "IDAT", "tEXt", "tEXt", "IEND"), types);
        byte[] twice = CardWriter.write(once, "{\"name\":\"N\",\"spec\":\"chara_card_v2\"}");
        assertArrayEquals(once, twice);
    }
}
