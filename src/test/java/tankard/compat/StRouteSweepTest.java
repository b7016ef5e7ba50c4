package tankard.compat;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every route SillyTavern 1.18.0 registers (compat-tests/st-routes.tsv, from compat-tests/list-st-routes.py) is
 * one Tankard answers: none is a 404, except those in compat-tests/st-routes-pending.txt, which must all still be
 * 404 so that the list stays true. Each route gets its method (GET for ST's {@code app.use}), its path parameters
 * filled with harmless values, an empty JSON body and a fresh session's CSRF token.
 */
class StRouteSweepTest {
    private static final Path COMPAT = Path.of("compat-tests").toAbsolutePath();
    /** A file laid in each of the user's served folders, so that the user data router's routes find one. */
    private static final String FILE = "sweep.txt";
    private static final Map<String, String> SERVED_FOLDERS = Map.of("/backgrounds/", "backgrounds",
            "/characters/", "characters", "/User%20Avatars/", "User Avatars", "/assets/", "assets",
            "/user/images/", "user/images", "/user/files/", "user/files",
            "/scripts/extensions/third-party/", "extensions");

    record Route(String method, String path) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    @Test
    void everyStRouteIsAnsweredExceptThePendingOnes() throws IOException {
        List<Route> routes = readRoutes();
        assertTrue(routes.size() > 390, "st-routes.tsv has " + routes.size() + " routes");
        TreeSet<String> pending = readPending();
        Path work = TestServer.tempDir();
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>sweep</title>");
        for (String folder : SERVED_FOLDERS.values()) {
            Path dir = work.resolve("data/default-user").resolve(folder);
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(FILE), "sweep");
        }
        TreeSet<String> notFound = new TreeSet<>();
        // the CORS proxy on, so that /proxy/* is the proxy (off, ST answers it 404 too); every outgoing request
        // through a proxy that is not there, so that routes of online services call none of them
        try (TestServer server = TestServer.startIn(work, "--corsProxy", "--requestProxyEnabled", "true",
                "--requestProxyUrl", "http://127.0.0.1:1", "--requestProxyBypass", "none.invalid")) {
            List<Future<HttpResponse<Buffer>>> answers = new ArrayList<>();
            for (Route route : routes) {
                answers.add(send(server, route));
            }
            for (int i = 0; i < routes.size(); i++) {
                if (await(answers.get(i)).statusCode() == 404) {
                    notFound.add(routes.get(i).toString());
                }
            }
        }
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target/st-routes-404.txt"), notFound); // to refresh the pending list from
        TreeSet<String> builtSinceListed = new TreeSet<>(pending);
        builtSinceListed.removeAll(notFound);
        TreeSet<String> missing = new TreeSet<>(notFound);
        missing.removeAll(pending);
        assertEquals(List.of(), List.copyOf(missing), "ST routes Tankard answers 404 (not in st-routes-pending.txt)");
        assertEquals(List.of(), List.copyOf(builtSinceListed), "answered now: remove them from st-routes-pending.txt");
    }

    private static Future<HttpResponse<Buffer>> send(TestServer server, Route route) {
        TestServer.Client client = server.client();
        HttpMethod method = route.method().equals("ALL") ? HttpMethod.GET : HttpMethod.valueOf(route.method());
        var request = client.request(method, harmlessPath(route.path())).timeout(20_000);
        if (method.equals(HttpMethod.GET)) {
            return request.send();
        }
        return request.putHeader("Content-Type", "application/json").sendBuffer(Buffer.buffer("{}"));
    }

    /** Express path parameters filled: a file the test laid for the user's folders, a closed port for the proxy. */
    static String harmlessPath(String path) {
        return path.replaceAll(":\\w+\\??(?!\\()", "sweep")
                .replace(":url(*)", "http://127.0.0.1:9/")
                .replace("*", FILE);
    }

    private static HttpResponse<Buffer> await(Future<HttpResponse<Buffer>> answer) {
        try {
            return answer.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Route> readRoutes() throws IOException {
        List<Route> routes = new ArrayList<>();
        for (String line : Files.readAllLines(COMPAT.resolve("st-routes.tsv"))) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] columns = line.split("\t", -1);
            routes.add(new Route(columns[0], columns[1]));
        }
        return routes;
    }

    static TreeSet<String> readPending() throws IOException {
        TreeSet<String> pending = new TreeSet<>();
        for (String line : Files.readAllLines(COMPAT.resolve("st-routes-pending.txt"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                pending.add(line.strip());
            }
        }
        return pending;
    }
}
