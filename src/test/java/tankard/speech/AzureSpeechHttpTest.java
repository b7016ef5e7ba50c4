package tankard.speech;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/azure/list} and {@code /generate} against a mock of Azure's speech service (ST: src/endpoints/azure.js). */
class AzureSpeechHttpTest extends PublicHostsMockTest {
    private static final String AZURE = "/azure-westeurope/cognitiveservices";

    private void key() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_azure_tts\",\"value\":\"azure-key\"}");
    }

    @Test
    void theVoicesOfTheRegionComeWithTheKey() {
        key();
        mock.route(AZURE + "/voices/list", request -> request.response().putHeader("Content-Type", "application/json")
                .end("[{\"ShortName\":\"en-US-JennyNeural\",\"Locale\":\"en-US\"}]"));
        HttpResponse<Buffer> r = client.post("/api/azure/list", "{\"region\":\"westeurope\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("[{\"ShortName\":\"en-US-JennyNeural\",\"Locale\":\"en-US\"}]", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(AZURE + "/voices/list");
        assertEquals("GET", call.method());
        assertEquals("azure-key", call.headers().get("Ocp-Apim-Subscription-Key"));
    }

    @Test
    void speechIsSsmlOutAndOggIn() {
        key();
        byte[] audio = {'O', 'g', 'g', 'S', 1, 2, 3};
        mock.route(AZURE + "/v1", request -> request.response().putHeader("Content-Type", "audio/webm").end(Buffer.buffer(audio)));
        HttpResponse<Buffer> r = client.post("/api/azure/generate",
                "{\"text\":\"Tea & <cake>\",\"voice\":\"en-GB-SoniaNeural\",\"region\":\"westeurope\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/ogg", r.getHeader("Content-Type"));
        assertArrayEquals(audio, r.body().getBytes());
        MockCompletionServer.Call call = mock.lastCall(AZURE + "/v1");
        assertEquals("<speak version='1.0' xmlns='http://www.w3.org/2001/10/synthesis' xml:lang='en-GB'><voice xml:lang='en-GB' "
                + "name='en-GB-SoniaNeural'>Tea &amp; &lt;cake&gt;</voice></speak>", call.body());
        assertEquals("application/ssml+xml", call.headers().get("Content-Type"));
        assertEquals("webm-24khz-16bit-mono-opus", call.headers().get("X-Microsoft-OutputFormat"));
        assertEquals("azure-key", call.headers().get("Ocp-Apim-Subscription-Key"));
    }

    @Test
    void withoutAKeyItIs403AndBadFieldsAre400WithNoCall() {
        assertEquals(403, client.post("/api/azure/list", "{\"region\":\"westeurope\"}").statusCode());
        key();
        assertEquals(400, client.post("/api/azure/list", "{}").statusCode());
        HttpResponse<Buffer> host = client.post("/api/azure/list", "{\"region\":\"evil.example/x?\"}");
        assertEquals(400, host.statusCode());
        assertTrue(host.bodyAsString().contains("region"));
        assertEquals(400, client.post("/api/azure/generate", "{\"text\":\"Hi\",\"region\":\"westeurope\"}").statusCode());
        assertTrue(mock.calls().isEmpty());
    }

    @Test
    void anAzureErrorIsA500ThatSaysSo() {
        key();
        mock.route(AZURE + "/v1", request -> request.response().setStatusCode(401).end("Unauthorized"));
        HttpResponse<Buffer> r = client.post("/api/azure/generate", "{\"text\":\"Hi\",\"voice\":\"en-US-X\",\"region\":\"westeurope\"}");
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("Azure TTS answered 401"), r.bodyAsString());
    }
}
