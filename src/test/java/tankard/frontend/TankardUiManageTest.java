package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import tankard.character.CardCodec;
import tankard.character.CardWriter;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestImages;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Chat and character management in Tankard's own UI (chatfiles.js, cards.js): each action checked where it lands,
 * on disk or over HTTP, with screenshots {@code tankard-manage-*.png} in {@code target/ui/}.
 */
class TankardUiManageTest {
    private static final Duration STEP = OwnUi.STEP;
    private static final String WREN = ".card[data-avatar='default_Wren.png']";
    private static final String WREN_CHATS = "chats/default_Wren";
    private static final String TOASTS = "document.getElementById('toasts').textContent";

    private static String text(Browser.Page page, String script) {
        return page.eval(script).asText();
    }

    private static void clickDialog(Browser.Page page, String value) {
        page.click("dialog[open] button[value='" + value + "']");
    }

    /** Opens the chat's action dialog from its "⋯" button. */
    private static void manageChat(Browser.Page page, String chat) {
        page.click("#chatList li:has(button.open[data-chat=" + OwnUi.js(chat) + "]) button.more");
        page.waitFor("document.querySelector('dialog[open]') !== null", STEP);
    }

    private static void openWren(Browser.Page page) {
        page.waitFor("document.querySelector(" + OwnUi.js(WREN) + ") !== null", STEP);
        page.click(WREN);
        page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
    }

    private static JsonNode card(TestServer server, String avatar) {
        return JsJson.parse(server.client().post("/api/characters/get", "{\"avatar_url\":" + OwnUi.js(avatar) + "}").body().getBytes());
    }

    private static byte[] solid(int argb) {
        int[] pixels = new int[64 * 64];
        Arrays.fill(pixels, argb);
        return TestImages.argbPng(64, 64, pixels);
    }

    private static int centre(byte[] png) {
        BufferedImage image = TestImages.decode(png);
        return image.getRGB(image.getWidth() / 2, image.getHeight() / 2) & 0xffffff;
    }

    private static Path temp(String name, byte[] content) throws IOException {
        Path file = Files.createTempDirectory("tankard-manage").resolve(name);
        Files.write(file, content);
        return file;
    }

    @Test
    void chatsAreRenamedExportedSearchedImportedAndDeleted() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            UserFiles files = session.server().files();
            Browser.Page page = OwnUi.openLibrary(session);
            openWren(page);
            String greeting = files.chatNames(WREN_CHATS).get(0).replace(".jsonl", "");
            String harbour = "{\"user_name\":\"User\",\"character_name\":\"Wren\",\"chat_metadata\":{\"integrity\":\"x\"}}\n"
                    + "{\"name\":\"User\",\"is_user\":true,\"is_system\":false,\"send_date\":\"2026-12-01T10:00:00.000Z\",\"mes\":\"Who keeps the lighthouse?\",\"extra\":{}}\n"
                    + "{\"name\":\"Wren\",\"is_user\":false,\"is_system\":false,\"send_date\":\"2026-12-01T10:01:00.000Z\",\"mes\":\"Old Maren, the keeper.\\nShe never sleeps.\",\"extra\":{}}";
            files.write(WREN_CHATS + "/Harbour talk.jsonl", harbour);
            page.reload();
            OwnUi.boot(page);
            page.waitFor("document.querySelectorAll('#chatList li').length === 2", STEP);
            page.eval(OwnUi.CAPTURE_DOWNLOADS);

            StUi.withScreenshot(page, "tankard-manage-1-rename", () -> {
                manageChat(page, "Harbour talk");
                clickDialog(page, "rename");
                page.waitFor("document.querySelector('#renameChat') !== null", STEP); // the next dialog opens once the first closed
                page.eval("document.querySelector('#renameChat').value = ''");
                page.type("#renameChat", "Lighthouse evening");
                clickDialog(page, "rename");
                page.waitFor("document.querySelector('#chatList button.open[data-chat=\"Lighthouse evening\"]') !== null", STEP);
            });
            assertFalse(files.exists(WREN_CHATS + "/Harbour talk.jsonl"), "the old name is gone");
            assertEquals(harbour, files.read(WREN_CHATS + "/Lighthouse evening.jsonl"), "the same chat under the new name");

