package tankard.account;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.PgScratch;
import tankard.testing.TcpRelay;
import tankard.testing.TestServer;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A database that goes away while Tankard runs: data routes answer 503 with JSON, the rest keeps working. */
class DatabaseOutageHttpTest {
    private final PgScratch database = PgScratch.create();
    private final Vertx relayVertx = Vertx.vertx();
    private final TcpRelay relay = new TcpRelay(relayVertx, PgScratch.HOST, PgScratch.PORT);
    private TestServer server;

    @AfterEach
    void cleanUp() {
        if (server != null) {
            server.close();
        }
        relay.close();
        relayVertx.close().await();
        database.close();
    }

    @Test
    void whileTheDatabaseIsGoneDataRoutesAnswer503AndPagesStillLoadAndOnceBackItServesWithoutARestart() throws Exception {
        server = TestServer.startThrough(relay, database, Map.of());
        TestServer.Client client = server.client();
        String rename = new JsonObject().put("handle", "default-user").put("name", "Before").encode();
        assertEquals(204, client.post("/api/users/change-name", rename).statusCode());

        relay.down();
        HttpResponse<Buffer> refused = client.post("/api/users/change-name",
                new JsonObject().put("handle", "default-user").put("name", "During").encode());
        assertEquals(503, refused.statusCode(), refused.bodyAsString());
        assertEquals("The database is not answering; try again in a moment", refused.bodyAsJsonObject().getString("error"));
        assertEquals(200, server.plainClient().get("/").send().await().statusCode());
        assertEquals(503, client.get("/api/users/me").statusCode(), "the account's avatar is in the database");

        relay.up();
        assertEquals(204, client.post("/api/users/change-name",
                new JsonObject().put("handle", "default-user").put("name", "After").encode()).statusCode());
        assertEquals("After", client.get("/api/users/me").bodyAsJsonObject().getString("name"));
    }
}
