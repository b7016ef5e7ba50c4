package tankard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import tankard.config.TankardConfig;
import tankard.json.JsJson;
import tankard.testing.PgScratch;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two Tankard nodes, each in a process of its own, on one PostgreSQL database: node A is killed with SIGKILL while
 * writers on both save chats, B goes on serving, then every connection B has to the database is cut while its
 * writers go on. Every chat holds its writer's last acknowledged state (or the one under way), whole, as both B and a
 * restarted A read it, and B's writers got acknowledged writes after the cut with no restart.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class NodeCrashTest {
    private static final int WRITERS = 3;
    private static final String PADDING = "Rain drummed on the inn's shutters all night. ".repeat(30);

    @Test
    void aKilledNodeLosesNoAcknowledgedSaveAndTheOtherRidesOutACutDatabase(@TempDir Path work) throws Exception {
        try (PgScratch database = PgScratch.create()) {
            Path a = node(work.resolve("a"), database.settings());
            Path b = node(work.resolve("b"), database.settings());
            CrashSafetyTest.Progress[] onA = progress();
            CrashSafetyTest.Progress[] onB = progress();
            BenchServer nodeA = BenchServer.tankard(a);
            try (BenchServer nodeB = BenchServer.tankard(b)) {
                AtomicBoolean stop = new AtomicBoolean();
                ExecutorService writers = Executors.newFixedThreadPool(2 * WRITERS);
                for (int w = 0; w < WRITERS; w++) {
                    int writer = w;
                    writers.execute(() -> write(nodeA, "a" + writer, onA[writer], stop, false));
                    writers.execute(() -> write(nodeB, "b" + writer, onB[writer], stop, true));
                }
                Thread.sleep(1500);
                nodeA.kill();
                int beforeCut = acknowledged(onB);
                Thread.sleep(1000);
                assertTrue(acknowledged(onB) > beforeCut, "B went on serving after A was killed");
                database.terminateConnections();
                int atCut = acknowledged(onB);
                Thread.sleep(2000);
                stop.set(true);
                writers.shutdown();
                assertTrue(writers.awaitTermination(60, TimeUnit.SECONDS));
                assertTrue(acknowledged(onB) > atCut, "B's writers got writes acknowledged after the cut, with no restart");
                assertTrue(acknowledged(onA) > 0, "A's writers got work done before the kill");
                System.out.println("NodeCrashTest: A acknowledged " + acknowledged(onA) + " saves before the kill; B "
                        + beforeCut + " by then, " + atCut + " at the cut, " + acknowledged(onB) + " in all");
                verify(nodeB, onA, onB);
                try (BenchServer restartedA = BenchServer.tankard(a)) {
                    verify(restartedA, onA, onB);
                }
            }
        }
    }

    private static CrashSafetyTest.Progress[] progress() {
        CrashSafetyTest.Progress[] all = new CrashSafetyTest.Progress[WRITERS];
        for (int w = 0; w < WRITERS; w++) {
            all[w] = new CrashSafetyTest.Progress();
        }
        return all;
    }

    private static int acknowledged(CrashSafetyTest.Progress[] writers) {
        int sum = 0;
        for (CrashSafetyTest.Progress writer : writers) {
            sum += writer.acknowledged;
        }
        return sum;
    }

    /** A node's working folder: the database in its config.yaml, its own data root for what a node keeps. */
    private static Path node(Path work, TankardConfig.Postgres db) throws Exception {
        Files.createDirectories(work.resolve("public"));
        Files.writeString(work.resolve("public/index.html"), "<!doctype html>");
        Files.writeString(work.resolve("config.yaml"), "tankard:\n  storage: postgres\n  postgres:\n    host: "
                + db.host() + "\n    port: " + db.port() + "\n    database: " + db.database() + "\n    user: "
                + db.user() + "\n    password: \"" + db.password() + "\"\n");
        return work;
    }

    /**
     * Saves states 1, 2, 3... of the chat until stopped, recording each acknowledged one; a failed save ends the
     * writer, or with {@code retry} is sent again (a cut connection may fail a save that went through: then the
     * chat holds the state under way).
     */
    private static void write(BenchServer server, String chat, CrashSafetyTest.Progress progress, AtomicBoolean stop, boolean retry) {
        for (int n = 1; !stop.get(); ) {
            progress.sending = n;
            try {
                server.post("/api/chats/save", chat(chat, n));
                progress.acknowledged = n++;
            } catch (Exception failed) {
                if (!retry) {
                    return;
                }
            }
        }
    }

    /** The chat of state n: a header and n messages, padded so that a save takes a while. */
    private static byte[] chat(String name, int n) {
        ObjectNode body = JsJson.object().put("ch_name", "Crash").put("avatar_url", "Crash.png")
                .put("file_name", name).put("force", true);
        ArrayNode chat = body.putArray("chat");
        chat.addObject().put("user_name", "User").put("character_name", "Crash")
                .put("create_date", "2026-12-05@06h00m00s").putObject("chat_metadata");
        for (int i = 1; i <= n; i++) {
            chat.addObject().put("name", i % 2 == 0 ? "User" : "Crash").put("is_user", i % 2 == 0)
                    .put("send_date", "2026-12-05@06h00m00s").put("mes", "message " + i + ". " + PADDING);
        }
        return JsJson.compact(body).getBytes(StandardCharsets.UTF_8);
    }

    /** Every chat holds its writer's acknowledged state or the one under way, each message whole. */
    private static void verify(BenchServer server, CrashSafetyTest.Progress[] onA, CrashSafetyTest.Progress[] onB) throws Exception {
        for (String node : List.of("a", "b")) {
            for (int w = 0; w < WRITERS; w++) {
                CrashSafetyTest.Progress progress = (node.equals("a") ? onA : onB)[w];
                JsonNode chat;
                try (InputStream in = server.open("/api/chats/get",
                        "{\"ch_name\":\"Crash\",\"avatar_url\":\"Crash.png\",\"file_name\":\"" + node + w + "\"}")) {
                    chat = JsJson.parse(in.readAllBytes());
                }
                int messages = chat.size() == 0 ? 0 : chat.size() - 1;
                assertTrue(messages == progress.acknowledged || messages == progress.sending, node + w + " holds state "
                        + messages + ", but " + progress.acknowledged + " was acknowledged and " + progress.sending
                        + " under way");
                for (int i = 1; i <= messages; i++) {
                    assertEquals("message " + i + ". " + PADDING, chat.get(i).path("mes").asText(), node + w + " message " + i);
                }
            }
        }
    }
}
