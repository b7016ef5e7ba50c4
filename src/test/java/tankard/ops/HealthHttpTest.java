package tankard.ops;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tankard.testing.PgScratch;
import tankard.testing.ServerTest;
import tankard.testing.TcpRelay;
import tankard.testing.TestServer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code /health/live} and {@code /health/ready}: for a load balancer, with no login, on both kinds of storage. */
class HealthHttpTest extends ServerTest {
    private final Vertx side = Vertx.vertx();

    @AfterEach
    void closeSide() {
        side.close().await();
    }

    @Test
    void theChecksAnswerBeforeTheWhitelistAndTheLoginAndSayOnlyTheState() {
        server = TestServer.start("enableUserAccounts: true\nwhitelist: [\"10.0.0.0/8\"]\n");
        assertEquals(403, server.plainClient().get("/version").send().await().statusCode(), "the whitelist holds elsewhere");
        HttpResponse<Buffer> live = server.plainClient().get("/health/live").send().await();
        assertEquals(200, live.statusCode());
        assertEquals("{\"status\":\"live\"}", live.bodyAsString());
        assertEquals("no-store", live.getHeader("Cache-Control"));
        HttpResponse<Buffer> ready = server.plainClient().get("/health/ready").send().await();
        assertEquals(200, ready.statusCode());
        assertEquals("{\"status\":\"ready\"}", ready.bodyAsString());
        assertEquals(200, server.plainClient().request(HttpMethod.HEAD, "/health/ready").send().await().statusCode());
    }

    @Test
    void notReadyWhileTheDataRootIsGoneAndReadyOnceItIsBack() throws Exception {
        start(null);
        Path aside = server.workDir.resolve("data-aside");
        Files.move(server.dataRoot, aside);
        HttpResponse<Buffer> gone = server.plainClient().get("/health/ready").send().await();
        assertEquals(503, gone.statusCode());
        assertEquals("{\"status\":\"unavailable\"}", gone.bodyAsString());
        assertEquals(200, server.plainClient().get("/health/live").send().await().statusCode(), "the process still answers");
        Files.move(aside, server.dataRoot);
        assertEquals(200, server.plainClient().get("/health/ready").send().await().statusCode());
    }

    @Test
    void onPostgresNotReadyWhileTheDatabaseDoesNotAnswerAndReadyOnceItDoes() throws Exception {
        try (PgScratch database = PgScratch.create(); TcpRelay relay = new TcpRelay(side, PgScratch.HOST, PgScratch.PORT)) {
            server = TestServer.startThrough(relay, database, Map.of());
            assertEquals(200, server.plainClient().get("/health/ready").send().await().statusCode());

            relay.down();
            HttpResponse<Buffer> down = server.plainClient().get("/health/ready").send().await();
            assertEquals(503, down.statusCode());
            assertEquals("{\"status\":\"unavailable\"}", down.bodyAsString());

            relay.up();
            assertEquals(200, server.plainClient().get("/health/ready").send().await().statusCode());
            server.close();
            server = null;
        }
    }
}
