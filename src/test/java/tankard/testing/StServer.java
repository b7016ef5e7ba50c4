package tankard.testing;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * The real ST 1.18.0 server from an install (needs node), on a free loopback port with a temp data root and
 * config (browser launch off, no default content), stopped with its whole process tree on close. For the
 * local-only tests that compare Tankard with ST ({@code TANKARD_ST_DIR}).
 */
public final class StServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

    private final Process process;
    private final Path home;
    private final int port;
    private final WebClientSession session;
    private final Path log;
    private String csrf;

    private StServer(Process process, Path home, int port, WebClientSession session) {
        this.process = process;
        this.home = home;
        this.port = port;
        this.session = session;
        this.log = home.resolve("st.log");
    }

    public static StServer start(Path stDir, Vertx vertx) throws IOException {
        return start(stDir, vertx, "skipContentCheck: true\n", files -> {
        });
    }

    /**
     * Starts ST with the given config.yaml lines added to the loopback-only basics; {@code prepare} gets the
     * default user's files before ST starts (e.g. to lay out its settings).
     */
    public static StServer start(Path stDir, Vertx vertx, String extraConfig, Consumer<UserFiles> prepare) throws IOException {
        Path home = TestServer.tempDir();
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        // ST's defaults listen on loopback only and whitelist it; what differs is spelled out here.
        Path config = home.resolve("config.yaml");
        Files.writeString(config, "listen: false\nwhitelistMode: true\nwhitelist:\n  - 127.0.0.1\n  - ::1\n"
                + "enableUserAccounts: false\nbasicAuthMode: false\n"
                + "browserLaunch:\n  enabled: false\nlogging:\n  enableAccessLog: false\n" + extraConfig);
        prepare.accept(UserFiles.onDisk(home.resolve("data"), "default-user"));
        ProcessBuilder builder = new ProcessBuilder("node", "server.js", "--port", String.valueOf(port),
                "--listen", "false", "--configPath", config.toString(), "--dataRoot", home.resolve("data").toString())
                .directory(stDir.toFile()).redirectErrorStream(true).redirectOutput(home.resolve("st.log").toFile());
        builder.environment().put("SILLYTAVERN_BROWSERLAUNCH_ENABLED", "false");
        Process process = builder.start();
        WebClientSession session = WebClientSession.create(WebClient.create(vertx,
                new WebClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port)));
        StServer st = new StServer(process, home, port, session);
        try {
            st.awaitReady();
            return st;
        } catch (RuntimeException | Error e) {
            st.close();
            throw e;
        }
    }

    private void awaitReady() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException("ST exited:\n" + log());
            }
            try {
                HttpResponse<Buffer> response = TestServer.await(session.get("/csrf-token").send());
                if (response.statusCode() == 200) {
                    csrf = response.bodyAsJsonObject().getString("token");
                    return;
                }
            } catch (RuntimeException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("ST did not start within " + START_TIMEOUT + ":\n" + log());
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    /** The default user's folder. */
    public Path userDir() {
        return home.resolve("data").resolve("default-user");
    }

    /** The default user's files in ST's data root. */
    public UserFiles files() {
        return UserFiles.onDisk(home.resolve("data"), "default-user");
    }

    /** A POST to ST with its CSRF token and session cookie. */
    public HttpRequest<Buffer> request(String path) {
        return session.post(path).putHeader("X-CSRF-Token", csrf);
    }

    /** A POST of a JSON body given as text. */
    public HttpResponse<Buffer> post(String path, String json) {
        return TestServer.Client.send(request(path).putHeader("Content-Type", "application/json"), Buffer.buffer(json));
    }

    /** What ST printed so far. */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        List<ProcessHandle> tree = process.descendants().toList();
        process.destroy();
        tree.forEach(ProcessHandle::destroy);
        try {
            process.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
        }
        TestServer.deleteTree(home);
    }
}