            StUi.withScreenshot(page, "tankard-manage-2-export", () -> {
                manageChat(page, "Lighthouse evening");
                clickDialog(page, "jsonl");
                manageChat(page, "Lighthouse evening");
                clickDialog(page, "txt");
            });
            Map.Entry<String, byte[]> jsonl = OwnUi.download(page, 0);
            assertEquals("Lighthouse evening.jsonl", jsonl.getKey());
            List<JsonNode> lines = new String(jsonl.getValue(), StandardCharsets.UTF_8).lines().map(JsJson::parse).toList();
            assertEquals(3, lines.size(), "the header and both messages");
            assertEquals("Who keeps the lighthouse?", lines.get(1).path("mes").asText());
            Map.Entry<String, byte[]> txt = OwnUi.download(page, 1);
            assertEquals("Lighthouse evening.txt", txt.getKey());
            assertEquals("User: Who keeps the lighthouse?\n\nWren: Old Maren, the keeper.\nShe never sleeps.\n\n",
                    new String(txt.getValue(), StandardCharsets.UTF_8), "ST's plain text export");

            StUi.withScreenshot(page, "tankard-manage-3-search", () -> {
                page.type("#chatSearch", "keeper sleeps");
                page.waitFor("document.querySelector('#chatSearchStatus').textContent === '1 chat found'", STEP);
            });
            assertEquals("Lighthouse evening", text(page, "[...document.querySelectorAll('#chatList button.open')].map(b => b.dataset.chat).join('|')"));
            assertTrue(page.responses().stream().anyMatch(r -> r.url().endsWith("/api/chats/search")), "the server searched");
            assertTrue(page.responses().stream().noneMatch(r -> r.url().endsWith("/api/chats/get")), "no chat was downloaded whole");
            page.eval("{ const s = document.querySelector('#chatSearch'); s.value = ''; s.dispatchEvent(new Event('input')); }");
            page.waitFor("document.querySelectorAll('#chatList li').length === 2", STEP);

            Path ooba = temp("ooba.json", "{\"data_visible\":[[\"Is the ferry late?\",\"Only on Sundays.\"]]}".getBytes(StandardCharsets.UTF_8));
            Path agnai = temp("agnai.json", ("{\"name\":\"x\",\"messages\":[{\"userId\":\"u1\",\"msg\":\"Hello, Wren\"},"
                    + "{\"characterId\":\"c1\",\"msg\":\"Hello, traveller\"}]}").getBytes(StandardCharsets.UTF_8));
            Path cai = temp("cai.json", ("{\"histories\":{\"histories\":[{\"msgs\":[{\"src\":{\"is_human\":true},\"text\":\"Any rooms?\"},"
                    + "{\"src\":{\"is_human\":false},\"text\":\"One, above the stable.\"}]}]}}").getBytes(StandardCharsets.UTF_8));
            Path risu = temp("risu.json", ("{\"type\":\"risuChat\",\"data\":{\"message\":[{\"role\":\"user\",\"data\":\"Cider, please\"},"
                    + "{\"role\":\"char\",\"data\":\"Hot or cold?\"}]}}").getBytes(StandardCharsets.UTF_8));
            Path st = temp("st.jsonl", harbour.getBytes(StandardCharsets.UTF_8));
            StUi.withScreenshot(page, "tankard-manage-4-import", () -> {
                page.chooseFiles(() -> page.click("#importChat"), ooba, agnai, cai, risu, st);
                page.waitFor("document.querySelectorAll('#chatList li').length === 7", STEP);
                page.waitFor("location.hash.includes('imported')", STEP);
            });
            List<String> imported = files.chatNames(WREN_CHATS).stream().filter(n -> n.endsWith(" imported.jsonl")).toList();
            assertEquals(5, imported.size(), "each file a chat: " + files.chatNames(WREN_CHATS));
            String all = String.join("\n", imported.stream().map(n -> files.read(WREN_CHATS + "/" + n)).toList());
            for (String said : List.of("Only on Sundays.", "Hello, traveller", "One, above the stable.", "Hot or cold?", "Old Maren, the keeper.")) {
                assertTrue(all.contains(said), said + " in " + all);
            }

