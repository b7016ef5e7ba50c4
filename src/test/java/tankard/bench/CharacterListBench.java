package tankard.bench;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

import static tankard.bench.BenchServer.median;
import static tankard.bench.BenchServer.time;

/**
 * Load driver for {@code POST /api/characters/all} (see bench/README.md). Builds a library of N synthetic cards
 * (PNG with about 64 KB of incompressible pixels, about 5 KB of card JSON in both card chunks), starts Tankard
 * in its own process on it and times the list: cold (fresh process, no index), warm (second call), restart
 * (fresh process, index on disk), lazy mode, and the server's RSS after the list. The baseline, measured in the
 * same run, is a plain read of the same files (list the folder, read every byte).
 * <p>
 * Usage: {@code bench/characters.sh [N...]} (default 1000 5000).
 */
public final class CharacterListBench {
    private static final int WARM_RUNS = Integer.getInteger("bench.warmRuns", 9);

    public static void main(String[] args) throws Exception {
        List<Integer> sizes = new ArrayList<>();
        for (String arg : args) {
            sizes.add(Integer.parseInt(arg));
        }
        if (sizes.isEmpty()) {
            sizes = List.of(1000, 5000);
        }
        Path root = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath();
        for (int n : sizes) {
            run(root.resolve("n" + n), n);
        }
    }

    private static void run(Path work, int n) throws Exception {
        Path characters = work.resolve("data/default-user/characters");
        long built = buildLibrary(characters, n);
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html>");
        System.out.printf("%nN = %d cards, %d MB on disk (load average %s)%n", n, built >> 20,
                Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);

        double raw = median(() -> rawRead(characters), 3);
        System.out.printf("baseline: raw read of every card file        %8.1f ms%n", raw);

        deleteIndex(work);
        Result full = measure(work, false);
        Result restart = measure(work, false);
        Result lazy = measure(work, true);
        System.out.printf("cold (no index)        %8.1f ms  %5.2fx raw   %4d MB response%n", full.first, full.first / raw, full.bytes >> 20);
        System.out.printf("warm                   %8.1f ms  %5.2fx raw%n", full.warm, full.warm / raw);
        System.out.printf("restart (index saved)  %8.1f ms  %5.2fx raw%n", restart.first, restart.first / raw);
        System.out.printf("lazy warm              %8.1f ms  %5.2fx raw   %4d KB response%n", lazy.warm, lazy.warm / raw, lazy.bytes >> 10);
        System.out.printf("server RSS: idle %d MB; after the lists: cold start %d MB, restart %d MB, lazy %d MB%n",
                full.idleRssMb, full.rssMb, restart.rssMb, lazy.rssMb);
        Path stDir = BenchServer.stDir();
        if (stDir != null) {
            Files.writeString(work.resolve("config.yaml"), "performance:\n  lazyLoadCharacters: false\n");
            try (BenchServer st = BenchServer.sillyTavern(stDir, work.resolve("data"))) {
                double first = time(() -> st.post("/api/characters/all", "{}"));
                double warm = median(() -> st.post("/api/characters/all", "{}"), WARM_RUNS);
                System.out.printf("SillyTavern first list %8.1f ms  %5.2fx raw   (Tankard cold %.2fx of it)%n",
                        first, first / raw, full.first / first);
                System.out.printf("SillyTavern warm       %8.1f ms  %5.2fx raw   (Tankard warm %.2fx of it); RSS %d MB%n",
                        warm, warm / raw, full.warm / warm, st.rssMb());
            }
        }
    }

    private record Result(double first, double warm, long bytes, long idleRssMb, long rssMb) {
    }

    /** Starts a server, lists once (timed), then WARM_RUNS more (median), reads its RSS and stops it. */
    private static Result measure(Path work, boolean lazy) throws Exception {
        Files.writeString(work.resolve("config.yaml"), "performance:\n  lazyLoadCharacters: " + lazy + "\n");
        try (BenchServer server = BenchServer.tankard(work)) {
            long idle = server.rssMb();
            long[] bytes = new long[1];
            double first = time(() -> bytes[0] = server.post("/api/characters/all", "{}"));
            double warm = median(() -> server.post("/api/characters/all", "{}"), WARM_RUNS);
            long count = countElements(server);
            long rss = server.rssMb();
            if (count == 0) {
                throw new IllegalStateException("the list is empty; see " + work.resolve("server.log"));
            }
            return new Result(first, warm, bytes[0], idle, rss);
        }
    }

