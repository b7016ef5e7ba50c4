package tankard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import tankard.json.JsJson;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static tankard.bench.BenchServer.median;
import static tankard.bench.BenchServer.time;

/**
 * The chat engine building a prompt (see bench/README.md): {@code /api/tankard/prompt} on a chat of N messages
 * (default 20,000) with a lorebook of 1,000 entries, a summary and vector recall on the embedded model, for chat
 * completion and for text completion with an instruct template. Each setup is timed cold (its first prompt after
 * the server starts; for vectors, after the chat's collection was filled by a first prompt, the data root emptied
 * at each run) and warm (the median of 30), next to the same chat's {@code /api/chats/get} as the baseline of
 * reading it.
 * <p>
 * Usage: {@code bench/engine.sh [messages] [entries]}.
 */
public final class EngineBench {
    /** Warm runs per setup; more (-Dbench.warm=300) to profile the warm path. */
    private static final int WARM_RUNS = Integer.getInteger("bench.warm", 30);
    /** Prompts run and not timed between the cold one and the warm ones: the JIT's and the caches' warm-up. */
    private static final int WARM_UP = Integer.getInteger("bench.warmup", 50);
    private static final String[] WORDS = ("the a keeper of old bees lantern harbour quiet storm mead tavern "
            + "river stone orchard hive smoke ember north gate cellar map candle").split(" ");

    private EngineBench() {
    }

    public static void main(String[] args) throws Exception {
        int messages = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int entries = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        Path work = Path.of(System.getProperty("bench.dir", "target/bench")).toAbsolutePath().resolve("engine");
        Path user = work.resolve("data/default-user");
        // the collection is filled afresh, and timed; -Dbench.keepVectors=true keeps an earlier run's (to profile)
        Path collections = user.resolve("vectors");
        Path kept = work.resolve("vectors.kept");
        boolean keep = Boolean.getBoolean("bench.keepVectors") && Files.isDirectory(collections);
        if (keep) {
            VectorBench.deleteTree(kept);
            Files.move(collections, kept);
        }
        VectorBench.deleteTree(work.resolve("data"));
        if (keep) {
            Files.createDirectories(user);
            Files.move(kept, collections);
        }
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html>");
        Files.createDirectories(user.resolve("characters"));
        Files.createDirectories(user.resolve("chats/Bench"));
        Files.createDirectories(user.resolve("worlds"));
        Files.write(user.resolve("characters/Bench.png"), card());
        writeChat(user.resolve("chats/Bench/long.jsonl"), messages);
        Files.writeString(user.resolve("worlds/Lore.json"), JsJson.compact(book(entries)));
        System.out.printf("load average %s; %d messages, %d world info entries%n",
                Files.readString(Path.of("/proc/loadavg")).split(" ")[0], messages, entries);

        String chat = "{\"avatar_url\":\"Bench.png\",\"file_name\":\"long\",\"action\":\"regenerate\","
                + "\"now\":\"2026-01-01T10:00:00Z\"}";
        List<String> report = new ArrayList<>();
        report.add("| setup | cold ms | warm ms (median of " + WARM_RUNS + ") | prompt KB |");
        report.add("|---|---|---|---|");
        String[][] setups = {
                {"chats/get (reading the chat, the baseline)", null},
                {"chat completion, nothing else", settings(false, false, false)},
                {"chat completion + lorebook + summary", settings(false, true, false)},
                {"chat completion + lorebook + summary + vectors", settings(false, true, true)},
                {"text completion (instruct) + lorebook + summary + vectors", settings(true, true, true)},
        };
        String only = System.getProperty("bench.only", ""); // setup numbers to run, e.g. "2,3"
        for (int s = 0; s < setups.length; s++) {
            String[] setup = setups[s];
            if (!only.isEmpty() && !List.of(only.split(",")).contains(String.valueOf(s))) {
                continue;
            }
            if (setup[1] != null) {
                Files.writeString(user.resolve("settings.json"), setup[1]);
            }
            try (BenchServer tankard = BenchServer.tankard(work)) {
                boolean vectors = setup[1] != null && setup[1].contains("\"enabled_chats\":true");
                if (setup[1] == null) {
                    String get = "{\"avatar_url\":\"Bench.png\",\"file_name\":\"long\",\"ch_name\":\"Bench\"}";
                    double cold = time(() -> tankard.post("/api/chats/get", get));
                    for (int i = 0; i < WARM_UP; i++) {
                        tankard.post("/api/chats/get", get);
                    }
                    double warm = median(() -> tankard.post("/api/chats/get", get), WARM_RUNS);
                    report.add(String.format("| %s | %.1f | %.1f | |", setup[0], cold, warm));
                    continue;
                }
                if (vectors) { // the first prompt fills the chat's collection: timed apart
                    double fill = time(() -> tankard.post("/api/tankard/prompt", chat));
                    report.add(String.format("| (filling the collection: %d messages embedded) | %.0f | | |",
                            messages, fill));
                    awaitFolded(user.resolve("vectors"));
                }
                double cold = time(() -> tankard.post("/api/tankard/prompt", chat));
                for (int i = 0; i < WARM_UP; i++) {
                    tankard.post("/api/tankard/prompt", chat);
                }
                double warm = median(() -> tankard.post("/api/tankard/prompt", chat), WARM_RUNS);
                JsonNode answer;
                try (InputStream in = tankard.open("/api/tankard/prompt", chat)) {
                    answer = JsJson.parse(in.readAllBytes());
                }
                String request = answer.path("request").toString();
                if (vectors && !request.contains("Past events:")) {
                    throw new IllegalStateException("no vector recall in the prompt: " + answer.path("itemization"));
                }
                report.add(String.format("| %s | %.1f | %.1f | %d |", setup[0], cold, warm, request.length() / 1024));
                if (!vectors && setup[1].contains("Lore")) { // a new version of the chat is read and parsed again
                    Path file = user.resolve("chats/Bench/long.jsonl");
                    long[] touched = {Files.getLastModifiedTime(file).toMillis()};
                    double changed = median(() -> {
                        Files.setLastModifiedTime(file, FileTime.fromMillis(touched[0] += 1000));
                        return tankard.post("/api/tankard/prompt", chat);
                    }, WARM_RUNS);
                    report.add(String.format("| (the same, the chat's file touched before each prompt) | | %.1f | |",
                            changed));
                }
            }
        }
        System.out.println();
        report.forEach(System.out::println);
    }

