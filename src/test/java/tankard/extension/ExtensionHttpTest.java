package tankard.extension;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.GitHttpServer;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExtensionHttpTest extends ServerTest {
    private static final String MANIFEST = "{\"display_name\":\"Tiny\",\"version\":\"1.0.0\",\"author\":\"Tester\","
            + "\"js\":\"index.js\",\"extra\":1}";
    private GitHttpServer repos;

    @AfterEach
    void stopRepos() {
        if (repos != null) {
            repos.close();
        }
    }

    private static JsonObject ext(String type, String name) {
        return new JsonObject().put("type", type).put("name", name);
    }

    private static String install(String url) {
        return new JsonObject().put("url", url).encode();
    }

    private static String named(String name) {
        return new JsonObject().put("extensionName", name).encode();
    }

    private Git tinyRepo(String name) {
        return repos.create(name, Map.of("manifest.json", MANIFEST, "index.js", "console.log('v1');\n"));
    }

    private List<String> entries(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(dir)) {
            return list.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void assertError(HttpResponse<Buffer> r, int status, String text) {
        assertEquals(status, r.statusCode(), r.bodyAsString());
        assertTrue(r.bodyAsJsonObject().getString("error").contains(text), r.bodyAsString());
    }

    @Test
    void discoverListsSystemThenLocalThenUnshadowedGlobal() throws IOException {
        Path work = TestServer.tempDir();
        Path extensions = Files.createDirectories(work.resolve("public/scripts/extensions"));
        for (String dir : new String[] {"regex", "memory", "third-party/shared", "third-party/only-global"}) {
            Files.createDirectories(extensions.resolve(dir));
        }
        Files.writeString(extensions.resolve("not-a-folder.js"), "");
        server = TestServer.startIn(work);
        Files.createDirectories(server.userDir().resolve("extensions/shared"));
        Files.createDirectories(server.userDir().resolve("extensions/mine"));
        Files.createDirectories(server.userDir().resolve("extensions/" + GitExtensions.STAGING_PREFIX + "x"));

        HttpResponse<Buffer> r = server.client().get("/api/extensions/discover");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonArray()
                .add(ext("system", "memory")).add(ext("system", "regex"))
                .add(ext("local", "third-party/mine")).add(ext("local", "third-party/shared"))
                .add(ext("global", "third-party/only-global")), r.bodyAsJsonArray());
    }

    @Test
    void discoverWithoutAnyExtensionFoldersIsEmpty() {
        server = TestServer.start();
        assertEquals(new JsonArray(), server.client().get("/api/extensions/discover").bodyAsJsonArray());
    }

    @Test
    void versionReportsNonGitExtensionsAsUpToDate() throws IOException {
        server = TestServer.start();
        Files.createDirectories(server.userDir().resolve("extensions/mine"));
        TestServer.Client client = server.client();
        // The frontend sends "/mine" (its id with "third-party" cut off).
        HttpResponse<Buffer> r = client.post("/api/extensions/version", "{\"extensionName\":\"/mine\",\"global\":false}");
        assertEquals(200, r.statusCode());
        assertEquals(new JsonObject().put("currentBranchName", "").put("currentCommitHash", "").put("isUpToDate", true)
                .put("remoteUrl", ""), r.bodyAsJsonObject());
        assertEquals(404, client.post("/api/extensions/version", "{\"extensionName\":\"/other\"}").statusCode());
        assertEquals(404, client.post("/api/extensions/version", "{\"extensionName\":\"mine\",\"global\":true}").statusCode());
        assertEquals(400, client.post("/api/extensions/version", "{\"extensionName\":\"..\"}").statusCode());
        assertEquals(400, client.post("/api/extensions/version", "{}").statusCode());
    }

    @Test
    void installVersionUpdateAndDeleteAGitExtension() throws IOException {
        repos = GitHttpServer.start();
        Git origin = tinyRepo("tiny-ext");
        server = TestServer.start();
        TestServer.Client client = server.client();
        Path folder = server.userDir().resolve("extensions/tiny-ext");

        HttpResponse<Buffer> r = client.post("/api/extensions/install", install(repos.url("tiny-ext")));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals(new JsonObject().put("display_name", "Tiny").put("version", "1.0.0").put("author", "Tester")
                .put("extensionPath", "extensions/tiny-ext").put("folderName", "tiny-ext"), r.bodyAsJsonObject());
        assertEquals(List.of(".git", "index.js", "manifest.json"), entries(folder));
        assertEquals(List.of("tiny-ext"), entries(folder.getParent()));
        assertTrue(Files.exists(folder.resolve(".git/shallow")), "cloned with depth 1");
        assertEquals(new JsonArray().add(ext("local", "third-party/tiny-ext")),
                client.get("/api/extensions/discover").bodyAsJsonArray());
        // served to the frontend from the user's folder
        assertEquals("console.log('v1');\n", client.get("/scripts/extensions/third-party/tiny-ext/index.js").bodyAsString());

        String first = origin.getRepository().resolve("HEAD").name();
        r = client.post("/api/extensions/version", named("/tiny-ext"));
        assertEquals(new JsonObject().put("currentBranchName", "main").put("currentCommitHash", first)
                .put("isUpToDate", true).put("remoteUrl", repos.url("tiny-ext")), r.bodyAsJsonObject());

        GitHttpServer.commit(origin, Map.of("index.js", "console.log('v2');\n"), "second");
        String second = origin.getRepository().resolve("HEAD").name();
        r = client.post("/api/extensions/version", named("/tiny-ext"));
        assertFalse(r.bodyAsJsonObject().getBoolean("isUpToDate"), r.bodyAsString());
        assertEquals(first, r.bodyAsJsonObject().getString("currentCommitHash"));

        r = client.post("/api/extensions/update", named("/tiny-ext"));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        // isUpToDate says how it was before the pull, as in ST
        assertEquals(new JsonObject().put("shortCommitHash", second.substring(0, 7)).put("extensionPath", "extensions/tiny-ext")
                .put("isUpToDate", false).put("remoteUrl", repos.url("tiny-ext")), r.bodyAsJsonObject());
        assertEquals("console.log('v2');\n", Files.readString(folder.resolve("index.js")));
        r = client.post("/api/extensions/update", named("/tiny-ext"));
        assertTrue(r.bodyAsJsonObject().getBoolean("isUpToDate"), r.bodyAsString());

        r = client.post("/api/extensions/delete", named("/tiny-ext"));
        assertEquals(200, r.statusCode());
        assertEquals("Extension has been deleted at extensions/tiny-ext", r.bodyAsString());
        assertFalse(Files.exists(folder));
        assertEquals(404, client.post("/api/extensions/delete", named("/tiny-ext")).statusCode());
    }

    @Test
    void branchesAndSwitch() throws Exception {
        repos = GitHttpServer.start();
        Git origin = tinyRepo("branchy");
        origin.branchCreate().setName("dev").call();
        origin.checkout().setName("dev").call();
        GitHttpServer.commit(origin, Map.of("index.js", "console.log('dev');\n"), "dev work");
        origin.checkout().setName("main").call();
        server = TestServer.start();
        TestServer.Client client = server.client();
        Path folder = server.userDir().resolve("extensions/branchy");
        assertEquals(200, client.post("/api/extensions/install", install(repos.url("branchy"))).statusCode());

        HttpResponse<Buffer> r = client.post("/api/extensions/branches", named("branchy"));
        assertEquals(200, r.statusCode(), r.bodyAsString());
        JsonArray branches = r.bodyAsJsonArray();
        assertEquals(List.of("main", "origin/dev", "origin/main"),
                branches.stream().map(b -> ((JsonObject) b).getString("name")).toList());
        JsonObject main = branches.getJsonObject(0);
        assertTrue(main.getBoolean("current"));
        assertEquals("initial", main.getString("label"));
        assertEquals(7, main.getString("commit").length());
        assertEquals("dev work", branches.getJsonObject(1).getString("label"));
        assertFalse(Files.exists(folder.resolve(".git/shallow")), "unshallowed");

        String body = new JsonObject().put("extensionName", "branchy").put("branch", "origin/dev").encode();
        assertEquals(204, client.post("/api/extensions/switch", body).statusCode());
        assertEquals("console.log('dev');\n", Files.readString(folder.resolve("index.js")));
        assertEquals("dev", client.post("/api/extensions/version", named("branchy")).bodyAsJsonObject()
                .getString("currentBranchName"));
        body = new JsonObject().put("extensionName", "branchy").put("branch", "main").encode();
        assertEquals(204, client.post("/api/extensions/switch", body).statusCode());
        assertEquals("console.log('v1');\n", Files.readString(folder.resolve("index.js")));
        body = new JsonObject().put("extensionName", "branchy").put("branch", "nope").encode();
        assertError(client.post("/api/extensions/switch", body), 404, "Branch nope does not exist locally");
        body = new JsonObject().put("extensionName", "branchy").put("branch", "origin/nope").encode();
        assertError(client.post("/api/extensions/switch", body), 404, "Branch origin/nope does not exist");
        assertEquals(400, client.post("/api/extensions/switch", named("branchy")).statusCode());
    }

    @Test
    void badInstallsAreRefusedAndLeaveNothing() throws IOException {
        repos = GitHttpServer.start();
        repos.create("no-manifest", Map.of("index.js", "x"));
        repos.create("array-manifest", Map.of("manifest.json", "[1]"));
        repos.create("broken-manifest", Map.of("manifest.json", "{"));
        server = TestServer.start();
        TestServer.Client client = server.client();
        Path extensions = server.userDir().resolve("extensions");

        assertError(client.post("/api/extensions/install", "{}"), 400, "A valid URL is required");
        assertError(client.post("/api/extensions/install", install("not a url")), 400, "A valid URL is required");
        assertError(client.post("/api/extensions/install", install("file://" + repos.root.resolve("no-manifest"))),
                400, "Only HTTP and HTTPS");
        assertError(client.post("/api/extensions/install", install(repos.root.resolve("no-manifest").toString())),
                400, "A valid URL is required");
        assertError(client.post("/api/extensions/install", install("ssh://git@example.com/x.git")), 400, "Only HTTP");
        assertError(client.post("/api/extensions/install", install("http://127.0.0.1/")), 400, "extension name");
        assertError(client.post("/api/extensions/install", install("http://127.0.0.1/..")), 400, "extension name");

        assertError(client.post("/api/extensions/install", install(repos.url("missing"))), 400, "Cloning");
        assertError(client.post("/api/extensions/install", install("http://127.0.0.1:1/refused.git")), 400, "Cloning");
        assertError(client.post("/api/extensions/install", install(repos.url("no-manifest"))), 500, "Manifest file not found");
        assertError(client.post("/api/extensions/install", install(repos.url("array-manifest"))), 500, "not a valid JSON object");
        assertError(client.post("/api/extensions/install", install(repos.url("broken-manifest"))), 500, "not valid JSON");
        String branch = new JsonObject().put("url", repos.url("array-manifest")).put("branch", "nope").encode();
        assertEquals(400, client.post("/api/extensions/install", branch).statusCode());
        assertEquals(List.of(), entries(extensions), "no clone or staging folder left behind");

        Files.createDirectories(extensions.resolve("no-manifest"));
        assertError(client.post("/api/extensions/install", install(repos.url("no-manifest"))), 409, "already exists");
    }

    @Test
    void theOutboundFilterRefusesPrivateGitHosts() throws IOException {
        repos = GitHttpServer.start();
        tinyRepo("tiny-ext");
        server = TestServer.start("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: []\n");
        HttpResponse<Buffer> r = server.client().post("/api/extensions/install", install(repos.url("tiny-ext")));
        assertError(r, 500, "Blocked request to private IP address: 127.0.0.1");
        assertEquals(List.of(), entries(server.userDir().resolve("extensions")));
        assertEquals(0, repos.uploads());
    }

    @Test
    void loopbackGitHostsPassTheFilterByDefault() {
        repos = GitHttpServer.start();
        tinyRepo("tiny-ext");
        server = TestServer.start("privateAddressWhitelist:\n  enabled: true\n");
        assertEquals(200, server.client().post("/api/extensions/install", install(repos.url("tiny-ext"))).statusCode());
    }

    @Test
    void gitOperationsOnFoldersThatAreNotCheckoutsAreRefusedNamingTheExtensionNotItsPath() throws IOException {
        server = TestServer.start();
        Files.createDirectories(server.userDir().resolve("extensions/plain"));
        TestServer.Client client = server.client();
        String notARepository = "Directory is not a Git repository at extensions/plain";
        List<HttpResponse<Buffer>> answers = List.of(
                client.post("/api/extensions/update", named("plain")),
                client.post("/api/extensions/branches", named("plain")),
                client.post("/api/extensions/switch", new JsonObject().put("extensionName", "plain")
                        .put("branch", "main").encode()));
        for (HttpResponse<Buffer> r : answers) {
            assertError(r, 409, notARepository);
        }
        HttpResponse<Buffer> missing = client.post("/api/extensions/update", named("other"));
        assertError(missing, 404, "Directory does not exist at extensions/other");
        for (HttpResponse<Buffer> r : List.of(answers.get(0), answers.get(1), answers.get(2), missing)) {
            assertFalse(r.bodyAsString().contains(server.dataRoot.toString()), r.bodyAsString());
        }
    }

    @Test
    void traversalNamesNeverLeaveTheExtensionsFolder() throws IOException {
        server = TestServer.start();
        Path extensions = Files.createDirectories(server.userDir().resolve("extensions"));
        Files.createDirectories(server.userDir().resolve("chats/keep"));
        TestServer.Client client = server.client();
        for (String name : List.of("../chats", "..", "../../default-user", "/../chats/keep")) {
            int status = client.post("/api/extensions/delete", named(name)).statusCode();
            assertTrue(status == 400 || status == 404, name + " -> " + status);
            String move = new JsonObject().put("extensionName", name).put("source", "local").put("destination", "global").encode();
            status = client.post("/api/extensions/move", move).statusCode();
            assertTrue(status == 400 || status == 404, name + " -> " + status);
        }
        assertTrue(Files.isDirectory(server.userDir().resolve("chats/keep")));
        assertTrue(Files.isDirectory(extensions));
    }

    @Test
    void moveBetweenTheUserAndTheGlobalFolder() throws IOException {
        server = TestServer.start();
        Path local = Files.createDirectories(server.userDir().resolve("extensions/mover"));
        Files.writeString(local.resolve("manifest.json"), MANIFEST);
        Path global = server.workDir.resolve("public/scripts/extensions/third-party/mover");
        TestServer.Client client = server.client();
        String toGlobal = new JsonObject().put("extensionName", "mover").put("source", "local").put("destination", "global").encode();
        String toLocal = new JsonObject().put("extensionName", "mover").put("source", "global").put("destination", "local").encode();

        assertEquals(204, client.post("/api/extensions/move", toGlobal).statusCode());
        assertFalse(Files.exists(local));
        assertEquals(MANIFEST, Files.readString(global.resolve("manifest.json")));
        assertError(client.post("/api/extensions/move", toGlobal), 404, "Source directory does not exist");
        Files.createDirectories(local);
        assertError(client.post("/api/extensions/move", toLocal), 409, "Destination directory already exists");
        Files.delete(local);
        String same = new JsonObject().put("extensionName", "mover").put("source", "global").put("destination", "global").encode();
        assertError(client.post("/api/extensions/move", same), 409, "already exists");
        assertEquals(204, client.post("/api/extensions/move", toLocal).statusCode());
        assertEquals(MANIFEST, Files.readString(local.resolve("manifest.json")));
        assertFalse(Files.exists(global));
        assertError(client.post("/api/extensions/move", named("mover")), 400, "source, and destination");
    }

    @Test
    void onlyAdminsTouchGlobalExtensions() throws IOException {
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), "enableUserAccounts: true\n");
        Files.createDirectories(work.resolve("public/scripts/extensions/third-party/shared"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title>");
        server = TestServer.startIn(work);
        TestServer.Client admin = server.client();
        assertEquals(200, admin.post("/api/users/login", "{\"handle\":\"default-user\",\"password\":\"\"}").statusCode());
        assertEquals(200, admin.post("/api/users/create",
                "{\"handle\":\"bob\",\"name\":\"Bob\",\"password\":\"pw\",\"admin\":false}").statusCode());
        TestServer.Client bob = server.client();
        assertEquals(200, bob.post("/api/users/login", "{\"handle\":\"bob\",\"password\":\"pw\"}").statusCode());

        String global = new JsonObject().put("extensionName", "shared").put("global", true).encode();
        assertError(bob.post("/api/extensions/install",
                new JsonObject().put("url", "https://example.com/x.git").put("global", true).encode()), 403, "Forbidden");
        assertError(bob.post("/api/extensions/delete", global), 403, "Forbidden");
        assertError(bob.post("/api/extensions/update", global), 403, "Forbidden");
        assertError(bob.post("/api/extensions/branches", global), 403, "Forbidden");
        assertError(bob.post("/api/extensions/switch", new JsonObject().put("extensionName", "shared")
                .put("global", true).put("branch", "main").encode()), 403, "Forbidden");
        assertError(bob.post("/api/extensions/move", new JsonObject().put("extensionName", "shared")
                .put("source", "global").put("destination", "local").encode()), 403, "Forbidden");
        assertEquals(200, bob.post("/api/extensions/version", global).statusCode());
        assertTrue(Files.isDirectory(work.resolve("public/scripts/extensions/third-party/shared")));
        assertEquals(200, admin.post("/api/extensions/delete", global).statusCode());
        assertFalse(Files.exists(work.resolve("public/scripts/extensions/third-party/shared")));
    }

    /** ST's extensionsEnabledFeatureGuard (src/endpoints/extensions.js) answers 404 before any extensions route. */
    @Test
    void disabledExtensionsAnswer404() throws IOException {
        repos = GitHttpServer.start();
        tinyRepo("tiny-ext");
        server = TestServer.start("extensions:\n  enabled: false\n");
        TestServer.Client client = server.client();
        // ST's text answer (a mistyped route gets Tankard's JSON "Not found: <path>" instead)
        for (HttpResponse<Buffer> r : List.of(client.get("/api/extensions/discover"),
                client.post("/api/extensions/version", named("x")),
                client.post("/api/extensions/install", install(repos.url("tiny-ext"))))) {
            assertEquals(404, r.statusCode());
            assertEquals("Not Found", r.bodyAsString());
        }
        assertEquals(List.of(), entries(server.userDir().resolve("extensions")), "nothing installed");
    }

    /** More installs than Vert.x has shared workers (20), each from a git remote that never answers. */
    @Test
    void gitRemotesThatNeverAnswerLeaveTheSharedWorkersFree() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        Vertx remote = Vertx.vertx();
        try {
            HttpServer stuck = TestServer.await(remote.createHttpServer().requestHandler(r -> asked.incrementAndGet())
                    .listen(0, "127.0.0.1"));
            server = TestServer.start();
            TestServer.Client client = server.client();
            // the JDK's client, whose connections per host are not pooled down to a few as a WebClient's are
            java.net.http.HttpClient installs = java.net.http.HttpClient.newHttpClient();
            List<String> cookies = new ArrayList<>();
            client.session.cookieStore().get(false, "127.0.0.1", "/").forEach(c -> cookies.add(c.name() + "=" + c.value()));
            for (int i = 0; i < 25; i++) {
                installs.sendAsync(HttpRequest.newBuilder(URI.create(server.url("/api/extensions/install")))
                        .header("Content-Type", "application/json").header("X-CSRF-Token", client.csrfToken())
                        .header("Cookie", String.join("; ", cookies))
                        .POST(HttpRequest.BodyPublishers.ofString(
                                install("http://127.0.0.1:" + stuck.actualPort() + "/stuck-" + i + ".git"))).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (asked.get() < 5 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(asked.get() >= 5, "git calls under way: " + asked.get());
            Thread.sleep(1000); // the rest arrive and wait: on the git threads, or before on the shared workers
            // a route on the shared workers still answers
            HttpResponse<Buffer> avatars = client.request(HttpMethod.POST, "/api/avatars/get").send()
                    .toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
            assertEquals(200, avatars.statusCode(), avatars.bodyAsString());
        } finally {
            TestServer.await(remote.close()); // the installs then fail
        }
    }
}
