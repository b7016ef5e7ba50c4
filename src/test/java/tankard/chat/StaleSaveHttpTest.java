package tankard.chat;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.ServerTest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A whole save from a stale view (another tab saved since) is refused with ST's integrity error, and every flow of
 * one tab, as the saves ST's frontend makes for it (public/script.js), is not (docs/compatibility.md, "A save from a
 * stale view").
 */
class StaleSaveHttpTest extends ServerTest {
    private static final String HEADER = "{\"chat_metadata\":{\"integrity\":\"5a1e\"},\"user_name\":\"unused\",\"character_name\":\"unused\"}";
    private static final String CHAT = "chats/Bramble/c.jsonl";
    private static final String GROUP_CHAT = "group chats/g.jsonl";
    private static int clock;

    @Override
    protected tankard.testing.TestServer.Client start(String configYaml) {
        return super.start(configYaml == null ? "backups:\n  chat:\n    enabled: false\n" : configYaml);
    }

    // ---- messages as ST's frontend makes them (sendMessageAsUser, saveReply)

    private static String date() {
        clock++;
        return String.format("2026-12-05T22:%02d:%02d.000Z", clock / 60 % 60, clock % 60);
    }

    private static String sent(String text) {
        return "{\"name\":\"You\",\"is_user\":true,\"is_system\":false,\"send_date\":\"" + date() + "\",\"mes\":"
                + quoted(text) + ",\"extra\":{\"isSmallSys\":false}}";
    }

    private static String reply(String name, String text) {
        String date = date();
        return "{\"extra\":{\"api\":\"openai\",\"model\":\"m\"},\"name\":\"" + name + "\",\"is_user\":false,\"send_date\":\""
                + date + "\",\"mes\":" + quoted(text) + ",\"is_system\":false,\"swipe_id\":0,\"swipes\":[" + quoted(text)
                + "],\"swipe_info\":[{\"send_date\":\"" + date + "\",\"extra\":{}}]}";
    }

    private static String reply(String text) {
        return reply("Bramble", text);
    }

    private static String quoted(String text) {
        return JsJson.compact(JsJson.tree(text));
    }

    /** The message with a field set as the frontend sets it (JSON.stringify keeps a key's place). */
    private static String with(String message, String field, Object value) {
        com.fasterxml.jackson.databind.node.ObjectNode node = (com.fasterxml.jackson.databind.node.ObjectNode) JsJson.parse(message);
        node.set(field, JsJson.tree(value));
        return JsJson.compact(node);
    }

    /** A swipe to a new answer: mes and send_date change, the swipe is added (syncSwipeToMes). */
    private static String swiped(String message, String text) {
        com.fasterxml.jackson.databind.node.ObjectNode node = (com.fasterxml.jackson.databind.node.ObjectNode) JsJson.parse(message);
        String date = date();
        node.put("mes", text).put("send_date", date).put("swipe_id", node.get("swipes").size());
        node.withArray("swipes").add(text);
        node.withArray("swipe_info").addObject().put("send_date", date).putObject("extra");
        return JsJson.compact(node);
    }

    // ---- saves

    private HttpResponse<Buffer> save(List<String> messages, boolean force) {
        String body = "{\"ch_name\":\"Bramble\",\"file_name\":\"c\",\"chat\":[" + String.join(",", chat(messages))
                + "],\"avatar_url\":\"Bramble.png\",\"force\":" + force + "}";
        return client.post("/api/chats/save", body);
    }

    private HttpResponse<Buffer> saveGroup(List<String> messages) {
        return client.post("/api/chats/group/save", "{\"id\":\"g\",\"chat\":[" + String.join(",", chat(messages))
                + "],\"force\":false}");
    }

    private static List<String> chat(List<String> messages) {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        lines.addAll(messages);
        return lines;
    }

    private static String file(List<String> messages) {
        return String.join("\n", chat(messages));
    }