    /** Untimed check that the answer is a JSON array of characters. */
    private static long countElements(BenchServer server) throws Exception {
        long count = 0;
        try (JsonParser parser = JsJson.MAPPER.getFactory().createParser(server.open("/api/characters/all", "{}"))) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new IllegalStateException("not an array");
            }
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                parser.skipChildren();
                count++;
            }
        }
        return count;
    }

    private static long rawRead(Path folder) throws IOException {
        long total = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder, "*.png")) {
            for (Path file : files) {
                total += Files.readAllBytes(file).length;
            }
        }
        return total;
    }

    private static void deleteIndex(Path work) throws IOException {
        Path cache = work.resolve("data/_cache/tankard-cards");
        if (Files.isDirectory(cache)) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(cache)) {
                for (Path file : files) {
                    Files.delete(file);
                }
            }
        }
    }

    // ---- the synthetic library

    /** Writes the cards that are missing (a library is reused across runs); the total bytes. */
    static long buildLibrary(Path folder, int n) throws IOException {
        Files.createDirectories(folder);
        long total = 0;
        for (int i = 0; i < n; i++) {
            Path file = folder.resolve(String.format("card%05d.png", i));
            if (!Files.exists(file)) {
                Files.write(file, card(i));
            }
            total += Files.size(file);
        }
        return total;
    }

    private static final String[] WORDS = ("the a keeper of old bees lantern harbour quiet storm mead tavern "
            + "road sword song winter river stone smile secret letter candle").split(" ");

    private static String prose(Random random, int length) {
        StringBuilder text = new StringBuilder(length + 16);
        while (text.length() < length) {
            text.append(WORDS[random.nextInt(WORDS.length)]).append(random.nextInt(12) == 0 ? ". " : " ");
        }
        return text.toString();
    }

    /** A V2 card with both chunks, as ST writes them: about 5 KB of JSON. */
    static byte[] card(int i) throws IOException {
        Random random = new Random(i);
        String name = "Card " + i;
        ObjectNode data = JsJson.object().put("name", name).put("description", prose(random, 3000))
                .put("personality", prose(random, 200)).put("scenario", prose(random, 400))
                .put("first_mes", prose(random, 900)).put("mes_example", prose(random, 300))
                .put("creator_notes", "Synthetic card for the benchmark.").put("system_prompt", "")
                .put("post_history_instructions", "").put("creator", "bench").put("character_version", "1.0");
        data.putArray("tags").add("bench").add(WORDS[i % WORDS.length]);
        data.putArray("alternate_greetings");
        data.putObject("extensions").put("talkativeness", "0.5").put("fav", i % 10 == 0).put("world", "");
        ObjectNode card = JsJson.object().put("spec", "chara_card_v2").put("spec_version", "2.0");
        card.set("data", data);
        String v2 = JsJson.compact(card);
        String v3 = v2.replace("\"chara_card_v2\"", "\"chara_card_v3\"").replace("\"spec_version\":\"2.0\"", "\"spec_version\":\"3.0\"");
        return png(random, List.of(text("chara", v2), text("ccv3", v3)));
    }

    private static byte[] text(String keyword, String json) {
        return (keyword + '\0' + Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)))
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    /** 128×128 RGBA of random pixels, stored with the fastest deflate: about 64 KB that does not shrink. */
    private static byte[] png(Random random, List<byte[]> texts) throws IOException {
        int side = 128;
        byte[] raw = new byte[side * (side * 4 + 1)];
        random.nextBytes(raw);
        for (int row = 0; row < side; row++) {
            raw[row * (side * 4 + 1)] = 0; // filter: none
        }
        Deflater deflater = new Deflater(Deflater.BEST_SPEED);
        deflater.setInput(raw);
        deflater.finish();
        ByteArrayOutputStream idat = new ByteArrayOutputStream();
        byte[] buffer = new byte[1 << 16];
        while (!deflater.finished()) {
            idat.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.write(new byte[]{(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
        ByteArrayOutputStream ihdr = new ByteArrayOutputStream();
        DataOutputStream header = new DataOutputStream(ihdr);
        header.writeInt(side);
        header.writeInt(side);
        header.write(new byte[]{8, 6, 0, 0, 0});
        chunk(out, "IHDR", ihdr.toByteArray());
        chunk(out, "IDAT", idat.toByteArray());
        for (byte[] text : texts) {
            chunk(out, "tEXt", text);
        }
        chunk(out, "IEND", new byte[0]);
        return bytes.toByteArray();
    }

    private static void chunk(DataOutputStream out, String type, byte[] data) throws IOException {
        byte[] typeBytes = type.getBytes(StandardCharsets.ISO_8859_1);
        CRC32 crc = new CRC32();
        crc.update(typeBytes);
        crc.update(data);
        out.writeInt(data.length);
        out.write(typeBytes);
        out.write(data);
        out.writeInt((int) crc.getValue());
    }
}
