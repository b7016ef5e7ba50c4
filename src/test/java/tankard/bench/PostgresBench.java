package tankard.bench;

import tankard.json.JsJson;
import tankard.store.AtomicFiles;
import tankard.testing.DataTrees;
import tankard.testing.TestImages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static tankard.bench.BenchServer.median;
import static tankard.bench.BenchServer.time;

/**
 * The file store and the PostgreSQL store side by side in one run (bench/postgres.sh, see bench/README.md): a
 * library of N cards and a chat of M messages on files, the same data loaded into a database of its own with
 * {@code import-data}, and on each, as bin/tankard runs it: the first {@code characters/all} after a start (cold)
 * and the median of the next ones (warm), {@code chats/get} of the chat, a whole-chat {@code chats/save} whose only
 * change is one new message, one message appended through the tail route, and the resident memory after it all.
 * <p>
 * Usage: {@code bench/postgres.sh [cards] [messages]} (default 5000 20000). The database is
 * {@code tankard_bench} on 127.0.0.1:5432 as {@code PGUSER} (postgres), made anew each run.
 */
public final class PostgresBench {
    private static final int RUNS = 5;
    private static final int WARM_RUNS = 9;
    private static final String DATABASE = "tankard_bench";

    public static void main(String[] args) throws Exception {
        int cards = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int messages = args.length > 1 ? Integer.parseInt(args[1]) : 20000;
        Path root = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("postgres");
        Path files = root.resolve("files");
        Path postgres = root.resolve("postgres");
        CharacterListBench.buildLibrary(files.resolve("data/default-user/characters"), cards);
        ChatBench.writeChat(files.resolve("data/default-user/chats/Bench/n" + messages + ".jsonl"), messages);
        writeTheRest(files.resolve("data/default-user"));
        for (Path work : List.of(files, postgres)) {
            Files.createDirectories(work.resolve("public"));
            Files.writeString(work.resolve("public/index.html"), "<!doctype html>");
        }
        String user = System.getenv().getOrDefault("PGUSER", "postgres");
        String password = System.getenv().getOrDefault("PGPASSWORD", "");
        admin("DROP DATABASE IF EXISTS " + DATABASE + " WITH (FORCE)", user, password);
        admin("CREATE DATABASE " + DATABASE, user, password);
        Files.writeString(postgres.resolve("config.yaml"), "tankard:\n  storage: postgres\n  postgres:\n"
                + "    database: " + DATABASE + "\n    user: " + user + "\n    password: \"" + password + "\"\n");
        if (Files.exists(postgres.resolve("data"))) {
            AtomicFiles.deleteTree(postgres.resolve("data")); // import-data loads into an empty data root
        }
        double importMs = time(() -> dataCommand(postgres, "import-data", "--from", files.resolve("data").toString()));
        System.out.printf("%d cards, a chat of %d messages (%d MB); import-data into PostgreSQL %.0f ms; load average %s%n",
                cards, messages, Files.size(files.resolve("data/default-user/chats/Bench/n" + messages + ".jsonl")) >> 20,
                importMs, Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);

        Path exported = root.resolve("exported");
        if (Files.exists(exported)) {
            AtomicFiles.deleteTree(exported);
        }
        double exportMs = time(() -> dataCommand(postgres, "export-data", "--to", exported.toString()));
        Map<String, String> before = DataTrees.tree(files.resolve("data"));
        Map<String, String> after = DataTrees.tree(exported);
        List<String> differing = new ArrayList<>(before.keySet());
        differing.addAll(after.keySet().stream().filter(path -> !before.containsKey(path)).toList());
        differing.removeIf(path -> Objects.equals(before.get(path), after.get(path)));
        System.out.printf("export-data %.0f ms; of %d files, %d differ after import and export%s%n", exportMs,
                before.size(), differing.size(), differing.isEmpty() ? "" : ": " + differing.subList(0, Math.min(5, differing.size())));

        Map<String, double[]> figures = new LinkedHashMap<>();
        List<Path> works = List.of(files, postgres);
        for (int store = 0; store < 2; store++) {
            try (BenchServer server = BenchServer.tankard(works.get(store))) {
                measure(server, messages, store, figures);
            }
        }
        System.out.printf("%-44s %10s %10s %7s%n", "", "files", "postgres", "ratio");
        figures.forEach((name, v) -> System.out.printf("%-44s %10.1f %10.1f %7.2f%n", name, v[0], v[1], v[1] / v[0]));
    }