    private void accepted(List<String> messages, String flow) {
        HttpResponse<Buffer> answer = save(messages, false);
        assertEquals(200, answer.statusCode(), flow + ": " + answer.bodyAsString());
        assertEquals(file(messages), document(CHAT), flow);
    }

    private void refused(List<String> messages, List<String> stored, String flow) {
        HttpResponse<Buffer> answer = save(messages, false);
        assertEquals(400, answer.statusCode(), flow);
        assertEquals("{\"error\":\"integrity\"}", answer.bodyAsString(), flow);
        assertEquals(file(stored), document(CHAT), flow + ": the stored chat is left as it was");
    }

    private static List<String> plus(List<String> messages, String... more) {
        return Stream.concat(messages.stream(), Stream.of(more)).toList();
    }

    private static List<String> changed(List<String> messages, int index, UnaryOperator<String> change) {
        List<String> copy = new ArrayList<>(messages);
        copy.set(index, change.apply(copy.get(index)));
        return copy;
    }

    private static List<String> without(List<String> messages, int... indexes) {
        List<String> copy = new ArrayList<>(messages);
        for (int i = indexes.length - 1; i >= 0; i--) {
            copy.remove(indexes[i]);
        }
        return copy;
    }

    /** A chat of a greeting and some turns, saved. */
    private List<String> started() {
        List<String> chat = List.of(reply("Well met."), sent("Hello."), reply("Hi there."), sent("How are you?"),
                reply("Fine."));
        accepted(chat, "a new chat");
        return chat;
    }

    // ---- two tabs

    @Test
    void aSaveFromATabThatMissedAnotherTabsMessageIsRefusedAndForceOverwritesKeepingABackup() {
        start(null);
        List<String> seen = started();
        List<String> tab1 = plus(seen, sent("From tab one."));
        accepted(tab1, "tab one sends");
        List<String> tab2 = plus(seen, sent("From tab two."));
        refused(tab2, tab1, "tab two sends from its stale view");

        HttpResponse<Buffer> forced = save(tab2, true);
        assertEquals(200, forced.statusCode(), "the user chose to overwrite");
        assertEquals(file(tab2), document(CHAT));
        List<String> backups = server.files().backupNames("").stream().filter(n -> n.endsWith("_replaced.jsonl")).toList();
        assertEquals(1, backups.size(), "the replaced chat is kept although backups are off: " + backups);
        assertEquals(file(tab1), document("backups/" + backups.get(0)));
    }

    @Test
    void everyStaleViewThatWouldLoseAMessageIsRefused() {
        start(null);
        List<String> seen = started();
        List<String> stored = plus(seen, sent("Tab one asks."), reply("Tab one's answer."));
        accepted(stored, "tab one sends and gets its answer");

        refused(plus(seen, sent("Tab two asks.")), stored, "tab two sends");
        refused(changed(seen, seen.size() - 1, m -> swiped(m, "Another answer.")), stored, "tab two swipes its last answer");
        refused(changed(seen, seen.size() - 1, m -> with(m, "mes", "Fine, edited.")), stored, "tab two edits its last answer");
        refused(plus(without(seen, seen.size() - 1), reply("Regenerated.")), stored, "tab two regenerates");

        List<String> answered = plus(stored, sent("Tab one asks again."));
        accepted(answered, "tab one sends again");
        List<String> replied = plus(answered, reply("Tab one's second answer."));
        accepted(replied, "tab one gets its answer");
        refused(plus(answered, sent("Tab two, never seeing the answer, asks.")), replied, "a user's message for an answer");
        refused(plus(changed(answered, answered.size() - 1, m -> with(m, "mes", "Asks, edited.")), sent("And more.")),
                replied, "an edit and a message");
    }

