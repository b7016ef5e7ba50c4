package tankard.character;

import org.junit.jupiter.api.AfterEach;
import tankard.testing.TestServer;

import java.nio.file.Path;

class FileCardStoreTest extends CardStoreContract {
    private final Path root = TestServer.tempDir();

    @Override
    CardStore open() {
        return new FileCardStore(root);
    }

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(root);
    }
}
