package tankard.bench;

import tankard.json.JsJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A server under benchmark in its own process (Tankard as bin/tankard runs it, or a real SillyTavern), with a
 * cookie- and CSRF-keeping client, and the timing helpers the benches share.
 */
final class BenchServer implements AutoCloseable {
    private final Process process;
    private final int port;
    private final String token;
    private String cookies = "";

    private BenchServer(ProcessBuilder builder, int port, Path log) throws Exception {
        this.port = port;
        this.process = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            this.token = csrfToken(log);
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    /** Tankard on the working folder (config.yaml, data/), with bin/jvm.options then TANKARD_JAVA_OPTS. */
    static BenchServer tankard(Path work) throws Exception {
        return tankard(work, List.of("@" + Path.of("bin/jvm.options").toAbsolutePath())); // as bin/tankard runs it
    }

    /** Tankard on the working folder with these JVM options (none: the JVM's defaults), then TANKARD_JAVA_OPTS. */
    static BenchServer tankard(Path work, List<String> jvmOptions) throws Exception {
        return tankard(work, jvmOptions, freePort());
    }

    /** Tankard on the working folder and that port, with these JVM options, then TANKARD_JAVA_OPTS. */
    static BenchServer tankard(Path work, List<String> jvmOptions, int port) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(jvmOptions);
        String opts = System.getenv("TANKARD_JAVA_OPTS");
        if (opts != null && !opts.isBlank()) {
            command.addAll(List.of(opts.trim().split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "tankard.Main", "--port", String.valueOf(port)));
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile());
        builder.environment().put("SILLYTAVERN_SKIPCONTENTCHECK", "true");
        return new BenchServer(builder, port, work.resolve("server.log"));
    }

    /**
     * nginx (Debian's package) on a free loopback port before the servers on those ports, as docs/operations.md
     * sets it up: each request on a connection of its own to the next server, a refused one or a stopping node's 503
     * passed to the other (which takes the body nginx buffered).
     */
    static BenchServer nginx(Path work, int... upstreams) throws Exception {
        int port = freePort();
        Files.createDirectories(work.resolve("temp"));
        StringBuilder servers = new StringBuilder();
        for (int upstream : upstreams) {
            servers.append("    server 127.0.0.1:").append(upstream).append(" max_fails=1 fail_timeout=2s;\n");
        }
        Path conf = work.resolve("nginx.conf");
        Files.writeString(conf, "daemon off;\nworker_processes 1;\npid " + work.resolve("nginx.pid") + ";\n"
                + "error_log " + work.resolve("nginx-error.log") + " warn;\nevents { worker_connections 4096; }\n"
                + "http {\n  access_log off;\n  client_max_body_size 1g;\n"
                + "  client_body_temp_path " + work.resolve("temp") + ";\n  proxy_temp_path " + work.resolve("temp") + ";\n"
                + "  fastcgi_temp_path " + work.resolve("temp") + ";\n  uwsgi_temp_path " + work.resolve("temp") + ";\n"
                + "  scgi_temp_path " + work.resolve("temp") + ";\n  upstream tankard {\n" + servers + "  }\n"
                + "  server {\n    listen 127.0.0.1:" + port + ";\n    location / {\n      proxy_pass http://tankard;\n"
                + "      proxy_set_header Host $host;\n      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n"
                + "      proxy_buffering off;\n      proxy_read_timeout 600s;\n"
                + "      proxy_next_upstream error timeout http_503 non_idempotent;\n    }\n  }\n}\n");
        ProcessBuilder builder = new ProcessBuilder(System.getenv().getOrDefault("NGINX", "/usr/sbin/nginx"),
                "-p", work.toString(), "-c", conf.toString());
        return new BenchServer(builder, port, work.resolve("nginx.log"));
    }

    int port() {
        return port;
    }

    /** A SillyTavern install (read only) serving the data root, or null when {@code stDir} is null. */
    static BenchServer sillyTavern(Path stDir, Path dataRoot) throws Exception {
        if (stDir == null) {
            return null;
        }
        int port = freePort();
        ProcessBuilder builder = new ProcessBuilder("node", "server.js", "--port", String.valueOf(port),
                "--dataRoot", dataRoot.toString()).directory(stDir.toFile());
        builder.environment().putAll(Map.of("SILLYTAVERN_BROWSERLAUNCH_ENABLED", "false", "NODE_ENV", "production"));
        return new BenchServer(builder, port, dataRoot.resolveSibling("st.log"));
    }

