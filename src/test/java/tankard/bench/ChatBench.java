package tankard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;

import static tankard.bench.BenchServer.median;
import static tankard.bench.BenchServer.time;

/**
 * Load driver for chat reads and saves (see bench/README.md): chats of N messages of about 1.25 KB each as ST
 * writes them, timed over loopback HTTP with {@code /api/chats/get} and {@code /api/chats/save} (the body the
 * frontend sends), a 200 MB save, and {@code /api/characters/chats} of a character with 1,000 chats. With
 * {@code TANKARD_ST_DIR} set, a real SillyTavern is timed on the same files in the same run.
 * <p>
 * Usage: {@code bench/chats.sh [N...]} (default 1000 20000 100000).
 */
public final class ChatBench {
    private static final int RUNS = 5;
    private static final int BIG_SAVE_MB = 200;
    private static final int LISTED_CHATS = 1000;

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        for (String arg : args) {
            sizes.add(Integer.parseInt(arg));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(1000, 20000, 100000);
        }
        Path work = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("chats");
        Path data = work.resolve("data");
        Path chats = data.resolve("default-user/chats");
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html>");
        for (int n : sizes) {
            writeChat(chats.resolve("Bench/n" + n + ".jsonl"), n);
        }
        for (int i = 0; i < LISTED_CHATS; i++) {
            writeChat(chats.resolve("List/chat " + i + ".jsonl"), 20);
        }
        System.out.printf("load average %s%n", Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);

