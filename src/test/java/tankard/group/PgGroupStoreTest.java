package tankard.group;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.core.Refusal;
import tankard.json.JsJson;
import tankard.testing.PgScratch;
import tankard.testing.ScratchDatabase;

import java.sql.ResultSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class PgGroupStoreTest extends GroupStoreContract {
    private final ScratchDatabase database = new ScratchDatabase();
    private final PgScratch scratch = database.scratch;

    @Override
    GroupStore open() {
        return new PgGroupStore(database.db);
    }

    @AfterEach
    void cleanUp() {
        database.close();
    }

    @Test
    void aGroupIsStoredAsTheBytesOfStsFileUnderItsFileName() throws Exception {
        open().save("alice", "../x", group("../x", "one"));
        try (var c = scratch.connect(); var s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT name, content FROM groups")) {
            rows.next();
            assertEquals("..x.json", rows.getString(1));
            assertArrayEquals(JsJson.prettyBytes(group("../x", "one")), rows.getBytes(2));
        }
        scratch.execute("INSERT INTO groups VALUES ('alice', 'broken.json', '\\x7b6e6f', 1)");
        assertEquals(1, open().list("alice").size(), "a row that does not parse is skipped, as an unreadable file");
    }

    @Test
    void aSaveCutOffFromTheDatabaseKeepsTheLastAcknowledgedGroup() throws Exception {
        GroupStore store = open();
        store.save("alice", "1", group("1", "before"));
        scratch.terminateConnections();
        try {
            store.save("alice", "1", group("1", "after"));
        } catch (Refusal refusal) {
            assertEquals(Refusal.Kind.UNAVAILABLE, refusal.kind());
            assertEquals("before", open().find("alice", "1").orElseThrow().get("name").asText());
            return;
        }
        assertEquals("after", open().find("alice", "1").orElseThrow().get("name").asText());
    }
}
