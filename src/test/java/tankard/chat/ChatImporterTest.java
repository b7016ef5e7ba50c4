package tankard.chat;

import tankard.store.StripedLocks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tankard.core.Refusal;
import tankard.util.StTime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What HTTP cannot arrange: a clock that stands still, and an upload over the JSON size limit. */
class ChatImporterTest {
    private static final long NOW = 1764550000000L;

    @TempDir
    Path root;

    private Path upload(String content) throws IOException {
        return Files.writeString(root.resolve("upload"), content);
    }

    @Test
    void chatsOfOneMillisecondGetSuccessiveTimesAndNeverReplaceAChat() throws IOException {
        ChatImporter importer = new ChatImporter(new FileChatStore(root), new StripedLocks(16), () -> NOW);
        Path chats = root.resolve("default-user/chats/Bramble");
        Files.createDirectories(chats);
        String taken = "Bramble - " + StTime.humanized(NOW) + " imported.jsonl";
        Files.writeString(chats.resolve(taken), "an earlier import");

        List<String> names = importer.importChat("default-user", new ChatImporter.Upload(
                upload("{\"histories\":{\"histories\":[{\"msgs\":[]},{\"msgs\":[]}]}}"), "json", "Bramble.png", "Bramble", "Wren"));

        assertEquals(List.of("Bramble - " + StTime.humanized(NOW + 1) + " imported.jsonl",
                "Bramble - " + StTime.humanized(NOW + 2) + " imported.jsonl"), names);
        assertEquals("an earlier import", Files.readString(chats.resolve(taken)));
    }

    @Test
    void aJsonUploadOverTheLimitIsRefusedUnread() throws IOException {
        ChatImporter importer = new ChatImporter(new FileChatStore(root), new StripedLocks(16), () -> NOW, 16);
        Refusal error = assertThrows(Refusal.class, () -> importer.importChat("default-user", new ChatImporter.Upload(
                upload("{\"messages\":[{\"msg\":\"hello\"}]}"), "json", "Bramble.png", "Bramble", "Wren")));
        assertEquals(Refusal.Kind.TOO_LARGE, error.kind());
        assertFalse(Files.exists(root.resolve("default-user/chats/Bramble")));
    }
}
