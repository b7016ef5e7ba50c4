package tankard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tankard.json.JsJson;
import tankard.store.AtomicFiles;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tankard in a process of its own, killed with SIGKILL at random moments while writers save chats and edit cards,
 * then restarted: every chat and card is whole and holds the last acknowledged state (or the write that was under
 * way when the kill came), and the temp files the kills left are gone once the restarted server has swept them.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class CrashSafetyTest {
    private static final int WRITERS = 4;
    private static final int KILLS = 8;
    private static final String PADDING = "The lantern swung over the wet cobbles. ".repeat(40);

    /** What a writer had acknowledged, and what it was sending when the server went (or it last failed). */
    static final class Progress {
        volatile int acknowledged;
        volatile int sending;
    }

    @Test
    void killedMidWriteEveryChatAndCardHoldsAnAcknowledgedStateAndNoTempFileStays(@TempDir Path work) throws Exception {
        Progress[] chats = new Progress[WRITERS];
        Progress[] cards = new Progress[WRITERS];
        for (int w = 0; w < WRITERS; w++) {
            chats[w] = new Progress();
            cards[w] = new Progress();
        }
        try (BenchServer first = BenchServer.tankard(work)) {
            for (int w = 0; w < WRITERS; w++) {
                try (InputStream created = first.open("/api/characters/create", "{\"ch_name\":\"Crash" + w + "\"}")) {
                    assertEquals("Crash" + w + ".png", new String(created.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
        Random random = new Random(42);
        int killLeftovers = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            killLeftovers += temps(work.resolve("data")).size();
            plantLeftovers(work.resolve("data/default-user"), kill);
            BenchServer server = BenchServer.tankard(work);
            verify(server, chats, cards);
            awaitNoTempFiles(work.resolve("data"));
            assertTrue(Files.exists(work.resolve("data/default-user/characters/Crash0.png.12345" + kill)),
                    "ST's temp file is not Tankard's to delete");
            ExecutorService writers = Executors.newFixedThreadPool(WRITERS * 2);
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.execute(() -> write(chats[writer], n -> server.post("/api/chats/save", chat(writer, n))));
                writers.execute(() -> write(cards[writer], n -> server.post("/api/characters/merge-attributes",
                        "{\"avatar\":\"Crash" + writer + ".png\",\"description\":\"edit " + n + "\","
                                + "\"data\":{\"description\":\"edit " + n + "\"}}")));
            }
            Thread.sleep(300 + random.nextInt(1200));
            server.kill();
            writers.shutdown();
            assertTrue(writers.awaitTermination(60, TimeUnit.SECONDS));
        }
        killLeftovers += temps(work.resolve("data")).size();
        try (BenchServer last = BenchServer.tankard(work)) {
            verify(last, chats, cards);
            awaitNoTempFiles(work.resolve("data"));
        }
        int saves = 0;
        for (int w = 0; w < WRITERS; w++) {
            saves += chats[w].acknowledged + cards[w].acknowledged;
        }
        assertTrue(saves > KILLS * WRITERS, "the writers got work done between the kills: " + saves);
        System.out.println("CrashSafetyTest: " + KILLS + " kills, " + saves + " acknowledged writes, "
                + killLeftovers + " temp files left by the kills (and " + 2 * KILLS + " planted), all swept at start-up");
    }

    @FunctionalInterface
    private interface Write {
        void send(int n) throws Exception;
    }

    /** Writes states 1, 2, 3... one after another until the server goes; each acknowledged one is recorded. */
    private static void write(Progress progress, Write write) {
        for (int n = progress.acknowledged + 1; ; n++) {
            progress.sending = n;
            try {
                write.send(n);
            } catch (Exception killed) {
                return;
            }
            progress.acknowledged = n;
        }
    }

    /** The chat of state n: a header and n messages, padded so that a save takes a while. */
    private static byte[] chat(int writer, int n) {
        ObjectNode body = JsJson.object().put("ch_name", "Crash" + writer).put("avatar_url", "Crash" + writer + ".png")
                .put("file_name", "chat" + writer).put("force", true);
        ArrayNode chat = body.putArray("chat");
        chat.addObject().put("user_name", "User").put("character_name", "Crash" + writer)
                .put("create_date", "2026-12-02@06h00m00s").putObject("chat_metadata");
        for (int i = 1; i <= n; i++) {
            chat.addObject().put("name", i % 2 == 0 ? "User" : "Crash" + writer).put("is_user", i % 2 == 0)
                    .put("send_date", "2026-12-02@06h00m00s").put("mes", "message " + i + ". " + PADDING);
        }
        return JsJson.compact(body).getBytes(StandardCharsets.UTF_8);
    }

    /** Every chat and card holds its writer's acknowledged state or the one under way at the kill. */
    private static void verify(BenchServer server, Progress[] chats, Progress[] cards) throws Exception {
        for (int w = 0; w < WRITERS; w++) {
            JsonNode chat;
            try (InputStream in = server.open("/api/chats/get",
                    "{\"ch_name\":\"Crash" + w + "\",\"avatar_url\":\"Crash" + w + ".png\",\"file_name\":\"chat" + w + "\"}")) {
                chat = JsJson.parse(in.readAllBytes());
            }
            int messages = chat.size() == 0 ? 0 : chat.size() - 1;
            assertState("chat" + w, messages, chats[w]);
            for (int i = 1; i <= messages; i++) {
                assertTrue(chat.get(i).path("mes").asText().startsWith("message " + i + ". "), "chat" + w + " message " + i);
            }
            chats[w].acknowledged = messages; // the next run goes on from what is there

            JsonNode card;
            try (InputStream in = server.open("/api/characters/get", "{\"avatar_url\":\"Crash" + w + ".png\"}")) {
                card = JsJson.parse(in.readAllBytes());
            }
            String description = card.path("data").path("description").asText();
            int edit = description.isEmpty() ? 0 : Integer.parseInt(description.substring("edit ".length()));
            assertState("card " + w, edit, cards[w]);
            assertEquals(description, card.path("description").asText(), "both copies of the card's fields agree");
            cards[w].acknowledged = edit;
        }
    }

    private static void assertState(String what, int found, Progress progress) {
        assertTrue(found == progress.acknowledged || found == progress.sending, what + " holds state " + found
                + ", but " + progress.acknowledged + " was acknowledged and " + progress.sending + " under way");
    }

    /**
     * Temp files as a kill in the middle of a card and a chat write leaves them, in case the random kills left
     * none, and one of ST's (which start-up must leave alone).
     */
    private static void plantLeftovers(Path user, int run) throws Exception {
        Files.writeString(user.resolve("characters/Crash0.png.tankard-100000000" + run), "half a card");
        Files.createDirectories(user.resolve("chats/Crash1"));
        Files.writeString(user.resolve("chats/Crash1/chat1.jsonl.tankard-200000000" + run), "half a chat");
        Files.writeString(user.resolve("characters/Crash0.png.12345" + run), "ST's half card");
    }

    /** Waits for the start-up sweep to have removed every temp file. */
    private static void awaitNoTempFiles(Path data) throws Exception {
        for (int i = 0; i < 200; i++) {
            if (temps(data).isEmpty()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("temp files left after the start-up sweep: " + temps(data));
    }

    private static List<Path> temps(Path data) throws Exception {
        try (Stream<Path> walk = Files.walk(data)) {
            return new ArrayList<>(walk.filter(p -> AtomicFiles.isOwnTemp(p.getFileName().toString())).toList());
        }
    }
}
