package tankard.frontend;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.Browser;
import tankard.testing.MockCompletionServer;
import tankard.testing.TestServer;
import tankard.testing.UserFiles;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Group chats in Tankard's own UI (docs/ui.md, Group chats): a group made of three characters on the groups page,
 * reordered from the keyboard and one member muted, stored with ST's keys; a send answered by the members ST's
 * activation picks, in order, each reply asked of the engine with that member's card in the prompt; the round
 * regenerated whole; natural order with a mention; manual mode's "reply as"; auto mode replying on its own until
 * turned off; Stop ending a round; the group's chats made, renamed and deleted; the group deleted with its chats; the
 * chat and the editor at 390×844. Screenshots {@code tankard-group-*.png} in target/ui/.
 */
class TankardUiGroupTest {
    private static final Duration STEP = OwnUi.STEP;
    private static final String ARTICLES = "document.querySelectorAll('#messages article').length";

    /** A card made through ST's create route, with a description the prompt shows and talkativeness 0. */
    private static void character(TestServer server, String name) {
        assertEquals(200, server.client().post("/api/characters/create", JsJson.object().put("ch_name", name)
                .put("description", name.toUpperCase() + "-CARD").put("first_mes", name + " waves.")
                .put("talkativeness", "0").toString()).statusCode());
    }

    private static JsonNode group(UserFiles files) {
        List<String> names = files.list("groups");
        assertEquals(1, names.size(), names.toString());
        return JsJson.parse(files.bytes("groups/" + names.get(0)));
    }

    private static List<JsonNode> chat(UserFiles files, String chatId) {
        return files.read("group chats/" + chatId + ".jsonl").lines().skip(1).map(JsJson::parse).toList();
    }

    /** The names of the cards whose descriptions the completion requests since `from` carried, one per request. */
    private static List<String> speakers(MockCompletionServer mock, int from) {
        List<String> found = new ArrayList<>();
        List<MockCompletionServer.Call> calls = mock.calls().stream().filter(c -> c.path().equals("/v1/chat/completions")).toList();
        for (MockCompletionServer.Call call : calls.subList(from, calls.size())) {
            String prompt = call.json().path("messages").toString();
            List<String> cards = new ArrayList<>();
            for (String name : List.of("Ash", "Birch", "Cedar")) {
                if (prompt.contains(name.toUpperCase() + "-CARD")) {
                    cards.add(name);
                }
            }
            assertEquals(1, cards.size(), "one member's card per request (swap mode): " + prompt);
            found.add(cards.get(0));
        }
        return found;
    }

    private static int completions(MockCompletionServer mock) {
        return (int) mock.calls().stream().filter(c -> c.path().equals("/v1/chat/completions")).count();
    }

    private static List<String> names(List<JsonNode> messages) {
        return messages.stream().map(m -> m.path("name").asText()).toList();
    }

    /** Waits for the chat to show `count` messages with no reply under way. */
    private static void settled(Browser.Page page, int count) {
        page.waitFor(ARTICLES + " === " + count + " && document.querySelector('#stop').hidden"
                + " && !document.querySelector('#messages .streaming')", STEP);
        page.waitForNetworkIdle(Duration.ofMillis(400), STEP);
    }

    private static void openEditor(Browser.Page page) {
        page.click("#groupEdit");
        page.waitFor("document.querySelector('#groupStrategy') !== null", STEP);
    }

    private static void backToChat(Browser.Page page, int count) {
        page.click("#groupOpenChat");
        page.waitFor("document.querySelector('#groupChatMembers') !== null", STEP);
        settled(page, count);
    }

    @Test
    void aGroupIsMadeEditedAndAnsweredAsStWouldActivateItsMembers() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            UserFiles files = server.files();
            for (String name : List.of("Ash", "Birch", "Cedar")) {
                character(server, name);
            }
            MockCompletionServer mock = session.mock();
            Browser.Page page = OwnUi.connected(session);