            Path bad = temp("notachat.json", "{\"something\":\"else\"}".getBytes(StandardCharsets.UTF_8));
            StUi.withScreenshot(page, "tankard-manage-5-bad-import", () -> {
                page.chooseFiles(() -> page.click("#importChat"), bad);
                page.waitFor(TOASTS + ".includes('notachat.json')", STEP);
            });
            String toast = text(page, TOASTS);
            assertTrue(toast.contains("Cannot import notachat.json: Unknown chat format") && !toast.contains("true"), toast);

            StUi.withScreenshot(page, "tankard-manage-6-delete", () -> {
                manageChat(page, "Lighthouse evening");
                clickDialog(page, "delete");
                clickDialog(page, "delete");
                page.waitFor("document.querySelectorAll('#chatList li').length === 6", STEP);
            });
            assertFalse(files.exists(WREN_CHATS + "/Lighthouse evening.jsonl"), "the chat file is deleted");
            assertTrue(files.exists(WREN_CHATS + "/" + greeting + ".jsonl"), "the others stay");

            String open = text(page, "new URLSearchParams(location.hash.split('?')[1]).get('file')");
            manageChat(page, open);
            clickDialog(page, "delete");
            clickDialog(page, "delete");
            page.waitFor("new URLSearchParams(location.hash.split('?')[1]).get('file') !== " + OwnUi.js(open)
                    + " && document.querySelectorAll('#chatList li').length === 5", STEP);
            assertFalse(files.exists(WREN_CHATS + "/" + open + ".jsonl"), "the open chat is deleted and another one opened");

