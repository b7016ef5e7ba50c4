package tankard.chat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.OpenFiles;
import tankard.testing.TestServer;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

class FileChatStoreTest extends ChatStoreContract {
    private final Path dir = TestServer.tempDir();

    @Override
    ChatStore open() {
        return new FileChatStore(dir);
    }

    @Test
    void theChatsASaveReplacesAreClosedBehindIt() throws Exception {
        ChatStore store = open();
        for (int i = 0; i < 6; i++) {
            try (ChatStore.Draft draft = store.draft("alice")) {
                draft.out().write(chat(50, i));
                draft.commit(SERAPHINA, "c.jsonl");
            }
        }
        assertArrayEquals(chat(50, 5), read(store, "alice", SERAPHINA, "c.jsonl"));
        OpenFiles.awaitNoDeletedUnder(dir);
    }

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(dir);
    }
}