    @Test
    void aGroupChatSavedFromAStaleViewIsRefused() {
        start(null);
        List<String> seen = List.of(reply("Ash", "Hello."), sent("Hi all."), reply("Birch", "Hi."));
        assertEquals(200, saveGroup(seen).statusCode());
        List<String> stored = plus(seen, sent("Tab one."), reply("Ash", "Answer."));
        assertEquals(200, saveGroup(stored).statusCode());
        HttpResponse<Buffer> stale = saveGroup(plus(seen, sent("Tab two.")));
        assertEquals(400, stale.statusCode());
        assertEquals("{\"error\":\"integrity\"}", stale.bodyAsString());
        assertEquals(file(stored), document(GROUP_CHAT));
    }

    @Test
    void theCheckIsOffWithStsOwn() {
        start("backups:\n  chat:\n    enabled: false\n    checkIntegrity: false\n");
        List<String> seen = started();
        accepted(plus(seen, sent("From tab one.")), "tab one sends");
        accepted(plus(seen, sent("From tab two.")), "the last save wins, as in ST with the check off");
    }

    // ---- one tab: each flow as the saves ST's frontend makes

    @Test
    void sendingGeneratingSwipingAndRegeneratingAreAccepted() {
        start(null);
        List<String> chat = started();
        chat = plus(chat, sent("Tell me more."));
        accepted(chat, "send: the user's message is saved first (sendMessageAsUser)");
        chat = plus(chat, reply("More."));
        accepted(chat, "the answer");
        int last = chat.size() - 1;
        String first = chat.get(last);
        chat = changed(chat, last, m -> swiped(m, "Something else."));
        accepted(chat, "swipe right to a new answer");
        chat = changed(chat, last, m -> first);
        accepted(chat, "swipe left back (send_date back to the first swipe's)");
        chat = changed(chat, last, m -> with(m, "mes", "More. And more."));
        accepted(chat, "continue");
        chat = plus(without(chat, last), reply("Regenerated."));
        accepted(chat, "regenerate: the last answer deleted unsaved and a new one saved (Generate)");
        chat = plus(changed(chat, last, m -> swiped(m, "Swiped.")), sent("Sent within a second of the swipe."));
        accepted(chat, "a swipe's debounced save taken along by a send");
        chat = plus(chat, reply("Impersonated text is only put in the input; this is the answer."));
        accepted(chat, "impersonate, then send");
    }

    @Test
    void editingHidingAndExtensionsChangingManyMessagesAreAccepted() {
        start(null);
        List<String> chat = plus(started(), sent("Last words."));
        accepted(chat, "send");
        chat = changed(chat, 1, m -> with(m, "mes", "Hello, edited."));
        accepted(chat, "edit an old user message (send_date kept)");
        chat = changed(chat, 0, m -> with(m, "mes", "Well met, edited."));
        accepted(chat, "edit the greeting");
        chat = changed(chat, chat.size() - 1, m -> with(m, "mes", "Last words, edited."));
        accepted(chat, "edit the last message");
        for (int i : new int[]{1, 2, 3}) {
            chat = changed(chat, i, m -> with(m, "is_system", true));
        }
        accepted(chat, "/hide 1-3");
        for (int i : new int[]{1, 2, 3}) {
            chat = changed(chat, i, m -> with(m, "is_system", false));
        }
        accepted(chat, "/unhide 1-3");
        List<String> translated = new ArrayList<>();
        for (String message : chat) {
            translated.add(with(message, "extra", JsJson.object().put("display_text", "traduit")));
        }
        accepted(translated, "translate every message (extra of each)");
        chat = changed(translated, 2, m -> with(m, "extra", JsJson.object().put("bookmark_link", "Checkpoint #1")));
        accepted(chat, "a checkpoint marks its message");
        List<String> moved = new ArrayList<>(chat);
        moved.set(2, chat.get(3));
        moved.set(3, chat.get(2));
        accepted(moved, "move a message down");
        moved.add(2, sent("Inserted with /send at=2."));
        accepted(moved, "a message inserted mid-chat");
    }

