package tankard.chat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.config.TankardConfig;
import tankard.core.Refusal;
import tankard.store.MemoryTicketStore;
import tankard.store.StripedLocks;
import tankard.testing.TestServer;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Two tabs whose saves are read at once: the second save's body was compared, as it arrived, with the chat before
 * the first save; under the chat's lock it is compared again with the chat as stored, and refused.
 */
class StaleSaveRaceTest {
    private static final String USER = "default-user";
    private final Path root = TestServer.tempDir();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ChatService chats = new ChatService(new TankardConfig.Backups(false, 50, true, true, -1, 0),
            new FileChatStore(root), new ChatLocks(new StripedLocks(64)), new MemoryTicketStore(System::currentTimeMillis),
            timer, System::currentTimeMillis);

    @AfterEach
    void cleanUp() {
        timer.shutdownNow();
        TestServer.deleteTree(root);
    }

    private static String body(String... messages) {
        StringBuilder chat = new StringBuilder("{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\",\"chat\":[{\"chat_metadata\":{}}");
        for (String message : messages) {
            chat.append(",{\"name\":\"").append(message.startsWith("You") ? "You\",\"is_user\":true" : "Bramble\",\"is_user\":false")
                    .append(",\"send_date\":\"").append(message).append("\",\"mes\":\"").append(message).append("\"}");
        }
        return chat.append("]}").toString();
    }

    private static InputStream stream(String body) {
        return new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The body, which runs {@code meanwhile} when it is read past its first 64 KB: after the save began to read the
     * chat's elements beside the stored chat (ChatBody reads a body 64 KB at a time).
     */
    private static InputStream interrupted(String body, Runnable meanwhile) {
        return new FilterInputStream(stream(body)) {
            private long read;

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (read >= 1 << 16 && read < Long.MAX_VALUE) {
                    read = Long.MAX_VALUE;
                    meanwhile.run();
                }
                int n = super.read(b, off, len);
                read += Math.max(n, 0);
                return n;
            }
        };
    }

    @Test
    void aSaveReadBesideTheChatBeforeAnotherTabsSaveIsRefusedAfterIt() throws IOException {
        String greeting = "greeting " + "long ".repeat(30_000); // the body is more than 64 KB
        chats.save(USER, stream(body(greeting, "You 1", "answer 1")));
        String tab1 = body(greeting, "You 1", "answer 1", "You 2 from tab one");
        Refusal refused = assertThrows(Refusal.class, () -> chats.save(USER,
                interrupted(body(greeting, "You 1", "answer 1", "You 2 from tab two"), () -> {
                    try {
                        chats.save(USER, stream(tab1));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                })));
        assertEquals("integrity", refused.getMessage());
        assertEquals("You 2 from tab one", Files.readAllLines(root.resolve(USER + "/chats/Bramble/c.jsonl")).get(4)
                .replaceAll(".*\"mes\":\"([^\"]*)\".*", "$1"));
    }
}
