package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/minimax/generate-voice} against a mock of MiniMax's t2a_v2 (ST: src/endpoints/minimax.js). */
class MiniMaxSpeechHttpTest extends PublicHostsMockTest {
    private static final String T2A = MINIMAX + "/v1/t2a_v2";

    private void secrets() {
        client.post("/api/secrets/write", "{\"key\":\"api_key_minimax\",\"value\":\"mm-key\"}");
        client.post("/api/secrets/write", "{\"key\":\"minimax_group_id\",\"value\":\"group 1&x\"}");
    }

    @Test
    void hexAudioComesBackAsBytesOfTheFormatsType() {
        secrets();
        mock.route(T2A, request -> json(request, 200, "{\"data\":{\"audio\":\"0x49 4433ff\"},\"base_resp\":{\"status_code\":0}}"));
        HttpResponse<Buffer> r = client.post("/api/minimax/generate-voice",
                "{\"text\":\"Hello\",\"voiceId\":\"male-qn-qingse\",\"speed\":\"1.5\",\"format\":\"wav\",\"language\":\"English\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/wav", r.getHeader("Content-Type"));
        assertArrayEquals(new byte[] {0x49, 0x44, 0x33, (byte) 0xff}, r.body().getBytes());
        MockCompletionServer.Call call = mock.lastCall(T2A);
        assertEquals("GroupId=group%201%26x", call.query());
        assertEquals("Bearer mm-key", call.headers().get("Authorization"));
        assertEquals("SillyTavern-TTS", call.headers().get("MM-API-Source"));
        JsonNode sent = call.json();
        assertEquals("{\"model\":\"speech-02-hd\",\"text\":\"Hello\",\"stream\":false,\"voice_setting\":{\"voice_id\":"
                + "\"male-qn-qingse\",\"speed\":1.5,\"vol\":1,\"pitch\":1},\"audio_setting\":{\"sample_rate\":32000,"
                + "\"bitrate\":128000,\"format\":\"wav\",\"channel\":1},\"lang\":\"English\"}", call.body());
        assertEquals("English", sent.get("lang").asText());
    }

    @Test
    void audioGivenAsAUrlIsFetched() {
        secrets();
        mock.route(T2A, request -> json(request, 200, "{\"data\":{\"url\":\"" + mock.origin() + "/cdn/a.mp3\"},"
                + "\"base_resp\":{\"status_code\":0}}"));
        mock.route("/cdn/a.mp3", request -> request.response().end(Buffer.buffer(new byte[] {'I', 'D', '3'})));
        HttpResponse<Buffer> r = client.post("/api/minimax/generate-voice", "{\"text\":\"Hi\",\"voiceId\":\"v\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/mpeg", r.getHeader("Content-Type"));
        assertEquals("ID3", r.bodyAsString());
        assertEquals("GET", mock.lastCall("/cdn/a.mp3").method());
    }

    @Test
    void miniMaxErrorsAre500InStsWords() {
        secrets();
        mock.route(T2A, request -> json(request, 200, "{\"base_resp\":{\"status_code\":1004,\"status_msg\":\"login fail\"}}"));
        HttpResponse<Buffer> auth = client.post("/api/minimax/generate-voice", "{\"text\":\"Hi\",\"voiceId\":\"v\"}");
        assertEquals(500, auth.statusCode());
        assertEquals("{\"error\":\"Authentication failed - Please check your API key and API host\"}", auth.bodyAsString());
        mock.route(T2A, request -> json(request, 429, "{\"base_resp\":{\"status_code\":1002,\"status_msg\":\"rate limit\"}}"));
        HttpResponse<Buffer> limit = client.post("/api/minimax/generate-voice", "{\"text\":\"Hi\",\"voiceId\":\"v\"}");
        assertEquals(500, limit.statusCode());
        assertEquals("{\"error\":\"API Error: rate limit\"}", limit.bodyAsString());
    }

    @Test
    void missingFieldsOrSecretsAre400AndABadHostIsRefused() {
        HttpResponse<Buffer> none = client.post("/api/minimax/generate-voice", "{\"text\":\"Hi\",\"voiceId\":\"v\"}");
        assertEquals(400, none.statusCode());
        assertTrue(none.bodyAsString().contains("groupId"), none.bodyAsString());
        secrets();
        assertEquals(400, client.post("/api/minimax/generate-voice", "{\"voiceId\":\"v\"}").statusCode());
        HttpResponse<Buffer> host = client.post("/api/minimax/generate-voice",
                "{\"text\":\"Hi\",\"voiceId\":\"v\",\"apiHost\":\"file:///etc\"}");
        assertEquals(400, host.statusCode());
        assertTrue(host.bodyAsString().contains("apiHost"), host.bodyAsString());
        assertTrue(mock.calls().isEmpty());
    }
}
