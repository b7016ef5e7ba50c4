package tankard.chat;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.PgScratch;
import tankard.testing.TestServer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two Tankard nodes on one database, a tab on each: a save on node B from a view older than node A's save is
 * refused with ST's integrity error and leaves A's chat intact, however B had the chat at hand.
 */
class StaleSaveTwoNodesTest {
    private static final String HEADER = "{\"chat_metadata\":{\"integrity\":\"2n\"},\"user_name\":\"unused\"}";
    private static final String GREETING = "{\"name\":\"Bramble\",\"is_user\":false,\"send_date\":\"2026-12-05T22:00:00.000Z\",\"mes\":\"Hi.\"}";
    private static final String SEEN = HEADER + "," + GREETING;

    private static String user(String text, int second) {
        return "{\"name\":\"You\",\"is_user\":true,\"is_system\":false,\"send_date\":\"2026-12-05T22:01:0" + second
                + ".000Z\",\"mes\":\"" + text + "\"}";
    }

    private static HttpResponse<Buffer> save(TestServer.Client client, String chat, boolean force) {
        return client.post("/api/chats/save", "{\"ch_name\":\"Bramble\",\"file_name\":\"c\",\"avatar_url\":\"Bramble.png\","
                + "\"chat\":[" + chat + "],\"force\":" + force + "}");
    }

    private static String stored(TestServer.Client client) {
        return client.post("/api/chats/get", "{\"avatar_url\":\"Bramble.png\",\"file_name\":\"c\"}").bodyAsString();
    }

    @Test
    void aSaveOnOneNodeFromAViewOlderThanAnotherNodesSaveIsRefused() {
        try (PgScratch database = PgScratch.create();
             TestServer a = TestServer.start("backups:\n  chat:\n    enabled: false\n", database.environment());
             TestServer b = a.secondNode()) {
            TestServer.Client onA = a.client();
            TestServer.Client onB = b.client();
            assertEquals(200, save(onA, SEEN, false).statusCode());
            assertEquals("[" + SEEN + "]", stored(onB), "read on B: B has the chat at hand");

            String fromA = SEEN + "," + user("From node A", 1);
            assertEquals(200, save(onA, fromA, false).statusCode());
            HttpResponse<Buffer> stale = save(onB, SEEN + "," + user("From node B", 2), false);
            assertEquals(400, stale.statusCode());
            assertEquals("{\"error\":\"integrity\"}", stale.bodyAsString());
            assertEquals("[" + fromA + "]", stored(onA), "A's chat is intact");

            String next = fromA + "," + user("From node B, after reading A's", 3);
            assertEquals("[" + fromA + "]", stored(onB));
            assertEquals(200, save(onB, next, false).statusCode(), "B's tab reloaded, then sent");
            assertEquals("[" + next + "]", stored(onA));
        }
    }
}