            StUi.withScreenshot(page, "tankard-group-1-editor", () -> {
                page.click("a[data-nav='groups']");
                page.waitFor("document.querySelector('#newGroup') !== null", STEP);
                page.click("#newGroup");
                page.waitFor("document.querySelector('#groupCandidate') !== null", STEP);
                page.type("#groupName", "Hearth");
                page.type("#groupSearch", "ced"); // the server's paged list, searched
                page.waitFor("document.querySelectorAll('#groupCandidate option').length === 1", STEP);
                page.click("#groupAdd");
                page.eval("{ const s = document.querySelector('#groupSearch'); s.value = ''; s.dispatchEvent(new Event('input')); }");
                page.waitFor("document.querySelectorAll('#groupCandidate option').length === 3", STEP); // Ash, Birch, Wren
                for (String avatar : List.of("Birch.png", "Ash.png")) { // each new member goes first, as in ST
                    page.select("#groupCandidate", avatar);
                    page.click("#groupAdd");
                }
                assertEquals("[\"Ash.png\",\"Birch.png\",\"Cedar.png\"]", page.eval("JSON.stringify([...document.querySelectorAll("
                        + "'#groupMembers li')].map((li) => li.dataset.avatar))").asText());
                // the keyboard moves Cedar up, and the focus stays on its button
                page.eval("document.querySelector('#groupMembers li[data-avatar=\"Cedar.png\"] [data-act=\"up\"]').focus()");
                page.press("Enter");
                assertEquals("Move Cedar up", page.eval("document.activeElement.getAttribute('aria-label')").asText());
                page.click("#groupMembers li[data-avatar='Birch.png'] [data-act='mute']");
                OwnUi.choose(page, "#groupStrategy", "1"); // list order
                assertEquals("[\"Ash.png\",\"Cedar.png\",\"Birch.png\"]", page.eval("JSON.stringify([...document.querySelectorAll("
                        + "'#groupMembers li')].map((li) => li.dataset.avatar))").asText());
            });
            StUi.withScreenshot(page, "tankard-group-2-fresh-chat", () -> {
                page.click("#groupCreate");
                page.waitFor("document.querySelector('#groupChatMembers') !== null", STEP);
                settled(page, 3); // each member's greeting, as ST's getGroupChat writes a fresh chat
            });
            JsonNode group = group(files);
            for (String key : List.of("id", "name", "members", "avatar_url", "allow_self_responses",
                    "activation_strategy", "generation_mode", "disabled_members", "fav", "chat_id", "chats", "auto_mode_delay")) {
                assertTrue(group.has(key), "ST's key " + key + " in " + group);
            }
            assertEquals("Hearth", group.path("name").asText());
            assertEquals("[\"Ash.png\",\"Cedar.png\",\"Birch.png\"]", group.path("members").toString());
            assertEquals("[\"Birch.png\"]", group.path("disabled_members").toString());
            assertEquals(1, group.path("activation_strategy").asInt());
            assertEquals(0, group.path("generation_mode").asInt());
            assertEquals(5, group.path("auto_mode_delay").asInt());
            String chatId = group.path("chat_id").asText();
            assertEquals("[\"" + chatId + "\"]", group.path("chats").toString());
            assertEquals(List.of("Ash", "Cedar", "Birch"), names(chat(files, chatId)));
            assertEquals("Ash.png", chat(files, chatId).get(0).path("original_avatar").asText());

            StUi.withScreenshot(page, "tankard-group-3-list-order", () -> {
                page.type("#input", "Hello, all of you.");
                page.click("#send");
                settled(page, 6);
            });
            assertEquals(List.of("Ash", "Cedar"), speakers(mock, 0), "list order, the muted member left out");
            List<JsonNode> messages = chat(files, chatId);
            assertEquals(List.of("Ash", "Cedar", "Birch", "User", "Ash", "Cedar"), names(messages));
            assertEquals("Hello, all of you.", messages.get(3).path("mes").asText());
            assertEquals(List.of("Mock reply 1.", "Mock reply 2."), List.of(messages.get(4).path("mes").asText(), messages.get(5).path("mes").asText()));
            assertEquals("Cedar.png", messages.get(5).path("original_avatar").asText());
            assertEquals(messages.get(4).path("extra").path("gen_id"), messages.get(5).path("extra").path("gen_id"),
                    "the round's replies share its id (ST's group_generation_id)");

            // regenerate: the whole round again, in place of the old one
            page.click("#regenerate");
            settled(page, 6);
            assertEquals(List.of("Ash", "Cedar"), speakers(mock, 2));
            messages = chat(files, chatId);
            assertEquals(List.of("Ash", "Cedar", "Birch", "User", "Ash", "Cedar"), names(messages));
            assertEquals("Mock reply 3.", messages.get(4).path("mes").asText());
            assertEquals("Mock reply 4.", messages.get(5).path("mes").asText());

            // swipe of the last reply: its member again
            page.click("#messages article:last-of-type [aria-label='Next swipe']");
            settled(page, 6);
            assertEquals(List.of("Cedar"), speakers(mock, 4));
            assertEquals(2, chat(files, chatId).get(5).path("swipes").size());