        List<String> report = new ArrayList<>();
        try (BenchServer tankard = BenchServer.tankard(work)) {
            measure("Tankard", tankard, chats, sizes, report);
        }
        try (BenchServer st = BenchServer.sillyTavern(BenchServer.stDir(), data)) {
            if (st != null) {
                measure("ST", st, chats, sizes, report);
            }
        }
        report.forEach(System.out::println);
    }

    private static void measure(String server, BenchServer http, Path chats, List<Integer> sizes, List<String> report) throws Exception {
        warmUp(http, chats);
        for (int n : sizes) {
            Path file = chats.resolve("Bench/n" + n + ".jsonl");
            String get = "{\"ch_name\":\"Bench\",\"file_name\":\"n" + n + "\",\"avatar_url\":\"Bench.png\"}";
            byte[] save = saveBody("n" + n, Files.readAllBytes(file));
            int runs = n >= 50_000 ? 3 : RUNS;
            long[] bytes = new long[1];
            double cpu = http.cpuMs();
            double getMs = median(() -> bytes[0] = http.post("/api/chats/get", get), runs);
            double getCpu = (http.cpuMs() - cpu) / runs;
            cpu = http.cpuMs();
            double saveMs = median(() -> http.post("/api/chats/save", save), runs);
            double saveCpu = (http.cpuMs() - cpu) / runs;
            report.add(String.format("%-8s %6d messages, %4d MB: get %7.1f ms (CPU %6.0f ms, %d MB answer), save %7.1f ms (CPU %6.0f ms); RSS %d MB",
                    server, n, Files.size(file) >> 20, getMs, getCpu, bytes[0] >> 20, saveMs, saveCpu, http.rssMb()));
            if (server.equals("Tankard")) {
                report.add(windowed(http, n));
            }
        }
        String list = "{\"avatar_url\":\"List.png\"}";
        double listMs = median(() -> http.post("/api/characters/chats", list), RUNS);
        report.add(String.format("%-8s characters/chats of %d chats: %8.1f ms", server, LISTED_CHATS, listMs));

        int big = BIG_SAVE_MB * 1024 * 1024 / 1300;
        byte[] body = saveBody("big", chatBytes(big));
        String outcome;
        try {
            outcome = String.format("%.1f ms", time(() -> http.post("/api/chats/save", body)));
            outcome += String.format(", file %d MB, RSS %d MB", Files.size(chats.resolve("Bench/big.jsonl")) >> 20, http.rssMb());
        } catch (Exception e) {
            outcome = "failed: " + e.getMessage();
        }
        report.add(String.format("%-8s save of %d MB (%d messages): %s", server, body.length >> 20, big, outcome));
    }

    /** Gets and saves of a 1,000-message chat until the server's compilers are warm (the JVM's and V8's alike). */
    private static void warmUp(BenchServer http, Path chats) throws Exception {
        writeChat(chats.resolve("Bench/warm.jsonl"), 1000);
        byte[] save = saveBody("warm", Files.readAllBytes(chats.resolve("Bench/warm.jsonl")));
        for (int i = 0; i < 30; i++) {
            http.post("/api/chats/get", "{\"ch_name\":\"Bench\",\"file_name\":\"warm\",\"avatar_url\":\"Bench.png\"}");
            http.post("/api/chats/save", save);
        }
    }

    /**
     * Tankard's windowed API on the chat: reading its last 10 messages, saving its last 2 again behind the cursor,
     * appending one message at the end.
     */
    private static String windowed(BenchServer http, int n) throws Exception {
        String chat = "\"avatar_url\":\"Bench.png\",\"file_name\":\"n" + n + "\"";
        String tail = "{" + chat + ",\"count\":2}";
        double readMs = median(() -> http.post("/api/tankard/chats/tail", "{" + chat + ",\"count\":10}"), RUNS);
        double saveMs = medianAfterRead(() -> {
            JsonNode window = JsJson.parse(http.open("/api/tankard/chats/tail", tail).readAllBytes());
            String save = "{" + chat + ",\"cursor\":" + JsJson.compact(window.get("cursor")) + ",\"messages\":"
                    + JsJson.compact(window.get("messages")) + "}";
            return () -> http.post("/api/tankard/chats/tail/save", save);
        });
        double appendMs = appendTime(http, n);
        return String.format("Tankard  %6d messages: windowed read of the last 10 %6.1f ms, windowed save of the last 2 %6.1f ms,"
                + " one message appended %6.1f ms", n, readMs, saveMs, appendMs);
    }

    /** The median time of one message appended to the chat of n messages through Tankard's tail route. */
    static double appendTime(BenchServer http, int n) throws Exception {
        String chat = "\"avatar_url\":\"Bench.png\",\"file_name\":\"n" + n + "\"";
        int[] appended = {0};
        return medianAfterRead(() -> {
            JsonNode cursor = JsJson.parse(http.open("/api/tankard/chats/tail", "{" + chat + ",\"count\":1}")
                    .readAllBytes()).get("cursor");
            String append = "{" + chat + ",\"cursor\":{\"offset\":" + cursor.get("size") + ",\"size\":"
                    + cursor.get("size") + ",\"mtime\":" + cursor.get("mtime") + "},\"messages\":[{\"name\":\"User\","
                    + "\"is_user\":true,\"send_date\":\"December 2, 2026 12:00pm\",\"mes\":\"One more message, number "
                    + appended[0]++ + "\"}]}";
            return () -> http.post("/api/tankard/chats/tail/save", append);
        });
    }

    /** The median time of a save over {@link #RUNS} runs, each after a read for its cursor that is not timed. */
    private static double medianAfterRead(Callable<BenchServer.Task> readThenSave) throws Exception {
        double[] times = new double[RUNS];
        for (int i = 0; i < RUNS; i++) {
            times[i] = time(readThenSave.call());
        }
        Arrays.sort(times);
        return times[RUNS / 2];
    }

    /** The body ST's frontend sends to save the chat (the file's lines as the chat array). */
    static byte[] saveBody(String name, byte[] jsonl) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(jsonl.length + 200);
        body.writeBytes(("{\"ch_name\":\"Bench\",\"file_name\":\"" + name + "\",\"chat\":[").getBytes(StandardCharsets.UTF_8));
        for (byte b : jsonl) {
            body.write(b == '\n' ? ',' : b);
        }
        body.writeBytes("],\"avatar_url\":\"Bench.png\",\"force\":false}".getBytes(StandardCharsets.UTF_8));
        return body.toByteArray();
    }

    /** Writes the chat unless a previous run did. */
    static void writeChat(Path file, int messages) throws IOException {
        if (!Files.exists(file)) {
            Files.createDirectories(file.getParent());
            Files.write(file, chatBytes(messages));
        }
    }

    private static final String[] WORDS = ("the a keeper of old bees lantern harbour quiet storm mead tavern "
            + "road sword song winter river stone smile secret letter candle \"quoted\" naïve café 🍺").split(" ");

    /** A chat as ST writes it: header, then messages of about 1.25 KB, alternating user and character. */
    static byte[] chatBytes(int messages) throws IOException {
        Random random = new Random(messages);
        ByteArrayOutputStream out = new ByteArrayOutputStream(messages * 1300 + 300);
        write(out, "{\"user_name\":\"User\",\"character_name\":\"Bench\",\"create_date\":\"2026-11-30@21h35m08s398ms\","
                + "\"chat_metadata\":{\"integrity\":\"0f1e2d3c-4b5a-4968-8776-655443322110\",\"note_prompt\":\"\","
                + "\"note_interval\":1,\"note_position\":1,\"note_depth\":4,\"note_role\":0,\"tainted\":true,\"lastInContextMessageId\":0}}");
        for (int i = 0; i < messages; i++) {
            boolean user = i % 2 == 1;
            String date = "2026-11-30T21:" + String.format("%02d:%02d.%03dZ", i / 60 % 60, i % 60, i % 1000);
            StringBuilder mes = new StringBuilder();
            while (mes.length() < 880) {
                mes.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(15) == 0 ? ".\\n\\n" : " ");
            }
            String text = mes.toString().replace("\"", "\\\"");
            write(out, "\n{\"name\":\"" + (user ? "User" : "Bench") + "\",\"is_user\":" + user + ",\"is_system\":false,"
                    + "\"send_date\":\"" + date + "\",\"mes\":\"" + text + "\",\"extra\":{\"api\":\"openai\",\"model\":\"bench-model\","
                    + "\"token_count\":" + (200 + random.nextInt(100)) + ",\"reasoning\":\"\",\"gen_id\":" + (1764538508398L + i) + "},"
                    + "\"force_avatar\":\"User Avatars/user-default.png\",\"swipe_id\":0,\"swipes\":[\"(swipe)\"],"
                    + "\"swipe_info\":[{\"send_date\":\"" + date + "\",\"gen_started\":\"" + date + "\",\"extra\":{}}],\"title\":\"\"}");
        }
        return out.toByteArray();
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
    }
}