            page.click("#newChat");
            page.waitFor("document.querySelectorAll('#chatList li').length === 6", STEP);
            assertEquals(6, files.chatNames(WREN_CHATS).size(), "a new chat is started");
        }
    }

    @Test
    void aCardIsCreatedWithItsImageEditedExportedDuplicatedAndDeleted() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            UserFiles files = server.files();
            // what ST's frontend keeps of a card in settings.json, and drops when the card is deleted
            ObjectNode settings = (ObjectNode) JsJson.parse(files.read("settings.json"));
            settings.withObject("/tag_map").putArray("default_Wren.png").add("tag-1");
            settings.withObject("/tag_map").putArray("Other.png").add("tag-2");
            settings.withObject("/tag_map").putArray("Bramble.png").add("tag-3");
            settings.withObject("/accountStorage").put("AlertWI_default_Wren.png", "true").put("AlertWI_Other.png", "true");
            files.write("settings.json", settings.toString());
            Browser.Page page = OwnUi.openLibrary(session);
            Path red = temp("red.png", solid(0xffff0000));
            StUi.withScreenshot(page, "tankard-manage-7-new-card", () -> {
                page.click("#newCard");
                page.setInputFiles("#cardAvatar", red);
                page.type("#cardForm [name='name']", "Bramble");
                page.type("#cardForm [name='description']", "A hedge witch.");
                page.type("#cardForm [name='first_mes']", "Mind the nettles.");
                page.click("#moreFields summary");
                page.click("#addGreeting");
                page.type("#greetings li:nth-child(1) textarea", "Back again?");
                page.click("#addGreeting");
                page.type("#greetings li:nth-child(2) textarea", "Careful, the kettle.");
                page.type("#cardForm [name='system_prompt']", "Speak plainly.");
                clickDialog(page, "save");
                page.waitFor("document.querySelector('.card[data-avatar=\"Bramble.png\"]') !== null", STEP);
            });
            byte[] png = files.bytes("characters/Bramble.png");
            assertEquals(0xff0000, centre(png), "the card's image is the one picked");
            JsonNode made = CardCodec.readPng(png).json();
            assertEquals("A hedge witch.", made.path("data").path("description").asText());
            assertEquals("[\"Back again?\",\"Careful, the kettle.\"]", made.path("data").path("alternate_greetings").toString());
            assertEquals("Speak plainly.", made.path("data").path("system_prompt").asText());

            page.click(".card[data-avatar='Bramble.png']");
            page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
            page.eval(OwnUi.CAPTURE_DOWNLOADS);
            Path blue = temp("blue.png", solid(0xff0000ff));
            StUi.withScreenshot(page, "tankard-manage-8-edit", () -> {
                page.click("#editCard");
                page.waitFor("document.querySelector('#cardForm [name=\"description\"]')?.value === 'A hedge witch.'", STEP);
                page.eval("document.querySelector('#cardForm [name=\"description\"]').value = 'A hedge witch of the old wood.'");
                page.eval("document.querySelector('#cardForm [name=\"creator_notes\"]').value = 'Made in a test.'");
                page.click("#moreFields summary");
                page.click("#greetings li:nth-child(1) button");
                page.setInputFiles("#cardAvatar", blue);
                clickDialog(page, "save");
                page.waitFor(TOASTS + ".includes('Saved')", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            });
            JsonNode edited = card(server, "Bramble.png");
            assertEquals("A hedge witch of the old wood.", edited.path("data").path("description").asText());
            assertEquals("A hedge witch of the old wood.", edited.path("description").asText(), "ST keeps it at the top too");
            assertEquals("Made in a test.", edited.path("data").path("creator_notes").asText());
            assertEquals("Made in a test.", edited.path("creatorcomment").asText(), "the top's name for it, as ST's");
            assertTrue(edited.path("creator_notes").isMissingNode(), "no key ST does not have at the top");
            assertEquals("[\"Careful, the kettle.\"]", edited.path("data").path("alternate_greetings").toString(), "one greeting removed");
            assertEquals("Speak plainly.", edited.path("data").path("system_prompt").asText(), "the others kept");
            assertEquals(0x0000ff, centre(files.bytes("characters/Bramble.png")), "the new image");
            page.waitFor("(() => { const img = document.querySelector('.chat aside .who img'); if (!img?.complete || !img.naturalWidth) return false;"
                    + " const c = document.createElement('canvas'); c.width = c.height = 1; const g = c.getContext('2d');"
                    + " g.drawImage(img, img.naturalWidth / 2, img.naturalHeight / 2, 1, 1, 0, 0, 1, 1); const [r, , b] = g.getImageData(0, 0, 1, 1).data;"
                    + " return b > 200 && r < 50; })()", STEP); // the page shows it, not the cached red thumbnail

            page.click("#exportPng");
            Map.Entry<String, byte[]> exported = OwnUi.download(page, 0);
            assertEquals("Bramble.png", exported.getKey());
            assertTrue(TestImages.isPng(exported.getValue()));
            assertEquals("A hedge witch of the old wood.", CardCodec.readPng(exported.getValue()).json().path("data").path("description").asText());
            page.click("#exportJson");
            Map.Entry<String, byte[]> json = OwnUi.download(page, 1);
            assertEquals("Bramble.json", json.getKey());
            assertEquals("Bramble", JsJson.parse(json.getValue()).path("data").path("name").asText());

            StUi.withScreenshot(page, "tankard-manage-9-duplicate", () -> {
                page.click("#duplicateCard");
                page.waitFor(TOASTS + ".includes('Duplicated as')", STEP);
            });
            List<String> cards = files.list("characters").stream().filter(n -> n.startsWith("Bramble")).toList();
            assertEquals(2, cards.size(), "the card and its copy: " + cards);
            String copy = cards.stream().filter(n -> !n.equals("Bramble.png")).findFirst().orElseThrow();
            assertEquals("A hedge witch of the old wood.", card(server, copy).path("data").path("description").asText());
            assertEquals("[\"tag-3\"]", JsJson.parse(files.read("settings.json")).path("tag_map").path(copy).toString(),
                    "the copy has the card's tags, as ST copies them");

            StUi.withScreenshot(page, "tankard-manage-10-delete-with-chats", () -> {
                page.click("#deleteCard");
                page.click("#deleteChats");
                clickDialog(page, "delete");
                page.waitFor("location.hash === '#/characters'", STEP);
                page.waitFor("document.querySelector('.card[data-avatar=\"" + copy + "\"]') !== null", STEP);
            });
            assertFalse(files.exists("characters/Bramble.png"), "the card is gone");
            assertFalse(files.chatFolderExists("chats/Bramble"), "and its chats");
            assertEquals(0, page.eval("document.querySelectorAll('.card[data-avatar=\"Bramble.png\"]').length").asInt());

            openWren(page);
            String wrenChat = files.chatNames(WREN_CHATS).get(0);
            page.click("#deleteCard");
            clickDialog(page, "delete");
            page.waitFor("location.hash === '#/characters'", STEP);
            page.waitFor("document.querySelector('.card') !== null", STEP);
            assertFalse(files.exists("characters/default_Wren.png"), "Wren's card is gone");
            assertTrue(files.exists(WREN_CHATS + "/" + wrenChat), "her chats are kept when the box is not ticked");
            JsonNode saved = JsJson.parse(files.read("settings.json"));
            assertTrue(saved.path("tag_map").path("default_Wren.png").isMissingNode() && saved.path("tag_map").path("Bramble.png").isMissingNode(),
                    "the deleted cards' tags are dropped, as ST drops them: " + saved.path("tag_map"));
            assertEquals("[\"tag-2\"]", saved.path("tag_map").path("Other.png").toString(), "the others kept");
            assertEquals("{\"AlertWI_Other.png\":\"true\"}", saved.path("accountStorage").toString());

            page.click(".card[data-avatar='" + copy + "'] button.more"); // the card's visible "⋯"
            clickDialog(page, "delete");
            clickDialog(page, "delete");
            page.waitFor("document.querySelector('.card[data-avatar=\"" + copy + "\"]') === null", STEP);
            assertFalse(files.exists("characters/" + copy), "deleted from the library's menu too");
            StUi.assertClean(page, "The page");
        }
    }

    /** A V2 card whose data carries a character book (the spec's character_book). */
    private static byte[] cardWithBook(String name, String book) {
        return CardWriter.write(solid(0xff00ff00), "{\"spec\":\"chara_card_v2\",\"spec_version\":\"2.0\",\"data\":{\"name\":"
                + OwnUi.js(name) + ",\"description\":\"Keeps the light.\",\"first_mes\":\"Mind the steps.\",\"extensions\":{},"
                + "\"character_book\":" + book + "}}");
    }

    private static final String HARBOUR_BOOK = "{\"name\":\"Harbour Lore\",\"entries\":[{\"id\":3,\"keys\":[\"lamp\",\"light\"],"
            + "\"secondary_keys\":[],\"comment\":\"The lamp\",\"content\":\"The lamp is lit at dusk.\",\"constant\":false,"
            + "\"selective\":false,\"insertion_order\":10,\"enabled\":true,\"position\":\"before_char\",\"extensions\":{\"depth\":2}}]}";

    @Test
    void aCardImportedFromAUrlOffersItsLorebookWhichIsWrittenAndLinked() throws IOException {
        io.vertx.core.Vertx mockVertx = io.vertx.core.Vertx.vertx();
        MockCompletionServer sites = MockCompletionServer.start(mockVertx);
        try {
            sites.route("/cards/keeper.png", r -> r.response().putHeader("Content-Type", "image/png")
                    .end(Buffer.buffer(cardWithBook("Keeper", HARBOUR_BOOK))));
            sites.route("/chub/api/characters/alice/atlas", r -> r.response().putHeader("Content-Type", "application/json")
                    .end("{\"node\":{\"topics\":[\"maps\"],\"definition\":{\"name\":\"Atlas\",\"personality\":\"Draws maps\","
                            + "\"first_message\":\"Where to?\",\"embedded_lorebook\":{\"name\":\"Atlas Lore\",\"entries\":[{\"keys\":[\"map\"],"
                            + "\"content\":\"Maps are drawn in ink.\",\"insertion_order\":5,\"enabled\":true}]}}}}"));
            String config = TestServer.providerOrigins(Map.of("https://api.chub.ai", sites.origin() + "/chub"))
                    + "whitelistImportDomains: [127.0.0.1]\n";
            try (OwnUi.Session session = OwnUi.Session.start(config)) {
                TestServer server = session.server();
                UserFiles files = server.files();
                Browser.Page page = OwnUi.openLibrary(session);
                StUi.withScreenshot(page, "tankard-manage-11-url-import", () -> {
                    page.click("#importUrlButton");
                    page.type("#importUrl", sites.origin() + "/cards/keeper.png");
                    clickDialog(page, "import");
                    page.waitFor("document.querySelector('dialog[open] h2')?.textContent === 'Keeper has an embedded lorebook'", STEP);
                });
                assertTrue(sites.lastCall("/cards/keeper.png") != null, "the server fetched the card from the site");
                assertTrue(files.exists("characters/Keeper.png"), "the card is imported: " + files.list("characters"));
                StUi.withScreenshot(page, "tankard-manage-12-lorebook-imported", () -> {
                    clickDialog(page, "import");
                    page.waitFor(TOASTS + ".includes('Harbour Lore')", STEP);
                    page.waitFor("document.querySelector('.card[data-avatar=\"Keeper.png\"]') !== null", STEP);
                });
                JsonNode book = JsJson.parse(files.read("worlds/Harbour Lore.json"));
                JsonNode entry = book.path("entries").path("3");
                assertEquals("[\"lamp\",\"light\"]", entry.path("key").toString());
                assertEquals("The lamp is lit at dusk.", entry.path("content").asText());
                assertEquals(10, entry.path("order").asInt());
                assertEquals(0, entry.path("position").asInt(), "before_char is ST's position 0");
                assertEquals(2, entry.path("depth").asInt());
                assertFalse(entry.path("disable").asBoolean());
                assertEquals("Harbour Lore", book.path("originalData").path("name").asText(), "ST keeps the card's book too");
                assertEquals("Harbour Lore", card(server, "Keeper.png").path("data").path("extensions").path("world").asText(),
                        "the card links the book");
                assertEquals("Harbour Lore", CardCodec.readPng(files.bytes("characters/Keeper.png")).json()
                        .path("data").path("extensions").path("world").asText(), "in the PNG, where ST reads it");

                // a Chub id goes to importUUID; its lorebook is left for later, then imported from beside the chat
                page.click("#importUrlButton");
                page.type("#importUrl", "alice/atlas");
                clickDialog(page, "import");
                page.waitFor("document.querySelector('dialog[open] h2')?.textContent === 'Atlas has an embedded lorebook'", STEP);
                clickDialog(page, "");
                assertTrue(sites.lastCall("/chub/api/characters/alice/atlas") != null);
                assertFalse(files.exists("worlds/Atlas Lore.json"), "nothing written when the offer is declined");
                page.waitFor("document.querySelector('.card[data-avatar=\"Atlas.png\"]') !== null", STEP);
                assertEquals("true", JsJson.parse(files.read("settings.json")).path("accountStorage").path("AlertWI_Atlas.png").asText(),
                        "offered once, as ST remembers it");
                page.click(".card[data-avatar='Atlas.png']");
                StUi.withScreenshot(page, "tankard-manage-13-card-lore-button", () -> {
                    page.waitFor("document.querySelector('#importCardLore') !== null", STEP);
                    page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
                    assertTrue(page.eval("document.querySelector('dialog[open]') === null").asBoolean(), "not offered again on opening");
                    page.click("#importCardLore");
                    page.waitFor("document.querySelector('dialog[open] h2')?.textContent === 'Import \"Atlas Lore\"?'", STEP);
                    assertEquals(0, page.eval("document.querySelectorAll('#replacesBook').length").asInt(), "no book of that name yet");
                    clickDialog(page, "import");
                    page.waitFor(TOASTS + ".includes('Atlas Lore')", STEP);
                });
                assertEquals("Maps are drawn in ink.", JsJson.parse(files.read("worlds/Atlas Lore.json")).path("entries").path("0").path("content").asText());
                assertEquals("Atlas Lore", card(server, "Atlas.png").path("data").path("extensions").path("world").asText());
                page.waitFor("document.querySelector('#importCardLore') !== null", STEP);
                page.click("#importCardLore");
                page.waitFor("document.querySelector('#replacesBook') !== null", STEP); // as ST warns: it overwrites that book
                clickDialog(page, "");
                StUi.assertClean(page, "The page");

                page.click("a[data-nav='characters']");
                page.waitFor("document.querySelector('.card') !== null", STEP);
                StUi.withScreenshot(page, "tankard-manage-14-url-refused", () -> {
                    page.click("#importUrlButton");
                    page.type("#importUrl", "https://cards.example.org/nothing.png");
                    clickDialog(page, "import");
                    page.waitFor(TOASTS + ".includes('cards.example.org')", STEP);
                });
                String toast = text(page, TOASTS);
                assertTrue(toast.contains("whitelistImportDomains") && !toast.contains("true"), "the server's reason: " + toast);
            }
        } finally {
            mockVertx.close();
        }
    }

    @Test
    void aCardsLorebookIsOfferedOnceWhenTheCardIsFirstOpened() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            UserFiles files = session.server().files();
            files.write("characters/Sailor.png", cardWithBook("Sailor", HARBOUR_BOOK));
            Browser.Page page = session.page();
            page.navigate(session.server().url("/#/chat?avatar=Sailor.png"));
            OwnUi.boot(page);
            StUi.withScreenshot(page, "tankard-manage-18-lore-on-first-open", () -> {
                page.waitFor("document.querySelector('dialog[open] h2')?.textContent === 'Sailor has an embedded lorebook'", STEP);
                clickDialog(page, "import");
                page.waitFor(TOASTS + ".includes('Harbour Lore')", STEP);
            });
            assertEquals("The lamp is lit at dusk.", JsJson.parse(files.read("worlds/Harbour Lore.json")).path("entries").path("3").path("content").asText());
            assertEquals("Harbour Lore", card(session.server(), "Sailor.png").path("data").path("extensions").path("world").asText());
            assertEquals("true", JsJson.parse(files.read("settings.json")).path("accountStorage").path("AlertWI_Sailor.png").asText());
            page.reload();
            OwnUi.boot(page);
            page.waitFor("document.querySelectorAll('#messages article').length === 1", STEP);
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertTrue(page.eval("document.querySelector('dialog[open]') === null").asBoolean(), "offered once");

            // with ST's "world import dialog" off, a note instead of the question
            ObjectNode settings = (ObjectNode) JsJson.parse(files.read("settings.json"));
            settings.withObject("/power_user").put("world_import_dialog", false);
            files.write("settings.json", settings.toString());
            files.write("characters/Diver.png", cardWithBook("Diver", HARBOUR_BOOK));
            page.navigate(session.server().url("/?again#/chat?avatar=Diver.png")); // a new document: settings read again
            OwnUi.boot(page);
            page.waitFor(TOASTS + ".includes('Diver has an embedded lorebook')", STEP);
            assertTrue(page.eval("document.querySelector('dialog[open]') === null").asBoolean(), "no question");
            page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
            assertEquals("true", JsJson.parse(files.read("settings.json")).path("accountStorage").path("AlertWI_Diver.png").asText());
            StUi.assertClean(page, "The page");
        }
    }

    @Test
    void atPhoneWidthTheControlsAreLabelledLargeAndReachableByKeyboard() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            Browser.Page page = session.page();
            page.setViewport(390, 844);
            page.navigate(session.server().url("/"));
            OwnUi.boot(page);
            page.waitFor("document.querySelector('.card') !== null", STEP);
            String unlabelled = "[...document.querySelectorAll(%s)].filter(b => b.offsetParent !== null && "
                    + "!(b.getAttribute('aria-label') || b.textContent.trim() || b.labels?.[0]?.textContent.trim())).length";
            String small = "[...document.querySelectorAll(%s)].filter(b => b.offsetParent !== null && "
                    + "(b.getBoundingClientRect().height < 44 || b.getBoundingClientRect().width < 44)).map(b => b.id || b.textContent).join('|')";
            StUi.withScreenshot(page, "tankard-manage-15-phone-library", () -> {
                assertTrue(page.eval("document.documentElement.scrollWidth <= 390").asBoolean(), "nothing wider than the phone");
                assertEquals("", text(page, String.format(small, "'.library .tools button, .card button'")));
                assertEquals(0, page.eval(String.format(unlabelled, "'.card button'")).asInt());
                // the card's own controls sit beside its open button, not in it: Enter on the star only stars it
                page.eval("document.querySelector(" + OwnUi.js(WREN) + " + ' button.fav').focus()");
                page.press("Enter");
                page.waitFor("document.querySelector(" + OwnUi.js(WREN) + " + ' button.fav').getAttribute('aria-pressed') === 'true'", STEP);
                assertTrue(page.eval("location.hash === '' || location.hash === '#/characters'").asBoolean(), "still the library");
                page.press("Tab");
                assertEquals("Manage Wren", text(page, "document.activeElement.getAttribute('aria-label')"), "the card's ⋯ comes next");
                page.press("Enter");
                page.waitFor("document.querySelector('dialog[open] h2')?.textContent === 'Wren'", STEP);
                page.press("Escape");
                page.waitFor("document.querySelector('dialog[open]') === null", STEP);
            });
            assertTrue(card(session.server(), "default_Wren.png").path("fav").asBoolean(), "the star is saved");
            assertTrue(page.responses().stream().noneMatch(r -> r.url().endsWith("/api/characters/get")),
                    "the library asks for pages of cards, never a card at a time");
            openWren(page);
            page.click("#asideToggle"); // the chat's panel, folded on a phone
            StUi.withScreenshot(page, "tankard-manage-16-phone-chat", () -> {
                assertTrue(page.eval("document.documentElement.scrollWidth <= 390").asBoolean(), "nothing wider than the phone");
                assertEquals(0, page.eval(String.format(unlabelled, "'#cardActions button, .chatFiles button, .chatFiles input'")).asInt());
                assertEquals("", text(page, String.format(small, "'#cardActions button, .chatFiles button'")));
            });
            StUi.withScreenshot(page, "tankard-manage-17-phone-keyboard", () -> {
                page.eval("document.querySelector('#chatList button.open').focus()");
                page.press("Tab");
                assertEquals("more", text(page, "document.activeElement.className"), "the chat's actions come next");
                page.press("Enter");
                page.waitFor("document.querySelector('dialog[open]') !== null", STEP);
                assertTrue(page.eval("document.querySelector('dialog[open]').getBoundingClientRect().right <= 390").asBoolean());
                assertEquals("rename", text(page, "document.activeElement.value"), "the dialog's first button has the focus");
                page.press("Enter");
                page.waitFor("document.activeElement?.id === 'renameChat'", STEP);
            });
            page.press("Escape");
            page.waitFor("document.querySelector('dialog[open]') === null", STEP);
            StUi.assertClean(page, "The page");
        }
    }
}