    /**
     * Waits until the vector journals are folded into the collection's index.json (FileVectorStore does it in the
     * background after a large insert, writing every vector as JSON): the warm prompts are timed after it, not beside it.
     */
    private static void awaitFolded(Path vectors) throws Exception {
        for (int waited = 0; waited < 300; waited++) {
            try (var files = Files.walk(vectors)) {
                if (files.noneMatch(file -> file.getFileName().toString().startsWith("journal."))) {
                    return;
                }
            }
            Thread.sleep(1000);
        }
        throw new IllegalStateException("The vector journal was not folded in 5 minutes");
    }

    /** The user's settings: chat or text completion, with or without the lorebook and summary, and vectors. */
    private static String settings(boolean text, boolean lore, boolean vectors) {
        ObjectNode settings = JsJson.object();
        settings.put("main_api", text ? "textgenerationwebui" : "openai");
        settings.put("username", "Wren").put("user_avatar", "user.png");
        settings.put("max_context", 8192).put("amount_gen", 300);
        ObjectNode powerUser = settings.putObject("power_user");
        ObjectNode instruct = powerUser.putObject("instruct");
        instruct.put("enabled", text).put("input_sequence", "<|im_start|>user").put("output_sequence",
                "<|im_start|>assistant").put("system_sequence", "<|im_start|>system").put("stop_sequence", "<|im_end|>")
                .put("input_suffix", "<|im_end|>\n").put("output_suffix", "<|im_end|>\n")
                .put("system_suffix", "<|im_end|>\n").put("wrap", true).put("macro", true).put("names_behavior", "force");
        powerUser.putObject("context").put("story_string",
                "{{#if system}}{{system}}\n{{/if}}{{#if wiBefore}}{{wiBefore}}\n{{/if}}{{#if description}}{{description}}\n{{/if}}"
                        + "{{#if scenario}}Scenario: {{scenario}}\n{{/if}}{{#if wiAfter}}{{wiAfter}}\n{{/if}}")
                .put("chat_start", "***").put("example_separator", "***");
        powerUser.put("tokenizer", 3);
        ObjectNode oai = settings.putObject("oai_settings");
        oai.put("chat_completion_source", "openai").put("openai_model", "gpt-4o").put("openai_max_context", 8192)
                .put("openai_max_tokens", 300);
        settings.putObject("textgenerationwebui_settings").put("type", "llamacpp")
                .putObject("server_urls").put("llamacpp", "http://127.0.0.1:8080");
        ObjectNode world = settings.putObject("world_info_settings");
        world.put("world_info_depth", 4).put("world_info_budget", 25).put("world_info_recursive", true);
        ArrayNode selected = world.putObject("world_info").putArray("globalSelect");
        if (lore) {
            selected.add("Lore");
        }
        ObjectNode extensions = settings.putObject("extension_settings");
        extensions.putObject("memory").put("source", "main").put("position", 0);
        extensions.putObject("vectors").put("enabled_chats", vectors).put("source", "transformers");
        return JsJson.compact(settings);
    }

