package tankard.datamaid;

import tankard.store.MemoryTicketStore;
import tankard.store.StripedLocks;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.character.FileCardStore;
import tankard.chat.ChatFiles;
import tankard.chat.ChatLocks;
import tankard.chat.FileChatStore;
import tankard.json.JsJson;
import tankard.store.DocumentStore.Folder;
import tankard.store.FileBlobStore;
import tankard.group.FileGroupStore;
import tankard.testing.PgDocuments;
import tankard.testing.TestServer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Data Maid with the documents on PostgreSQL: the user's settings snapshots are reported, viewed and deleted. */
class DataMaidPgTest {
    private final PgDocuments pg = new PgDocuments();
    private final Path root = TestServer.tempDir();
    private final FileChatStore chats = new FileChatStore(root);
    private final DataMaid maid = new DataMaid(chats,
            new ChatFiles(chats, new ChatLocks(new StripedLocks(64)), System::currentTimeMillis),
            new FileGroupStore(root), pg.store, new FileCardStore(root),
            new FileBlobStore(root, path -> true), new MemoryTicketStore(System::currentTimeMillis), root);

    @AfterEach
    void cleanUp() {
        pg.close();
        TestServer.deleteTree(root);
    }

    @Test
    void settingsSnapshotsAreReportedViewedAndDeleted() throws Exception {
        byte[] snapshot = "{\"a\":1}".getBytes(StandardCharsets.UTF_8);
        pg.store.write("alice", Folder.BACKUPS, "settings_alice_20240101-000000.json", snapshot);
        pg.store.write("alice", Folder.BACKUPS, "settings_bob_20240101-000000.json", snapshot);

        ObjectNode answer = maid.report("alice");
        JsonNode found = answer.path("report").path("settingsBackups");
        assertEquals(1, found.size(), found.toString());
        assertEquals("settings_alice_20240101-000000.json", found.path(0).path("name").asText());
        assertEquals(snapshot.length, found.path(0).path("size").asInt());
        String token = answer.path("token").asText();
        String hash = found.path(0).path("hash").asText();

        ByteArrayOutputStream viewed = new ByteArrayOutputStream();
        maid.view(token, hash, "alice").content().writeTo(viewed);
        assertEquals("{\"a\":1}", viewed.toString(StandardCharsets.UTF_8));

        maid.delete(TextNode.valueOf(token), JsJson.array().add(hash), "alice");
        assertEquals(List.of("settings_bob_20240101-000000.json"),
                pg.store.list("alice", Folder.BACKUPS).stream().map(e -> e.name()).toList());
    }
}
