package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.Fixtures;
import tankard.testing.StServer;
import tankard.testing.TestImages;
import tankard.testing.TestServer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static tankard.testing.Browser.jsString;

/**
 * Issue 3's acceptance in a real browser: cards of every format import through ST's own import button,
 * show in the character list, open, take an edit in ST's editor, export as PNG and JSON, and re-import
 * with no field lost; the PNG export also imports into a real ST 1.18.0 server as the same card.
 * Needs an ST install (and node for the ST server): {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test
 * -Dtest=StFrontendCardsUiTest}. Screenshots go to {@code target/ui/}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendCardsUiTest {
    private static final Duration STEP_TIMEOUT = StUi.STEP_TIMEOUT;
    private static final Duration QUIET = StUi.QUIET;
    /** Fields a new import, chat or save sets anew by design: not card content. */
    private static final Set<String> VOLATILE = Set.of("avatar", "chat", "create_date", "json_data", "date_added",
            "date_last_chat", "chat_size", "data_size", "shallow");

    /** The card's text fields that ST's editor posts from its form's textareas. */
    private static final List<String> FORM_TEXT = List.of("description", "personality", "scenario", "first_mes",
            "mes_example", "creator_notes", "system_prompt", "post_history_instructions");

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    /** The data of a full card with an unknown extension and unknown fields (what must survive). */
    private static ObjectNode cardData(String name) {
        return (ObjectNode) JsJson.parse("""
                {"name":%s,"description":"Draws maps of %s","personality":"calm","scenario":"a map room",
                 "first_mes":"Hello from %s","mes_example":"<START>\\n{{char}}: Look.","creator_notes":"notes",
                 "system_prompt":"sys","post_history_instructions":"jailbreak","alternate_greetings":["Hi","Hey"],
                 "tags":["maps","ink"],"creator":"me","character_version":"1.2",
                 "character_book":{"name":"Atlas","entries":[{"keys":["north"],"content":"Cold","enabled":true,
                   "insertion_order":100,"extensions":{"custom_entry":"kept"},"id":0}],"extensions":{}},
                 "extensions":{"talkativeness":"0.5","fav":false,"world":"","depth_prompt":{"prompt":"","depth":4,"role":"system"},
                   "tankard_unknown":{"kept":[1,"two",{"three":3.5}]}},
                 "unknown_data_field":"kept too"}""".formatted(jsString(name), name, name));
    }

    private static ObjectNode card(String spec, String version, ObjectNode data) {
        ObjectNode card = JsJson.object().put("spec", spec).put("spec_version", version);
        card.set("data", data);
        return card;
    }

    /** A card as a V2 JSON file holds it: the V1 fields at the top too. */
    private static ObjectNode v2(ObjectNode data) {
        ObjectNode card = JsJson.object();
        for (String field : List.of("name", "description", "personality", "scenario", "first_mes", "mes_example")) {
            card.set(field, data.get(field));
        }
        card.setAll(card("chara_card_v2", "2.0", data));
        return card;
    }

    private static ObjectNode v3(ObjectNode data) {
        ObjectNode v3data = data.deepCopy().put("nickname", "Nick").put("unknown_v3_field", "x");
        v3data.putArray("group_only_greetings").add("In a group");
        return card("chara_card_v3", "3.0", v3data);
    }

    /** One card file per supported format, with data fields its import must hold (all of them for card formats). */
    private record Source(String fileName, byte[] bytes, ObjectNode data) {
    }

    private static List<Source> sources() {
        List<Source> sources = new ArrayList<>();
        ObjectNode png = cardData("Pia Png");
        ObjectNode pngV3 = v3(png);
        sources.add(new Source("pia.png", Fixtures.card(JsJson.compact(v2(png)), JsJson.compact(pngV3)),
                (ObjectNode) pngV3.get("data")));
        ObjectNode jsonV2 = cardData("Jo Json");
        sources.add(new Source("jo.json", utf8(JsJson.pretty(v2(jsonV2))), jsonV2));
        ObjectNode jsonV3 = v3(cardData("Tri Json"));
        sources.add(new Source("tri.json", utf8(JsJson.pretty(jsonV3)), (ObjectNode) jsonV3.get("data")));
        sources.add(new Source("yan.yaml", utf8("name: Yan Yaml\ncontext: A desert guide\ngreeting: |\n  Welcome, traveller.\n"
                + "example_dialogue: \"{{user}}: Hi\"\n"),
                (ObjectNode) JsJson.parse("{\"name\":\"Yan Yaml\",\"description\":\"A desert guide\",\"first_mes\":\"Welcome, traveller.\\n\"}")));
        ObjectNode charx = v3(cardData("Cha Charx"));
        Map<String, byte[]> charxEntries = new LinkedHashMap<>();
        ((ObjectNode) charx.get("data")).putArray("assets").addObject().put("type", "icon")
                .put("uri", "embeded://assets/icon/main.png").put("name", "main").put("ext", "png");
        charxEntries.put("card.json", utf8(JsJson.compact(charx)));
        charxEntries.put("assets/icon/main.png", TestImages.image("png", 30, 20));
        sources.add(new Source("cha.charx", Fixtures.zip(charxEntries), (ObjectNode) charx.get("data")));
        Map<String, byte[]> byaf = new LinkedHashMap<>();
        byaf.put("manifest.json", utf8("{\"characters\":[\"characters/c1/character.json\"],\"scenarios\":[\"scenarios/s1.json\"],"
                + "\"author\":{\"name\":\"Ann\",\"backyardURL\":\"https://example.test/ann\"}}"));
        byaf.put("characters/c1/character.json", utf8("""
                {"name":"Bya","displayName":"Bya Byaf","isNSFW":false,"persona":"{character} guards {user}.",
                 "loreItems":[{"key":"sword","value":"Old steel"}],"images":[{"path":"images/a.png","label":""}]}"""));
        byaf.put("characters/c1/images/a.png", TestImages.image("png", 12, 18));
        byaf.put("scenarios/s1.json", utf8("{\"title\":\"Gate\",\"narrative\":\"At the gate\",\"firstMessages\":[{\"text\":\"Halt\"}],"
                + "\"exampleMessages\":[],\"messages\":[]}"));
        sources.add(new Source("bya.byaf", Fixtures.zip(byaf), (ObjectNode) JsJson.parse("""
                {"name":"Bya","description":"{{char}} guards {{user}}.","creator_notes":"https://example.test/ann",
                 "extensions":{"display_name":"Bya Byaf"}}""")));
        return sources;
    }

    @Test
    void cardsOfEveryFormatSurviveTheFrontendAndOpenInSillyTavern() throws Exception {
        Path work = TestServer.tempDir();
        Path files = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), "skipContentCheck: false\n"); // a fresh user gets ST's default content
        try (TestServer server = TestServer.startIn(work, "--frontend", stDir.resolve("public").toString());
             Browser browser = Browser.launch();
             StServer st = StServer.start(stDir, server.vertx)) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-cards-0-boot", () -> {
                StUi.boot(page);
                StUi.assertClean(page, "Boot");
            });
            // ST would ask whether to add a card's tags to its tag list: 2 = NONE (the tags stay in the card).
            page.eval("SillyTavern.getContext().powerUserSettings.tag_import_setting = 2");
            for (Source source : sources()) {
                Path file = files.resolve(source.fileName());
                Files.write(file, source.bytes());
                String shot = "st-cards-" + source.fileName().replace('.', '-');
                StUi.withScreenshot(page, shot, () -> roundTrip(page, server, st, file, source.data()));
            }
        } finally {
            TestServer.deleteTree(files);
            TestServer.deleteTree(work);
        }
    }

    private void roundTrip(Browser.Page page, TestServer server, StServer st, Path file, ObjectNode authored) {
        String known = JsJson.compact(JsJson.MAPPER.valueToTree(avatars(server))); // a JSON array is a JS array literal
        int before = page.responses().size();
        page.setInputFiles("#character_import_file", file);
        Browser.Response imported = page.awaitResponse(before, r -> StUi.hasPath(r, "/api/characters/import"), STEP_TIMEOUT);
        assertEquals(200, imported.status(), file + "\n" + page.report());
        // ST reloads its list after the import, then selects the new character.
        page.waitFor("SillyTavern.getContext().characters.some(c => !" + known + ".includes(c.avatar))", STEP_TIMEOUT);
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        String avatar = page.eval("SillyTavern.getContext().characters.find(c => !" + known + ".includes(c.avatar)).avatar").asText();
        JsonNode original = get(server.client().post("/api/characters/get", avatarBody(avatar)));
        assertContains(authored, original.get("data"), file + " import lost a field");
        assertTrue(page.eval("document.querySelector(" + jsString("#rm_print_characters_block .character_select[data-chid] "
                + ".avatar[title$=\"File: " + avatar + "\"]") + ") !== null").asBoolean(), avatar + " is not in the list");

        StUi.openDrawer(page, "rightNavHolder");
        page.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: " + avatar + "\"])");
        page.waitFor("document.querySelector('#description_textarea').value === "
                + jsString(original.at("/data/description").asText()) + " && SillyTavern.getContext().characterId !== undefined", STEP_TIMEOUT);
        if (original.at("/data/character_book").isObject()) {
            // On the first open ST offers to import the card's lorebook as a world: "No" keeps it in the card only.
            page.waitFor("document.querySelector('dialog[open] .popup-button-cancel') !== null", STEP_TIMEOUT);
            page.click("dialog[open] .popup-button-cancel");
            page.waitFor("document.querySelector('dialog[open]') === null", STEP_TIMEOUT);
        }
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        String edited = "Edited in the frontend: " + file.getFileName();
        int beforeEdit = page.responses().size();
        page.type("#description_textarea", edited);
        Browser.Response save = page.awaitResponse(beforeEdit, r -> StUi.hasPath(r, "/api/characters/edit"), STEP_TIMEOUT);
        assertEquals(200, save.status(), page.report());
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        StUi.assertClean(page, "Importing and editing " + file.getFileName());

        ObjectNode expected = savedByTheEditor(original, edited);
        JsonNode afterEdit = get(server.client().post("/api/characters/get", avatarBody(avatar)));
        assertSameCard(expected, afterEdit, "after the edit");

        byte[] png = export(page, avatar, "png");
        byte[] json = export(page, avatar, "json");
        assertSameCard(expected, JsJson.parse(json), "JSON export");
        assertSameCard(expected, reimport(server, "export.png", png, "png"), "re-imported PNG export");
        assertSameCard(expected, reimport(server, "export.json", json, "json"), "re-imported JSON export");
        StUi.assertClean(page, "Exporting " + file.getFileName());

        JsonNode inSt = importAndGet(st, png);
        assertSameCard(expected, inSt, "the PNG export in ST 1.18.0");
    }

    /**
     * The card as ST's editor saves it: the edited description, and what saving does as it does against ST:
     * the form posts textarea text with CRLF line ends (HTML form encoding) and the talkativeness slider as
     * text, and the save writes the creator's notes under their V1 name and the editor's fields a card
     * lacks with their form defaults (talkativeness, favourite, world, depth prompt).
     */
    private static ObjectNode savedByTheEditor(JsonNode original, String description) {
        ObjectNode card = original.deepCopy();
        ObjectNode data = (ObjectNode) card.get("data");
        for (String field : FORM_TEXT) {
            for (ObjectNode holder : List.of(card, data)) {
                if (holder.path(field).isTextual()) {
                    holder.put(field, holder.get(field).asText().replace("\n", "\r\n"));
                }
            }
        }
        card.put("creatorcomment", data.path("creator_notes").asText());
        ObjectNode extensions = (ObjectNode) data.get("extensions");
        for (ObjectNode holder : List.of(card, extensions)) {
            // the slider's value, as text
            holder.put("talkativeness", holder.has("talkativeness") ? holder.get("talkativeness").asText() : "0.5");
            holder.putIfAbsent("fav", BooleanNode.FALSE);
        }
        extensions.putIfAbsent("world", JsJson.MAPPER.getNodeFactory().textNode(""));
        extensions.putIfAbsent("depth_prompt", JsJson.parse("{\"prompt\":\"\",\"depth\":4,\"role\":\"system\"}"));
        data.put("description", description);
        card.put("description", description);
        return card;
    }

    /** The avatars of all characters on the server (ST's list in the page may not know the re-imports). */
    private static Set<String> avatars(TestServer server) {
        Set<String> avatars = new java.util.TreeSet<>();
        for (JsonNode character : get(server.client().post("/api/characters/all", "{}"))) {
            avatars.add(character.get("avatar").asText());
        }
        return avatars;
    }

    /** The export as the frontend asks for it (its export menu posts the same body). */
    private static byte[] export(Browser.Page page, String avatar, String format) {
        JsonNode base64 = page.eval("fetch('/api/characters/export', {method: 'POST', headers: SillyTavern.getContext().getRequestHeaders(),"
                + " body: JSON.stringify({format: " + jsString(format) + ", avatar_url: " + jsString(avatar) + "})})"
                + ".then(r => r.ok ? r.arrayBuffer() : Promise.reject(new Error('export ' + r.status)))"
                + ".then(b => { let s = ''; for (const x of new Uint8Array(b)) s += String.fromCharCode(x); return btoa(s); })");
        return Base64.getDecoder().decode(base64.asText());
    }

    private static JsonNode reimport(TestServer server, String fileName, byte[] bytes, String type) {
        TestServer.Client client = server.client();
        HttpResponse<Buffer> response = upload(client.request(HttpMethod.POST, "/api/characters/import"), fileName, bytes, type);
        String avatar = get(response).get("file_name").asText() + ".png";
        return get(client.post("/api/characters/get", avatarBody(avatar)));
    }

    private static HttpResponse<Buffer> upload(io.vertx.ext.web.client.HttpRequest<Buffer> request, String fileName, byte[] bytes, String type) {
        MultipartForm form = MultipartForm.create()
                .binaryFileUpload("avatar", fileName, Buffer.buffer(bytes), "application/octet-stream")
                .attribute("file_type", type);
        return TestServer.await(request.sendMultipartForm(form));
    }

    private static String avatarBody(String avatar) {
        return JsJson.compact(JsJson.object().put("avatar_url", avatar));
    }

    private static JsonNode get(HttpResponse<Buffer> response) {
        assertEquals(200, response.statusCode(), response.bodyAsString());
        return JsJson.parse(response.body().getBytes());
    }

    /** The same card: every field equal but those set anew by an import (chat name, dates, file name). */
    private static void assertSameCard(JsonNode expected, JsonNode actual, String what) {
        assertEquals(JsJson.pretty(content(expected)), JsJson.pretty(content(actual)), what);
    }

    private static JsonNode content(JsonNode card) {
        ObjectNode copy = card.deepCopy();
        copy.remove(VOLATILE);
        return copy;
    }

    /** Every field of {@code expected} is in {@code actual} with the same value (actual may have more). */
    private static void assertContains(JsonNode expected, JsonNode actual, String what) {
        if (expected.isObject()) {
            assertTrue(actual != null && actual.isObject(), what + ": not an object: " + actual);
            for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                assertContains(field.getValue(), actual.get(field.getKey()), what + " ." + field.getKey());
            }
        } else if (!expected.equals(actual)) {
            fail(what + ": expected " + expected + " but was " + actual);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Imports the PNG card through ST's import endpoint and returns ST's /api/characters/get of it. */
    private static JsonNode importAndGet(StServer st, byte[] png) {
        HttpResponse<Buffer> imported = upload(st.request("/api/characters/import"), "card.png", png, "png");
        assertEquals(200, imported.statusCode(), imported.bodyAsString() + "\n" + st.log());
        String avatar = get(imported).get("file_name").asText() + ".png";
        return get(st.post("/api/characters/get", avatarBody(avatar)));
    }
}
