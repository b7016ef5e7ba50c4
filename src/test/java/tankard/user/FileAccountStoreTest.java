package tankard.user;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.TestServer;
import tankard.util.Hashes;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FileAccountStoreTest extends AccountStoreContract {
    private final Path dir = TestServer.tempDir();

    @Override
    AccountStore open() {
        return new FileAccountStore(dir.resolve("_storage"));
    }

    @Test
    void anAccountIsWrittenAsStsNodePersistEntry() throws Exception {
        open().save(new User("alice", "Alice", 5, "p", "s", true, true));
        assertEquals("{\"key\":\"user:alice\",\"value\":{\"handle\":\"alice\",\"name\":\"Alice\",\"created\":5,"
                + "\"password\":\"p\",\"salt\":\"s\",\"admin\":true,\"enabled\":true}}",
                Files.readString(dir.resolve("_storage").resolve(Hashes.sha256Hex("user:alice"))));
    }

    @AfterEach
    void cleanUp() {
        TestServer.deleteTree(dir);
    }
}
