package tankard.proxy;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.ConfiguredMockTest;
import tankard.testing.TestServer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /proxy/<url>}, ST's CORS proxy (src/middleware/corsProxy.js), off by default. */
class CorsProxyHttpTest extends ConfiguredMockTest {
    @Test
    void offByDefaultItAnswersA404ThatSaysHowToTurnItOn() {
        startWith(null);
        HttpResponse<Buffer> r = client.get("/proxy/" + mock.baseUrl() + "/models");
        assertEquals(404, r.statusCode());
        assertEquals(CorsProxyFeature.DISABLED, r.bodyAsString());
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void onItForwardsTheRequestWithoutThisServersHeadersAndRelaysTheAnswer() {
        startWith("enableCorsProxy: true\n");
        HttpResponse<Buffer> models = client.get("/proxy/" + mock.baseUrl() + "/models");
        assertEquals(200, models.statusCode());
        assertTrue(models.bodyAsString().contains(MockCompletionServer.MODEL));
        MockCompletionServer.Call call = mock.lastCall("/v1/models");
        assertEquals("GET", call.method());
        assertFalse(call.headers().contains("Cookie") || call.headers().contains("X-CSRF-Token") || call.headers().contains("Referer"));

        // POST without a CSRF token, as ST exempts the proxy; the JSON body goes as JSON.stringify gives it
        HttpResponse<Buffer> reply = TestServer.Client.send(client.request(HttpMethod.POST, "/proxy/" + mock.baseUrl() + "/chat/completions")
                .putHeader("Content-Type", "application/json").putHeader("X-CSRF-Token", "wrong"),
                Buffer.buffer("{\"model\": \"mock-model\", \"messages\": [{\"role\":\"user\",\"content\":\"Hi\"}]}"));
        assertEquals(200, reply.statusCode(), reply.bodyAsString());
        assertTrue(reply.bodyAsString().contains("Mock reply 1."));
        assertEquals("{\"model\":\"mock-model\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}",
                mock.lastCall("/v1/chat/completions").body());
    }

    @Test
    void itRefusesToCallItself() {
        startWith("enableCorsProxy: true\n");
        HttpResponse<Buffer> circular = client.get("/proxy/" + server.url("/version"));
        assertEquals(400, circular.statusCode());
        assertTrue(circular.bodyAsString().contains("Circular requests are not allowed"));
    }

    @Test
    void withTheFilterOnAPrivateAddressIsNeverCalled() {
        startWith("enableCorsProxy: true\nprivateAddressWhitelist:\n  enabled: true\n  allowedRanges: ['10.99.0.0/16']\n");
        HttpResponse<Buffer> refused = client.get("/proxy/" + mock.baseUrl() + "/models");
        assertTrue(refused.statusCode() >= 400 && refused.statusCode() < 600 && refused.statusCode() != 200, refused.statusCode() + "");
        assertTrue(refused.bodyAsString().contains("Blocked request to private IP address"), refused.bodyAsString());
        assertTrue(mock.calls().isEmpty(), "the mock is never called");
    }
}
