package tankard.testing;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.ext.web.client.WebClientSession;
import tankard.store.AtomicFiles;
import tankard.store.DocumentStore;
import tankard.user.User;
import tankard.Tankard;
import tankard.config.ConfigLoader;
import tankard.config.TankardConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Tankard on a random loopback port over a temp data root, and a browser-like client for it
 * (cookies kept, CSRF token sent). Blocking helpers keep tests short; each test gets its own server.
 */
public final class TestServer implements AutoCloseable {
    public final Vertx vertx;
    public final Tankard tankard;
    public final Path dataRoot;
    public final Path workDir;
    private final WebClient plain;
    /** For requests a test reads as they stream. Held here: Vert.x closes a client no one holds once it is collected. */
    private final HttpClient streaming;

    /**
     * With {@code -Dtankard.test.storage=postgres} every server keeps its data in a scratch database of its own (see
     * the {@code postgres} execution of the surefire plugin in pom.xml); otherwise in files.
     */
    private static final boolean ON_POSTGRES = "postgres".equals(System.getProperty("tankard.test.storage"));

    /** The scratch database of this server on PostgreSQL, dropped when it closes; null on files. */
    private final PgScratch database;
    /** The environment variables the test gave this server (a database's settings among them, if it gave one). */
    private final Map<String, String> givenEnv;

    private TestServer(Tankard tankard, Path workDir, PgScratch database, Map<String, String> givenEnv) {
        this.vertx = tankard.vertx();
        this.tankard = tankard;
        this.workDir = workDir;
        this.database = database;
        this.givenEnv = givenEnv;
        this.dataRoot = tankard.config().dataRoot();
        this.plain = WebClient.create(vertx, new WebClientOptions().setDefaultHost("127.0.0.1")
                .setDefaultPort(tankard.port()).setFollowRedirects(false));
        this.streaming = vertx.createHttpClient(new PoolOptions().setHttp1MaxSize(64));
    }

    /** A raw HTTP client on this server's Vert.x, for answers a test reads as they stream. */
    public HttpClient streamingClient() {
        return streaming;
    }

    /** Starts a server with the given extra command-line flags and config.yaml text (may be null). */
    public static TestServer start(String configYaml, String... flags) {
        return start(configYaml, Map.of(), flags);
    }

    /** {@link #start(String, String...)} with these environment variables added to the test ones. */
    public static TestServer start(String configYaml, Map<String, String> env, String... flags) {
        Path work = tempDir();
        try {
            if (configYaml != null) {
                Files.writeString(work.resolve("config.yaml"), configYaml);
            }
            Files.createDirectories(work.resolve("public"));
            Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title><link rel=\"icon\" href=\"data:,\">");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return startIn(work, env, flags);
    }

    public static TestServer start() {
        return start(null);
    }

    /** config.yaml text sending the calls meant for each provider origin to its target ({@code tankard.providerOrigins}). */
    public static String providerOrigins(Map<String, String> targets) {
        StringBuilder yaml = new StringBuilder("tankard:\n  providerOrigins:\n");
        targets.forEach((origin, target) -> yaml.append("    \"").append(origin).append("\": \"").append(target).append("\"\n"));
        return yaml.toString();
    }

    /** Starts a server in a prepared working folder (config.yaml, public/, data/ as the test laid them). */
    public static TestServer startIn(Path work, String... flags) {
        return startIn(work, Map.of(), flags);
    }

    /**
     * A server on the scratch database whose connections go through the relay (so that a test can take the
     * database away), with a page of its own to load, and these environment variables besides.
     */
    public static TestServer startThrough(TcpRelay relay, PgScratch database, Map<String, String> more)
            throws IOException {
        Map<String, String> env = new java.util.HashMap<>(database.environment());
        env.put("SILLYTAVERN_TANKARD_POSTGRES_PORT", String.valueOf(relay.port()));
        env.putAll(more);
        Path work = tempDir();
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>Tankard test</title>");
        return startIn(work, env);
    }

    /** As {@link #startIn(Path, String...)}, with these environment variables added to the test ones. */
    public static TestServer startIn(Path work, Map<String, String> env, String... flags) {
        PgScratch database = ON_POSTGRES && !env.containsKey("SILLYTAVERN_TANKARD_STORAGE") ? PgScratch.create() : null;
        return startIn(work, env, database, flags);
    }

    private static TestServer startIn(Path work, Map<String, String> env, PgScratch database, String... flags) {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--instances", "1"));
        args.addAll(List.of(flags));
        Map<String, String> environment = new java.util.HashMap<>(environment(work));
        if (database != null) {
            environment.putAll(database.environment());
        }
        environment.putAll(env);
        try {
            TankardConfig config = ConfigLoader.load(args.toArray(String[]::new), environment, work);
            Tankard tankard = await(Tankard.start(config));
            return new TestServer(tankard, work, database, env);
        } catch (RuntimeException e) {
            if (database != null) {
                database.close();
            }
            throw e;
        }
    }

