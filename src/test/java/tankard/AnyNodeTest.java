package tankard;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.store.DocumentStore.Folder;
import tankard.testing.PgScratch;
import tankard.testing.TestServer;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two Tankard nodes on one database, as behind a proxy (docs/operations.md): a request may go to either, and
 * whatever one node did, the other serves at once.
 */
class AnyNodeTest {
    private final PgScratch database = PgScratch.create();
    /** Chat backups throttled to one per ten minutes: the first save's backup opens the user's window. */
    private final TestServer a = TestServer.start("enableUserAccounts: true\n"
            + "backups:\n  chat:\n    throttleInterval: 600000\n", database.environment());
    private final TestServer b = a.secondNode();
    private final ExecutorService both = Executors.newFixedThreadPool(16);

    @AfterEach
    void stop() {
        both.shutdownNow();
        b.close();
        a.close();
        database.close();
    }

    private static String json(Object... pairs) {
        JsonObject o = new JsonObject();
        for (int i = 0; i < pairs.length; i += 2) {
            o.put((String) pairs[i], pairs[i + 1]);
        }
        return o.encode();
    }

    private static TestServer.Client loggedIn(TestServer node, String handle, String password) {
        TestServer.Client client = node.client();
        HttpResponse<Buffer> r = client.post("/api/users/login", json("handle", handle, "password", password));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return client;
    }

    /** The admin (the default user, no password) signed in on A, with alice created by it. */
    private TestServer.Client adminWithAlice() {
        TestServer.Client admin = loggedIn(a, "default-user", "");
        assertEquals(200, admin.post("/api/users/create", json("handle", "alice", "name", "Alice", "password", "old"))
                .statusCode());
        return admin;
    }

    private static int me(TestServer.Client client) {
        return client.get("/api/users/me").statusCode();
    }

    @Test
    void aSessionMadeOnAIsValidOnB() {
        TestServer.Client onA = loggedIn(a, "default-user", "");
        TestServer.Client onB = b.sameBrowser(onA);
        HttpResponse<Buffer> meOnB = onB.get("/api/users/me");
        assertEquals(200, meOnB.statusCode(), meOnB.bodyAsString());
        assertEquals("default-user", meOnB.bodyAsJsonObject().getString("handle"));
        assertEquals(204, onB.post("/api/ping", null).statusCode(), "B accepts the CSRF token A gave");
        assertFalse(Files.exists(b.dataRoot.resolve("cookie-secret.txt")), "the secret is the database's");
    }

    @Test
    void aNodeNamesItsSessionCookieAsTheDatabaseSaysNotAfterItsHost() {
        database.execute("UPDATE server_values SET value = 'session-0e1sewhe' WHERE name = 'cookie-name'");
        try (TestServer elsewhere = a.secondNode()) {
            HttpResponse<Buffer> login = elsewhere.client().post("/api/users/login",
                    json("handle", "default-user", "password", ""));
            assertEquals(200, login.statusCode());
            assertTrue(login.cookies().stream().anyMatch(cookie -> cookie.startsWith("session-0e1sewhe=")),
                    login.cookies().toString());
        }
    }

    @Test
    void aUserDisabledOnACannotUseBFromTheNextRequest() {
        TestServer.Client admin = adminWithAlice();
        TestServer.Client aliceOnB = loggedIn(b, "alice", "old");
        assertEquals(200, me(aliceOnB));
        assertEquals(204, admin.post("/api/users/disable", json("handle", "alice")).statusCode());
        assertEquals(403, me(aliceOnB));
        assertEquals(403, b.client().post("/api/users/login", json("handle", "alice", "password", "old")).statusCode());
        assertEquals(204, admin.post("/api/users/enable", json("handle", "alice")).statusCode());
        assertEquals(200, me(loggedIn(b, "alice", "old")));
    }

    @Test
    void aPasswordChangedOnAEndsBsSessionsAndItsOldLogin() {
        TestServer.Client admin = adminWithAlice();
        TestServer.Client aliceOnB = loggedIn(b, "alice", "old");
        assertEquals(204, admin.post("/api/users/change-password", json("handle", "alice", "newPassword", "new"))
                .statusCode());
        assertEquals(403, me(aliceOnB));
        assertEquals(403, b.client().post("/api/users/login", json("handle", "alice", "password", "old")).statusCode());
        assertEquals(200, me(loggedIn(b, "alice", "new")));
    }

    @Test
    void aRecoveryCodeMadeOnAIsAcceptedOnBOnce() throws Exception {
        adminWithAlice();
        String printed = console(() -> a.client().post("/api/users/recover-step1", json("handle", "alice")));
        Matcher code = Pattern.compile("password recovery code is: (\\d+)").matcher(printed);
        assertTrue(code.find(), printed);
        assertEquals(204, b.client().post("/api/users/recover-step2",
                json("handle", "alice", "code", code.group(1), "newPassword", "remembered")).statusCode());
        assertEquals(403, a.client().post("/api/users/recover-step2",
                json("handle", "alice", "code", code.group(1), "newPassword", "again")).statusCode(), "used up");
        assertEquals(200, me(loggedIn(a, "alice", "remembered")));
    }

