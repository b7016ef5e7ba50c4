package tankard.chat;

import org.junit.jupiter.api.AfterEach;
import tankard.testing.TestServer;

import java.nio.file.Path;

class FileChatStoreTest extends ChatStoreContract {
    private final Path dir = TestServer.tempDir();

    @Override
    ChatStore open() {
        return new FileChatStore(dir);
    }

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(dir);
    }
}
