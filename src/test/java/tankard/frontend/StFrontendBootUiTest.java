package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.character.CardCodec;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static tankard.testing.Browser.jsString;

/**
 * The unmodified SillyTavern frontend works against Tankard in a real browser: it boots, shows the avatars,
 * opens the default character's chat with its greeting, and keeps a changed setting and the chat over a
 * reload. Needs an ST install, which cannot be part of the repository: run it locally with
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendBootUiTest}. Each run starts from a
 * fresh data root that the server seeds from the install's default content; screenshots go to {@code target/ui/}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendBootUiTest {
    private static final Duration STEP_TIMEOUT = StUi.STEP_TIMEOUT;
    private static final Duration QUIET = StUi.QUIET;
    private static final String CHARACTER_LIST = "#rm_print_characters_block";
    private static final String PLAIN_TEXT = StUi.PLAIN_TEXT;
    /** "Show timestamps" in User Settings: on in ST's default settings, saved with the settings. */
    private static final String TIMESTAMPS_CHECKBOX = "#messageTimestampsEnabled";

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void worksForTheDefaultUser() throws IOException {
        try (TestServer server = StUi.startTankard(stDir);
             Browser browser = Browser.launch()) {
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            useTheFrontend(page, server.files(), "st-default-user");
        }
    }

    @Test
    void worksAfterLoggingInThroughTheLoginPage() throws IOException {
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), "enableUserAccounts: true\nskipContentCheck: false\n");
        try (TestServer server = TestServer.startIn(work, "--frontend", stDir.resolve("public").toString());
             Browser browser = Browser.launch()) {
            // More than one account, so the login page lists them instead of logging the only user in automatically.
            TestServer.Client admin = server.client();
            assertEquals(200, admin.post("/api/users/login", "{\"handle\":\"default-user\",\"password\":\"\"}").statusCode());
            assertEquals(200, admin.post("/api/users/create", "{\"handle\":\"alice\",\"name\":\"Alice\","
                    + "\"password\":\"wonderland\",\"admin\":true}").statusCode());
            assertEquals(200, admin.post("/api/users/create", "{\"handle\":\"bob\",\"name\":\"Bob\"}").statusCode());
            Browser.Page page = browser.newPage();
            page.navigate(server.url("/"));
            StUi.withScreenshot(page, "st-accounts-0-login", () -> {
                assertEquals("/login", page.eval("location.pathname").asText());
                page.waitFor("document.querySelectorAll('#userList .userSelect').length === 3", STEP_TIMEOUT);
                int alice = page.eval("[...document.querySelectorAll('#userList .userHandle')]"
                        + ".findIndex(e => e.textContent === 'alice')").asInt();
                assertTrue(alice >= 0, "alice is not listed");
                page.click("#userList .userSelect:nth-child(" + (alice + 1) + ")");
                page.waitFor("document.querySelector('#passwordEntryBlock').style.display !== 'none'", STEP_TIMEOUT);
                page.type("#userPassword", "wonderland");
                page.click("#loginButton");
                page.waitFor("location.pathname === '/'", STEP_TIMEOUT);
            });
            useTheFrontend(page, server.files("alice"), "st-accounts");
            assertEquals("alice", page.eval("fetch('/api/users/me').then(r => r.json()).then(u => u.handle)").asText());
        }
    }

    /** The steps both scenarios share, from the first boot of a fresh user to the reopened chat. */
    private void useTheFrontend(Browser.Page page, UserFiles files, String name) throws IOException {
        List<String> characters = defaultCharacterAvatars();
        assertFalse(characters.isEmpty(), "the ST install lists no default character");
        String character = characters.get(0);
        String greeting = greeting(character);

        bootAndCheck(page, characters, name + "-1-boot");
        checkAvatarsShow(page, characters, name + "-2-avatars");
        openCharacter(page, character, greeting, name + "-3-chat");
        checkChatSaved(files, character, greeting);
        turnTimestampsOff(page, files, name + "-4-setting");
        page.reload();
        bootAndCheck(page, characters, name + "-5-reload");
        checkTimestampsStayOff(page, name + "-6-setting-kept");
        reopenRecentChat(page, character, greeting, name + "-7-chat-reopened");
        checkChatSaved(files, character, greeting); // reopening made no second chat
    }

    /** Waits for the end of ST's boot (answering the first-run dialog), then checks it went cleanly. */
    private void bootAndCheck(Browser.Page page, List<String> characters, String screenshot) {
        StUi.withScreenshot(page, screenshot, () -> {
            StUi.boot(page);
            for (String avatar : characters) {
                assertTrue(page.eval("document.querySelector(" + jsString(characterAvatar(avatar)) + ") !== null").asBoolean(),
                        avatar + " is not listed\n" + page.report());
            }
            StUi.assertClean(page, "Boot");
        });
    }

    /**
     * The user's persona thumbnail and the characters' thumbnails were served as images, and the browser
     * could decode them (the persona in the persona panel, the characters in the character list).
     */
    private void checkAvatarsShow(Browser.Page page, List<String> characters, String screenshot) {
        StUi.withScreenshot(page, screenshot, () -> {
            String persona = page.eval("document.querySelector('#user_avatar_block .avatar-container.selected')"
                    + "?.getAttribute('data-avatar-id') ?? ''").asText();
            assertFalse(persona.isEmpty(), "ST has no persona selected");
            assertImageServed(page, "persona", persona);
            for (String avatar : characters) {
                assertImageServed(page, "avatar", avatar);
                assertTrue(page.eval(imageShows(characterAvatar(avatar) + " img")).asBoolean(),
                        avatar + "'s thumbnail does not show");
            }
            StUi.openDrawer(page, "persona-management-button");
            String personaImage = "#user_avatar_block .avatar-container[data-avatar-id=" + jsString(persona) + "] img";
            page.awaitVisible(personaImage);
            assertTrue(page.eval(imageShows(personaImage)).asBoolean(), "the persona's thumbnail does not show");
            StUi.assertClean(page, "Showing the avatars");
        });
    }

    /** Clicks the character in the character list; its chat opens with the card's greeting as the first message. */
    private void openCharacter(Browser.Page page, String avatar, String greeting, String screenshot) {
        StUi.withScreenshot(page, screenshot, () -> {
            StUi.openDrawer(page, "rightNavHolder");
            page.click(CHARACTER_LIST + " .character_select:has(" + avatarImage(avatar) + ")");
            awaitGreeting(page, greeting);
            StUi.assertClean(page, "Opening " + avatar);
        });
    }

    /** ST saved the new chat (/api/chats/save): a JSONL file in the character's chat folder, greeting first. */
    private static void checkChatSaved(UserFiles files, String avatar, String greeting) {
        String folder = "chats/" + avatar.substring(0, avatar.lastIndexOf('.'));
        List<String> chats = files.chatNames(folder);
        assertEquals(1, chats.size(), "chat files in " + folder + ": " + chats);
        List<JsonNode> lines = files.read(folder + "/" + chats.get(0)).lines().filter(line -> !line.isBlank())
                .map(JsJson::parse).toList();
        assertEquals(2, lines.size(), "the chat file holds its header and the greeting");
        assertEquals(greeting, lines.get(1).path("mes").asText());
    }

    /** Unticks "Show timestamps" in User Settings and waits until ST has saved its settings. */
    private static void turnTimestampsOff(Browser.Page page, UserFiles files, String screenshot) {
        StUi.withScreenshot(page, screenshot, () -> {
            StUi.openDrawer(page, "user-settings-button");
            assertTrue(page.eval(checked(TIMESTAMPS_CHECKBOX)).asBoolean(), "Show timestamps is off before the click");
            int before = page.responses().size();
            page.click(TIMESTAMPS_CHECKBOX);
            assertFalse(page.eval(checked(TIMESTAMPS_CHECKBOX)).asBoolean(), "the click did not untick the checkbox");
            Browser.Response save = page.awaitResponse(before,
                    r -> r.method().equals("POST") && StUi.hasPath(r, "/api/settings/save"), STEP_TIMEOUT);
            assertEquals(200, save.status(), "saving the settings failed\n" + page.report());
            page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
            StUi.assertClean(page, "Changing a setting");
            assertFalse(StUi.settings(files).path("power_user").path("timestamps_enabled").asBoolean(true),
                    "settings.json still has timestamps_enabled");
        });
    }

    private static void checkTimestampsStayOff(Browser.Page page, String screenshot) {
        StUi.withScreenshot(page, screenshot, () -> {
            StUi.openDrawer(page, "user-settings-button");
            assertFalse(page.eval(checked(TIMESTAMPS_CHECKBOX)).asBoolean(), "Show timestamps is ticked again after a reload");
            assertTrue(page.eval("document.body.classList.contains('no-timestamps')").asBoolean(), "timestamps still show");
        });
    }

    /** After a reload the welcome screen lists the chat among the recent ones; clicking it opens it again. */
    private static void reopenRecentChat(Browser.Page page, String avatar, String greeting, String screenshot) {
        StUi.withScreenshot(page, screenshot, () -> {
            StUi.closeDrawer(page, "user-settings-button"); // left open by the previous step, it covers the recent chats
            String recent = "#chat .recentChat[data-avatar=" + jsString(avatar) + "]";
            page.waitFor("document.querySelector(" + jsString(recent) + ") !== null", STEP_TIMEOUT);
            page.click(recent);
            awaitGreeting(page, greeting);
            StUi.assertClean(page, "Reopening the chat");
        });
    }

    /** Waits until the chat's first message shows the greeting and the saves that follow are done. */
    private static void awaitGreeting(Browser.Page page, String greeting) {
        page.waitFor("(" + PLAIN_TEXT + ")(document.querySelector('#chat .mes[mesid=\"0\"] .mes_text')?.textContent ?? '')"
                + " === (" + PLAIN_TEXT + ")(" + jsString(greeting) + ")", STEP_TIMEOUT);
        page.waitForNetworkIdle(QUIET, STEP_TIMEOUT);
    }

    /** The page fetched ST's thumbnail of the file and got a 200 image, every time it asked. */
    private static void assertImageServed(Browser.Page page, String type, String file) {
        List<Browser.Response> thumbnails = page.responses().stream().filter(r -> isThumbnail(r, type, file)).toList();
        assertFalse(thumbnails.isEmpty(), "the page never fetched the " + type + " thumbnail of " + file);
        for (Browser.Response response : thumbnails) {
            assertEquals(200, response.status(), response.url());
            assertTrue(response.mimeType().startsWith("image/"), response.url() + " came as " + response.mimeType());
        }
    }

    /** Whether the response answers /thumbnail?type=TYPE&file=FILE (ST may add {@code &t=} to bust caches). */
    private static boolean isThumbnail(Browser.Response response, String type, String file) {
        if (!StUi.hasPath(response, "/thumbnail")) {
            return false;
        }
        String query = URLDecoder.decode(URI.create(response.url()).getRawQuery(), StandardCharsets.UTF_8);
        String wanted = "type=" + type + "&file=" + file;
        return query.equals(wanted) || query.startsWith(wanted + "&");
    }

    /** The avatar of a character in the character list. */
    private static String characterAvatar(String avatar) {
        return CHARACTER_LIST + " " + avatarImage(avatar);
    }

    /** A character's avatar in ST's lists: its tooltip ends with the file name. */
    private static String avatarImage(String avatar) {
        return ".avatar[title$=\"File: " + avatar + "\"]";
    }

    /** JS: the image has loaded and decoded (a broken image has no natural width). */
    private static String imageShows(String selector) {
        return "(img => img !== null && img.complete && img.naturalWidth > 0)"
                + "(document.querySelector(" + jsString(selector) + "))";
    }

    private static String checked(String selector) {
        return "document.querySelector(" + jsString(selector) + ").checked";
    }

    /** The avatar file names of the characters in the install's default content (what a new user gets). */
    private List<String> defaultCharacterAvatars() throws IOException {
        List<String> avatars = new ArrayList<>();
        for (JsonNode item : readJson(stDir.resolve("default/content/index.json"))) {
            if ("character".equals(item.path("type").asText())) {
                avatars.add(Path.of(item.path("filename").asText()).getFileName().toString());
            }
        }
        return avatars;
    }

    /** The first message of a default character, read from the install's card. */
    private String greeting(String avatar) throws IOException {
        JsonNode card = CardCodec.readPng(Files.readAllBytes(stDir.resolve("default/content").resolve(avatar))).json();
        return card.path("data").path("first_mes").asText(card.path("first_mes").asText());
    }

    private static JsonNode readJson(Path file) {
        try {
            return JsJson.parse(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
