package tankard.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.multipart.MultipartForm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tankard.json.JsJson;
import tankard.testing.TestServer;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every ST route (compat-tests/st-routes.tsv) with hostile values in its path parameters and in the request fields
 * its ST file reads (compat-tests/st-request-fields.tsv, from compat-tests/list-st-request-fields.py): each
 * name-like field alone, then every field at once, then as a multipart form with a file part of that name. No answer may be a 5xx or hang, nothing outside the data folder
 * may change (a sentinel folder beside the server's folder included), and none of the user's folders may go. No
 * answer may name the server's folder. Folders that the hostile name {@code default-user} names and that routes
 * would rather find otherwise are there (an extension that is no git checkout, the user's and a global one).
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class HostileInputFuzzTest {
    private static final Path COMPAT = Path.of("compat-tests").toAbsolutePath();
    /** Fields that carry names, paths or URLs: each is tried alone too, so that no other field's check hides it. */
    private static final Pattern NAME_LIKE = Pattern.compile("(?i).*(name|file|avatar|url|server|id|folder|path|char"
            + "|chat|preset|bg|image|handle|title|category|extension|repo|branch|workflow|voice|group|key|source"
            + "|model|type|language|lang|sprite|label|original|renamed|old|new|target|world|tag|format|theme).*");
    private static final int IN_FLIGHT = 24;

    /** The hostile values: traversal in its spellings, absolute paths, NUL, overlong, bidi, device and dot names. */
    static List<JsonNode> hostileValues() {
        List<JsonNode> values = new ArrayList<>();
        for (String text : List.of("../../../outside/sentinel.txt", "..\\..\\..\\outside\\sentinel.txt",
                "....//....//....//outside", "%2e%2e%2f%2e%2e%2foutside", "/etc/passwd", "C:\\Windows\\win.ini",
                "evil\u0000.png", "x".repeat(5000), "\u202Egnp.exe", "con", "CON.png", "nul.jsonl", "aux.json",
                "COM1", "lpt1.txt", ".", "..", "...", "", " ", "file:///etc/passwd", "http://127.0.0.1:1/x",
                "javascript:alert(1)", "default-user")) {
            values.add(JsJson.MAPPER.getNodeFactory().textNode(text));
        }
        for (String json : List.of("0", "-1", "1e308", "true", "null", "[]", "{}", "[\"../x\"]",
                "{\"name\":\"../x\"}")) {
            values.add(JsJson.parse(json));
        }
        return values;
    }

    /** One request: a JSON body, a multipart form (its fields described for the report), or neither. */
    record Probe(HttpMethod method, String path, String body, MultipartForm form, String formFields) {
        Probe(HttpMethod method, String path, String body) {
            this(method, path, body, null, null);
        }

        @Override
        public String toString() {
            return method + " " + path + (body != null ? " " + abbreviated(body)
                    : form != null ? " multipart " + abbreviated(formFields) : "");
        }
    }

    @Test
    void noHostileNameOrUrlGetsA5xxOrChangesAnythingOutsideTheUsersFolders() throws IOException {
        List<StRouteSweepTest.Route> routes = StRouteSweepTest.readRoutes();
        Map<String, List<String>> fields = readFields();
        Map<String, String> fileOfRoute = readRouteFiles();
        Path root = TestServer.tempDir();
        Path work = root.resolve("server");
        Path outside = root.resolve("outside");
        Files.createDirectories(outside);
        Files.writeString(outside.resolve("sentinel.txt"), "must stay");
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html><title>fuzz</title>");
        List<String> failures = new ArrayList<>();
        Map<Integer, Integer> statuses = new TreeMap<>();
        try (TestServer server = TestServer.startIn(work, "--requestProxyEnabled", "true",
                "--requestProxyUrl", "http://127.0.0.1:1", "--requestProxyBypass", "none.invalid")) {
            Path user = server.userDir();
            Set<String> userFolders = folders(user);
            assertTrue(userFolders.containsAll(List.of("characters", "chats", "groups", "worlds")), userFolders.toString());
            Map<String, String> before = snapshot(root, work.resolve("data"));
            List<Path> plainExtensions = List.of(user.resolve("extensions/default-user"),
                    work.resolve("public/scripts/extensions/third-party/default-user"));
            Runnable beforeBatch = () -> plainExtensions.forEach(folder -> { // a probe may have deleted one
                try {
                    Files.createDirectories(folder);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            for (JsonNode value : hostileValues()) {
                List<Probe> probes = new ArrayList<>();
                for (StRouteSweepTest.Route route : routes) {
                    probes.addAll(probes(route, fields.getOrDefault(fileOfRoute.get(route.toString()), List.of()), value));
                }
                failures.addAll(send(server, probes, statuses, beforeBatch, root.toString()));
                Map<String, String> after = snapshot(root, work.resolve("data"));
                if (!after.equals(before)) {
                    failures.add("with " + abbreviated(value.toString()) + " files outside data/ changed: "
                            + changes(before, after));
                    before = after;
                }
                TreeSet<String> gone = new TreeSet<>(userFolders);
                gone.removeAll(folders(user));
                if (!gone.isEmpty()) {
                    failures.add("with " + abbreviated(value.toString()) + " the user's folders went: " + gone);
                    userFolders = folders(user);
                }
            }
        }
        TestServer.deleteTree(root);
        System.out.println("HostileInputFuzzTest answers by status: " + statuses);
        Files.createDirectories(Path.of("target"));
        Files.write(Path.of("target/hostile-input-failures.txt"), failures);
        assertEquals(List.of(), failures.subList(0, Math.min(failures.size(), 200)), failures.size() + " failures");
    }

    /** The route with the value in each path parameter, in each name-like field alone and in all its fields. */
    private static List<Probe> probes(StRouteSweepTest.Route route, List<String> fields, JsonNode value) {
        HttpMethod method = route.method().equals("ALL") ? HttpMethod.GET : HttpMethod.valueOf(route.method());
        String encoded = URLEncoder.encode(value.isTextual() ? value.asText() : value.toString(), StandardCharsets.UTF_8)
                .replace("+", "%20");
        List<Probe> probes = new ArrayList<>();
        String harmless = StRouteSweepTest.harmlessPath(route.path());
        if (route.path().contains(":") || route.path().contains("*")) {
            probes.add(new Probe(method, route.path().replaceAll(":\\w+\\??(\\(\\*\\))?", encoded).replace("*", encoded),
                    method == HttpMethod.GET ? null : "{}"));
        }
        if (method == HttpMethod.GET) {
            for (String field : fields) {
                probes.add(new Probe(method, harmless + "?" + field + "=" + encoded, null));
            }
            return probes;
        }
        ObjectNode all = JsJson.object();
        for (String field : fields) {
            all.set(field, value);
            if (NAME_LIKE.matcher(field).matches()) {
                probes.add(new Probe(method, harmless, JsJson.compact(JsJson.object().set(field, value))));
            }
        }
        probes.add(new Probe(method, harmless, JsJson.compact(all)));
        if (value.isTextual()) {
            probes.add(multipart(harmless, fields, value.asText()));
        }
        return probes;
    }

    /**
     * The route's fields as multipart form fields with the value, and a file part whose name is the value (the
     * uploads' routes read both), the value also as a field over the form decoder's limit.
     */
    private static Probe multipart(String path, List<String> fields, String value) {
        MultipartForm form = MultipartForm.create();
        for (String field : fields) {
            form.attribute(field, value);
        }
        form.attribute("long_field", value + "x".repeat(100_000));
        for (String part : List.of("avatar", "file")) {
            form.binaryFileUpload(part, value, Buffer.buffer("not what it claims"), "image/png");
        }
        return new Probe(HttpMethod.POST, path, null, form, String.join(",", fields) + " = " + value);
    }

    /**
     * Sends the probes a few at a time, each batch with a session of its own (a logout ends its session: that
     * probe has one to itself) and after {@code beforeBatch}; the failures: 5xx answers, answers that hold the
     * server's folder {@code serverPath}, and requests that got no answer.
     */
    private static List<String> send(TestServer server, List<Probe> probes, Map<Integer, Integer> statuses,
                                     Runnable beforeBatch, String serverPath) {
        List<String> failures = new ArrayList<>();
        for (int from = 0; from < probes.size(); from += IN_FLIGHT) {
            beforeBatch.run();
            List<Probe> batch = probes.subList(from, Math.min(probes.size(), from + IN_FLIGHT));
            List<Future<HttpResponse<Buffer>>> answers = new ArrayList<>();
            TestServer.Client session = server.client();
            for (Probe probe : batch) {
                TestServer.Client client = probe.path().contains("logout") ? server.client() : session;
                var request = client.request(probe.method(), probe.path()).timeout(30_000);
                answers.add(probe.form() != null ? request.sendMultipartForm(probe.form())
                        : probe.body() == null ? request.send()
                        : request.putHeader("Content-Type", "application/json").sendBuffer(Buffer.buffer(probe.body())));
            }
            for (int i = 0; i < batch.size(); i++) {
                try {
                    HttpResponse<Buffer> answer = answers.get(i).toCompletionStage().toCompletableFuture()
                            .get(60, TimeUnit.SECONDS);
                    statuses.merge(answer.statusCode(), 1, Integer::sum);
                    String body = String.valueOf(answer.bodyAsString());
                    if (answer.statusCode() >= 500 && !upstreamDown(answer)) {
                        failures.add(batch.get(i) + " -> " + answer.statusCode() + " " + abbreviated(body));
                    } else if (body.contains(serverPath)) {
                        failures.add(batch.get(i) + " -> " + answer.statusCode() + " names the server's folder: "
                                + abbreviated(body));
                    }
                } catch (Exception e) {
                    failures.add(batch.get(i) + " -> no answer: " + e);
                }
            }
        }
        return failures;
    }

    /**
     * A 5xx that is no fault of the input: every outgoing call goes through a proxy that is not there, and an
     * upstream that cannot be reached is a 502 (or 503 where a service is not there).
     */
    private static boolean upstreamDown(HttpResponse<Buffer> answer) {
        return answer.statusCode() == 502 || answer.statusCode() == 503;
    }

    /**
     * Every file and folder under the root but the data folder and ST's folder of global extensions (which an
     * install of one makes), with its size and modification time.
     */
    private static Map<String, String> snapshot(Path root, Path data) throws IOException {
        Map<String, String> files = new TreeMap<>();
        Path globalExtensions = data.resolveSibling("public/scripts");
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : (Iterable<Path>) walk::iterator) {
                if (!path.startsWith(data) && !path.startsWith(globalExtensions)) {
                    files.put(root.relativize(path).toString(), Files.isDirectory(path) ? "dir"
                            : Files.size(path) + "@" + Files.getLastModifiedTime(path).toMillis());
                }
            }
        }
        return files;
    }

    private static String changes(Map<String, String> before, Map<String, String> after) {
        Map<String, String> changed = new TreeMap<>();
        before.forEach((path, state) -> {
            if (!state.equals(after.get(path))) {
                changed.put(path, state + " -> " + after.get(path));
            }
        });
        after.forEach((path, state) -> changed.putIfAbsent(path, before.containsKey(path) ? state : "new"));
        return changed.toString();
    }

    private static Set<String> folders(Path user) throws IOException {
        try (Stream<Path> list = Files.list(user)) {
            return new TreeSet<>(list.filter(Files::isDirectory).map(p -> p.getFileName().toString()).toList());
        }
    }

    /** ST file -> the request fields it reads. */
    private static Map<String, List<String>> readFields() throws IOException {
        Map<String, List<String>> fields = new HashMap<>();
        for (String line : Files.readAllLines(COMPAT.resolve("st-request-fields.tsv"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] columns = line.split("\t", -1);
                fields.put(columns[0], List.of(columns[1].split(",")));
            }
        }
        return fields;
    }

    /** "METHOD path" -> its ST file. */
    private static Map<String, String> readRouteFiles() throws IOException {
        Map<String, String> files = new HashMap<>();
        for (String line : Files.readAllLines(COMPAT.resolve("st-routes.tsv"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                String[] columns = line.split("\t", -1);
                files.put(columns[0] + " " + columns[1], columns[2]);
            }
        }
        return files;
    }

    private static String abbreviated(String text) {
        return text.length() > 160 ? text.substring(0, 160) + "…(" + text.length() + ")" : text;
    }

    @Test
    void theFieldTableCoversTheFilesThatTakeNames() throws IOException {
        Map<String, List<String>> fields = readFields();
        assertTrue(fields.get("src/endpoints/chats.js").containsAll(List.of("avatar_url", "file_name")),
                String.valueOf(fields.get("src/endpoints/chats.js")));
        assertTrue(fields.get("src/endpoints/groups.js").contains("id"), String.valueOf(fields.get("src/endpoints/groups.js")));
    }
}