            // natural order: with talkativeness 0 only the member named replies
            openEditor(page);
            OwnUi.choose(page, "#groupStrategy", "0");
            page.waitFor("document.querySelector('#groupStatus').textContent === 'All changes saved'", STEP);
            backToChat(page, 6);
            page.type("#input", "Cedar, what news of the road?");
            page.click("#send");
            settled(page, 8);
            assertEquals(List.of("Cedar"), speakers(mock, 5), "the mention activates Cedar alone");

            // manual: the user's message alone, then a reply from the member picked
            openEditor(page);
            OwnUi.choose(page, "#groupStrategy", "2");
            page.waitFor("document.querySelector('#groupStatus').textContent === 'All changes saved'", STEP);
            backToChat(page, 8);
            StUi.withScreenshot(page, "tankard-group-4-manual-reply-as", () -> {
                page.type("#input", "Anyone awake?");
                page.click("#send");
                settled(page, 9);
                assertEquals(6, completions(mock), "manual mode: nobody answers by itself");
                assertEquals("User", names(chat(files, chatId)).get(8));
                page.click("#groupChatMembers li[data-avatar='Ash.png'] button");
                settled(page, 10);
            });
            assertEquals(List.of("Ash"), speakers(mock, 6));
            assertEquals("Ash", names(chat(files, chatId)).get(9));

