package tankard.horde;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.ServerTest;
import tankard.testing.TestServer;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HordeHttpTest extends ServerTest {
    @BeforeEach
    void start() {
        server = TestServer.start();
    }

    @Test
    void bootProbesAnswerOfflineAndEmpty() {
        TestServer.Client client = server.client();
        assertEquals(new JsonObject().put("ok", false), client.post("/api/horde/status", null).bodyAsJsonObject());
        assertEquals(new JsonArray(), client.post("/api/horde/text-models", "{\"force\":true}").bodyAsJsonArray());
        assertEquals(new JsonArray(), client.post("/api/horde/text-workers", "{\"force\":false}").bodyAsJsonArray());
        assertEquals(new JsonArray(), client.post("/api/horde/sd-models", null).bodyAsJsonArray());
        assertEquals(new JsonObject().put("anonymous", true), client.post("/api/horde/user-info", null).bodyAsJsonObject());
    }

    @Test
    void generationIsUnavailable() {
        TestServer.Client client = server.client();
        assertEquals(503, client.post("/api/horde/generate-text", "{\"prompt\":\"hi\"}").statusCode());
        client.post("/api/secrets/write", "{\"key\":\"api_key_horde\",\"value\":\"0000000000\"}");
        assertEquals(503, client.post("/api/horde/user-info", null).statusCode());
    }
}