    /**
     * Tests start from an empty user folder unless their config.yaml says otherwise: default content would
     * otherwise be in every listing. Tests of seeding set {@code skipContentCheck: false}.
     */
    private static Map<String, String> environment(Path work) {
        Path yaml = work.resolve("config.yaml");
        try {
            if (Files.exists(yaml) && Files.readString(yaml).contains("skipContentCheck")) {
                return Map.of();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.of("SILLYTAVERN_SKIPCONTENTCHECK", "true");
    }

    public static Path tempDir() {
        try {
            return Files.createTempDirectory("tankard-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return tankard.port();
    }

    /** {@link #secondNode(Map)} with this server's environment. */
    public TestServer secondNode() {
        return secondNode(Map.of());
    }

    /**
     * Another Tankard on this server's PostgreSQL database, as a second node behind a proxy is: a working folder and
     * data root of its own, this server's config.yaml, the same database. {@code env} adds to the environment (such as
     * {@code SILLYTAVERN_TANKARD_POSTGRES_PORT} of a relay to the database). Close it before this server, whose
     * scratch database goes with it.
     */
    public TestServer secondNode(Map<String, String> env) {
        if (tankard.config().storage().kind() != TankardConfig.Storage.Kind.POSTGRES) {
            throw new IllegalStateException("a second node shares a PostgreSQL database: start this server on one");
        }
        Map<String, String> environment = new java.util.HashMap<>(database == null ? Map.of() : database.environment());
        environment.putAll(givenEnv);
        environment.putAll(env);
        Path yaml = workDir.resolve("config.yaml");
        try {
            return start(Files.exists(yaml) ? Files.readString(yaml) : null, environment);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** The default user's folder. */
    public Path userDir() {
        return dataRoot.resolve("default-user");
    }

    /** The users' documents (settings, secrets, presets, …) in this server's store, files or database. */
    public DocumentStore documents() {
        return tankard.documents();
    }

    /** Writes a document of the default user through the server's store, as a test's starting state. */
    public void putDocument(DocumentStore.Folder folder, String name, String content) {
        documents().write(User.DEFAULT_HANDLE, folder, name, content.getBytes(StandardCharsets.UTF_8));
    }

    /** A document of the default user as its store holds it, as text; a test fails when there is none. */
    public String document(DocumentStore.Folder folder, String name) {
        return new String(documents().read(User.DEFAULT_HANDLE, folder, name)
                .orElseThrow(() -> new AssertionError("No document " + folder.stName() + "/" + name)), StandardCharsets.UTF_8);
    }

    /** Whether the default user has that document. */
    public boolean hasDocument(DocumentStore.Folder folder, String name) {
        return documents().read(User.DEFAULT_HANDLE, folder, name).isPresent();
    }

    /** The default user's files by their path in ST's layout, through the stores that keep them. */
    public UserFiles files() {
        return UserFiles.of(tankard, User.DEFAULT_HANDLE);
    }

    /** A user's files by their path in ST's layout, through the stores that keep them. */
    public UserFiles files(String handle) {
        return UserFiles.of(tankard, handle);
    }

    /**
     * A client of this server with another client's cookies and CSRF token: the same browser, sent to this node
     * by a proxy.
     */
    public Client sameBrowser(Client other) {
        Client client = new Client(WebClientSession.create(plain, other.session.cookieStore()));
        client.csrf = other.csrf;
        return client;
    }

    /** A client without cookies or CSRF token: what a stranger's first request looks like. */
    public WebClient plainClient() {
        return plain;
    }

    /** A client that keeps cookies and has fetched its CSRF token, like the ST frontend after boot. */
    public Client client() {
        Client client = new Client(WebClientSession.create(plain));
        client.refreshCsrf();
        return client;
    }

    public static <T> T await(io.vertx.core.Future<T> future) {
        return await(future.toCompletionStage().toCompletableFuture());
    }

    public static <T> T await(java.util.concurrent.CompletableFuture<T> future) {
        try {
            return future.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e.getCause() != null ? e.getCause() : e);
        }
    }

    /** Stops this server and starts a new one on the same folders, with a new config.yaml text. */
    public TestServer restart(String configYaml) {
        await(tankard.close());
        try {
            Files.writeString(workDir.resolve("config.yaml"), configYaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return startIn(workDir, Map.of(), database, new String[0]);
    }

    @Override
    public void close() {
        await(tankard.close());
        if (database != null) {
            database.close();
        }
        deleteTree(workDir);
    }

    /** Deletes a test's folder; what a server thread still writes there (a git clone being cut off) may stay. */
    public static void deleteTree(Path root) {
        try {
            AtomicFiles.deleteTree(root);
        } catch (UncheckedIOException stillChanging) {
            // a temp folder left behind is harmless
        }
    }

    /** A cookie-keeping client that sends {@code X-CSRF-Token} on every request. */
    public static final class Client {
        public final WebClientSession session;
        private String csrf;

        Client(WebClientSession session) {
            this.session = session;
        }

        public String csrfToken() {
            return csrf;
        }

        public void refreshCsrf() {
            HttpResponse<Buffer> r = send(session.get("/csrf-token"), null);
            csrf = r.bodyAsJsonObject().getString("token");
        }

        public HttpRequest<Buffer> request(HttpMethod method, String path) {
            HttpRequest<Buffer> request = session.request(method, path);
            if (csrf != null) {
                request.putHeader("X-CSRF-Token", csrf);
            }
            return request;
        }

        public HttpResponse<Buffer> get(String path) {
            return send(request(HttpMethod.GET, path), null);
        }

        /** POST with a JSON body given as text (null: no body, no content type). */
        public HttpResponse<Buffer> post(String path, String json) {
            HttpRequest<Buffer> request = request(HttpMethod.POST, path);
            if (json != null) {
                request.putHeader("Content-Type", "application/json");
            }
            return send(request, json == null ? null : Buffer.buffer(json));
        }

        /** POST of a multipart form (with the session and CSRF token). */
        public HttpResponse<Buffer> postForm(String path, io.vertx.ext.web.multipart.MultipartForm form) {
            return await(request(HttpMethod.POST, path).sendMultipartForm(form));
        }

        public static HttpResponse<Buffer> send(HttpRequest<Buffer> request, Buffer body) {
            var future = body == null ? request.send() : request.sendBuffer(body);
            return await(future);
        }
    }
}
