package tankard.chat;

import tankard.store.MemoryTicketStore;
import tankard.store.StripedLocks;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.config.TankardConfig;
import tankard.testing.TestServer;

import java.io.ByteArrayInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A disk that fills up in the middle of a save: the old chat stays as it was and nothing is left behind. */
class ChatSaveFailureTest {
    private final Path root = TestServer.tempDir();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    /** Bytes a draft may take before the "disk" is full; negative: no limit. */
    private long space = -1;

    @AfterEach
    void cleanUp() {
        timer.shutdownNow();
        TestServer.deleteTree(root);
    }

    /** The real store, whose drafts fail with ENOSPC once {@link #space} bytes are written. */
    private ChatStore store() {
        ChatStore real = new FileChatStore(root);
        return (ChatStore) Proxy.newProxyInstance(ChatStore.class.getClassLoader(), new Class<?>[]{ChatStore.class},
                (proxy, method, args) -> {
                    try {
                        Object result = method.invoke(real, args);
                        return result instanceof ChatStore.Draft draft ? filling(draft) : result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private ChatStore.Draft filling(ChatStore.Draft draft) {
        long[] written = {0};
        OutputStream out = new FilterOutputStream(draft.out()) {
            @Override
            public void write(int b) throws IOException {
                write(new byte[]{(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                written[0] += len;
                if (space >= 0 && written[0] > space) {
                    throw new IOException("No space left on device");
                }
                out.write(b, off, len);
            }
        };
        return (ChatStore.Draft) Proxy.newProxyInstance(ChatStore.Draft.class.getClassLoader(), new Class<?>[]{ChatStore.Draft.class},
                (proxy, method, args) -> method.getName().equals("out") ? out : method.invoke(draft, args));
    }

    private static InputStream body(int messages) {
        StringBuilder chat = new StringBuilder("{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\",\"chat\":[{\"chat_metadata\":{}}");
        for (int i = 0; i < messages; i++) {
            chat.append(",{\"name\":\"N\",\"mes\":\"message ").append(i).append("\"}");
        }
        return new ByteArrayInputStream(chat.append("]}").toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aFullDiskMidSaveLeavesTheOldChat() throws IOException {
        ChatService chats = new ChatService(new TankardConfig.Backups(false, 50, true, true, -1, 0), store(),
                new ChatLocks(new StripedLocks(64)), new MemoryTicketStore(System::currentTimeMillis), timer,
                System::currentTimeMillis);
        chats.save("default-user", body(10));
        Path file = root.resolve("default-user/chats/Bramble/c.jsonl");
        byte[] before = Files.readAllBytes(file);

        space = 2 << 20;
        assertThrows(IOException.class, () -> chats.save("default-user", body(200_000)));
        assertArrayEquals(before, Files.readAllBytes(file));
        try (Stream<Path> files = Files.list(file.getParent().getParent())) {
            assertEquals(List.of("Bramble"), files.map(p -> p.getFileName().toString()).toList(), "no draft left");
        }
        space = -1;
        chats.save("default-user", body(200_000));
        assertEquals(200_001, Files.readAllLines(file).size());
    }
}
