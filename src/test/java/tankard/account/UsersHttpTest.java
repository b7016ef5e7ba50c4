package tankard.account;

import tankard.user.User;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.store.DocumentStore.Folder;
import tankard.testing.FileLayout;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The users API and login flow with accounts enabled, over real HTTP. */
class UsersHttpTest extends ServerTest {
    private static Path workDir(String yaml) throws IOException {
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), "enableUserAccounts: true\n" + yaml);
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title>");
        Files.writeString(work.resolve("public/login.html"), "<!doctype html><title>Login test</title>");
        return work;
    }

    private void startWithAccounts(String yaml) throws IOException {
        server = TestServer.startIn(workDir(yaml));
    }

    private static String json(Object... pairs) {
        JsonObject o = new JsonObject();
        for (int i = 0; i < pairs.length; i += 2) {
            o.put((String) pairs[i], pairs[i + 1]);
        }
        return o.encode();
    }

    private TestServer.Client loggedIn(String handle, String password) {
        TestServer.Client client = server.client();
        HttpResponse<Buffer> r = client.post("/api/users/login", json("handle", handle, "password", password));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        return client;
    }

    private TestServer.Client admin() {
        return loggedIn("default-user", "");
    }

    private static void create(TestServer.Client admin, String handle, String password, boolean isAdmin) {
        HttpResponse<Buffer> r = admin.post("/api/users/create", json("handle", handle, "name", handle.toUpperCase(),
                "password", password, "admin", isAdmin));
        assertEquals(200, r.statusCode(), r.bodyAsString());
    }

    private static void assertError(HttpResponse<Buffer> r, int status, String error) {
        assertEquals(status, r.statusCode(), r.bodyAsString());
        assertEquals(error, r.bodyAsJsonObject().getString("error"));
    }

    private static String me(TestServer.Client client) {
        HttpResponse<Buffer> r = client.get("/api/users/me");
        return r.statusCode() == 200 ? r.bodyAsJsonObject().getString("handle") : "status " + r.statusCode();
    }

    /** Runs the call and returns what it printed to the server console. */
    private static String console(Callable<HttpResponse<Buffer>> call, int expectedStatus) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertEquals(expectedStatus, call.call().statusCode());
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static String code(String console, String label) {
        Matcher m = Pattern.compile(label + " code is: (\\d+)").matcher(console);
        assertTrue(m.find(), console);
        return m.group(1);
    }

    // ---- login

    @Test
    void loginErrorsAreStsTexts() throws IOException {
        startWithAccounts("");
        TestServer.Client admin = admin();
        create(admin, "alice", "secret", false);
        create(admin, "bob", "", false);
        assertEquals(204, admin.post("/api/users/disable", json("handle", "bob")).statusCode());

        TestServer.Client stranger = server.client();
        assertError(stranger.post("/api/users/login", json("handle", "alice", "password", "wrong")), 403, "Incorrect credentials");
        assertError(stranger.post("/api/users/login", json("handle", "alice")), 403, "Incorrect credentials");
        assertError(stranger.post("/api/users/login", json("handle", "nobody", "password", "x")), 403, "Incorrect credentials");
        assertError(stranger.post("/api/users/login", json("handle", "bob")), 403, "User is disabled");
        assertError(stranger.post("/api/users/login", json("password", "x")), 400, "Missing required fields");
        assertEquals("status 403", me(stranger));

        HttpResponse<Buffer> ok = stranger.post("/api/users/login", json("handle", "alice", "password", "secret"));
        assertEquals(new JsonObject().put("handle", "alice"), ok.bodyAsJsonObject());
        assertEquals("alice", me(stranger));
    }

    @Test
    void sixthLoginAttemptWithinAMinuteIsRefused() throws IOException {
        startWithAccounts("");
        create(admin(), "alice", "secret", false);
        TestServer.Client client = server.client();
        for (int i = 1; i <= 5; i++) {
            assertEquals(403, client.post("/api/users/login", json("handle", "alice", "password", "no" + i)).statusCode());
        }
        HttpResponse<Buffer> sixth = client.post("/api/users/login", json("handle", "alice", "password", "secret"));
        assertError(sixth, 429, "Too many attempts. Try again later or recover your password.");
        assertNotNull(sixth.getHeader("Retry-After"));
    }

    @Test
    void successfulLoginResetsTheAttemptCount() throws IOException {
        startWithAccounts("rateLimiting:\n  accountsLoginMaxAttempts: 2\n");
        create(admin(), "alice", "secret", false);
        TestServer.Client client = server.client();
        assertEquals(403, client.post("/api/users/login", json("handle", "alice", "password", "no")).statusCode());
        assertEquals(200, client.post("/api/users/login", json("handle", "alice", "password", "secret")).statusCode());
        assertEquals(403, client.post("/api/users/login", json("handle", "alice", "password", "no")).statusCode());
        assertEquals(403, client.post("/api/users/login", json("handle", "alice", "password", "no")).statusCode());
        assertEquals(429, client.post("/api/users/login", json("handle", "alice", "password", "no")).statusCode());
    }

    @Test
    @FileLayout
    void existingStAccountLogsIn() throws IOException {
        Path work = workDir("");
        // An account record exactly as ST stores it; hash computed with Node's crypto.scryptSync.
        String record = "{\"key\":\"user:carol\",\"value\":{\"handle\":\"carol\",\"name\":\"Carol\",\"created\":1700000000000,"
                + "\"password\":\"/8LIEqKTK30SQFBvX7E+UirN8KNb/bbWeqAog6R8CdlEtkTNVF2nyxVOKRinQUQKa1hCgpS3+Yn/wtkGGgH4Sg==\","
                + "\"salt\":\"c2FsdA==\",\"admin\":false,\"enabled\":true}}";
        Path storage = work.resolve("data/_storage");
        Files.createDirectories(storage);
        Files.writeString(storage.resolve(sha256("user:carol")), record);
        server = TestServer.startIn(work);

        assertEquals(403, server.client().post("/api/users/login", json("handle", "carol", "password", "password")).statusCode());
        TestServer.Client carol = loggedIn("carol", "pässword");
        assertEquals("carol", me(carol));
        assertTrue(Files.isDirectory(server.dataRoot.resolve("carol/characters")), "folders made at start-up");
        assertEquals(record, Files.readString(storage.resolve(sha256("user:carol"))), "ST's record, untouched");
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void eachUserSeesOnlyTheirOwnAccount() throws IOException {
        startWithAccounts("");
        TestServer.Client admin = admin();
        create(admin, "alice", "a-pass", false);
        create(admin, "bob", "b-pass", false);
        TestServer.Client alice = loggedIn("alice", "a-pass");
        TestServer.Client bob = loggedIn("bob", "b-pass");
        assertEquals("alice", me(alice));
        assertEquals("bob", me(bob));
        assertEquals("default-user", me(admin));
        JsonObject view = alice.get("/api/users/me").bodyAsJsonObject();
        assertEquals(List.of("handle", "name", "avatar", "admin", "password", "created"), new ArrayList<>(view.fieldNames()));
        assertTrue(view.getString("avatar").startsWith("data:image/png;base64,"), "the seeded default persona");
        assertEquals(false, view.getBoolean("admin"));
        assertEquals(true, view.getBoolean("password"));

        // Someone else's account cannot be touched by a non-admin.
        assertError(alice.post("/api/users/change-name", json("handle", "bob", "name", "Mallory")), 403, "Unauthorized");
        assertError(alice.post("/api/users/backup", json("handle", "bob")), 403, "Unauthorized");
        assertError(alice.post("/api/users/change-password", json("handle", "bob", "newPassword", "x")), 403, "Unauthorized");
        assertEquals(204, alice.post("/api/users/change-name", json("handle", "alice", "name", "Alice A.")).statusCode());
        assertEquals("Alice A.", alice.get("/api/users/me").bodyAsJsonObject().getString("name"));
    }

    @Test
    void adminRoutesAreForbiddenToOthers() throws IOException {
        startWithAccounts("");
        create(admin(), "alice", "a-pass", false);
        TestServer.Client alice = loggedIn("alice", "a-pass");
        for (String route : new String[]{"get", "disable", "enable", "promote", "demote", "create", "delete", "slugify"}) {
            HttpResponse<Buffer> r = alice.post("/api/users/" + route, json("handle", "default-user", "name", "x", "text", "x"));
            assertEquals(403, r.statusCode(), route);
            assertEquals("Forbidden", r.bodyAsString(), route);
        }
    }

    @Test
    void adminManagesUsers() throws IOException {
        startWithAccounts("");
        TestServer.Client admin = admin();
        HttpResponse<Buffer> created = admin.post("/api/users/create", json("handle", "Bob Smith!", "name", "Bob"));
        assertEquals("bob-smith", created.bodyAsJsonObject().getString("handle"));
        Path bob = server.dataRoot.resolve("bob-smith");
        assertTrue(Files.isDirectory(bob.resolve("characters")));
        assertTrue(Files.isDirectory(bob.resolve("User Avatars")));
        assertTrue(server.files("bob-smith").exists("backgrounds/tankard-dusk-road.png"), "default content");
        assertTrue(server.files("bob-smith").exists("User Avatars/user-default.png"), "default content");
        assertTrue(server.files("bob-smith").read("content.log").contains("\nbackgrounds/tankard-dusk-road.png\n"));
        assertEquals(0, server.documents().read("bob-smith", Folder.SYSPROMPT, ".migrated").orElseThrow().length);

        assertError(admin.post("/api/users/create", json("handle", "bob smith", "name", "Again")), 409, "User already exists");
        assertError(admin.post("/api/users/create", json("handle", "!!!", "name", "X")), 400, "Invalid handle");
        assertError(admin.post("/api/users/create", json("handle", "x")), 400, "Missing required fields");
        HttpResponse<Buffer> slug = admin.post("/api/users/slugify", json("text", "Zoë Saldaña"));
        assertEquals("zoe-saldana", slug.bodyAsString());
        assertTrue(slug.getHeader("Content-Type").startsWith("text/html"));

        JsonArray all = admin.post("/api/users/get", null).bodyAsJsonArray();
        assertEquals(2, all.size());
        assertEquals("default-user", all.getJsonObject(0).getString("handle"), "oldest first");
        assertEquals(List.of("handle", "name", "avatar", "admin", "enabled", "created", "password"),
                new ArrayList<>(all.getJsonObject(1).fieldNames()));

        assertEquals(204, admin.post("/api/users/promote", json("handle", "bob-smith")).statusCode());
        assertTrue(admin.post("/api/users/get", null).bodyAsJsonArray().getJsonObject(1).getBoolean("admin"));
        assertError(admin.post("/api/users/demote", json("handle", "default-user")), 400, "Cannot demote yourself");
        assertError(admin.post("/api/users/disable", json("handle", "default-user")), 400, "Cannot disable yourself");
        assertError(admin.post("/api/users/enable", json("handle", "ghost")), 404, "User not found");

        // A disabled user's session no longer resolves.
        TestServer.Client bobClient = loggedIn("bob-smith", "");
        assertEquals(204, admin.post("/api/users/disable", json("handle", "bob-smith")).statusCode());
        assertEquals("status 403", me(bobClient));
        assertEquals(204, admin.post("/api/users/enable", json("handle", "bob-smith")).statusCode());
        assertEquals("bob-smith", me(bobClient));
    }

    @Test
    @FileLayout
    void deleteRefusesSelfAndDefaultUserAndPurgesOnRequest() throws IOException {
        startWithAccounts("");
        TestServer.Client admin = admin();
        create(admin, "root2", "r", true);
        create(admin, "gone", "", false);
        create(admin, "kept", "", false);
        TestServer.Client root2 = loggedIn("root2", "r");
        assertError(admin.post("/api/users/delete", json("handle", "default-user")), 400, "Cannot delete yourself");
        assertError(root2.post("/api/users/delete", json("handle", "default-user")), 400,
                "Sorry, but the default user cannot be deleted. It is required as a fallback.");
        assertEquals(400, admin.post("/api/users/delete", json("handle", "../kept", "purge", true)).statusCode());
        assertEquals(400, admin.post("/api/users/delete", json("handle", "_storage", "purge", true)).statusCode());
        assertTrue(Files.isDirectory(server.dataRoot.resolve("_storage")));

        writeDocument("gone", Folder.WORLDS, "Lore.json", "{}");
        writeDocument("kept", Folder.WORLDS, "Lore.json", "{}");
        assertEquals(204, admin.post("/api/users/delete", json("handle", "gone", "purge", true)).statusCode());
        assertFalse(Files.exists(server.dataRoot.resolve("gone")));
        assertEquals(List.of(), server.documents().list("gone", Folder.WORLDS), "purged with the folder");
        assertEquals(204, admin.post("/api/users/delete", json("handle", "kept")).statusCode());
        assertTrue(Files.isDirectory(server.dataRoot.resolve("kept")), "without purge the data stays");
        assertEquals(1, server.documents().list("kept", Folder.WORLDS).size(), "without purge the documents stay");
        assertEquals(403, server.client().post("/api/users/login", json("handle", "kept")).statusCode());
    }

    @Test
    void aPurgedOrResetUserLosesTheImagesAndFilesAndAKeptOneKeepsThem() throws Exception {
        startWithAccounts("");
        TestServer.Client admin = admin();
        create(admin, "gone", "", false);
        create(admin, "kept", "", false);
        create(admin, "reset", "r", false);
        for (String handle : List.of("gone", "kept", "reset")) {
            server.files(handle).write("user/images/Bramble/x.png", new byte[]{1});
            server.files(handle).write("user/files/notes.txt", "notes");
        }
        assertEquals(204, admin.post("/api/users/delete", json("handle", "gone", "purge", true)).statusCode());
        assertEquals(204, admin.post("/api/users/delete", json("handle", "kept")).statusCode());
        TestServer.Client reset = loggedIn("reset", "r");
        String code = code(console(() -> reset.post("/api/users/reset-step1", null), 204), "account reset");
        assertEquals(204, reset.post("/api/users/reset-step2", json("code", code, "password", "r")).statusCode());

        for (String handle : List.of("gone", "reset")) {
            assertFalse(server.files(handle).exists("user/images/Bramble/x.png"), handle);
            assertFalse(server.files(handle).exists("user/files/notes.txt"), handle);
        }
        assertEquals(List.of(), server.files("gone").paths().stream().filter(p -> !p.startsWith("thumbnails/")).toList());
        assertTrue(server.files("reset").exists("backgrounds/tankard-dusk-road.png"), "the default content again");
        assertTrue(server.files("kept").exists("user/images/Bramble/x.png"));
        assertEquals("notes", server.files("kept").read("user/files/notes.txt"));
    }

    // ---- login page, sessions

    @Test
    void loginPageAutoLogsInTheOnlyPasswordlessUser() throws IOException {
        startWithAccounts("");
        TestServer.Client client = server.client();
        HttpResponse<Buffer> index = client.get("/?x=1");
        assertEquals(302, index.statusCode());
        assertEquals("/login?x=1", index.getHeader("Location"));
        HttpResponse<Buffer> noauto = client.get("/login?noauto=true");
        assertEquals(200, noauto.statusCode());
        assertTrue(noauto.bodyAsString().contains("Login test"));
        assertEquals("status 403", me(client));

        HttpResponse<Buffer> auto = client.get("/login?x=1");
        assertEquals(302, auto.statusCode());
        assertEquals("/", auto.getHeader("Location"));
        assertEquals("default-user", me(client));
        assertEquals(200, client.get("/").statusCode());
    }

    @Test
    void loginPageIsServedWhenSeveralUsersExist() throws IOException {
        startWithAccounts("");
        create(admin(), "alice", "a", false);
        HttpResponse<Buffer> page = server.client().get("/login");
        assertEquals(200, page.statusCode());
        assertTrue(page.getHeader("Content-Type").startsWith("text/html"));
    }

    @Test
    void ssoHeaderLogsInOnlyFromTrustedProxies() throws IOException {
        startWithAccounts("sso:\n  autheliaAuth: true\n  trustedProxies: ['10.0.0.1']\n");
        create(admin(), "alice", "a", false);
        TestServer.Client untrusted = server.client();
        var request = untrusted.session.get("/login").putHeader("Remote-User", "Alice");
        assertEquals(200, TestServer.Client.send(request, null).statusCode());
        assertEquals("status 403", me(untrusted));
    }

    @Test
    void ssoHeaderLogsInFromATrustedProxy() throws IOException {
        startWithAccounts("sso:\n  authentikAuth: true\n  trustedProxies: ['127.0.0.0/8']\n");
        create(admin(), "alice", "a", false);
        TestServer.Client client = server.client();
        var request = client.session.get("/login").putHeader("X-Authentik-Username", "ALICE");
        assertEquals(302, TestServer.Client.send(request, null).statusCode());
        assertEquals("alice", me(client));
    }

    @Test
    void listShowsEnabledUsersUnlessDiscreet() throws IOException {
        startWithAccounts("");
        TestServer.Client admin = admin();
        create(admin, "alice", "a", false);
        create(admin, "bob", "", false);
        admin.post("/api/users/disable", json("handle", "bob"));
        JsonArray list = server.client().post("/api/users/list", null).bodyAsJsonArray();
        assertEquals(2, list.size());
        JsonObject alice = list.getJsonObject(1);
        assertEquals(List.of("handle", "name", "created", "avatar", "password"), new ArrayList<>(alice.fieldNames()));
        assertEquals("alice", alice.getString("handle"));
        assertEquals(true, alice.getBoolean("password"));
        server.close();

        startWithAccounts("enableDiscreetLogin: true\n");
        HttpResponse<Buffer> discreet = server.client().post("/api/users/list", null);
        assertEquals(204, discreet.statusCode());
    }

    @Test
    void logoutExpiresTheCookieAndPingExtendsIt() throws IOException {
        startWithAccounts("");
        create(admin(), "alice", "a", false);
        TestServer.Client alice = loggedIn("alice", "a");

        HttpResponse<Buffer> plain = alice.post("/api/ping", null);
        assertEquals(204, plain.statusCode());
        assertTrue(plain.cookies().isEmpty(), "a plain ping leaves the cookie alone");
        HttpResponse<Buffer> extend = alice.post("/api/ping?extend=1", null);
        assertEquals(204, extend.statusCode());
        assertTrue(extend.cookies().stream().anyMatch(c -> c.startsWith("session-") && c.contains("Max-Age=34560000")),
                extend.cookies().toString());

        HttpResponse<Buffer> logout = alice.post("/api/users/logout", null);
        assertEquals(204, logout.statusCode());
        assertTrue(logout.cookies().stream().anyMatch(c -> c.startsWith("session-") && c.contains("Max-Age=0")),
                logout.cookies().toString());
        assertEquals("status 403", me(alice));
        assertEquals(403, alice.post("/api/ping", null).statusCode(), "the CSRF token went with the session");
    }

    @Test
    void passwordChangeKeepsOwnSessionAndInvalidatesOthers() throws IOException {
        startWithAccounts("");
        TestServer.Client admin = admin();
        create(admin, "alice", "old", false);
        TestServer.Client here = loggedIn("alice", "old");
        TestServer.Client elsewhere = loggedIn("alice", "old");
        assertError(here.post("/api/users/change-password", json("handle", "alice", "oldPassword", "bad", "newPassword", "n")),
                403, "Incorrect password");
        assertEquals(204, here.post("/api/users/change-password",
                json("handle", "alice", "oldPassword", "old", "newPassword", "new")).statusCode());
        assertEquals("alice", me(here));
        assertEquals("status 403", me(elsewhere));
        assertEquals(403, server.client().post("/api/users/login", json("handle", "alice", "password", "old")).statusCode());
        loggedIn("alice", "new");

        // An admin needs no old password; an empty new one removes it.
        assertEquals(204, admin.post("/api/users/change-password", json("handle", "alice", "newPassword", "")).statusCode());
        loggedIn("alice", "anything");
    }

    @Test
    void passwordRecoveryWithTheConsoleCode() throws Exception {
        startWithAccounts("");
        create(admin(), "alice", "forgotten", false);
        TestServer.Client client = server.client();
        assertError(client.post("/api/users/recover-step1", json("handle", "ghost")), 404, "User not found");
        String printed = console(() -> client.post("/api/users/recover-step1", json("handle", "alice")), 204);
        String code = code(printed, "password recovery");
        assertEquals(6, code.length());

        String wrong = code.equals("000000") ? "111111" : "000000";
        assertError(client.post("/api/users/recover-step2", json("handle", "alice", "code", wrong, "newPassword", "x")),
                403, "Incorrect code");
        assertEquals(204, client.post("/api/users/recover-step2",
                json("handle", "alice", "code", code, "newPassword", "remembered")).statusCode());
        assertEquals(403, client.post("/api/users/recover-step2",
                json("handle", "alice", "code", code, "newPassword", "again")).statusCode(), "codes are single-use");
        loggedIn("alice", "remembered");
    }

    // ---- own data

    @Test
    void avatarComesFromAccountThenPersonaThenDefault() throws IOException {
        startWithAccounts("");
        TestServer.Client admin = admin();
        create(admin, "alice", "a", false);
        TestServer.Client alice = loggedIn("alice", "a");
        server.files("alice").write("User Avatars/me.png", new byte[]{1, 2, 3});
        writeDocument("alice", Folder.ROOT, "settings.json", "{\"user_avatar\":\"me.png\",\"power_user\":{\"default_persona\":\"\"}}");
        assertEquals("data:image/png;base64,AQID", alice.get("/api/users/me").bodyAsJsonObject().getString("avatar"));
        writeDocument("alice", Folder.ROOT, "settings.json", "{\"user_avatar\":\"../../secret.png\"}");
        assertEquals("/img/default-user.png", alice.get("/api/users/me").bodyAsJsonObject().getString("avatar"));

        assertError(alice.post("/api/users/change-avatar", json("handle", "alice", "avatar", "http://x/y.png")), 400, "Invalid data URL");
        assertEquals(204, alice.post("/api/users/change-avatar", json("handle", "alice", "avatar", "data:image/gif;base64,R0")).statusCode());
        assertEquals("data:image/gif;base64,R0", alice.get("/api/users/me").bodyAsJsonObject().getString("avatar"));
        assertEquals(204, alice.post("/api/users/change-avatar", json("handle", "alice", "avatar", "")).statusCode());
        assertEquals("/img/default-user.png", alice.get("/api/users/me").bodyAsJsonObject().getString("avatar"));
    }

    @Test
    void backupStreamsTheUserFolderWithoutSecrets() throws IOException {
        startWithAccounts("");
        TestServer.Client admin = admin();
        create(admin, "alice", "a", false);
        TestServer.Client alice = loggedIn("alice", "a");
        writeDocument("alice", Folder.ROOT, "settings.json", "{}");
        writeDocument("alice", Folder.ROOT, "secrets.json", "{\"api_key\":\"sk\"}");
        writeDocument("alice", Folder.WORLDS, "Lore.json", "{\"entries\":{}}");
        server.files("alice").write(".hidden", "dot");
        writeDocument("alice", Folder.BACKUPS, "secrets_migration_1.json", "{}");
        server.files("alice").write("backups/chat_1.jsonl", "{}");
        server.files("alice").write("chats/Bramble/talk.jsonl", "{\"chat_metadata\":{}}\n");
        String index = "{\"version\":1,\"metadata_config\":{},\"items\":[{\"id\":\"i\",\"metadata\":{\"hash\":1},"
                + "\"vector\":[0.5,0.25],\"norm\":0.5590169943749475}]}";
        server.files("alice").write("vectors/webllm/chat-1/test-model/index.json", index);
        byte[] big = new byte[300_000];
        new java.util.Random(1).nextBytes(big);
        server.files("alice").write("characters/big.png", big);

        HttpResponse<Buffer> r = alice.post("/api/users/backup", json("handle", "alice"));
        assertEquals(200, r.statusCode());
        assertEquals("application/zip", r.getHeader("Content-Type"));
        assertTrue(r.getHeader("Content-Disposition").matches("attachment; filename=\"alice-\\d{8}-\\d{6}\\.zip\""),
                r.getHeader("Content-Disposition"));
        List<String> names = new ArrayList<>();
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(r.body().getBytes()))) {
            for (ZipEntry e; (e = zip.getNextEntry()) != null; ) {
                names.add(e.getName());
                if (e.getName().equals("characters/big.png")) {
                    assertTrue(java.util.Arrays.equals(big, zip.readAllBytes()));
                }
                if (e.getName().equals("vectors/webllm/chat-1/test-model/index.json")) {
                    assertEquals(index, new String(zip.readAllBytes(), StandardCharsets.UTF_8));
                }
                if (e.getName().equals("worlds/Lore.json")) {
                    assertEquals("{\"entries\":{}}", new String(zip.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        assertTrue(names.containsAll(List.of("settings.json", ".hidden", "backups/chat_1.jsonl", "characters/big.png",
                "characters/", "sysprompt/.migrated", "worlds/Lore.json", "chats/Bramble/talk.jsonl",
                "vectors/webllm/chat-1/test-model/index.json")), names.toString());
        assertEquals(names.size(), new java.util.HashSet<>(names).size(), "each file once: " + names);
        assertFalse(names.contains("secrets.json"));
        assertFalse(names.contains("backups/secrets_migration_1.json"));

        assertEquals(200, admin.post("/api/users/backup", json("handle", "alice")).statusCode(), "admins may back up anyone");
        assertError(admin.post("/api/users/backup", json("handle", "ghost")), 404, "User not found");
    }

    @Test
    void backupCanBeDisabledAndCanIncludeKeys() throws IOException {
        startWithAccounts("backups:\n  allowFullDataBackup: false\n");
        assertError(admin().post("/api/users/backup", json("handle", "default-user")), 403, "Full data backup is disabled");
        server.close();

        startWithAccounts("allowKeysExposure: true\n");
        server.putDocument(Folder.ROOT, "secrets.json", "{}");
        HttpResponse<Buffer> r = admin().post("/api/users/backup", json("handle", "default-user"));
        assertTrue(r.bodyAsString().contains("secrets.json"));
    }

    @Test
    void resetSettingsNeedsThePassword() throws IOException {
        startWithAccounts("");
        create(admin(), "alice", "a", false);
        TestServer.Client alice = loggedIn("alice", "a");
        writeDocument("alice", Folder.ROOT, "settings.json", "{\"custom\":true}");
        assertError(alice.post("/api/users/reset-settings", json("password", "b")), 403, "Incorrect password");
        assertTrue(settingsOf("alice").contains("custom"));
        assertEquals(204, alice.post("/api/users/reset-settings", json("password", "a")).statusCode());
        assertFalse(settingsOf("alice").contains("custom"), "the custom settings are gone");
    }

    @Test
    void accountResetWipesTheFolder() throws Exception {
        startWithAccounts("");
        create(admin(), "alice", "a", false);
        TestServer.Client alice = loggedIn("alice", "a");
        server.files("alice").write("chats/Bramble/x.jsonl", "{}");
        server.files("alice").write("vectors/webllm/chat-1/index.json", "{\"version\":1,\"metadata_config\":{},\"items\":[]}");
        writeDocument("alice", Folder.THEMES, "Mine.json", "{}");
        String code = code(console(() -> alice.post("/api/users/reset-step1", null), 204), "account reset");
        assertError(alice.post("/api/users/reset-step2", json("code", code, "password", "b")), 400, "Incorrect password");
        assertError(alice.post("/api/users/reset-step2", json("code", "1", "password", "a")), 400, "Incorrect code");
        assertError(alice.post("/api/users/reset-step2", json("password", "a")), 400, "Missing required fields");
        assertTrue(server.files("alice").exists("chats/Bramble/x.jsonl"));
        assertEquals(204, alice.post("/api/users/reset-step2", json("code", code, "password", "a")).statusCode());
        assertFalse(server.files("alice").exists("chats/Bramble/x.jsonl"));
        assertEquals(List.of(), server.files("alice").vectorIndexes(), "the vector indexes are gone too");
        assertEquals(List.of(), server.documents().list("alice", Folder.THEMES), "the documents are gone too");
        assertTrue(Files.isDirectory(server.dataRoot.resolve("alice/chats")));
        assertEquals("alice", me(alice), "the account itself stays");
    }

    private void writeDocument(String handle, Folder folder, String name, String content) {
        server.documents().write(handle, folder, name, content.getBytes(StandardCharsets.UTF_8));
    }

    private String settingsOf(String handle) {
        return server.documents().read(handle, Folder.ROOT, "settings.json")
                .map(bytes -> new String(bytes, StandardCharsets.UTF_8)).orElse("");
    }

    @Test
    void withAccountsOffEveryoneIsTheDefaultAdmin() {
        server = TestServer.start();
        TestServer.Client client = server.client();
        HttpResponse<Buffer> login = client.get("/login?x=1");
        assertEquals(302, login.statusCode());
        assertEquals("/", login.getHeader("Location"));
        assertEquals("default-user", me(client));
        assertEquals(200, client.post("/api/users/get", null).statusCode());
        assertEquals(200, client.post("/api/users/create", json("handle", "extra", "name", "Extra")).statusCode());
        assertTrue(Files.isDirectory(server.dataRoot.resolve("extra/chats")));
    }

    @Test
    void badBodiesAreRejected() throws IOException {
        startWithAccounts("");
        TestServer.Client admin = admin();
        assertEquals(400, admin.post("/api/users/create", "{not json").statusCode());
        assertEquals(400, admin.post("/api/users/create", json("handle", new JsonObject(), "name", "x")).statusCode());
        assertError(admin.post("/api/users/change-name", json("handle", "default-user")), 400, "Missing required fields");
        assertError(admin.post("/api/users/change-name", json("handle", "ghost", "name", "G")), 404, "User not found");
        assertError(admin.post("/api/users/slugify", json()), 400, "Missing required fields");
    }
}