            // auto mode: list order every second, replies without the user, until turned off; each save answered
            // late, so "All changes saved" is seen only if it waits for the second change's save too
            openEditor(page);
            OwnUi.sendLate(page, "/api/groups/edit", 300);
            OwnUi.choose(page, "#groupStrategy", "1");
            page.eval("{ const d = document.querySelector('#groupAutoDelay'); d.value = '1'; d.dispatchEvent(new Event('change')); }");
            page.waitFor("document.querySelector('#groupStatus').textContent === 'All changes saved'", STEP);
            assertEquals(1, group(files).path("auto_mode_delay").asInt());
            backToChat(page, 10);
            StUi.withScreenshot(page, "tankard-group-5-auto-mode", () -> {
                page.click("#groupAutoMode");
                page.waitFor(ARTICLES + " >= 12", STEP);
                page.click("#groupAutoMode");
                assertFalse(page.eval("document.querySelector('#groupAutoMode').checked").asBoolean());
                page.waitFor("document.querySelector('#stop').hidden", STEP);
                page.waitForNetworkIdle(Duration.ofMillis(500), STEP);
            });
            int after = completions(mock);
            assertTrue(speakers(mock, 7).size() >= 2, "auto mode asked replies with no input");
            assertEquals(List.of("Ash", "Cedar"), speakers(mock, 7).subList(0, 2));
            page.waitFor("new Promise((resolve) => setTimeout(() => resolve(true), 2500))", STEP);
            assertEquals(after, completions(mock), "off: no more replies");
            StUi.assertClean(page, "The page");
        }
    }

    @Test
    void aGroupsChatsAreMadeRenamedAndDeletedAndThePagesFitAPhone() throws IOException {
        try (OwnUi.Session session = OwnUi.Session.start("")) {
            TestServer server = session.server();
            UserFiles files = server.files();
            character(server, "Ash");
            character(server, "Birch");
            String id = JsJson.parse(server.client().post("/api/groups/create", "{\"name\":\"Hearth\",\"members\":"
                    + "[\"Ash.png\",\"Birch.png\"],\"disabled_members\":[],\"activation_strategy\":1,\"chat_id\":\"first\",\"chats\":[\"first\"]}")
                    .body().getBytes()).path("id").asText();
            Browser.Page page = OwnUi.connected(session);
            page.click("a[data-nav='groups']");
            page.waitFor("document.querySelector('#groupList a') !== null", STEP);
            page.click("#groupList a[data-group]");
            settled(page, 2);
            assertTrue(files.exists("group chats/first.jsonl"));

            // Stop ends the round: Ash's reply kept as far as it came, Birch not asked
            session.mock().onCompletion(request -> TankardUiChatOpsTest.slowReply(server, request));
            StUi.withScreenshot(page, "tankard-group-6-stopped", () -> {
                page.type("#input", "Tell us a long tale.");
                page.click("#send");
                page.waitFor("(document.querySelector('#messages article.streaming .text')?.textContent ?? '').includes('word2')", STEP);
                page.click("#stop");
                settled(page, 4);
            });
            page.waitFor("new Promise((resolve) => setTimeout(() => resolve(true), 1500))", STEP);
            assertEquals(1, completions(session.mock()), "the round ended at the stop");
            List<JsonNode> stopped = chat(files, "first");
            assertEquals(List.of("Ash", "Birch", "User", "Ash"), names(stopped));
            String kept = stopped.get(3).path("mes").asText();
            assertTrue(kept.startsWith("word0 word1 word2") && !kept.contains("word19"), "kept as far as it came: " + kept);

            page.click("#groupNewChat");
            settled(page, 2);
            JsonNode group = group(files);
            assertEquals(id, group.path("id").asText());
            assertEquals(2, group.path("chats").size());
            String second = group.path("chat_id").asText();
            assertFalse(second.equals("first"));
            assertTrue(files.exists("group chats/" + second + ".jsonl"));

            page.click("#groupChatList button[aria-label='Manage the chat first']");
            page.click("dialog button[value='rename']");
            page.waitFor("document.querySelector('#renameChat') !== null", STEP);
            page.eval("document.querySelector('#renameChat').value = 'By the fire'");
            page.click("dialog button[value='rename']");
            page.waitFor("document.querySelector('#groupChatList button[data-chat=\"By the fire\"]') !== null", STEP);
            assertTrue(files.exists("group chats/By the fire.jsonl"));
            assertFalse(files.exists("group chats/first.jsonl"));
            assertTrue(StreamSupport.stream(group(files).path("chats").spliterator(), false)
                    .anyMatch(c -> c.asText().equals("By the fire")));

            page.click("#groupChatList button[aria-label='Manage the chat " + second + "']");
            page.click("dialog button[value='delete']");
            page.waitFor("document.querySelector('dialog h2')?.textContent.startsWith('Delete ')", STEP);
            page.click("dialog button[value='delete']");
            page.waitFor("location.hash.includes('By%20the%20fire') || location.hash.includes('By+the+fire')", STEP);
            settled(page, 4);
            assertFalse(files.exists("group chats/" + second + ".jsonl"));
            assertEquals("[\"By the fire\"]", group(files).path("chats").toString());
            assertEquals("By the fire", group(files).path("chat_id").asText());

            page.setViewport(800, 700); // a tablet: the bar's links (Groups one more) wrap rather than overflow
            assertTrue(page.eval("document.documentElement.scrollWidth <= 800").asBoolean(), "nothing wider than 800 px");
            page.setViewport(390, 844);
            StUi.withScreenshot(page, "tankard-group-7-phone-chat", () -> {
                page.reload();
                OwnUi.boot(page);
                settled(page, 4);
                page.click("#asideToggle");
                assertNarrowAndLarge(page, ".chat aside button, .chat aside a, .composer button, #chatActions button");
            });
            StUi.withScreenshot(page, "tankard-group-8-phone-editor", () -> {
                page.click("#groupEdit");
                page.waitFor("document.querySelector('#groupStrategy') !== null", STEP);
                assertNarrowAndLarge(page, "#groupEditor button, #groupEditor select, #groupEditor input");
            });
            StUi.withScreenshot(page, "tankard-group-9-phone-deleted", () -> {
                page.click("#groupDelete");
                page.waitFor("document.querySelector('dialog h2')?.textContent === 'Delete Hearth?'", STEP);
                page.click("dialog button[value='delete']");
                page.waitFor("location.hash === '#/groups' && document.querySelector('#newGroup') !== null", STEP);
            });
            assertTrue(files.list("groups").isEmpty(), "the group is deleted");
            assertFalse(files.exists("group chats/By the fire.jsonl"), "with its chats");
            StUi.assertClean(page, "The page");
        }
    }

    /** Nothing wider than the phone, and each control at least 44 px high (checkboxes: their label). */
    private static void assertNarrowAndLarge(Browser.Page page, String controls) {
        assertTrue(page.eval("document.documentElement.scrollWidth <= 390").asBoolean(), "nothing wider than the phone");
        JsonNode small = page.eval("[...document.querySelectorAll(" + OwnUi.js(controls) + ")].filter((e) => e.offsetParent !== null)"
                + ".map((e) => e.type === 'checkbox' ? e.closest('label') : e).filter((e) => e.getBoundingClientRect().height < 44)"
                + ".map((e) => e.outerHTML.slice(0, 80))");
        assertEquals(0, small.size(), "smaller than 44 px: " + small);
    }
}
