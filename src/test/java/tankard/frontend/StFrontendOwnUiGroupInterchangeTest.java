package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One data folder, two frontends in turn: a group made and answered in Tankard's own UI opens in ST's frontend as
 * ST's group, with its members, order, muted member, activation strategy and chat; the name ST gives it shows in
 * Tankard's UI. Needs an ST install:
 * {@code TANKARD_ST_DIR=/path/to/SillyTavern mvn test -Dtest=StFrontendOwnUiGroupInterchangeTest}.
 */
@EnabledIfEnvironmentVariable(named = "TANKARD_ST_DIR", matches = ".+")
class StFrontendOwnUiGroupInterchangeTest {
    private static final java.time.Duration STEP = java.time.Duration.ofSeconds(30);
    private static final String CONTEXT = StUi.CONTEXT;

    private final Path stDir = Path.of(System.getenv("TANKARD_ST_DIR")).toAbsolutePath();

    @Test
    void aGroupMadeInTankardsUiIsStsGroupInStsFrontend() throws IOException {
        Path dataRoot = TestServer.tempDir();
        try (OwnUi.Session session = OwnUi.Session.startOn(dataRoot)) {
            TestServer ownUi = session.server();
            for (String name : new String[] {"Ash", "Birch", "Cedar"}) {
                assertEquals(200, ownUi.client().post("/api/characters/create", JsJson.object().put("ch_name", name)
                        .put("description", name + " of the wood.").put("first_mes", name + " waves.").toString()).statusCode());
            }
            Browser browser = session.browser();
            Browser.Page page = OwnUi.connected(session);
            StUi.withScreenshot(page, "interchange-group-1-tankard-ui", () -> {
                page.navigate(ownUi.url("/#/groups?new"));
                page.waitFor("document.querySelector('#groupCandidate') !== null", STEP);
                page.type("#groupName", "Hearth");
                for (String avatar : new String[] {"Cedar.png", "Birch.png", "Ash.png"}) {
                    page.select("#groupCandidate", avatar);
                    page.click("#groupAdd");
                }
                page.click("#groupMembers li[data-avatar='Birch.png'] [data-act='mute']");
                OwnUi.choose(page, "#groupStrategy", "1");
                page.click("#groupCreate");
                page.waitFor("document.querySelectorAll('#messages article').length === 3", STEP);
                page.type("#input", "Hello, all of you.");
                page.click("#send");
                page.waitFor("document.querySelectorAll('#messages article').length === 6"
                        + " && document.querySelector('#stop').hidden", STEP);
                page.waitForNetworkIdle(java.time.Duration.ofMillis(500), STEP);
            });
            JsonNode group;
            try (Stream<Path> files = Files.list(dataRoot.resolve("default-user/groups"))) {
                group = JsJson.parse(Files.readAllBytes(files.findFirst().orElseThrow()));
            }
            String id = group.path("id").asText();

            try (TestServer st = StUi.startStFrontendOn(stDir, dataRoot)) {
                Browser.Page stPage = browser.newPage();
                stPage.navigate(st.url("/"));
                StUi.withScreenshot(stPage, "interchange-group-2-st-frontend", () -> {
                    StUi.boot(stPage);
                    StUi.openDrawer(stPage, "rightNavHolder");
                    stPage.click("#rm_print_characters_block .group_select[data-grid='" + id + "']");
                    stPage.waitFor(CONTEXT + ".groupId === " + OwnUi.js(id) + " && " + CONTEXT + ".chat.length === 6", STEP);
                    String stGroup = CONTEXT + ".groups.find((g) => g.id === " + OwnUi.js(id) + ")";
                    assertEquals("[\"Ash.png\",\"Birch.png\",\"Cedar.png\"]", stPage.eval("JSON.stringify(" + stGroup + ".members)").asText());
                    assertEquals("[\"Birch.png\"]", stPage.eval("JSON.stringify(" + stGroup + ".disabled_members)").asText());
                    assertEquals(1, stPage.eval(stGroup + ".activation_strategy").asInt());
                    assertEquals("[\"Ash\",\"Birch\",\"Cedar\",\"User\",\"Ash\",\"Cedar\"]",
                            stPage.eval("JSON.stringify(" + CONTEXT + ".chat.map((m) => m.name))").asText());
                    assertEquals("Hello, all of you.", stPage.eval(CONTEXT + ".chat[3].mes").asText());
                    assertEquals(3, stPage.eval("document.querySelectorAll('#rm_group_members .group_member').length").asInt(),
                            "ST's panel lists the members");

                    // ST renames the group through its own panel's input
                    stPage.eval("$('#rm_group_chat_name').val('Hearth and Home').trigger('input')");
                    stPage.waitForNetworkIdle(StUi.QUIET, STEP);
                });
            }

            page.navigate(ownUi.url("/"));
            page.navigate(ownUi.url("/#/groups"));
            StUi.withScreenshot(page, "interchange-group-3-tankard-ui-again", () ->
                    page.waitFor("document.querySelector('#groupList a[data-group]')?.textContent === 'Hearth and Home'", STEP));
        } finally {
            TestServer.deleteTree(dataRoot);
        }
    }
}
