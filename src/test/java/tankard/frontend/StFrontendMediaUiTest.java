package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.Fixtures;
import tankard.testing.TestImages;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;

/**
 * Issue 7's media acceptance in ST's own frontend: a background uploaded and selected, a sprite pack (ZIP)
 * uploaded for a character and listed in the Character Expressions panel, a file attached to a chat message
 * through the data bank; each still there after a reload, with the files on disk that ST writes. Needs an ST
 * install: {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendMediaUiTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendMediaUiTest {
    private static final Duration STEP_TIMEOUT = StUi.STEP_TIMEOUT;
    private static final Duration QUIET = StUi.QUIET;
    private static final String CONTEXT = "SillyTavern.getContext()";
    private static final String CHARACTER = "default_Seraphina.png";
    /** The expressions extension names the sprite folder after the character's name. */
    private static final String SPRITE_FOLDER = "Seraphina";
    private static final String BACKGROUND = "tankard dusk.png";
    private static final String NOTES = "Tankard data bank notes: the cellar key is under the third barrel.";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void backgroundSpritesAndDataBankFilesThroughTheFrontend() throws IOException {
        Path files = TestServer.tempDir();
        try (TestServer server = StUi.startTankard(stDir);
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            UserFiles user = server.files();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-media-0-boot", () -> {
                StUi.boot(page);
                StUi.assertClean(page, "Boot");
            });
            byte[] background = TestImages.image("png", 64, 36);
            StUi.withScreenshot(page, "st-media-1-background", () -> uploadBackground(page, user, write(files, BACKGROUND, background)));
            StUi.withScreenshot(page, "st-media-2-open", () -> openCharacter(page));
            byte[] joy = TestImages.image("png", 20, 30);
            byte[] anger = TestImages.image("gif", 20, 30);
            Map<String, byte[]> pack = new LinkedHashMap<>();
            pack.put("pack/joy-tankard.png", joy);
            pack.put("pack/anger-tankard.gif", anger);
            pack.put("pack/readme.txt", "not a sprite".getBytes(StandardCharsets.UTF_8));
            StUi.withScreenshot(page, "st-media-3-sprites", () -> uploadSprites(page, user, write(files, "pack.zip", Fixtures.zip(pack))));
            String[] attached = new String[1];
            StUi.withScreenshot(page, "st-media-4-attach", () ->
                    attached[0] = attachFile(page, user, write(files, "notes.txt", NOTES.getBytes(StandardCharsets.UTF_8))));

            StUi.withScreenshot(page, "st-media-5-reload", () -> {
                page.reload();
                StUi.boot(page);
                page.waitFor("getComputedStyle(document.getElementById('bg1')).backgroundImage.includes("
                        + jsString(urlPart(BACKGROUND)) + ")", STEP_TIMEOUT);
                assertTrue(page.eval(backgroundListed()).asBoolean(), "the background is listed after a reload");
                openCharacter(page);
                page.waitFor(spriteListed("joy-tankard.png") + " && " + spriteListed("anger-tankard.gif"), STEP_TIMEOUT);
                page.waitFor("document.querySelector('#chat .mes[mesid=\"0\"] .mes_file_container .mes_file_name')?.textContent === 'notes.txt'",
                        STEP_TIMEOUT);
                StUi.assertClean(page, "Reloading");
            });
            assertArrayEquals(background, user.bytes("backgrounds/" + BACKGROUND));
            assertArrayEquals(joy, user.bytes("characters/Seraphina/joy-tankard.png"));
            assertEquals(NOTES, user.read(attached[0].substring(1)));
        } finally {
            TestServer.deleteTree(files);
        }
    }

    /** Picks the file in the backgrounds drawer: ST uploads it, selects it and saves the choice in settings.json. */
    private static void uploadBackground(Browser.Page page, UserFiles user, Path file) {
        StUi.openDrawer(page, "backgrounds-button");
        int before = page.responses().size();
        page.setInputFiles("#add_bg_button", file);
        Browser.Response upload = page.awaitResponse(before, r -> StUi.hasPath(r, "/api/backgrounds/upload"), STEP_TIMEOUT);
        assertEquals(200, upload.status(), page.report());
        page.waitFor(backgroundListed() + " && document.getElementById('bg1').style.backgroundImage.includes("
                + jsString(urlPart(BACKGROUND)) + ")", STEP_TIMEOUT);
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        awaitSaved(() -> BACKGROUND.equals(settings(user).path("background").path("name").asText()), "the background saved as selected");
        assertTrue(metadata(user).path("images").has("backgrounds/" + BACKGROUND), "image metadata of the upload");
        StUi.closeDrawer(page, "backgrounds-button");
        StUi.assertClean(page, "Uploading a background");
    }

    private static void openCharacter(Browser.Page page) {
        StUi.openDrawer(page, "rightNavHolder");
        page.click("#rm_print_characters_block .character_select:has(.avatar[title$=\"File: " + CHARACTER + "\"])");
        page.waitFor(CONTEXT + ".chat.length === 1 && " + CONTEXT + ".characterId !== undefined", STEP_TIMEOUT);
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        StUi.closeDrawer(page, "rightNavHolder");
    }

    /** The sprite pack button of the Character Expressions panel, for the open character's sprite folder. */
    private static void uploadSprites(Browser.Page page, UserFiles user, Path zip) {
        page.waitFor("$('#image_list').data('name') === " + jsString(SPRITE_FOLDER), STEP_TIMEOUT);
        StUi.openDrawer(page, "extensions-settings-button");
        page.eval("$('#expression_upload_pack_button').trigger('click'), true"); // arms the input's change handler
        int before = page.responses().size();
        page.setInputFiles("#expression_upload_pack", zip);
        Browser.Response upload = page.awaitResponse(before, r -> StUi.hasPath(r, "/api/sprites/upload-zip"), STEP_TIMEOUT);
        assertEquals(200, upload.status(), page.report());
        page.waitFor(spriteListed("joy-tankard.png") + " && " + spriteListed("anger-tankard.gif"), STEP_TIMEOUT);
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        assertEquals(List.of("anger-tankard.gif", "joy-tankard.png"), spriteFiles(user).stream()
                .filter(name -> name.contains("tankard")).sorted().toList());
        assertTrue(spriteFiles(user).contains("joy.png"), "the pack adds to the set: joy.png stays");
        StUi.closeDrawer(page, "extensions-settings-button");
    }

    /** Attaches a text file to the greeting: ST stores it in the data bank folder and lists it in the message's extra.files. */
    private static String attachFile(Browser.Page page, UserFiles user, Path file) {
        page.eval("$('#chat .mes[mesid=\"0\"] .mes_embed').trigger('click'), true"); // arms the input's change handler
        int before = page.responses().size();
        page.setInputFiles("#embed_file_input", file);
        Browser.Response upload = page.awaitResponse(before, r -> StUi.hasPath(r, "/api/files/upload"), STEP_TIMEOUT);
        assertEquals(200, upload.status(), page.report());
        page.waitFor("document.querySelector('#chat .mes[mesid=\"0\"] .mes_file_container') !== null", STEP_TIMEOUT);
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
        String url = page.eval(CONTEXT + ".chat[0].extra.files[0].url").asText();
        assertTrue(url.matches("/user/files/\\d+_-?\\d+\\.txt"), url);
        String chatFile = page.eval(CONTEXT + ".getCurrentChatId()").asText() + ".jsonl";
        String chat = "chats/default_Seraphina/" + chatFile;
        awaitSaved(() -> user.exists(chat) && user.read(chat).contains("\"url\":\"" + url + "\""), "the chat saved with the attachment");
        JsonNode saved = JsJson.parse(user.read(chat).split("\n")[1]).path("extra").path("files").get(0);
        assertEquals("notes.txt", saved.path("name").asText());
        assertEquals(NOTES.length(), saved.path("size").intValue());
        return url;
    }

    private static String backgroundListed() {
        return "document.querySelector(" + jsString("#bg_menu_content .bg_example[bgfile=" + jsString(BACKGROUND) + "]") + ") !== null";
    }

    private static String spriteListed(String file) {
        return "document.querySelector(" + jsString("#image_list .expression_list_item[data-filename=" + jsString(file) + "]") + ") !== null";
    }

    /** How the name appears in a CSS url(): the browser keeps ST's encoding of the space. */
    private static String urlPart(String name) {
        return name.substring(name.indexOf(' ') + 1);
    }

    private static List<String> spriteFiles(UserFiles user) {
        return user.list("characters/" + SPRITE_FOLDER);
    }

    private static JsonNode settings(UserFiles user) {
        return JsJson.parse(user.bytes("settings.json"));
    }

    private static JsonNode metadata(UserFiles user) {
        return JsJson.parse(user.bytes("image-metadata.json"));
    }

    /** Polls for a debounced save to reach the store. */
    private static void awaitSaved(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out waiting for " + what);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("Interrupted waiting for " + what);
            }
        }
    }

    private static Path write(Path folder, String name, byte[] bytes) {
        try {
            return Files.write(folder.resolve(name), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
