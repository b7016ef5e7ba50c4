package tankard.speech;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.Test;
import tankard.json.JsJson;
import tankard.testing.MockCompletionServer;
import tankard.testing.PublicHostsMockTest;

import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /api/volcengine/generate-voice} against a mock of Volcengine's TTS (ST: src/endpoints/volcengine.js). */
class VolcengineSpeechHttpTest extends PublicHostsMockTest {
    private static final String TTS = VOLCENGINE + "/api/v3/tts/unidirectional";

    private void secrets() {
        client.post("/api/secrets/write", "{\"key\":\"volcengine_app_id\",\"value\":\"app-1\"}");
        client.post("/api/secrets/write", "{\"key\":\"volcengine_access_key\",\"value\":\"access-1\"}");
    }

    private static String line(int code, String audio) {
        return "{\"code\":" + code + ",\"message\":\"\",\"data\":" + (audio == null ? "null"
                : "\"" + Base64.getEncoder().encodeToString(audio.getBytes()) + "\"") + "}\n";
    }

    @Test
    void theLinesAudioIsJoinedIntoOneMp3() {
        secrets();
        mock.route(TTS, request -> request.response().putHeader("Content-Type", "application/json")
                .end(line(0, "ID3ab") + line(0, "cd") + line(20000000, null)));
        HttpResponse<Buffer> r = client.post("/api/volcengine/generate-voice",
                "{\"resource_id\":\"seed-tts-1.0\",\"text\":\"Hello\",\"voice_speaker\":\"zh_female\",\"speed\":\"20\"}");
        assertEquals(200, r.statusCode(), r.bodyAsString());
        assertEquals("audio/mpeg", r.getHeader("Content-Type"));
        assertEquals("ID3abcd", r.bodyAsString());
        MockCompletionServer.Call call = mock.lastCall(TTS);
        assertEquals("app-1", call.headers().get("X-Api-App-Id"));
        assertEquals("access-1", call.headers().get("X-Api-Access-Key"));
        assertEquals("seed-tts-1.0", call.headers().get("X-Api-Resource-Id"));
        JsonNode params = call.json().get("req_params");
        assertEquals("Hello", params.get("text").asText());
        assertEquals("zh_female", params.get("speaker").asText());
        assertEquals("{\"format\":\"mp3\",\"speech_rate\":20}", params.get("audio_params").toString());
        JsonNode additions = JsJson.parse(params.get("additions").asText());
        assertEquals("crosslingual", additions.get("explicit_language").asText());
        assertEquals(true, additions.at("/cache_config/use_cache").asBoolean());
    }

    @Test
    void anErrorLineOrStatusIs500() {
        secrets();
        mock.route(TTS, request -> request.response().end(line(0, "ID3") + "{\"code\":45000001,\"message\":\"bad speaker\"}\n"));
        String body = "{\"resource_id\":\"r\",\"text\":\"Hi\",\"voice_speaker\":\"s\"}";
        HttpResponse<Buffer> r = client.post("/api/volcengine/generate-voice", body);
        assertEquals(500, r.statusCode());
        assertTrue(r.bodyAsString().contains("code 45000001, bad speaker"), r.bodyAsString());
        mock.route(TTS, request -> request.response().setStatusCode(401).setStatusMessage("Unauthorized")
                .putHeader("X-Tt-Logid", "log-9").end());
        HttpResponse<Buffer> status = client.post("/api/volcengine/generate-voice", body);
        assertEquals(500, status.statusCode());
        assertTrue(status.bodyAsString().contains("TTS Generation Failed: Unauthorized (X-Tt-Logid log-9)"),
                status.bodyAsString());
    }

    @Test
    void missingSecretsAre403AndMissingFields400() {
        assertEquals(403, client.post("/api/volcengine/generate-voice",
                "{\"resource_id\":\"r\",\"text\":\"Hi\",\"voice_speaker\":\"s\"}").statusCode());
        secrets();
        assertEquals(400, client.post("/api/volcengine/generate-voice", "{\"resource_id\":\"r\",\"text\":\"Hi\"}").statusCode());
        assertEquals(400, client.post("/api/volcengine/generate-voice",
                "{\"resource_id\":\"r\",\"text\":\"Hi\",\"voice_speaker\":\"s\",\"provider_endpoint\":\"ftp://x\"}").statusCode());
        assertTrue(mock.calls().isEmpty());
    }
}