    @Test
    void aDataMaidReportMadeOnAIsServedAndFinalizedOnB() {
        TestServer.Client onA = loggedIn(a, "default-user", "");
        TestServer.Client onB = b.sameBrowser(onA);
        String snapshot = "settings_default-user_20240101-000000.json";
        a.documents().write("default-user", Folder.BACKUPS, snapshot, "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        JsonObject report = onA.post("/api/data-maid/report", "{}").bodyAsJsonObject();
        String token = report.getString("token");
        String hash = report.getJsonObject("report").getJsonArray("settingsBackups").getJsonObject(0).getString("hash");

        assertEquals("{\"a\":1}", onB.get("/api/data-maid/view?token=" + token + "&hash=" + hash).bodyAsString());
        assertEquals(204, onB.post("/api/data-maid/delete",
                new JsonObject().put("token", token).put("hashes", new JsonArray().add(hash)).encode()).statusCode());
        assertFalse(a.hasDocument(Folder.BACKUPS, snapshot));
        assertEquals(204, onB.post("/api/data-maid/finalize", json("token", token)).statusCode());
        assertEquals(403, onA.get("/api/data-maid/view?token=" + token + "&hash=" + hash).statusCode(), "finalized");
    }

    @Test
    void cardsOfOneNameCreatedOnBothNodesAtOnceGetNamesOfTheirOwn() throws Exception {
        TestServer.Client onA = loggedIn(a, "default-user", "");
        TestServer.Client onB = b.sameBrowser(onA);
        List<Future<HttpResponse<Buffer>>> creates = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            for (TestServer.Client client : List.of(onA, onB)) {
                creates.add(both.submit(() -> client.post("/api/characters/create", json("ch_name", "Ann"))));
            }
        }
        Set<String> names = new HashSet<>();
        for (Future<HttpResponse<Buffer>> create : creates) {
            HttpResponse<Buffer> created = create.get(60, TimeUnit.SECONDS);
            assertEquals(200, created.statusCode(), created.bodyAsString());
            names.add(created.bodyAsString());
        }
        assertEquals(16, names.size(), names.toString());
        assertEquals(16, a.tankard.cards().list("default-user").size());
    }

    @Test
    void savesOfOneChatFromBothNodesAtOnceLeaveOneOfThemWhole() throws Exception {
        TestServer.Client onA = loggedIn(a, "default-user", "");
        TestServer.Client onB = b.sameBrowser(onA);
        assertEquals(200, onA.post("/api/characters/create", json("ch_name", "Ren")).statusCode());
        String get = json("ch_name", "Ren", "file_name", "talk", "avatar_url", "Ren.png");
        for (int round = 0; round < 12; round++) {
            JsonArray fromA = chat("A" + round, 40 + round);
            JsonArray fromB = chat("B" + round, 25);
            Future<HttpResponse<Buffer>> savedOnA = both.submit(() -> onA.post("/api/chats/save", save(fromA)));
            Future<HttpResponse<Buffer>> savedOnB = both.submit(() -> onB.post("/api/chats/save", save(fromB)));
            List<JsonNode> acknowledged = new ArrayList<>();
            for (var saved : List.of(savedOnA, savedOnB)) {
                HttpResponse<Buffer> answer = saved.get(60, TimeUnit.SECONDS);
                if (answer.statusCode() == 200) {
                    acknowledged.add(JsJson.parse((saved == savedOnA ? fromA : fromB).encode()));
                } else { // a save refused as stale (issue 29, ST's integrity error) is not acknowledged
                    assertEquals(400, answer.statusCode(), answer.bodyAsString());
                }
            }
            assertFalse(acknowledged.isEmpty(), "of two saves at once, one at least is acknowledged");
            for (TestServer.Client reader : List.of(onA, onB)) {
                JsonNode stored = JsJson.parse(reader.post("/api/chats/get", get).body().getBytes());
                assertTrue(acknowledged.contains(stored), "round " + round + ": " + stored.size() + " lines stored");
            }
        }
    }

    @Test
    void theNodesShareAUsersChatBackupWindow() throws Exception {
        TestServer.Client onA = loggedIn(a, "default-user", "");
        TestServer.Client onB = b.sameBrowser(onA);
        assertEquals(200, onA.post("/api/characters/create", json("ch_name", "Ren")).statusCode());
        assertEquals(200, onA.post("/api/chats/save", save(chat("A", 3))).statusCode());
        assertEquals(200, onB.post("/api/chats/save", save(chat("B", 4))).statusCode());
        assertEquals(1, a.tankard.chats().backups("default-user", "chat_").size(),
                "B's save waits for the end of the window A's backup opened");
    }

    /** A chat of that many messages, each naming its writer. */
    private static JsonArray chat(String writer, int messages) {
        JsonArray chat = new JsonArray().add(new JsonObject().put("user_name", "You").put("character_name", "Ren")
                .put("chat_metadata", new JsonObject()));
        for (int i = 0; i < messages; i++) {
            chat.add(new JsonObject().put("name", "You").put("is_user", i % 2 == 0).put("mes", writer + " says " + i));
        }
        return chat;
    }

    private static String save(JsonArray chat) {
        return new JsonObject().put("ch_name", "Ren").put("file_name", "talk").put("avatar_url", "Ren.png")
                .put("chat", chat).encode();
    }

    /** What the call printed to the server console (where one-time codes go, as in ST). */
    private static String console(Callable<HttpResponse<Buffer>> call) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertEquals(204, call.call().statusCode());
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
