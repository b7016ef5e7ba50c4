package tankard.backend.openai;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.ServerTest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The user-given URLs of {@code /api/openai/*} under ST's private-address filter (src/private-request-filter.js). */
class OpenAiPrivateAddressHttpTest extends ServerTest {
    private MockCompletionServer mock;

    @BeforeEach
    void startWithTheFilter() {
        start("privateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['10.99.0.0/16']\n");
        mock = MockCompletionServer.start(server.vertx);
    }

    @AfterEach
    void stopMock() {
        mock.close();
    }

    @Test
    void aCustomServerAtAPrivateAddressIsRefusedAndNeverCalled() {
        HttpResponse<Buffer> caption = client.post("/api/openai/caption-image", "{\"api\":\"custom\",\"server_url\":\""
                + mock.baseUrl() + "\",\"image\":\"data:image/png;base64,AA==\",\"prompt\":\"?\",\"model\":\"m\"}");
        assertEquals(403, caption.statusCode(), caption.bodyAsString());
        assertTrue(caption.bodyAsString().contains("private IP address"), caption.bodyAsString());
        HttpResponse<Buffer> local = client.post("/api/openai/caption-image", "{\"api\":\"koboldcpp\",\"server_url\":\""
                + mock.origin() + "\",\"image\":\"data:image/png;base64,AA==\",\"prompt\":\"?\",\"model\":\"m\"}");
        assertEquals(403, local.statusCode(), local.bodyAsString());
        HttpResponse<Buffer> voice = client.post("/api/openai/custom/generate-voice",
                "{\"provider_endpoint\":\"" + mock.origin() + "/v1/audio/speech\",\"input\":\"Hi\"}");
        assertEquals(403, voice.statusCode(), voice.bodyAsString());
        assertTrue(mock.calls().isEmpty(), mock.calls().toString());
    }
}