    private static void measure(BenchServer server, int messages, int store, Map<String, double[]> figures)
            throws Exception {
        figures.computeIfAbsent("characters/all cold (ms)", k -> new double[2])[store] =
                time(() -> server.post("/api/characters/all", "{}"));
        figures.computeIfAbsent("characters/all warm (ms)", k -> new double[2])[store] =
                median(() -> server.post("/api/characters/all", "{}"), WARM_RUNS);
        String get = "{\"ch_name\":\"Bench\",\"file_name\":\"n" + messages + "\",\"avatar_url\":\"Bench.png\"}";
        figures.computeIfAbsent("chats/get (ms)", k -> new double[2])[store] =
                median(() -> server.post("/api/chats/get", get), RUNS);
        byte[] chat = server.open("/api/chats/get", get).readAllBytes();
        List<byte[]> saves = new ArrayList<>();
        StringBuilder lines = new StringBuilder(jsonl(chat));
        for (int i = 0; i < RUNS; i++) {
            lines.append("\n{\"name\":\"User\",\"is_user\":true,\"is_system\":false,\"send_date\":\"December 5, 2026 3:0")
                    .append(i).append("am\",\"mes\":\"A new message, number ").append(i).append("\",\"extra\":{}}");
            saves.add(ChatBench.saveBody("n" + messages, lines.toString().getBytes(StandardCharsets.UTF_8)));
        }
        int[] next = {0};
        figures.computeIfAbsent("chats/save, one new message (ms)", k -> new double[2])[store] =
                median(() -> server.post("/api/chats/save", saves.get(next[0]++)), RUNS);
        figures.computeIfAbsent("one message appended, tail route (ms)", k -> new double[2])[store] =
                ChatBench.appendTime(server, messages);
        figures.computeIfAbsent("resident memory after (MB)", k -> new double[2])[store] = server.rssMb();
    }

    /** The chat as JSONL lines from its chats/get answer (a JSON array of the lines' objects). */
    private static String jsonl(byte[] answer) {
        StringBuilder out = new StringBuilder();
        for (var line : JsJson.parse(answer)) {
            out.append(out.isEmpty() ? "" : "\n").append(JsJson.compact(line));
        }
        return out.toString();
    }

    static int dataCommand(Path work, String... command) throws Exception {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "tankard.Main"));
        line.addAll(List.of(command));
        Path log = work.resolve(command[0] + ".log");
        Process process = new ProcessBuilder(line).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(command[0] + " failed: see " + log);
        }
        return 0;
    }

    /** What else a user has, once each: settings, a lorebook, an image, a Data Bank file, a vector index file. */
    private static void writeTheRest(Path user) throws IOException {
        Map<String, byte[]> files = Map.of(
                "settings.json", "{\n    \"username\": \"User\",\n    \"main_api\": \"openai\"\n}".getBytes(StandardCharsets.UTF_8),
                "worlds/Lore.json", "{\"entries\":{\"0\":{\"uid\":0,\"key\":[\"tavern\"],\"content\":\"A tankard.\"}}}"
                        .getBytes(StandardCharsets.UTF_8),
                "user/images/Bench/picture.png", TestImages.image("png", 64, 64),
                "user/files/notes_1.txt", "A Data Bank file.\n".getBytes(StandardCharsets.UTF_8),
                "vectors/transformers/bench/index.json", "[]".getBytes(StandardCharsets.UTF_8));
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Path path = user.resolve(file.getKey());
            Files.createDirectories(path.getParent());
            Files.write(path, file.getValue());
        }
    }

    static void admin(String sql, String user, String password) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", user, password);
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
