package tankard.http.security;

import tankard.testing.FileLayout;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;
import tankard.user.FileAccountStore;
import tankard.user.Passwords;
import tankard.user.User;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gates in front of every route, over real HTTP. The test client is always 127.0.0.1. */
class SecurityHttpTest extends ServerTest {
    private static final String LISTEN = "listen: true\nlistenAddress:\n  ipv4: 127.0.0.1\n";

    private HttpResponse<Buffer> get(String path, String... headers) {
        return send(HttpMethod.GET, path, headers);
    }

    private HttpResponse<Buffer> send(HttpMethod method, String path, String... headers) {
        HttpRequest<Buffer> request = server.plainClient().request(method, path);
        for (int i = 0; i < headers.length; i += 2) {
            request.putHeader(headers[i], headers[i + 1]);
        }
        return TestServer.Client.send(request, null);
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** A working folder with config.yaml and public/, and files to place under the data root before start. */
    private static Path workDir(String yaml, String... dataFiles) throws IOException {
        Path work = TestServer.tempDir();
        Files.writeString(work.resolve("config.yaml"), yaml);
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title>");
        for (int i = 0; i < dataFiles.length; i += 2) {
            Path file = work.resolve("data").resolve(dataFiles[i]);
            Files.createDirectories(file.getParent());
            Files.writeString(file, dataFiles[i + 1]);
        }
        return work;
    }

    // ---- IP whitelist

    @Test
    void whitelistThatExcludesTheClientRefusesEverythingIncludingStaticFiles() {
        server = TestServer.start("whitelistMode: true\nwhitelist: ['10.0.0.0/8', '192.168.*.*']\nskipContentCheck: true\n");
        for (String path : new String[]{"/csrf-token", "/index.html", "/", "/api/ping"}) {
            HttpResponse<Buffer> r = get(path);
            assertEquals(403, r.statusCode(), path);
            assertTrue(r.getHeader("Content-Type").startsWith("text/html"), path);
            assertTrue(r.bodyAsString().contains("127.0.0.1"), "built-in page names the address");
        }
    }

    @Test
    void whitelistAdmitsMatchingClients() {
        server = TestServer.start("whitelistMode: true\nwhitelist: ['10.0.0.0/8', '127.0.0.0/8']\n");
        assertEquals(200, get("/csrf-token").statusCode());
    }

    @Test
    void rejectionPageIsTheDataRootTemplateWithEscapedDetails() throws IOException {
        Path work = workDir("whitelistMode: true\nenableForwardedWhitelist: true\n",
                "_errors/forbidden-by-whitelist.html", "<p>Nope: {{ipDetails}}!</p>");
        server = TestServer.startIn(work);
        HttpResponse<Buffer> r = get("/csrf-token", "X-Real-IP", "<b>1.2.3.4</b>");
        assertEquals(403, r.statusCode());
        assertEquals("<p>Nope: 127.0.0.1 (forwarded from &lt;b&gt;1.2.3.4&lt;/b&gt;)!</p>", r.bodyAsString());
    }

    @Test
    void forwardedAddressMustBeWhitelistedToo() {
        server = TestServer.start("enableForwardedWhitelist: true\nskipContentCheck: true\n");
        HttpResponse<Buffer> denied = get("/csrf-token", "X-Forwarded-For", "8.8.8.8, 127.0.0.1");
        assertEquals(403, denied.statusCode());
        assertTrue(denied.bodyAsString().contains("127.0.0.1 (forwarded from 8.8.8.8)"), denied.bodyAsString());
        // X-Real-IP comes first; CF-Connecting-IP is off by default.
        assertEquals(200, get("/csrf-token", "X-Real-IP", "127.0.0.1", "X-Forwarded-For", "8.8.8.8").statusCode());
        assertEquals(200, get("/csrf-token", "CF-Connecting-IP", "8.8.8.8").statusCode());
        assertEquals(200, get("/csrf-token", "X-Forwarded-For", "::ffff:127.0.0.1").statusCode());
        assertEquals(200, get("/csrf-token").statusCode());
    }

    @Test
    void forwardedHeadersAreIgnoredUnlessEnabled() {
        server = TestServer.start("enableForwardedWhitelist: false\n");
        assertEquals(200, get("/csrf-token", "X-Forwarded-For", "8.8.8.8").statusCode());
    }

    @Test
    void disabledForwardedHeaderIsNotConsulted() {
        server = TestServer.start("enableForwardedWhitelist: true\nforwardedHeaders:\n  xForwardedFor: false\n");
        assertEquals(200, get("/csrf-token", "X-Forwarded-For", "8.8.8.8").statusCode());
        assertEquals(403, get("/csrf-token", "X-Real-IP", "8.8.8.8").statusCode());
    }

    // ---- basic auth

    @Test
    void basicAuthChallengesThenAdmits() {
        server = TestServer.start(LISTEN + "basicAuthMode: true\nbasicAuthUser:\n  username: keeper\n  password: 'p:ss'\n");
        HttpResponse<Buffer> none = get("/index.html");
        assertEquals(401, none.statusCode());
        assertEquals("Basic realm=\"SillyTavern\", charset=\"UTF-8\"", none.getHeader("WWW-Authenticate"));
        assertTrue(none.getHeader("Content-Type").startsWith("text/html"));
        assertEquals(401, get("/csrf-token", "Authorization", "Bearer abc").statusCode());
        assertEquals(401, get("/csrf-token", "Authorization", basic("keeper", "wrong")).statusCode());
        assertEquals(200, get("/csrf-token", "Authorization", basic("keeper", "p:ss")).statusCode());
        assertEquals(200, get("/index.html", "Authorization", basic("keeper", "p:ss")).statusCode());
    }

    @Test
    void basicAuthNeedsListen() {
        server = TestServer.start("basicAuthMode: true\n");
        assertEquals(200, get("/csrf-token").statusCode());
    }

    @Test
    void basicAuthFailuresAreRateLimitedPerIp() {
        server = TestServer.start(LISTEN + "basicAuthMode: true\n");
        for (int i = 1; i <= 5; i++) {
            assertEquals(401, get("/csrf-token", "Authorization", basic("user", "guess" + i)).statusCode(), "attempt " + i);
        }
        HttpResponse<Buffer> sixth = get("/csrf-token", "Authorization", basic("user", "guess6"));
        assertEquals(429, sixth.statusCode());
        long retryAfter = Long.parseLong(sixth.getHeader("Retry-After"));
        assertTrue(retryAfter > 0 && retryAfter <= 60, "Retry-After " + retryAfter);
        // Locked out for the window, even with the right password.
        assertEquals(429, get("/csrf-token", "Authorization", basic("user", "password")).statusCode());
    }

    @Test
    @FileLayout
    void perUserBasicAuthChecksAccountPasswords() throws IOException {
        Path work = workDir(LISTEN + "basicAuthMode: true\nperUserBasicAuth: true\nenableUserAccounts: true\n");
        FileAccountStore store = new FileAccountStore(work.resolve("data/_storage"));
        store.save(User.defaultUser(1));
        String salt = Passwords.newSalt();
        store.save(new User("alice", "Alice", 2, Passwords.hash("wonder", salt), salt, false, true));
        server = TestServer.startIn(work);

        assertEquals(401, get("/csrf-token", "Authorization", basic("user", "password")).statusCode());
        assertEquals(401, get("/csrf-token", "Authorization", basic("default-user", "")).statusCode(), "no password: no entry");
        assertEquals(401, get("/csrf-token", "Authorization", basic("alice", "wrong")).statusCode());
        assertEquals(200, get("/csrf-token", "Authorization", basic("alice", "wonder")).statusCode());
        assertEquals(200, get("/csrf-token", "Authorization", basic("alice", "wonder")).statusCode(), "cached check");

        // The login page logs the basic-auth user in.
        HttpResponse<Buffer> login = get("/login", "Authorization", basic("alice", "wonder"));
        assertEquals(302, login.statusCode());
        assertEquals("/", login.getHeader("Location"));
        String cookies = String.join("; ", login.cookies().stream().map(c -> c.split(";")[0]).toList());
        HttpResponse<Buffer> me = get("/api/users/me", "Authorization", basic("alice", "wonder"), "Cookie", cookies);
        assertEquals(200, me.statusCode());
        assertEquals("alice", me.bodyAsJsonObject().getString("handle"));
    }

    // ---- host whitelist, CORS, CSRF

    @Test
    void hostWhitelistAllowsListedHostsLiteralsAndLocalhost() {
        server = TestServer.start("hostWhitelist:\n  enabled: true\n  hosts: ['.example.com', 'tavern.test']\n");
        assertEquals(403, get("/csrf-token", "Host", "evil.test").statusCode());
        assertEquals(403, get("/csrf-token", "Host", "example.com.evil.test:8000").statusCode());
        for (String host : new String[]{"example.com", "app.example.com:8000", "tavern.test", "127.0.0.1:8000",
                "[::1]:8000", "localhost", "x.localhost:1"}) {
            assertEquals(200, get("/csrf-token", "Host", host).statusCode(), host);
        }
    }

    @Test
    void hostWhitelistIsOffByDefault() {
        server = TestServer.start();
        assertEquals(200, get("/csrf-token", "Host", "evil.test").statusCode());
    }

    @Test
    void corsAnswersPreflightsAndEchoesListedOrigins() {
        server = TestServer.start();
        HttpResponse<Buffer> preflight = send(HttpMethod.OPTIONS, "/api/ping", "Origin", "null",
                "Access-Control-Request-Headers", "x-csrf-token");
        assertEquals(204, preflight.statusCode());
        assertEquals("null", preflight.getHeader("Access-Control-Allow-Origin"));
        assertEquals("OPTIONS", preflight.getHeader("Access-Control-Allow-Methods"));
        assertEquals("x-csrf-token", preflight.getHeader("Access-Control-Allow-Headers"));

        HttpResponse<Buffer> other = get("/csrf-token", "Origin", "https://elsewhere.test");
        assertEquals(200, other.statusCode());
        assertNull(other.getHeader("Access-Control-Allow-Origin"));
        assertTrue(other.getHeader("Vary").contains("Origin"));
    }

    @Test
    void corsSettingsApply() {
        server = TestServer.start("cors:\n  origin: '*'\n  methods: [GET, POST]\n  credentials: true\n  maxAge: 600\n"
                + "  exposedHeaders: [X-Thing]\n");
        HttpResponse<Buffer> preflight = send(HttpMethod.OPTIONS, "/anything", "Origin", "https://a.test");
        assertEquals("*", preflight.getHeader("Access-Control-Allow-Origin"));
        assertEquals("GET,POST", preflight.getHeader("Access-Control-Allow-Methods"));
        assertEquals("true", preflight.getHeader("Access-Control-Allow-Credentials"));
        assertEquals("600", preflight.getHeader("Access-Control-Max-Age"));
        assertEquals("X-Thing", get("/csrf-token").getHeader("Access-Control-Expose-Headers"));
    }

    @Test
    void corsCanBeTurnedOff() {
        server = TestServer.start("cors:\n  enabled: false\n");
        HttpResponse<Buffer> options = send(HttpMethod.OPTIONS, "/csrf-token", "Origin", "null");
        assertNotEquals(204, options.statusCode());
        assertNull(options.getHeader("Access-Control-Allow-Origin"));
    }

    @Test
    void publicLoginApiNeedsTheCsrfToken() {
        server = TestServer.start("enableUserAccounts: true\n");
        TestServer.Client client = server.client();
        var wrong = client.session.post("/api/users/login").putHeader("X-CSRF-Token", "f".repeat(64))
                .putHeader("Content-Type", "application/json");
        assertEquals(403, TestServer.Client.send(wrong, Buffer.buffer("{\"handle\":\"default-user\"}")).statusCode());
        assertEquals(200, client.post("/api/users/login", "{\"handle\":\"default-user\"}").statusCode());
    }
}