    /** The SillyTavern to compare with: {@code TANKARD_ST_DIR}, when set. */
    static Path stDir() {
        String dir = System.getenv("TANKARD_ST_DIR");
        return dir == null || dir.isBlank() ? null : Path.of(dir);
    }

    private String csrfToken(Path log) throws Exception {
        for (int i = 0; i < 1200; i++) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the server exited; see " + log);
            }
            try {
                HttpURLConnection r = (HttpURLConnection) uri("/csrf-token").toURL().openConnection();
                if (r.getResponseCode() == 200) {
                    List<String> set = new ArrayList<>();
                    r.getHeaderFields().forEach((name, values) -> {
                        if ("Set-Cookie".equalsIgnoreCase(name)) {
                            set.addAll(values);
                        }
                    });
                    cookies = String.join("; ", set.stream().map(c -> c.split(";", 2)[0]).toList());
                    try (InputStream in = r.getInputStream()) {
                        return JsJson.parse(in.readAllBytes()).get("token").asText();
                    }
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the server did not start; see " + log);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** The session cookie and CSRF token a request of this client's session carries. */
    Map<String, String> sessionHeaders() {
        return Map.of("X-CSRF-Token", token, "Cookie", cookies);
    }

    /**
     * A JSON POST with the session cookie and CSRF token, its body streamed. HttpURLConnection rather than
     * java.net.http: it reads straight from the socket, where the latter's hand-overs between threads cost
     * more than the servers' own work for a chat of 25 MB.
     */
    private HttpURLConnection send(String path, byte[] body) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) uri(path).toURL().openConnection();
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setReadTimeout(600_000);
        connection.setFixedLengthStreamingMode(body.length);
        connection.setRequestProperty("Content-Type", "application/json");
        sessionHeaders().forEach(connection::setRequestProperty);
        try (OutputStream out = connection.getOutputStream()) {
            out.write(body);
        }
        return connection;
    }

    /** GETs the path and reads the whole answer without keeping it; its length. Fails unless 200. */
    long get(String path) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) uri(path).toURL().openConnection();
        sessionHeaders().forEach(connection::setRequestProperty);
        return drain(path, connection);
    }

    /** POSTs the JSON body; the answer to read. */
    InputStream open(String path, String body) throws Exception {
        return send(path, body.getBytes(StandardCharsets.UTF_8)).getInputStream();
    }

    /** POSTs the JSON body and reads the whole answer without keeping it; its length. Fails unless 200. */
    long post(String path, byte[] body) throws Exception {
        return drain(path, send(path, body));
    }

    private static long drain(String path, HttpURLConnection r) throws Exception {
        if (r.getResponseCode() != 200) {
            try (InputStream error = r.getErrorStream()) {
                throw new IllegalStateException(path + " answered " + r.getResponseCode() + ": "
                        + (error == null ? "" : new String(error.readNBytes(300), StandardCharsets.UTF_8)));
            }
        }
        long total = 0;
        try (InputStream in = r.getInputStream()) {
            byte[] buffer = new byte[1 << 16];
            for (int k; (k = in.read(buffer)) >= 0; ) {
                total += k;
            }
        }
        return total;
    }

    long post(String path, String body) throws Exception {
        return post(path, body.getBytes(StandardCharsets.UTF_8));
    }

    /** The server's resident memory in MB. */
    long rssMb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + process.pid() + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) >> 10;
            }
        }
        return -1;
    }

    /** The server's CPU time so far (user + system, all threads), in ms: what an operation costs on a busy machine. */
    double cpuMs() throws IOException {
        String stat = Files.readString(Path.of("/proc/" + process.pid() + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10.0; // utime, stime in 1/100 s
    }

    /** Kills the server at once (SIGKILL): no shutdown hook runs, as in a crash. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor();
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @FunctionalInterface
    interface Task {
        Object run() throws Exception;
    }

    static double time(Task task) throws Exception {
        long start = System.nanoTime();
        task.run();
        return (System.nanoTime() - start) / 1e6;
    }

    static double median(Task task, int runs) throws Exception {
        double[] times = new double[runs];
        for (int i = 0; i < runs; i++) {
            times[i] = time(task);
        }
        Arrays.sort(times);
        return times[runs / 2];
    }
}
