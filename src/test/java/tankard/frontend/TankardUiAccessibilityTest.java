package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.testing.Browser;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * axe-core (src/test/resources/axe) on the pages of Tankard's own UI, at a desktop's and a phone's size: no
 * serious or critical violation on the library, a chat, the connection, personas, settings and world info pages,
 * and the groups page, a group's editor and a group chat.
 * Every violation found, of any impact, is listed in {@code target/ui/axe.txt}.
 */
class TankardUiAccessibilityTest {
    private static final Duration STEP = OwnUi.STEP;
    /** Each page, what shows when it is drawn and, for a state of it, a script that opens that state and what then shows. */
    private static final String[][] PAGES = {
            {"#/characters", ".card"},
            {"#/chat?avatar=default_Wren.png", "#messages article"},
            {"#/chat?avatar=default_Wren.png", "#messages article",
                "document.querySelector('#authorsNote').click(); document.querySelectorAll('dialog[open] details').forEach(d => d.open = true)",
                "#noteDefaultPrompt"},
            {"#/chat?avatar=default_Wren.png", "#messages article", "document.querySelector('#personaLock').click()", "dialog[open] #lockChat"},
            {"#/connection", "#connectionForm"},
            {"#/personas", "#view h1"},
            {"#/settings", "#view h1"},
            {"#/settings", "#moreSamplers", "document.querySelector('#moreSamplers').open = true", "#moreSamplers[open]"},
            {"#/worldinfo", "#view h1"},
    };
    private static final int[][] SIZES = {{1280, 800}, {390, 844}};

    private static String axe() throws IOException {
        try (InputStream in = TankardUiAccessibilityTest.class.getResourceAsStream("/axe/axe.min.js")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void everyPageHasNoSeriousOrCriticalViolationAtDesktopAndPhoneSizes() throws IOException {
        String axe = axe();
        List<String> report = new ArrayList<>();
        List<String> serious = new ArrayList<>();
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            String group = tankard.json.JsJson.parse(session.server().client().post("/api/groups/create",
                    "{\"name\":\"Hearth\",\"members\":[\"default_Wren.png\"]}").body().getBytes()).path("id").asText();
            List<String[]> pages = new ArrayList<>(List.of(PAGES));
            pages.add(new String[] {"#/groups", "#groupList"});
            pages.add(new String[] {"#/groups?id=" + group, "#groupEditor"});
            pages.add(new String[] {"#/chat?group=" + group, "#groupChatMembers"});
            Browser.Page page = OwnUi.openLibrary(session);
            for (int[] size : SIZES) {
                page.setViewport(size[0], size[1]);
                for (String[] shown : pages) {
                    page.eval("document.querySelectorAll('dialog[open]').forEach(d => d.close()); true"); // the last state's
                    page.navigate(session.server().url("/" + shown[0]));
                    OwnUi.boot(page);
                    page.waitFor("document.querySelector(" + OwnUi.js(shown[1]) + ") !== null", STEP);
                    if (shown.length > 2) {
                        page.eval(shown[2] + ";true");
                        page.waitFor("document.querySelector(" + OwnUi.js(shown[3]) + ") !== null", STEP);
                        page.waitForNetworkIdle(Duration.ofMillis(300), STEP);
                    }
                    page.eval(axe + ";true");
                    JsonNode violations = page.eval("axe.run(document, { resultTypes: ['violations'] }).then((r) =>"
                            + " r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,"
                            + "   nodes: v.nodes.map((n) => n.target.join(' ')) })))");
                    String where = shown[0] + (shown.length > 2 ? " (" + shown[2].substring(0, 40) + "…)" : "") + " at " + size[0] + "×" + size[1];
                    report.add(where + ": " + violations.size() + " violations");
                    for (JsonNode violation : violations) {
                        String line = "  " + violation.path("impact").asText() + " " + violation.path("id").asText()
                                + " (" + violation.path("help").asText() + "): " + violation.path("nodes");
                        report.add(line);
                        if (List.of("serious", "critical").contains(violation.path("impact").asText())) {
                            serious.add(where + line);
                        }
                    }
                }
            }
        }
        Path file = Path.of("target", "ui", "axe.txt");
        Files.createDirectories(file.getParent());
        Files.write(file, report);
        assertEquals(List.of(), serious, String.join("\n", report));
    }

    /** Elements matching the selector that show but are smaller than 44×44 px: a finger's target. */
    private static JsonNode tooSmall(Browser.Page page, String selector) {
        return page.eval("[...document.querySelectorAll(" + OwnUi.js(selector) + ")].filter((e) => e.offsetParent)"
                + ".map((e) => e.getBoundingClientRect()).filter((r) => r.width < 44 || r.height < 44)"
                + ".map((r) => Math.round(r.width) + 'x' + Math.round(r.height))");
    }

    @Test
    void onAPhoneTheChatsSidePanelIsAFoldedDrawerAndTheMessagesControlsAreBigEnoughToTouch() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            Browser.Page page = OwnUi.openLibrary(session);
            page.setViewport(390, 844);
            page.navigate(session.server().url("/#/chat?avatar=default_Wren.png"));
            OwnUi.boot(page);
            page.waitFor("document.querySelector('#messages article') !== null", STEP);
            StUi.withScreenshot(page, "tankard-phone-chat-folded", () -> {
                assertEquals("false", page.eval("document.querySelector('#asideToggle').getAttribute('aria-expanded')").asText());
                assertEquals(true, page.eval("document.querySelector('#chatList, #chatPanel ul')?.offsetParent === null").asBoolean(),
                        "the chats are folded away");
                assertEquals(true, page.eval("document.querySelector('.chat aside').getBoundingClientRect().height < 844 / 5"
                        + " && document.querySelector('#messages').getBoundingClientRect().height > 844 * 2 / 5").asBoolean(),
                        "the folded panel leaves the messages the screen");
                assertEquals(List.of(), texts(tooSmall(page, "#messages button, #asideToggle, #chatActions button, #send")));
            });
            page.click("#asideToggle");
            StUi.withScreenshot(page, "tankard-phone-chat-unfolded", () -> {
                assertEquals("true", page.eval("document.querySelector('#asideToggle').getAttribute('aria-expanded')").asText());
                assertEquals(true, page.eval("document.querySelector('#chatPanel').offsetParent !== null").asBoolean());
                assertEquals(List.of(), texts(tooSmall(page, "#chatPanel button")), "the panel's buttons too");
            });
            page.setViewport(1280, 800);
            page.reload();
            OwnUi.boot(page);
            page.waitFor("document.querySelector('#messages article') !== null", STEP);
            assertEquals(true, page.eval("getComputedStyle(document.querySelector('#asideToggle')).display === 'none'"
                    + " && document.querySelector('#chatPanel').offsetParent !== null").asBoolean(), "open at a desktop's size");
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }
}