    @Test
    void deletingAndResendingAreAccepted() {
        start(null);
        List<String> chat = plus(started(), sent("One more."), reply("Sure."), sent("And another."), reply("Fine."));
        accepted(chat, "a longer chat");
        chat = without(chat, 2);
        accepted(chat, "delete one message mid-chat");
        chat = without(chat, 1, 4);
        accepted(chat, "delete several messages (their debounced save)");
        chat = chat.subList(0, chat.size() - 2);
        accepted(chat, "delete mode or /cut: the last messages");
        chat = without(chat, chat.size() - 1);
        accepted(chat, "delete the last message");
        chat = plus(chat, sent("Resent."));
        accepted(chat, "and send again");
        chat = changed(chat, chat.size() - 1, m -> with(m, "mes", "Resent, corrected."));
        accepted(chat, "edit it");
        accepted(chat.subList(0, 1), "delete all but the greeting");
    }

    @Test
    void headerChangesBranchesAndGroupRegeneratesAreAccepted() {
        start(null);
        List<String> chat = started();
        String body = "{\"ch_name\":\"Bramble\",\"file_name\":\"c\",\"chat\":[" + HEADER.replace("\"5a1e\"", "\"5a1e\",\"note_prompt\":\"x\"")
                + "," + String.join(",", chat) + "],\"avatar_url\":\"Bramble.png\"}";
        assertEquals(200, client.post("/api/chats/save", body).statusCode(), "chat_metadata changed");
        String branch = "{\"ch_name\":\"Bramble\",\"file_name\":\"Branch #1\",\"chat\":[" + HEADER + ","
                + String.join(",", chat.subList(0, 2)) + "],\"avatar_url\":\"Bramble.png\"}";
        assertEquals(200, client.post("/api/chats/save", branch).statusCode(), "a branch is a new chat");

        List<String> group = List.of(reply("Ash", "Hello."), sent("Hi all."), reply("Ash", "Hi."), reply("Birch", "Hey."),
                reply("Cedar", "Yo."));
        assertEquals(200, saveGroup(group).statusCode());
        List<String> regenerated = plus(group.subList(0, 2), reply("Birch", "Hey, again."));
        assertEquals(200, saveGroup(regenerated).statusCode(),
                "a group's regenerate deletes the last turn unsaved and saves its first new reply (regenerateGroup)");
        assertEquals(file(regenerated), document(GROUP_CHAT));
    }

    @Test
    void aMessageLongerThanTheStoredLinesReadBufferIsComparedWhole() {
        start(null);
        String long1 = reply("long ".repeat(60_000)); // 300 KB: passed over where the stored chat is read beside the save
        List<String> chat = plus(started(), sent("Tell me everything."), long1, sent("Thanks."));
        accepted(chat, "a long answer");
        List<String> moved = new ArrayList<>(chat);
        moved.set(moved.size() - 2, chat.get(chat.size() - 1));
        moved.set(moved.size() - 1, long1);
        accepted(moved, "moved: kept, as the same message");
        List<String> tab1 = plus(moved, sent("From tab one."));
        accepted(tab1, "tab one sends");
        refused(plus(moved, sent("From tab two.")), tab1, "tab two sends");
        refused(plus(changed(moved, moved.size() - 1, m -> swiped(m, "Short now.")), sent("From tab two.")), tab1,
                "tab two swipes the long answer and sends");
    }

    /** On PostgreSQL this node's copy of the chat is then of the version before: the stored chat is read again. */
    @Test
    void aChatWrittenOtherwiseThanByASaveIsComparedAsStored() {
        start(null);
        List<String> seen = started();
        List<String> tab1 = plus(seen, sent("Written behind the server's back."));
        server.files().write(CHAT, file(tab1));
        refused(plus(seen, sent("From tab two.")), tab1, "compared with the chat as stored");
        assertTrue(server.files().backupNames("").isEmpty());
    }
}