    private static byte[] card() throws Exception {
        ObjectNode card = JsJson.object();
        card.put("spec", "chara_card_v2").put("spec_version", "2.0");
        ObjectNode data = card.putObject("data");
        data.put("name", "Bench").put("description", "A keeper of bees by the river, {{char}} talks of the weather.")
                .put("personality", "calm").put("scenario", "The tavern by the gate.")
                .put("first_mes", "Welcome in.").put("mes_example", "<START>\n{{user}}: Hello\n{{char}}: Mind the bees.");
        return tankard.testing.Fixtures.card(JsJson.compact(card));
    }

    /** A lorebook whose entries each wait for a keyword of two of the bench's words. */
    private static ObjectNode book(int entries) {
        Random random = new Random(7);
        ObjectNode book = JsJson.object();
        ObjectNode all = book.putObject("entries");
        for (int i = 0; i < entries; i++) {
            ObjectNode entry = all.putObject(String.valueOf(i));
            entry.put("uid", i);
            entry.putArray("key").add(WORDS[random.nextInt(WORDS.length)] + " " + WORDS[random.nextInt(WORDS.length)]);
            entry.putArray("keysecondary");
            entry.put("content", "Lore " + i + ": the " + WORDS[random.nextInt(WORDS.length)] + " of the "
                    + WORDS[random.nextInt(WORDS.length)] + " is kept by the river.");
            entry.put("constant", i % 100 == 0).put("selective", false).put("order", i % 200)
                    .put("position", i % 2).put("disable", false).put("probability", 100).put("useProbability", false);
        }
        return book;
    }

    /** N messages of about 300 characters; a summary on the message 1,000 before the end. */
    private static void writeChat(Path file, int messages) throws Exception {
        Random random = new Random(11);
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(("{\"user_name\":\"Wren\",\"character_name\":\"Bench\",\"create_date\":\"2026-01-01@10h00m00s\","
                    + "\"chat_metadata\":{}}").getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < messages; i++) {
                StringBuilder text = new StringBuilder();
                while (text.length() < 300) {
                    text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
                }
                ObjectNode message = JsJson.object();
                boolean user = i % 2 == 1;
                message.put("name", user ? "Wren" : "Bench").put("is_user", user).put("is_system", false)
                        .put("send_date", "2026-01-01T10:00:00.000Z").put("mes", text.toString().strip() + " (" + i + ")");
                ObjectNode extra = message.putObject("extra");
                if (i == messages - 1000) {
                    extra.put("memory", "The keeper found the map in the cellar and lit the lantern by the gate.");
                }
                out.write('\n');
                out.write(JsJson.compact(message).getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
